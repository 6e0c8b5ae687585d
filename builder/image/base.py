"""The base image: Debian 13 (trixie) + Xfce + Firefox ESR + Node.js + the built apps.

``build_base`` makes ``<cache_dir>/base-<hash>.qcow2`` once per recipe: mmdebstrap a root
tree, copy in the guest files (``image/guest/`` mirrored onto ``/``) and the one web site that
serves every app (:mod:`builder.site`), generate its systemd unit, an nginx server block and an
/etc/hosts line per app, write the tree into a
partitioned raw disk with ``mke2fs -d`` (no loop devices, no root mount), install GRUB by
booting that disk once under QEMU with the tree's own kernel (``init=`` a script that runs
``grub-install`` + ``update-grub``), and convert to a zstd-compressed qcow2.
"""

from __future__ import annotations

import fcntl
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Callable, Iterable

from ..apps import App
from ..site import GUEST_DATA_DIR, GUEST_SITE_DIR, SITE_PORT, SiteBuild, hash_tree
from . import qemu as q

Progress = Callable[[str], None]

REPO_ROOT = Path(__file__).resolve().parents[2]
IMAGE_DIR = REPO_ROOT / "image"
PACKAGES_TXT = IMAGE_DIR / "packages.txt"
#: PyPI packages for the guest that Debian lacks (pyautogui for the control API), pinned by hash.
PYTHON_PACKAGES_TXT = IMAGE_DIR / "python-packages.txt"
GUEST_DIR = IMAGE_DIR / "guest"
PACKER_TEMPLATE = IMAGE_DIR / "packer" / "persona.json"

SUITE = "trixie"
MIRROR = os.environ.get("PERSONA_DEBIAN_MIRROR", "http://deb.debian.org/debian")
SECURITY_MIRROR = os.environ.get("PERSONA_DEBIAN_SECURITY_MIRROR", "http://deb.debian.org/debian-security")
#: Virtual size of the guest disk (sparse; the qcow2 stores only used blocks).
DISK_SIZE = 16 * 1024**3
PART_OFFSET = 1024 * 1024
#: Fixed ids keep the filesystem, GRUB config and fstab stable from build to build.
ROOT_UUID = "8d3b6a1e-5c2f-4e7a-9b1d-2f6e0c4a7d15"
ROOT_HASH_SEED = "3f0c9e2a-71b4-4d58-a6e3-9c2d5b8f1a47"
DISK_LABEL_ID = "0x50455253"
SOURCE_DATE_EPOCH = 1735689600  # 2025-01-01T00:00:00Z (systemd never sets the clock before its files)
APP_UID = 901
#: Locales compiled into the base; a persona's guest.json "locale" picks one (bake).
LOCALES = (
    "en_US.UTF-8",
    "en_GB.UTF-8",
    "en_AU.UTF-8",
    "en_CA.UTF-8",
    "en_IE.UTF-8",
    "en_NZ.UTF-8",
    "de_DE.UTF-8",
    "fr_FR.UTF-8",
    "es_ES.UTF-8",
    "it_IT.UTF-8",
    "nl_NL.UTF-8",
    "pt_BR.UTF-8",
)
BASE_HOSTNAME = "persona-desktop"


class BaseImageError(RuntimeError):
    """A step of the base image build failed (the message names the step and its log)."""


def read_packages(path: Path = PACKAGES_TXT) -> list[str]:
    """Package names from ``image/packages.txt`` (comments and blank lines dropped)."""
    out = []
    for line in Path(path).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def base_hash(apps: Iterable[App], source_key: str) -> str:
    """SHA-256 hex of everything the base image is made from.

    Covers ``image/packages.txt``, ``image/python-packages.txt``, every file under ``image/guest/`` (paths, modes, bytes),
    the Packer template, this module (it generates units and configs), each app's metadata
    and ``source_key``, the hash of the site's sources (:func:`builder.site.source_key`), so a
    cache hit needs no npm run at all.
    """
    h = hashlib.sha256()
    h.update(b"persona-base-v2\0")
    for f in (PACKAGES_TXT, PYTHON_PACKAGES_TXT, PACKER_TEMPLATE, Path(__file__)):
        h.update(f.name.encode() + b"\0")
        h.update(f.read_bytes() if f.exists() else b"<missing>")
    hash_tree(GUEST_DIR, h, {"__pycache__"}, label="guest/")
    for a in sorted(apps, key=lambda a: a.name):
        h.update(json.dumps([a.name, a.title, a.domain, a.database]).encode())
    h.update(b"sources\0" + source_key.encode())
    return h.hexdigest()


