"""__TITLE__: a Persona Desktop app (see apps/README.md)."""
