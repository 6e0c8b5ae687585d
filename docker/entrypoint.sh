#!/usr/bin/env bash
# Persona Desktop wrapper's entrypoint: maps the container's env knobs to `run-image` flags, starts
# websockify for noVNC, then execs run-image (builder/runtime/run.py, the host's code path), so
# SIGTERM from `docker stop` reaches it and it powers the guest off cleanly (exit 0).
#
# Image:   IMAGE: a build output folder (persona.qcow2 + manifest.json) or a qcow2; default /image
#          when /image/persona.qcow2 is mounted, else the built-in /opt/persona. Never written.
# State:   STATE_DIR (default /state): run-image's overlay and snapshot; mount a volume there to keep
#          the booted snapshot across container restarts. FRESH=1 starts from the image again.
# Clock:   AS_OF (persona's local wall time YYYY-MM-DDTHH:MM:SS), default the manifest's as_of.
# Machine: RAM_SIZE (4G), CPU_CORES (2), KVM=auto|Y|N (auto: KVM when /dev/kvm really works).
# Ports:   CONTROL_PORT 5000 (GET /health, POST /reset, the guest's control API), HTTP_PORT 8080
#          (guest nginx: send the app's Host header), VNC_PORT 5900 (>= 5900), QMP_PORT 4444,
#          NOVNC_PORT 6080 (http://HOST:6080/vnc.html; NOVNC=0 turns it off). All bound to BIND
#          (default 127.0.0.1; inside Docker with -p use BIND=0.0.0.0).
# Stop:    SHUTDOWN_TIMEOUT (seconds run-image waits for the guest's power-off, when it has the flag).
# Extra arguments are passed to run-image as they are.
set -euo pipefail

log() { echo "[persona] $*" >&2; }
die() { log "error: $*"; exit 2; }

IMAGE="${IMAGE:-}"
if [ -z "$IMAGE" ]; then
  if [ -f /image/persona.qcow2 ]; then IMAGE=/image; else IMAGE=/opt/persona; fi
fi
if [ -d "$IMAGE" ]; then
  [ -f "$IMAGE/persona.qcow2" ] || die "no persona.qcow2 in $IMAGE: mount a build folder at /image (-v \"\$PWD/out/<persona>:/image:ro\") or set IMAGE"
elif [ ! -f "$IMAGE" ]; then
  die "no image at $IMAGE: mount a build folder at /image or set IMAGE to a qcow2"
fi

case "${KVM:-auto}" in
  Y|y|1|yes|kvm) ACCEL=kvm ;;
  N|n|0|no|tcg) ACCEL=tcg ;;
  auto|"") ACCEL=auto ;;
  *) die "KVM=${KVM} (use auto, Y or N)" ;;
esac

BIND="${BIND:-127.0.0.1}"
CONTROL_PORT="${CONTROL_PORT:-5000}"
HTTP_PORT="${HTTP_PORT:-8080}"
VNC_PORT="${VNC_PORT:-5900}"
QMP_PORT="${QMP_PORT:-4444}"
NOVNC_PORT="${NOVNC_PORT:-6080}"
STATE_DIR="${STATE_DIR:-${OVERLAY_DIR:-/state}}"
RAM_SIZE="${RAM_SIZE:-4G}"
CPU_CORES="${CPU_CORES:-2}"
FRESH="${FRESH:-${RESET:-0}}"
for v in CONTROL_PORT HTTP_PORT VNC_PORT QMP_PORT NOVNC_PORT CPU_CORES; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v=${!v} is not a number"
done
[ "$VNC_PORT" -ge 5900 ] || die "VNC_PORT=$VNC_PORT: QEMU's VNC ports start at 5900"
mkdir -p "$STATE_DIR" || die "cannot create STATE_DIR $STATE_DIR"

args=("$IMAGE" --bind "$BIND" --control-port "$CONTROL_PORT" --http-port "$HTTP_PORT"
      --vnc-port "$VNC_PORT" --qmp-port "$QMP_PORT" --memory "$RAM_SIZE" --cpus "$CPU_CORES"
      --accel "$ACCEL" --state-dir "$STATE_DIR")
[ "$FRESH" != 0 ] && args+=(--fresh)
# Flags run-image may lack: passed only when asked for, and refused clearly when it has none.
if [ -n "${AS_OF:-}${SHUTDOWN_TIMEOUT:-}" ]; then
  help="$(run-image --help 2>&1 || true)"
  for pair in "AS_OF:--as-of" "SHUTDOWN_TIMEOUT:--shutdown-timeout"; do
    var="${pair%%:*}" flag="${pair#*:}"
    [ -n "${!var:-}" ] || continue
    grep -q -- "$flag" <<<"$help" || die "$var is set but this run-image has no $flag"
    args+=("$flag" "${!var}")
  done
fi

if [ "${NOVNC:-1}" != 0 ]; then
  # websockify reaches VNC on the address run-image bound it to (loopback when bound to all).
  vnc_host="$BIND"; [ "$vnc_host" = 0.0.0.0 ] && vnc_host=127.0.0.1
  websockify --web /usr/share/novnc "$BIND:$NOVNC_PORT" "$vnc_host:$VNC_PORT" >/dev/null 2>&1 &
  log "noVNC on http://$BIND:$NOVNC_PORT/vnc.html"
fi
log "run-image ${args[*]}${*:+ $*}"
exec run-image "${args[@]}" "$@"
