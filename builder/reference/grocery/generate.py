"""Expand Basketful's catalogue grammar (``lines.yaml``) into ``products.json``.

Run ``python -m builder.reference.grocery.generate`` after editing ``lines.yaml``; the output is sorted and
byte-stable. A product (one per item x brand x size of a line)::

    {"id": "BK12345678", "department": "dairy", "aisle": "milk", "brand": "Sunny Acres" | "",
     "title": {"en_US": ..., "en_GB": ..., "de_DE": ...},      # the item's name in that language (no brand)
     "size": {"us": "64 fl oz", "metric": "1 l"},             # as the label says it
     "measure": {"us": [64.0, "fl oz"], "metric": [1000.0, "ml"]},  # amount in the base unit of the label
     "price_usd": 479,                                        # US list price, cents
     "staple": "Oat milk 64 oz" | None}                       # the GROCERIES name it stands for

Prices: the size's price times the brand's tier (percent), times 0.92-1.08 by a hash of the item (so two
items of a line differ), ending in 9 like a shelf price; a staple keeps its GROCERIES price exactly.
"""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path

from builder import yamlfile

HERE = Path(__file__).resolve().parent
_SIZE = re.compile(r"^(?:(\d+) x )?(half |\d+(?:\.\d+)?\s)?(fl oz|oz|lb|ct|ea|pint|qt|gal|g|kg|ml|l)$")
# base units: US weight oz, US volume fl oz, metric weight g, metric volume ml, count ct
_BASE = {
    "oz": (1, "oz"),
    "lb": (16, "oz"),
    "fl oz": (1, "fl oz"),
    "pint": (16, "fl oz"),
    "qt": (32, "fl oz"),
    "gal": (128, "fl oz"),
    "ct": (1, "ct"),
    "ea": (1, "ct"),
    "g": (1, "g"),
    "kg": (1000, "g"),
    "ml": (1, "ml"),
    "l": (1000, "ml"),
}


def measure(size: str) -> tuple[float, str]:
    """``"8 x 12 fl oz"`` -> ``(96.0, "fl oz")``; ``"1.5 kg"`` -> ``(1500.0, "g")``. Raises ``ValueError``."""
    m = _SIZE.match(size.strip())
    if not m:
        raise ValueError(f"size {size!r} does not read '<n> <unit>'")
    packs = int(m.group(1) or 1)
    amount = 0.5 if (m.group(2) or "").strip() == "half" else float(m.group(2) or 1)
    factor, unit = _BASE[m.group(3)]
    return round(packs * amount * factor, 3), unit


def shelf(cents: float) -> int:
    """A price in cents ending in 9 (at least 0.49)."""
    return max(49, int(cents) // 10 * 10 + 9)


def _names(text: str) -> tuple[str, str, str]:
    parts = text.split("|")
    if len(parts) == 2:
        return parts[0], parts[0], parts[1]
    if len(parts) == 3:
        return parts[0], parts[1], parts[2]
    raise ValueError(f"item {text!r}: want 'US|German' or 'US|UK|German'")


def expand(grammar: dict) -> list[dict]:
    """The grammar's products (module docstring shape), sorted by id; raises ``ValueError`` on a bad line."""
    tiers = grammar["brands"]
    out: dict[str, dict] = {}
    for dept in grammar["departments"]:
        for aisle in dept["aisles"]:
            for line in aisle["lines"]:
                staple = line.get("staple")
                for i, item in enumerate(line["items"]):
                    us, gb, de = _names(item)
                    for b, brand in enumerate(line["brands"]):
                        for s, size in enumerate(line["sizes"]):
                            us_size, metric_size, price = size.split("|")
                            key = f"{dept['key']}/{aisle['key']}/{us}/{brand}/{us_size}"
                            pid = f"BK{zlib.crc32(key.encode()) % 100_000_000:08d}"
                            if pid in out:
                                raise ValueError(f"id clash {pid}: {key}")
                            is_staple = staple if (i, b, s) == (0, 0, 0) and staple else None
                            wobble = 0.92 + (zlib.crc32(us.encode()) % 17) / 100
                            usd = int(price) if is_staple else shelf(int(price) * tiers.get(brand, 100) / 100 * wobble)
                            out[pid] = {
                                "id": pid,
                                "department": dept["key"],
                                "aisle": aisle["key"],
                                "brand": brand,
                                "title": {"en_US": us, "en_GB": gb, "de_DE": de},
                                "size": {"us": us_size, "metric": metric_size},
                                "measure": {"us": list(measure(us_size)), "metric": list(measure(metric_size))},
                                "price_usd": usd,
                                "staple": is_staple,
                            }
    return [out[k] for k in sorted(out)]


def departments(grammar: dict) -> list[dict]:
    """``[{"key", "name": {locale: name}, "aisles": [{"key", "name": {...}}]}]`` in the grammar's order."""

    def loc(text: str) -> dict[str, str]:
        us, gb, de = _names(text)
        return {"en_US": us, "en_GB": gb, "de_DE": de}

    return [
        {
            "key": d["key"],
            "name": loc(d["name"]),
            "aisles": [{"key": a["key"], "name": loc(a["name"])} for a in d["aisles"]],
        }
        for d in grammar["departments"]
    ]


def main() -> None:
    """Write products.json and departments.json next to lines.yaml."""
    grammar = yamlfile.safe_load((HERE / "lines.yaml").read_text(encoding="utf-8"))
    products = expand(grammar)
    (HERE / "products.json").write_text(json.dumps(products, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    (HERE / "departments.json").write_text(
        json.dumps(departments(grammar), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    print(len(products), "products,", sum(1 for p in products if p["staple"]), "staples")


if __name__ == "__main__":
    main()