def base_path(cache_dir: Path, key: str) -> Path:
    """Cache file name of the base image with hash ``key``."""
    return Path(cache_dir) / f"base-{key[:16]}.qcow2"


def _run(
    cmd: list[str],
    log: Path,
    progress: Progress | None = None,
    env: dict | None = None,
    echo: re.Pattern[str] | None = None,
    cwd: Path | None = None,
) -> None:
    """Run ``cmd`` with output appended to ``log``; echo matching lines to ``progress``."""
    with open(log, "ab") as lf:
        lf.write(("\n$ " + " ".join(map(str, cmd)) + "\n").encode())
        lf.flush()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=cwd)
        assert p.stdout is not None
        for raw in p.stdout:
            lf.write(raw)
            if progress and echo:
                line = raw.decode(errors="replace").rstrip()
                if echo.search(line):
                    progress(line)
        rc = p.wait()
    if rc != 0:
        tail = log.read_text(errors="replace").splitlines()[-25:]
        raise BaseImageError(f"{cmd[0]} failed ({rc}), log {log}:\n" + "\n".join(tail))


def _chroot(rootfs: Path, *cmd: str, log: Path) -> None:
    env = dict(
        os.environ,
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
        DEBIAN_FRONTEND="noninteractive",
        SYSTEMD_OFFLINE="1",
        PATH="/usr/sbin:/usr/bin:/sbin:/bin",
    )
    _run(["chroot", str(rootfs), *cmd], log, env=env)


def _mmdebstrap_cmd(packages: list[str], target: str) -> list[str]:
    return [
        "mmdebstrap",
        "--variant=minbase",
        "--mode=root",
        "--include=" + ",".join(packages),
        '--aptopt=Acquire::Retries "3"',
        "--dpkgopt=path-exclude=/usr/share/doc/*",
        "--dpkgopt=path-include=/usr/share/doc/*/copyright",
        "--dpkgopt=path-exclude=/usr/share/man/*",
        "--dpkgopt=path-exclude=/usr/share/info/*",
        "--dpkgopt=path-exclude=/usr/share/locale/*",
        "--dpkgopt=path-include=/usr/share/locale/locale.alias",
        "--dpkgopt=path-include=/usr/share/locale/en*",
        SUITE,
        target,
        f"deb {MIRROR} {SUITE} main",
        f"deb {MIRROR} {SUITE}-updates main",
        f"deb {SECURITY_MIRROR} {SUITE}-security main",
    ]


def rootfs_tarball(cache_dir: Path, packages: list[str], log: Path, progress: Progress) -> Path:
    """The bare Debian tree for ``packages`` as ``<cache_dir>/rootfs-<hash16>.tar``, cached.

    Made by mmdebstrap from trixie, trixie-updates and trixie-security (minbase variant, no Recommends, docs/man pages/most translations
    left out, SOURCE_DATE_EPOCH set), keyed by the package list and the mmdebstrap command,
    so changing guest files or apps does not download and install Debian again.
    Raises :class:`BaseImageError` with the log tail on failure.
    """
    # The mirrors' addresses are not part of the key (the suites are).
    key = hashlib.sha256(
        json.dumps(_mmdebstrap_cmd(sorted(packages), "-")[:-3] + [SUITE, "updates", "security"]).encode()
    ).hexdigest()
    out = Path(cache_dir) / f"rootfs-{key[:16]}.tar"
    if out.exists():
        progress(f"mmdebstrap: cached {out.name}")
        return out
    tmp = out.with_name(out.name + ".tmp.tar")
    tmp.unlink(missing_ok=True)
    progress(f"mmdebstrap {SUITE}: {len(packages)} packages")
    env = dict(os.environ, SOURCE_DATE_EPOCH=str(SOURCE_DATE_EPOCH))
    try:
        _run(_mmdebstrap_cmd(packages, str(tmp)), log, progress, env=env, echo=re.compile(r"^[IEW]: "))
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return out


