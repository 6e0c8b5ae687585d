"""Image pipeline: base image (mmdebstrap + apps, cached), bake (Packer + persona layer),
boot (QEMU for tests). See base.py, bake.py, boot.py."""

from .apps import AppBuild, build_app  # noqa: F401
