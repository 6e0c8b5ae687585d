#!/usr/bin/env bash
# Stopgap QEMU runner of the Docker wrapper, used by docker/entrypoint.sh only while the image has no
# run-image (builder/runtime/run.py); delete it once run-image has landed. It boots the persona qcow2
# through a copy-on-write overlay in $STATE_DIR and exposes VNC, QMP and the guest's http (no
# control API, no snapshot). Env as docker/entrypoint.sh sets it: IMAGE (a qcow2), AS_OF, RAM_SIZE,
# CPU_CORES, ACCEL (kvm|tcg|auto), BIND, VNC_PORT, QMP_PORT, HTTP_PORT, SHUTDOWN_TIMEOUT, STATE_DIR.
# Stop: SIGTERM/SIGINT -> ACPI power button (QMP system_powerdown on a private unix-socket
# monitor), wait up to $SHUTDOWN_TIMEOUT seconds, then QMP quit / kill.
set -uo pipefail

IMAGE="${IMAGE:?}"
OVERLAY_DIR="${STATE_DIR:-/state}"
RAM_SIZE="${RAM_SIZE:-4G}"
CPU_CORES="${CPU_CORES:-2}"
KVM="${ACCEL:-auto}"
BIND="${BIND:-127.0.0.1}"
VNC_PORT="${VNC_PORT:-5900}"
QMP_PORT="${QMP_PORT:-4444}"
HTTP_PORT="${HTTP_PORT:-8080}"
SHUTDOWN_TIMEOUT="${SHUTDOWN_TIMEOUT:-120}"
KVM_WATCHDOG="${KVM_WATCHDOG:-45}"

log() { echo "[persona] $*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$IMAGE" ] || die "no image at $IMAGE"
mkdir -p "$OVERLAY_DIR" || die "cannot create $OVERLAY_DIR"
OVERLAY="$OVERLAY_DIR/overlay.qcow2"
SERIAL="$OVERLAY_DIR/serial.log"

rm -f "$OVERLAY"
qemu-img create -q -f qcow2 -b "$(readlink -f "$IMAGE")" -F qcow2 "$OVERLAY" || die "qemu-img create failed"
log "fresh overlay $OVERLAY over $IMAGE"

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
  kvm) ACCEL=kvm ;;
  tcg) ACCEL=tcg ;;
  *) if kvm_ok; then ACCEL=kvm; else ACCEL=tcg; fi ;;
esac

QEMU_PID=""
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
    -qmp "unix:$OVERLAY_DIR/ctl.sock,server=on,wait=off" \
    -device virtio-serial -chardev "socket,path=$OVERLAY_DIR/qga.sock,server=on,wait=off,id=qga0" \
    -device virtserialport,chardev=qga0,name=org.qemu.guest_agent.0 \
    -serial "file:$SERIAL" "${RTC[@]}" &
  QEMU_PID=$!
}

# Send QMP commands to the wrapper's own monitor (unix socket; python3 and qemu.qmp are in the image).
qmp() {
  python3 - "$OVERLAY_DIR/ctl.sock" "$@" <<'PY' 2>/dev/null
import sys
from qemu.qmp.legacy import QEMUMonitorProtocol
m = QEMUMonitorProtocol(sys.argv[1])
m.connect()
for c in sys.argv[2:]:
    print(m.cmd(c))
m.close()
PY
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

log "VNC ${BIND}:${VNC_PORT}  QMP ${BIND}:${QMP_PORT}  http ${BIND}:${HTTP_PORT} -> guest :80"

# Wait for QEMU; `wait` returns early when a trapped signal arrives.
while kill -0 "$QEMU_PID" 2>/dev/null; do
  wait "$QEMU_PID" 2>/dev/null
done
rc=0
wait "$QEMU_PID" 2>/dev/null; rc=$?
log "QEMU exited ($rc)"
[ -n "$TAIL_PID" ] && kill "$TAIL_PID" 2>/dev/null
exit "$rc"