def extract_rootfs(tarball: Path, rootfs: Path, log: Path) -> None:
    """Unpack a rootfs tarball into the new directory ``rootfs`` (owners, modes, xattrs kept)."""
    rootfs.mkdir(parents=True)
    _run(["tar", "--numeric-owner", "--xattrs", "--xattrs-include=*", "-xpf", str(tarball), "-C", str(rootfs)], log)


# ---------------------------------------------------------------- generated guest config


def site_unit(site: SiteBuild) -> str:
    """The systemd unit ``persona-site.service``: the one Node process serving every app as ``persona-app``.

    It starts only once the persona layer is in (``guest.json`` exists), so the base image,
    which has no app databases, boots cleanly.
    """
    titles = ", ".join(a.title for a in site.apps)
    return f"""# Generated by builder/image/base.py: the one web server of every app ({titles}).
[Unit]
Description=Persona Desktop apps ({len(site.apps)} on one server)
After=network.target
ConditionPathExists=/etc/persona-desktop/guest.json

[Service]
Type=simple
User=persona-app
Group=persona-app
WorkingDirectory={GUEST_SITE_DIR}/{os.path.dirname(site.entry)}
Environment=PORT={SITE_PORT}
Environment=HOSTNAME=127.0.0.1
Environment=PERSONA_DATA_DIR={GUEST_DATA_DIR}
Environment=NODE_ENV=production
Environment=NEXT_TELEMETRY_DISABLED=1
ExecStart=/usr/bin/node {os.path.basename(site.entry)}
Restart=on-failure
RestartSec=2

[Install]
WantedBy=multi-user.target
"""


def app_nginx(a: App) -> str:
    """The nginx server block serving one app under its own host name (its own origin) from the one server."""
    return f"""# Generated by builder/image/base.py: {a.title}.
server {{
    listen 80;
    listen [::]:80;
    server_name {a.domain};
    client_max_body_size 25m;

    location / {{
        proxy_pass http://127.0.0.1:{SITE_PORT};
        proxy_http_version 1.1;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-Host $host;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Real-IP $remote_addr;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_read_timeout 300s;
    }}
}}
"""


def hosts_file(apps: Iterable[App], hostname: str = BASE_HOSTNAME) -> str:
    """/etc/hosts: localhost, the machine name, and ``127.0.0.1 <domain>`` per app."""
    lines = [
        "127.0.0.1\tlocalhost",
        f"127.0.1.1\t{hostname}",
        "::1\t\tlocalhost ip6-localhost ip6-loopback",
        "ff02::1\t\tip6-allnodes",
        "ff02::2\t\tip6-allrouters",
        "",
        "# Persona Desktop apps (each its own origin)",
    ]
    lines += [f"127.0.0.1\t{a.domain}" for a in sorted(apps, key=lambda a: a.name)]
    return "\n".join(lines) + "\n"


def _write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    os.chmod(path, mode)


def install_guest_python(rootfs: Path, log: Path, progress: Progress) -> None:
    """Install ``image/python-packages.txt`` into the guest's ``/usr/local/lib/python3.X/dist-packages``.

    Uses the host's pip (``--require-hashes --no-deps --target``; the packages are pure Python,
    so the host's Python version does not matter). Raises :class:`BaseImageError` when the tree
    has no python3 or pip fails (e.g. PyPI unreachable).
    """
    import sys

    pythons = sorted(rootfs.glob("usr/lib/python3.[0-9]*"))
    if not pythons:
        raise BaseImageError("the guest tree has no /usr/lib/python3.X: is python3 in packages.txt?")
    target = rootfs / "usr/local/lib" / pythons[-1].name / "dist-packages"
    target.mkdir(parents=True, exist_ok=True)
    progress(f"customize: guest Python packages into /{target.relative_to(rootfs)}")
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--no-compile",
            "--require-hashes",
            "--target",
            str(target),
            "-r",
            str(PYTHON_PACKAGES_TXT),
        ],
        log,
    )
    # Byte-compile with the guest's own Python, once: the persona's user cannot write __pycache__ there, so
    # without it every `import pyautogui` would recompile and print pyautogui's SyntaxWarnings into /execute.
    _chroot(rootfs, "python3", "-W", "ignore", "-m", "compileall", "-q", f"/{target.relative_to(rootfs)}", log=log)


