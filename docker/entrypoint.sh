#!/usr/bin/env bash
# Persona Desktop QEMU wrapper: boots a persona qcow2 through a copy-on-write overlay and
# exposes the desktop (VNC + noVNC), QMP and the guest's web apps.
#
# Image:   $IMAGE, default /image/persona.qcow2 (mounted), else the built-in
#          /opt/persona/persona.qcow2. The image is never written: a new overlay in
#          $OVERLAY_DIR (default /run/persona; mount a volume there to keep it) holds the
#          guest's changes. RESET=0 reuses an existing overlay instead of starting fresh.
# Clock:   $AS_OF (persona's local wall time, YYYY-MM-DDTHH:MM:SS), default: "as_of" from
#          manifest.json or guest.json next to the image; the guest RTC runs in local time.
# Machine: RAM_SIZE (default 4G), CPU_CORES (default 2), KVM=auto|Y|N (auto tries KVM and
#          falls back to TCG when /dev/kvm is missing or the guest kernel shows no sign of
#          life within $KVM_WATCHDOG seconds, default 45).
# Ports:   VNC 5900, noVNC 6080 (http://HOST:6080/vnc.html), QMP 4444 (tcp, one client),
#          guest http 8080 -> guest port 80 (send the app's Host header, e.g.
#          curl -H 'Host: larkspurbank.test' http://127.0.0.1:8080/).
#          All bound to $BIND, default 127.0.0.1. Inside Docker pass -e BIND=0.0.0.0 and
#          publish on the host's loopback: -p 127.0.0.1:6080:6080 -p 127.0.0.1:8080:8080 ...
# Stop:    SIGTERM/SIGINT -> ACPI power button (QMP system_powerdown), wait up to
#          $SHUTDOWN_TIMEOUT seconds (default 120), then QMP quit / kill.
set -uo pipefail

IMAGE="${IMAGE:-}"
if [ -z "$IMAGE" ]; then
  if [ -f /image/persona.qcow2 ]; then IMAGE=/image/persona.qcow2; else IMAGE=/opt/persona/persona.qcow2; fi
fi
OVERLAY_DIR="${OVERLAY_DIR:-/run/persona}"
RAM_SIZE="${RAM_SIZE:-4G}"
CPU_CORES="${CPU_CORES:-2}"
KVM="${KVM:-auto}"
BIND="${BIND:-127.0.0.1}"
VNC_PORT="${VNC_PORT:-5900}"
NOVNC_PORT="${NOVNC_PORT:-6080}"
QMP_PORT="${QMP_PORT:-4444}"
HTTP_PORT="${HTTP_PORT:-8080}"
CTL_PORT="${CTL_PORT:-4445}"        # the wrapper's own QMP, always on 127.0.0.1
SHUTDOWN_TIMEOUT="${SHUTDOWN_TIMEOUT:-120}"
KVM_WATCHDOG="${KVM_WATCHDOG:-45}"
RESET="${RESET:-1}"
NOVNC_WEB="${NOVNC_WEB:-/usr/share/novnc}"

log() { echo "[persona] $*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$IMAGE" ] || die "no image: mount one at /image/persona.qcow2 or set IMAGE"
mkdir -p "$OVERLAY_DIR" || die "cannot create $OVERLAY_DIR"
OVERLAY="$OVERLAY_DIR/overlay.qcow2"
SERIAL="$OVERLAY_DIR/serial.log"

if [ "$RESET" != "0" ] || [ ! -f "$OVERLAY" ]; then
  rm -f "$OVERLAY"
  qemu-img create -q -f qcow2 -b "$(readlink -f "$IMAGE")" -F qcow2 "$OVERLAY" || die "qemu-img create failed"
  log "fresh overlay $OVERLAY over $IMAGE"
else
  log "reusing overlay $OVERLAY"
fi

if [ -z "${AS_OF:-}" ]; then
  for meta in "$(dirname "$IMAGE")/manifest.json" "$(dirname "$IMAGE")/guest.json"; do
    if [ -f "$meta" ]; then
      AS_OF="$(grep -o '"as_of"[[:space:]]*:[[:space:]]*"[^"]*"' "$meta" | head -1 | sed 's/.*"\([^"]*\)"$/\1/')"
      [ -n "$AS_OF" ] && break
    fi
  done
fi
RTC=(-rtc "base=utc,clock=vm")
if [ -n "${AS_OF:-}" ]; then
  AS_OF="${AS_OF:0:19}"
  RTC=(-rtc "base=${AS_OF},clock=vm")
  log "guest clock starts at $AS_OF"
fi

kvm_ok() { [ -e /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; }
case "$KVM" in
  Y|y|1|yes|kvm) ACCEL=kvm ;;
  N|n|0|no|tcg) ACCEL=tcg ;;
  *) if kvm_ok; then ACCEL=kvm; else ACCEL=tcg; fi ;;
esac

QEMU_PID=""
WEB_PID=""
TAIL_PID=""

