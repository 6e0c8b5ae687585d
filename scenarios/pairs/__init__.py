"""Two-app answer tasks, one module per app their ids name (see :mod:`builder.tasks.pairs`)."""