def customize(rootfs: Path, site: SiteBuild, key: str, log: Path, progress: Progress) -> None:
    """Turn the bare tree into the base system: guest files, locale, users, services, apps."""
    progress("customize: guest files")
    _run(["cp", "-r", "--preserve=mode", "--no-preserve=ownership", f"{GUEST_DIR}/.", f"{rootfs}/"], log)
    for p in rootfs.rglob("__pycache__"):
        shutil.rmtree(p, ignore_errors=True)

    install_guest_python(rootfs, log, progress)

    _write(rootfs / "etc/hostname", BASE_HOSTNAME + "\n")
    _write(rootfs / "etc/hosts", hosts_file(site.apps))
    # The slirp DNS; the apps themselves resolve through /etc/hosts only.
    resolv = rootfs / "etc/resolv.conf"
    if resolv.is_symlink() or resolv.exists():
        resolv.unlink()
    _write(resolv, "nameserver 10.0.2.3\n")
    _write(
        rootfs / "etc/fstab",
        f"# <file system> <mount point> <type> <options> <dump> <pass>\n"
        f"UUID={ROOT_UUID} / ext4 errors=remount-ro 0 1\n",
    )
    _write(rootfs / "etc/locale.gen", "".join(f"{loc} UTF-8\n" for loc in LOCALES))
    _write(rootfs / "etc/default/locale", "LANG=en_US.UTF-8\n")
    # An empty machine-id: systemd makes one at first boot (the bake writes a derived one).
    _write(rootfs / "etc/machine-id", "", 0o444)

    progress("customize: locale, users, services")
    _chroot(rootfs, "locale-gen", log=log)
    _chroot(rootfs, "systemd-sysusers", log=log)
    _chroot(rootfs, "systemctl", "enable", "systemd-networkd.service", log=log)
    _chroot(rootfs, "systemctl", "set-default", "graphical.target", log=log)
    # No background jobs that would change the disk or the clock behind a task's back.
    for unit in (
        "apt-daily.timer",
        "apt-daily-upgrade.timer",
        "e2scrub_all.timer",
        "fstrim.timer",
        "systemd-timesyncd.service",
        "e2scrub_reap.service",
    ):
        _chroot(rootfs, "systemctl", "mask", unit, log=log)
    for f in ("etc/nginx/sites-enabled/default",):
        (rootfs / f).unlink(missing_ok=True)

    apps = site.apps
    progress(f"customize: the site with {len(apps)} app(s)")
    dest = rootfs / GUEST_SITE_DIR.lstrip("/")
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(site.dir, dest, symlinks=True)
    _run(["chown", "-R", "0:0", str(dest)], log)
    _run(["chmod", "-R", "u+rwX,go+rX,go-w", str(dest)], log)
    _write(rootfs / "etc/systemd/system/persona-site.service", site_unit(site))
    _chroot(rootfs, "systemctl", "enable", "persona-site.service", "persona-warm.service", log=log)
    for a in apps:
        data = rootfs / GUEST_DATA_DIR.lstrip("/") / a.name
        data.mkdir(parents=True, exist_ok=True)
        os.chown(data, APP_UID, APP_UID)
        os.chmod(data, 0o750)
        _write(rootfs / f"etc/nginx/conf.d/persona-app-{a.name}.conf", app_nginx(a))
    meta = {
        "base_hash": key,
        "suite": SUITE,
        "site": {"port": SITE_PORT, "dir": GUEST_SITE_DIR, "entry": site.entry, "unit": "persona-site.service"},
        "apps": [{"name": a.name, "title": a.title, "domain": a.domain, "database": a.database} for a in apps],
    }
    _write(rootfs / "etc/persona-desktop/base.json", json.dumps(meta, indent=2, sort_keys=True) + "\n")
    for junk in ("var/cache/apt/pkgcache.bin", "var/cache/apt/srcpkgcache.bin"):
        (rootfs / junk).unlink(missing_ok=True)
    for d in ("var/lib/apt/lists", "var/cache/apt/archives", "var/log"):
        for p in glob.glob(str(rootfs / d / "*")):
            if os.path.isfile(p) and not p.endswith("lock"):
                os.unlink(p)


# ---------------------------------------------------------------- disk