start_qemu() {
  local accel="$1" accel_args
  if [ "$accel" = kvm ]; then accel_args=(-accel kvm -cpu host); else accel_args=(-accel tcg,thread=multi -cpu max); fi
  : > "$SERIAL"
  log "starting QEMU ($accel, ${CPU_CORES} cpus, ${RAM_SIZE})"
  qemu-system-x86_64 "${accel_args[@]}" -machine pc -smp "$CPU_CORES" -m "$RAM_SIZE" \
    -drive "file=$OVERLAY,if=virtio,format=qcow2,discard=unmap" \
    -netdev "user,id=n0,hostfwd=tcp:${BIND}:${HTTP_PORT}-:80" -device virtio-net-pci,netdev=n0 \
    -usb -device usb-tablet -vga std \
    -display none -vnc "${BIND}:$((VNC_PORT - 5900))" \
    -qmp "tcp:${BIND}:${QMP_PORT},server=on,wait=off" \
    -qmp "tcp:127.0.0.1:${CTL_PORT},server=on,wait=off" \
    -device virtio-serial -chardev "socket,path=$OVERLAY_DIR/qga.sock,server=on,wait=off,id=qga0" \
    -device virtserialport,chardev=qga0,name=org.qemu.guest_agent.0 \
    -serial "file:$SERIAL" "${RTC[@]}" &
  QEMU_PID=$!
}

# Send QMP commands to the wrapper's own monitor; prints the replies.
qmp() {
  local fd reply
  # (the braces keep 2>/dev/null from applying to the whole script, as exec would)
  { exec {fd}<>"/dev/tcp/127.0.0.1/${CTL_PORT}"; } 2>/dev/null || return 1
  read -r -t 5 reply <&"$fd"                      # greeting
  printf '{"execute":"qmp_capabilities"}\n' >&"$fd"
  read -r -t 5 reply <&"$fd"
  local c
  for c in "$@"; do
    printf '{"execute":"%s"}\n' "$c" >&"$fd"
    read -r -t 5 reply <&"$fd" && echo "$reply"
  done
  exec {fd}>&-
}

stopping=0
shutdown_guest() {
  [ "$stopping" = 1 ] && return
  stopping=1
  log "stopping: ACPI power button, waiting up to ${SHUTDOWN_TIMEOUT}s"
  if [ -n "$QEMU_PID" ] && kill -0 "$QEMU_PID" 2>/dev/null; then
    qmp system_powerdown >/dev/null || true
    local waited=0
    while kill -0 "$QEMU_PID" 2>/dev/null && [ "$waited" -lt "$SHUTDOWN_TIMEOUT" ]; do
      sleep 1; waited=$((waited + 1))
    done
    if kill -0 "$QEMU_PID" 2>/dev/null; then
      log "guest did not power off in ${SHUTDOWN_TIMEOUT}s: quitting QEMU"
      qmp quit >/dev/null || true
      sleep 3
      kill -9 "$QEMU_PID" 2>/dev/null || true
    else
      log "guest powered off after ${waited}s"
    fi
  fi
  [ -n "$WEB_PID" ] && kill "$WEB_PID" 2>/dev/null
  [ -n "$TAIL_PID" ] && kill "$TAIL_PID" 2>/dev/null
  wait 2>/dev/null
  exit 0
}
trap shutdown_guest TERM INT

start_qemu "$ACCEL"
if [ "$ACCEL" = kvm ] && [ "$KVM" = auto ]; then
  alive=0
  for _ in $(seq "$KVM_WATCHDOG"); do
    if grep -qE 'Linux version [0-9]|Welcome to|systemd\[1\]' "$SERIAL" 2>/dev/null; then alive=1; break; fi
    kill -0 "$QEMU_PID" 2>/dev/null || break
    sleep 1
  done
  if [ "$alive" = 0 ]; then
    log "KVM guest shows no sign of life after ${KVM_WATCHDOG}s: restarting under TCG"
    kill -9 "$QEMU_PID" 2>/dev/null; wait "$QEMU_PID" 2>/dev/null
    ACCEL=tcg
    start_qemu tcg
  fi
fi

tail -n +1 -F "$SERIAL" 2>/dev/null &
TAIL_PID=$!

if [ "${NOVNC:-1}" != "0" ] && command -v websockify >/dev/null; then
  websockify --web "$NOVNC_WEB" "${BIND}:${NOVNC_PORT}" "127.0.0.1:${VNC_PORT}" >/dev/null 2>&1 &
  WEB_PID=$!
  log "noVNC on http://${BIND}:${NOVNC_PORT}/vnc.html"
fi
log "VNC ${BIND}:${VNC_PORT}  QMP ${BIND}:${QMP_PORT}  http ${BIND}:${HTTP_PORT} -> guest :80"

# Wait for QEMU; `wait` returns early when a trapped signal arrives.
while kill -0 "$QEMU_PID" 2>/dev/null; do
  wait "$QEMU_PID" 2>/dev/null
done
rc=0
wait "$QEMU_PID" 2>/dev/null; rc=$?
log "QEMU exited ($rc)"
[ -n "$WEB_PID" ] && kill "$WEB_PID" 2>/dev/null
[ -n "$TAIL_PID" ] && kill "$TAIL_PID" 2>/dev/null
exit "$rc"
