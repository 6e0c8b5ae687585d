# Persona Desktop wrapper: runs a persona image with `run-image` (builder/runtime/run.py, the same code
# as on the host) under QEMU, plus noVNC. See docker/README.md for Podman without a registry.
#
#   docker build -t persona-desktop .
#   docker run --rm --device /dev/kvm -e BIND=0.0.0.0 -v "$PWD/out/dana-whitfield:/image:ro" \
#     -p 127.0.0.1:5000:5000 -p 127.0.0.1:6080:6080 -p 127.0.0.1:8080:8080 persona-desktop
#   curl http://127.0.0.1:5000/health; open http://127.0.0.1:6080/vnc.html
#
# Every port is bound to $BIND (default 127.0.0.1, unreachable from outside the container): pass
# -e BIND=0.0.0.0 and publish on the host's loopback as above, or use --network=host. VNC and QMP have
# no password. Env knobs (docker/entrypoint.sh): IMAGE, AS_OF, RAM_SIZE, CPU_CORES, KVM=auto|Y|N, BIND,
# CONTROL_PORT, HTTP_PORT, VNC_PORT, QMP_PORT, NOVNC_PORT, NOVNC, STATE_DIR, FRESH, SHUTDOWN_TIMEOUT.
# `docker stop -t 150` gives the guest time to power off cleanly (under TCG it takes seconds).
ARG BASE=debian:trixie-slim

# qemu.qmp (pure Python, no dependencies) and PyAV (screen recordings; FFmpeg's libraries in its wheel) from PyPI,
# kept out of the final image's pip. Behind a
# TLS-intercepting proxy pass its CA bundle: --secret id=ca_bundle,src=/etc/ssl/certs/ca-certificates.crt
FROM ${BASE} AS pylib
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3-pip ca-certificates
RUN --mount=type=secret,id=ca_bundle \
    if [ -s /run/secrets/ca_bundle ]; then export PIP_CERT=/run/secrets/ca_bundle; fi \
 && pip install --no-cache-dir --no-compile --no-deps --disable-pip-version-check \
      --target /opt/persona-desktop/lib qemu.qmp==0.0.6 av==18.1.0

FROM ${BASE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends qemu-system-x86 qemu-utils novnc websockify \
      python3 python3-requests python3-rich tzdata ca-certificates procps tini \
 && rm -rf /var/lib/apt/lists/*

COPY --from=pylib /opt/persona-desktop/lib/ /opt/persona-desktop/lib/
# Only run-image's modules are in the build context (.dockerignore is an allow-list).
COPY builder/ /opt/persona-desktop/builder/
ENV PYTHONPATH=/opt/persona-desktop:/opt/persona-desktop/lib PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
# Fails the build when run-image needs a module the image lacks (it may import only the stdlib,
# qemu.qmp, requests and rich).
RUN python3 -c "import builder.runtime.run, builder.runtime.pull" \
 && printf '#!/bin/sh\nexec python3 -m builder.runtime.run "$@"\n' > /usr/local/bin/run-image \
 && chmod 755 /usr/local/bin/run-image

# A persona image built in (optional): put persona.qcow2 + manifest.json (and layer/) in docker/image/.
ARG PERSONA_IMAGE_DIR=docker/image
COPY ${PERSONA_IMAGE_DIR}/ /opt/persona/
COPY docker/entrypoint.sh /usr/local/bin/persona-entrypoint

ENV STATE_DIR=/state RAM_SIZE=4G CPU_CORES=2 KVM=auto
EXPOSE 5000 5900 6080 4444 8080
STOPSIGNAL SIGTERM
# tini reaps websockify and forwards SIGTERM to run-image alone (not to QEMU: run-image powers it off).
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/persona-entrypoint"]