def _mke2fs_cmd(rootfs: Path) -> list[str]:
    """Run the guest's own mke2fs (trixie, clamps times to SOURCE_DATE_EPOCH) through its
    own dynamic loader; fall back to the host's mke2fs."""
    ld = rootfs / "usr/lib64/ld-linux-x86-64.so.2"
    libdirs = [rootfs / "usr/lib/x86_64-linux-gnu", rootfs / "lib/x86_64-linux-gnu"]
    mk = rootfs / "usr/sbin/mke2fs"
    if ld.exists() and mk.exists():
        cmd = [str(ld), "--library-path", ":".join(map(str, libdirs)), str(mk)]
        if subprocess.run([*cmd, "-V"], capture_output=True).returncode == 0:
            return cmd
    return ["mke2fs"]


def make_disk(rootfs: Path, raw: Path, log: Path, progress: Progress) -> None:
    """Write ``rootfs`` into a new partitioned raw disk ``raw`` (MBR, one bootable Linux
    partition from 1 MiB, ext4 with fixed UUID, label ``persona-root``)."""
    raw.unlink(missing_ok=True)
    with open(raw, "wb") as f:
        f.truncate(DISK_SIZE)
    script = f"label: dos\nlabel-id: {DISK_LABEL_ID}\nunit: sectors\n\nstart=2048, type=83, bootable\n"
    with open(log, "ab") as lf:
        r = subprocess.run(
            ["sfdisk", "--no-reread", "--no-tell-kernel", str(raw)],
            input=script.encode(),
            stdout=lf,
            stderr=subprocess.STDOUT,
        )
    if r.returncode != 0:
        raise BaseImageError(f"sfdisk failed, log {log}")
    size_k = (DISK_SIZE - PART_OFFSET) // 1024
    env = dict(
        os.environ,
        SOURCE_DATE_EPOCH=str(SOURCE_DATE_EPOCH),
        E2FSPROGS_FAKE_TIME=str(SOURCE_DATE_EPOCH),
        MKE2FS_CONFIG=str(rootfs / "etc/mke2fs.conf"),
    )
    progress("disk: mke2fs -d (ext4 from the root tree)")
    _run(
        [
            *_mke2fs_cmd(rootfs),
            "-q",
            "-F",
            "-t",
            "ext4",
            "-L",
            "persona-root",
            "-U",
            ROOT_UUID,
            "-E",
            f"offset={PART_OFFSET},hash_seed={ROOT_HASH_SEED},root_owner=0:0",
            "-d",
            str(rootfs),
            str(raw),
            f"{size_k}k",
        ],
        log,
        env=env,
    )


def install_grub(rootfs: Path, raw: Path, log: Path, progress: Progress, timeout: float = 600) -> None:
    """Boot ``raw`` once with the tree's kernel and ``init=/usr/local/sbin/persona-grub-install``
    so GRUB is installed from inside the guest (``grub-install /dev/vda && update-grub``).

    Under KVM a watchdog falls back to TCG when the kernel prints nothing (hosts where KVM
    hangs guests). Raises :class:`BaseImageError` on failure or timeout.
    """
    kernels = sorted(glob.glob(str(rootfs / "boot/vmlinuz-*")))
    initrds = sorted(glob.glob(str(rootfs / "boot/initrd.img-*")))
    if not kernels or not initrds:
        raise BaseImageError("no kernel/initrd in the root tree (is linux-image-amd64 in packages.txt?)")
    serial = raw.with_suffix(".grub-serial.log")
    accel = q.detect_accel()
    while True:
        serial.unlink(missing_ok=True)
        # One vCPU: nothing here needs two, and a single CPU cannot hit the multi-threaded TCG
        # race in which the kernel trips over its own text patching ("Oops: int3", seen once here).
        cmd = [
            q.QEMU,
            *q.accel_args(accel),
            "-machine",
            "pc",
            "-m",
            "2048",
            "-smp",
            "1",
            "-display",
            "none",
            "-nodefaults",
            "-no-reboot",
            "-serial",
            f"file:{serial}",
            "-kernel",
            kernels[-1],
            "-initrd",
            initrds[-1],
            "-append",
            "root=/dev/vda1 rw init=/usr/local/sbin/persona-grub-install console=ttyS0,115200 panic=-1",
            "-drive",
            f"file={raw},format=raw,if=virtio,cache=unsafe",
        ]
        progress(f"grub: installing from inside the guest ({accel})")
        with open(log, "ab") as lf:
            lf.write(("\n$ " + " ".join(cmd) + "\n").encode())
            p = subprocess.Popen(cmd, stdout=lf, stderr=subprocess.STDOUT)
        try:
            if accel == "kvm" and not q.accel_forced():
                try:
                    q.wait_serial(serial, q.KERNEL_ALIVE, None, p, q.KVM_WATCHDOG_SECONDS)
                except q.QemuError:
                    p.kill()
                    p.wait()
                    q.mark_kvm_broken("kernel printed nothing under KVM (grub install boot)")
                    progress("grub: KVM guest shows no sign of life, falling back to TCG")
                    accel = "tcg"
                    continue
            try:
                q.wait_serial(serial, re.compile(r"PERSONA-GRUB: OK"), re.compile(r"PERSONA-GRUB: FAIL"), p, timeout)
            except q.QemuError as e:
                raise BaseImageError(f"GRUB install boot failed: {e}") from None
            try:
                p.wait(timeout=120)
            except subprocess.TimeoutExpired:
                raise BaseImageError(f"GRUB install guest did not power off\n{q.tail(serial)}") from None
            return
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()


