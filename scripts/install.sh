#!/usr/bin/env bash
# Install everything Persona Desktop needs on a fresh Debian 12/13 machine (run as root):
# Debian packages, a Python virtualenv at .venv with the project (dependencies from requirements.lock), and the
# apps' npm workspace.
# Idempotent: a second run only checks what is there.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-deps.sh

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/pip install --quiet --upgrade pip
# The exact versions and hashes of every dependency (the test extra's too) from requirements.lock, then the project
# itself without resolving again; regenerate the lock with the command in its first lines after editing pyproject.toml.
.venv/bin/pip install --quiet --require-hashes -r requirements.lock
.venv/bin/pip install --quiet --no-deps -e .
.venv/bin/pip check

# OSWorld's own harness for tests/runtime/test_run_image.py's DesktopEnv episode (and for running the exported tasks
# with it: README "Run it with OSWorld's own harness"): a second venv over the system Python, which sees Debian's
# python3-torch/torchvision (setup-deps.sh), with desktop-env alone (--no-deps: its metadata pins torch 2.5, transformers,
# wandb...), the packages its imports need (requirements-osworld.txt), numpy kept at the system's (Debian's torch is
# built against it) and this project. About a minute and 1.9 GB the first time; PERSONA_NO_OSWORLD=1 skips it.
if [ "${PERSONA_NO_OSWORLD:-0}" != 1 ]; then
  ow=.venv-osworld
  stamp="$ow/.persona-osworld-sha256"
  want=$(cat requirements-osworld.txt requirements.lock | sha256sum | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "install: $ow matches requirements-osworld.txt"
  else
    [ -x "$ow/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$ow"
    "$ow/bin/pip" install --quiet --upgrade pip
    "$ow/bin/pip" install --quiet --require-hashes -r requirements.lock
    "$ow/bin/pip" install --quiet --no-deps desktop-env==1.0.2
    numpy_pin="numpy==$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')"
    # --no-warn-conflicts: desktop-env's own pins (torch 2.5, boto3, ...) are unmet on purpose (installed --no-deps)
    "$ow/bin/pip" install --quiet --no-warn-conflicts -r requirements-osworld.txt -c <(echo "$numpy_pin")
    "$ow/bin/pip" install --quiet --no-warn-conflicts --no-deps -e .
    "$ow/bin/python" -c "from desktop_env.desktop_env import DesktopEnv" 2>/dev/null
    printf '%s' "$want" > "$stamp"
  fi
fi

# better-sqlite3 compiles against the local Node.js headers when no prebuilt binary can be fetched.
if [ -d /usr/include/node ]; then export npm_config_nodedir=/usr; fi
# npm ci wipes and reinstalls node_modules (~50 s): skip it while the lock file is the one last installed
# (the same stamp builder/site.py's npm_install keeps).
stamp=apps/node_modules/.persona-lock-sha256
want=$(sha256sum apps/package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "install: apps/node_modules matches package-lock.json"
else
  (cd apps && npm ci --no-audit --no-fund --loglevel=error)
  printf '%s' "$want" > "$stamp"
fi
echo "install: done (python: .venv/bin/python, build-image: .venv/bin/build-image)"
