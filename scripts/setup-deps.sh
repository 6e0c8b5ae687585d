#!/usr/bin/env bash
# Install every host package Persona Desktop needs (Debian 12/13). Idempotent: packages
# already present are skipped, apt-get runs only when something is missing.
# Node.js comes from NodeSource and is left alone here.
set -euo pipefail

PACKAGES=(
  # image pipeline: base image, bake, boot
  mmdebstrap        # the guest's Debian tree, no root mount needed
  e2fsprogs         # mke2fs -d (fallback; the guest's own mke2fs is used when it runs)
  fdisk             # sfdisk partitions the raw disk
  qemu-system-x86   # QEMU (KVM when it works, TCG otherwise)
  qemu-utils        # qemu-img create/convert
  packer            # Packer 1.6 with the qemu builder (the bake)
  ca-certificates
  tar
  xz-utils
  # Docker wrapper's noVNC (also handy on the host)
  novnc
  websockify
  # the Docker wrapper built and run in tests: Podman with runc, no Docker engine (tests/runtime/test_podman.py)
  podman
  runc
  # Python
  python3-venv
  python3-pip
  # browsers for app end-to-end tests and profile checks
  firefox-esr
  chromium
  # misc used by scripts and tests
  sqlite3
  curl
  socat
  nginx             # loopback HTTP server with Range for the pull-image tests (not started as a service)
  poppler-utils     # pdftotext/pdftoppm: statement PDFs in tests
  zbar-tools        # zbarimg: an independent decoder reads the boarding passes' BCBP QR codes in tests
  # headless LibreOffice opens every document the layer writes (tests/files/test_work_docs.py and the apps' tests):
  libreoffice-calc   # the home's spreadsheets (expense reports, budget) to PDF and CSV
  libreoffice-writer # the home's .odt/.docx (project briefs, meeting notes, the résumé)
  libreoffice-impress # the home's sprint review decks (.odp) to PDF
  fonts-dejavu-core # DejaVu Sans (+Bold): the Unicode font embedded in statement PDFs
  # statement PDFs' per-character fallbacks for what DejaVu lacks (TrueType, embeddable by reportlab;
  # builds warn without them; the guest needs none, the PDFs embed them)
  fonts-wqy-microhei    # WenQuanYi Micro Hei: Chinese, Japanese kana, Korean Hangul (5 MB)
  fonts-tlwg-garuda-ttf # Garuda (+Bold): Thai (0.4 MB)
  fonts-symbola         # Symbola: monochrome emoji and symbols (3 MB)
  build-essential   # node-gyp compiles better-sqlite3 (no prebuilt binary is reachable)
  # guest control API test (tests/runtime/test_control_api.py): a real X server, bus, AT-SPI and GTK window
  xvfb
  xdotool
  dbus-daemon
  at-spi2-core
  zenity
  python3-pil
  python3-xlib
  python3-pyatspi
  gir1.2-atspi-2.0
  xfconf            # /wallpaper and /setup/change_wallpaper set xfdesktop's backdrop through xfconf-query
  libxfconf-0-3     # (Debian 12's xfconf only recommends its own library)
  x11-xserver-utils # xrandr: the monitors a first backdrop is set for
  python3
  # OSWorld's own harness (desktop-env) in .venv-osworld (scripts/install.sh): its metrics import easyocr and so torch
  # at import time; Debian's CPU builds (about 140 MB to download) instead of PyPI's CUDA wheels (about 4 GB)
  python3-torch
  python3-torchvision
)
# Node.js: NodeSource's package when present (it ships the headers node-gyp needs); on a machine
# without Node, Debian's nodejs (20.x on Debian 13, which matches the guest's) with its headers.
if ! command -v node >/dev/null 2>&1; then
  PACKAGES+=(nodejs npm libnode-dev)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup-deps: all ${#PACKAGES[@]} packages present"
fi