def convert(
    src: Path, dst: Path, log: Path, src_fmt: str = "raw", compress: bool = True, backing: Path | None = None
) -> None:
    """``qemu-img convert`` to qcow2 (zstd-compressed when ``compress``).

    With ``backing`` (a qcow2) the output keeps only the clusters that differ from it and names it as
    its backing file (``-B``); :func:`builder.image.thin.relative_backing` then shortens that name.
    """
    cmd = ["qemu-img", "convert", "-f", src_fmt, "-O", "qcow2"]
    if compress:
        cmd += ["-c", "-o", "compression_type=zstd"]
    if backing is not None:
        cmd += ["-B", str(Path(backing).resolve()), "-F", "qcow2"]
    _run([*cmd, str(src), str(dst)], log)


# ---------------------------------------------------------------- entry point


def build_base(cache_dir: Path, site: SiteBuild, progress: Callable[[str], None]) -> Path:
    """Return the cached base image ``<cache_dir>/base-<hash16>.qcow2``, building it if missing.

    ``site`` is the built site serving every app (:func:`builder.site.build_site`).
    ``progress`` receives one-line status messages. A build runs mmdebstrap (needs network
    to the Debian mirror and root), mke2fs, one QEMU boot and qemu-img; it takes minutes
    and ~5 GiB of scratch space under ``cache_dir``, removed afterwards unless
    PERSONA_KEEP_WORK=1. A sidecar ``base-<hash16>.json`` records the hash, apps and timings.
    Concurrent callers are serialised by a lock file. Raises :class:`BaseImageError`.
    """
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    key = base_hash(site.apps, site.source_key)
    out = base_path(cache_dir, key)
    if out.exists():
        progress(f"base image cached: {out}")
        return out
    lock = open(cache_dir / f"{out.stem}.lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        if out.exists():
            progress(f"base image cached: {out}")
            return out
        return _build(cache_dir, site, key, out, progress)
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()


def system_accounts(rootfs: Path) -> list[str]:
    """Sorted names of every user and group in the tree's ``/etc/passwd`` and ``/etc/group``."""
    names = set()
    for table in ("etc/passwd", "etc/group"):
        path = Path(rootfs) / table
        if path.is_file():
            names |= {line.split(":", 1)[0] for line in path.read_text().splitlines() if ":" in line}
    return sorted(names)


def base_accounts(base_qcow2: Path) -> list[str] | None:
    """The system accounts recorded beside a cached base image, or None for a cache that predates the record."""
    side = Path(base_qcow2).with_suffix(".json")
    try:
        return json.loads(side.read_text()).get("accounts")
    except (OSError, ValueError):
        return None


def _need_space(where: Path, needed: int, what: str) -> None:
    """Raise :class:`BaseImageError` unless the filesystem holding ``where`` has ``needed`` bytes free."""
    free = shutil.disk_usage(where).free
    if free < needed:
        raise BaseImageError(
            f"{what} need about {needed / 2**30:.1f} GiB free in {where}, which has {free / 2**30:.1f} GiB: "
            "free some space or point PERSONA_CACHE at a larger disk"
        )


def _build(cache_dir: Path, site: SiteBuild, key: str, out: Path, progress: Progress) -> Path:
    if os.geteuid() != 0:
        raise BaseImageError("building the base image needs root (mmdebstrap --mode=root, chroot)")
    for tool in ("mmdebstrap", "sfdisk", "qemu-img", q.QEMU):
        if shutil.which(tool) is None:
            raise BaseImageError(f"{tool} not found: run scripts/setup-deps.sh")
    work = cache_dir / f"{out.stem}.work"
    if work.exists():
        shutil.rmtree(work)
    work.mkdir()
    _need_space(work, 6 << 30, "the Debian tree, the disk image and the qcow2")
    log = work / "build.log"
    rootfs = work / "rootfs"
    raw = work / "disk.raw"
    timings: dict[str, float] = {}
    t0 = time.monotonic()
    ok = False
    try:
        tarball = rootfs_tarball(cache_dir, read_packages(), log, progress)
        timings["mmdebstrap_s"] = round(time.monotonic() - t0, 1)
        extract_rootfs(tarball, rootfs, log)
        customize(rootfs, site, key, log, progress)
        rootfs_bytes = int(subprocess.run(["du", "-sb", str(rootfs)], capture_output=True, text=True).stdout.split()[0])
        # The raw disk holds the tree once more, and the qcow2 about half of it again: say so before mke2fs
        # fails half-way with ENOSPC.
        _need_space(work, rootfs_bytes * 17 // 10 + (512 << 20), "the disk image and its qcow2")
        t1 = time.monotonic()
        make_disk(rootfs, raw, log, progress)
        timings["mke2fs_s"] = round(time.monotonic() - t1, 1)
        t1 = time.monotonic()
        install_grub(rootfs, raw, log, progress)
        timings["grub_boot_s"] = round(time.monotonic() - t1, 1)
        t1 = time.monotonic()
        progress("qemu-img convert -> qcow2 (zstd)")
        tmp = out.with_name(out.name + ".tmp")
        convert(raw, tmp, log)
        timings["convert_s"] = round(time.monotonic() - t1, 1)
        timings["total_s"] = round(time.monotonic() - t0, 1)
        side = {
            "base_hash": key,
            "file": out.name,
            "rootfs_bytes": rootfs_bytes,
            "qcow2_bytes": tmp.stat().st_size,
            "timings": timings,
            "apps": [a.name for a in site.apps],
            "accounts": system_accounts(rootfs),
        }
        out.with_suffix(".json").write_text(json.dumps(side, indent=2, sort_keys=True) + "\n")
        os.replace(tmp, out)
        ok = True
        progress(
            f"base image built: {out} ({tmp.stat().st_size if tmp.exists() else out.stat().st_size} bytes, "
            f"{timings['total_s']}s)"
        )
        return out
    finally:
        tmp = out.with_name(out.name + ".tmp")
        if tmp.exists():
            tmp.unlink()
        if ok and os.environ.get("PERSONA_KEEP_WORK") != "1":
            shutil.rmtree(work, ignore_errors=True)
        elif not ok:
            # Keep the log for diagnosis, drop the bulky parts.
            shutil.rmtree(rootfs, ignore_errors=True)
            raw.unlink(missing_ok=True)


def ensure_base(repo_root: Path, cache_dir: Path, work_dir: Path, progress: Progress) -> Path:
    """Base image for the repo's current apps and recipe, building the site only on a cache miss.

    Discovers ``apps/*/app.yaml`` and keys the cache by the site's sources
    (:func:`builder.site.source_key`); on a miss builds the site (reusing a build in
    ``work_dir`` of the same sources, e.g. the e2e tests') and then :func:`build_base`.
    Returns the qcow2 path.
    """
    from ..apps import discover
    from ..site import build_site, source_key

    apps_dir = Path(repo_root) / "apps"
    apps = discover(apps_dir)
    out = base_path(cache_dir, base_hash(apps, source_key(apps, apps_dir)))
    if out.exists():
        progress(f"base image cached: {out}")
        return out
    started = time.monotonic()
    site = build_site(apps, work_dir, progress, apps_dir=apps_dir)
    progress(f"site ready in {time.monotonic() - started:.1f}s")
    started = time.monotonic()
    built = build_base(cache_dir, site, progress)
    progress(f"base image ready in {time.monotonic() - started:.1f}s")
    return built
