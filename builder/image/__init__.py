"""Image pipeline: base image (mmdebstrap + the one web site, cached), bake (Packer + persona
layer), boot (QEMU for tests). See base.py, bake.py, boot.py; the site build is builder/site.py."""
