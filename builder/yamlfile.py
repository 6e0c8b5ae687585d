"""Reading the project's YAML data files (catalogues, phrase banks, grammars, app.yaml).

PyYAML's pure-Python parser takes seconds over the catalogues one build reads (the restaurant catalogue
alone took 3.6 s); libyaml's C parser, which PyYAML's wheels carry, builds the same objects with the
same safe constructor in a fraction of that. Every data file is read through :func:`safe_load`.
"""

from __future__ import annotations

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text):
    """Parse ``text`` (a ``str`` or a text stream) as PyYAML's ``safe_load`` would: plain dicts, lists,
    strings, numbers, dates. Raises ``yaml.YAMLError`` on a malformed document."""
    return yaml.load(text, Loader=_LOADER)
