"""Expand DashBite's grammar (cuisines.yaml, options.yaml, cities.yaml) into ``restaurants.json``.

Run ``python -m builder.reference.delivery.generate``: every city of ``cities.yaml`` (:func:`.catalogue.generate_city`),
with each shipped persona's usual restaurant and items (``personas/*.json``, :func:`.catalogue.with_usual`) in its home
city. The output depends only on these files.
"""

from __future__ import annotations

import json
from pathlib import Path

from builder.persona import complete, load
from builder.reference.delivery import catalogue, cities

HERE = Path(__file__).resolve().parent
PERSONAS = HERE.parents[2] / "personas"


def build() -> dict[str, list[dict]]:
    """City -> restaurants (sorted by id), the shipped personas' usual orders included."""
    out = {city: catalogue.generate_city(city) for city in sorted(cities())}
    for path in sorted(PERSONAS.glob("*.json")):
        if path.name == "persona.schema.json":
            continue
        p = complete(load(path))
        city = p.identity.address.city if p.identity.address else None
        if city in out:
            out[city] = catalogue.with_usual(out[city], p, cities()[city])
    return out


def main() -> None:
    """Write ``restaurants.json`` and print the catalogue's size per city."""
    data = build()
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
    (HERE / "restaurants.json").write_text(text, encoding="utf-8")
    for city, rows in data.items():
        print(f"{city}: {len(rows)} restaurants, {sum(len(x['menu']) for x in rows)} dishes")


if __name__ == "__main__":
    main()
