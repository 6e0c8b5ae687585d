#!/usr/bin/env bash
# Run the whole test suite: unit tests, the bank's end-to-end tests in Chromium, the Firefox
# profile test with the real Firefox ESR, and the image test that builds the default persona's
# qcow2 from scratch and boots it under QEMU (KVM if usable, TCG otherwise).
# PERSONA_SKIP_SLOW=1 leaves out the image build and boot.
set -euo pipefail
cd "$(dirname "$0")/.."
args=(-ra)
if [ "${PERSONA_SKIP_SLOW:-0}" = 1 ]; then args+=(-m "not slow"); fi
exec .venv/bin/python -m pytest "${args[@]}" "$@"
