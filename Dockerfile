# Persona Desktop QEMU wrapper: runs a persona qcow2 with VNC/noVNC, QMP and the apps' http.
#
#   docker build -t persona-desktop .
#   docker run --rm --device /dev/kvm -e BIND=0.0.0.0 \
#     -v "$PWD/out/dana:/image:ro" \
#     -p 127.0.0.1:6080:6080 -p 127.0.0.1:5900:5900 -p 127.0.0.1:4444:4444 -p 127.0.0.1:8080:8080 \
#     persona-desktop
#   open http://127.0.0.1:6080/vnc.html
#
# Inside the container every port is bound to $BIND (default 127.0.0.1, i.e. unreachable
# from outside the container): pass -e BIND=0.0.0.0 and publish on the host's loopback as
# above; publish on 0.0.0.0 only on a trusted network (VNC and QMP have no password).
# Env: IMAGE, AS_OF, RAM_SIZE (4G), CPU_CORES (2), KVM (auto|Y|N), RESET (1), OVERLAY_DIR
# (/run/persona), SHUTDOWN_TIMEOUT (120). Without /dev/kvm (or KVM=N) QEMU uses TCG (slow).
# `docker stop -t 150` gives the guest time to power off cleanly.
FROM debian:trixie-slim

RUN apt-get update \
 && apt-get install -y --no-install-recommends qemu-system-x86 qemu-utils novnc websockify ca-certificates procps \
 && rm -rf /var/lib/apt/lists/*

ARG PERSONA_IMAGE_DIR=docker/image
COPY ${PERSONA_IMAGE_DIR}/ /opt/persona/
COPY docker/entrypoint.sh /usr/local/bin/persona-entrypoint

ENV OVERLAY_DIR=/run/persona RAM_SIZE=4G CPU_CORES=2 KVM=auto
EXPOSE 5900 6080 4444 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/persona-entrypoint"]
