"""Reference data: what the world draws from and the apps show, read by both; the bottom layer of the tree.

It imports nothing from :mod:`builder.world`, :mod:`apps` or the projections (:mod:`builder.files`,
:mod:`builder.firefox`, :mod:`builder.layer`), so the world never depends on an app and an app reads the same
catalogue the world bought from. One folder per domain, each generator (``generate.py``) beside the data it writes:

- :mod:`.places` airports, cities, currencies and reference rates; :mod:`.geo` points, distances and fares;
- :mod:`.airports` flight distances, block times, zones, labels and countries of airports, and the airline;
- :mod:`.locale` how each locale writes dates, times and money (``Fmt``); :mod:`.addresses` one-line postal
  addresses; :mod:`.plates` car registration plates by country;
- :mod:`.retail` the shop's products; :mod:`.grocery` grocery products, departments and store chains;
- :mod:`.dining` restaurants that take reservations; :mod:`.delivery` delivery cuisines, options and restaurants;
- :mod:`.securities` listed funds and companies; :mod:`.forecasts` the prediction markets' question grammar;
- :mod:`.tax` tax rules (``rules.json``, also read by the web side), charities and whose rules apply where;
- :mod:`.household` a household's bills and account names by home country (a generic one elsewhere);
- :mod:`.lodging` hotels and rentals of every destination and their price function.

Loaders parse a file once per process (cached) and hand out the cached object: callers must not mutate it.
A missing file raises ``FileNotFoundError`` (run the folder's ``generate.py`` for a generated one).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from builder import yamlfile

#: The folder of the reference data.
DIR = Path(__file__).resolve().parent

#: Reference files the apps' web side imports, relative to :data:`DIR`: the site build copies each to
#: ``src/generated/reference/<path>`` (import ``@reference/<path>``) and hashes it into the site's source key.
WEB_FILES: tuple[str, ...] = ("tax/rules.json",)


def path(rel: str) -> Path:
    """The absolute path of reference file ``rel`` (``"tax/rules.json"``); it need not exist."""
    return DIR / rel


def read_json(rel: str) -> Any:
    """Parse reference file ``rel`` as UTF-8 JSON. Raises ``FileNotFoundError`` or ``json.JSONDecodeError``."""
    return json.loads(path(rel).read_text(encoding="utf-8"))


def read_yaml(rel: str) -> Any:
    """Parse reference file ``rel`` as UTF-8 YAML (safe loader). Raises ``FileNotFoundError`` or a YAML error."""
    return yamlfile.safe_load(path(rel).read_text(encoding="utf-8"))
