#!/usr/bin/env bash
# Run the whole test suite: unit tests, every app's end-to-end tests in Chromium, the Firefox profile
# test with the real Firefox ESR, then the image tests that build the default persona's qcow2 from
# scratch and boot it under QEMU (KVM if usable, TCG otherwise): the boot check, run-image, the
# Podman-run wrapper.
# The tests that boot nothing run on two pytest-xdist workers (each of them is one Python or one
# Chromium busy on one core); the image tests (and a test that adds an app to apps/) run after them,
# alone, since a TCG guest wants both cores.
# PERSONA_SKIP_SLOW=1 leaves out the image build and boot.
# --fast runs the fast lane instead: pytest's default selection (pyproject.toml addopts), everything that needs
# no site build, no VM and no whole-pipeline run, on two workers; further arguments go to that pytest run
# (scripts/test.sh --fast tests/world: the fast tests there).
# Other arguments go to one plain pytest run of every test they name, whatever its marks
# (scripts/test.sh tests/world/test_invariants.py -k ledger).
set -euo pipefail
cd "$(dirname "$0")/.."
py=.venv/bin/python
# Python keeps its byte-compiled modules (__pycache__, ignored by git and by every tree hash), whatever the
# environment says: the suite starts hundreds of Python processes (workers, CLI builds, pulls), each of which
# would otherwise compile the builder again (about 1 s each), and pytest would rewrite every test's asserts.
unset PYTHONDONTWRITEBYTECODE
if [ "${1:-}" = --fast ]; then
  shift
  PERSONA_LANE=fast exec "$py" -m pytest -ra -n 2 "$@"
fi
if [ $# -gt 0 ]; then exec "$py" -m pytest -ra "$@"; fi
rc=0
"$py" -m pytest -ra -n 2 -m "not slow and not alone" || rc=$?
if [ "${PERSONA_SKIP_SLOW:-0}" = 1 ]; then
  "$py" -m pytest -ra -m "alone and not slow" || rc=$?
else
  "$py" -m pytest -ra -m "slow or alone" || rc=$?
fi
exit "$rc"
