"""Image pipeline: base image (mmdebstrap + apps, cached), bake (Packer + persona layer),
boot (QEMU for tests). See base.py, bake.py, boot.py."""

from .apps import AppBuild, AppMeta, build_app, discover_apps  # noqa: F401
