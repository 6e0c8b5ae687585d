"""Expand Shopwell's catalogue grammar (``lines.yaml``, ``books.yaml``) into ``products.json``.

Run ``python -m builder.reference.retail.generate`` after editing the grammar; the output is committed and read by
``builder.world.retail`` (the world's orders) and ``apps/shop/seed.py`` (the shop's rows). Deterministic: every
draw comes from the stream ``shop/catalog`` of a fixed seed, so the file only changes when the grammar does.

A product: ``{"id", "slug", "department", "line", "brand", "model", "title": {"en_US", "en_GB", "de_DE"},
"variants": [{"sku", "label": {"en", "de"}, "price_usd"}], "specs": [[key_en, key_de, value_en, value_de]],
"use": [[en, de]], "rating_x10", "review_count", "gift", "subscribe"}``; prices are US list prices in cents
(``builder.reference.retail.catalogue.local_price`` turns them into the persona's currency).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from builder import yamlfile
from builder.rng import rng

HERE = Path(__file__).resolve().parent
SEED = 20261116
MODEL_FACTOR = (1.0, 1.22, 1.45)


def _split(v) -> tuple[str, str]:
    s = str(v)
    en, _, de = s.partition("|")
    return en, de or en


def _price(cents: float) -> int:
    """A list price ending in .99 (.95 above 100 dollars)."""
    whole = max(1, round(cents / 100))
    return whole * 100 - (5 if whole > 100 else 1)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("&", "and").replace("'", "")).strip("-")


def _variants(line: dict, colours: dict, base: int) -> list[tuple[tuple[str, str], int]]:
    axis = line.get("axis", "none")
    opts = line.get("options") or []
    if axis == "none" or not opts:
        return [(("", ""), base)]
    out = []
    for i, o in enumerate(opts):
        if axis == "colour":
            out.append(((o, colours[o]), base))
        elif axis == "pack":
            n = int(o)
            first = int(opts[0])
            factor = (n / first) * (1 - 0.07 * (i)) if first else 1
            label = (
                ((f"Pack of {n}", f"{n}er-Pack") if n > 1 else ("Single", "Einzeln"))
                if first < 10
                else (f"{n} count", f"{n} Stück")
            )
            out.append((label, _price(base * factor)))
        elif axis == "capacity":
            out.append(((o, o.replace(" mAh", " mAh")), _price(base * (1 + 0.4 * i))))
        elif axis == "size":
            en, de = _split(o)
            step = 0.18 if any(ch.isdigit() for ch in en) else 0.0
            out.append(((en, de), _price(base * (1 + step * i))))
        else:  # shoe / clothing sizes: one price
            en, de = _split(o)
            out.append(((en, de), base))
    return out


def _books(g: dict, r) -> dict[str, list[dict]]:
    """Titles and authors per book line, drawn from the patterns of books.yaml (no title twice)."""
    out: dict[str, list[dict]] = {}
    seen: set[str] = set()
    for key in ("novel", "cookbook", "guide"):
        spec, titles = g[key], []
        while len(titles) < spec["count"]:
            pattern = r.choice(spec["patterns"])
            title = re.sub(r"\{(\w+?)2?\}", lambda m, spec=spec: r.choice(spec[m.group(1)]), pattern)
            if title in seen:
                continue
            seen.add(title)
            author = f"{r.choice(g['authors']['first'])} {r.choice(g['authors']['last'])}"
            titles.append({"title": title, "author": author})
        out[key] = titles
    return out


def build() -> list[dict]:
    """Every product of the grammar, sorted by id (see the module docstring for the shape)."""
    grammar = yamlfile.safe_load((HERE / "lines.yaml").read_text())
    colours = grammar["colours"]
    r = rng(SEED, "shop/catalog")
    books = _books(yamlfile.safe_load((HERE / "books.yaml").read_text()), rng(SEED, "shop/catalog/books"))
    ids: set[str] = set()
    alnum = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
    out = []

    def new_id() -> str:
        while True:
            pid = "SW" + "".join(r.choice(alnum) for _ in range(8))
            if pid not in ids:
                ids.add(pid)
                return pid

    def add(dept: dict, line: dict, brand: str, model: str, title: tuple[str, str, str], base: int, extra: dict):
        pid = new_id()
        variants = []
        for k, (label, price) in enumerate(_variants(line, colours, base)):
            variants.append({"sku": f"{pid}-{k + 1}", "label": {"en": label[0], "de": label[1]}, "price_usd": price})
        specs = []
        for key_en, key_de, values in line.get("specs") or []:
            en, de = _split(r.choice(values))
            specs.append([key_en, key_de, en, de])
        reviews = int(10 ** r.uniform(0.6, 3.4))
        rating = (
            r.choice([38, 41, 42, 43, 44, 45, 45, 46, 46, 47, 47, 48, 49]) if reviews > 5 else r.choice([40, 45, 50])
        )
        out.append(
            {
                "id": pid,
                "slug": _slug(title[0]),
                "department": dept["key"],
                "line": line["key"],
                "brand": brand,
                "model": model,
                "title": {"en_US": title[0], "en_GB": title[1], "de_DE": title[2]},
                "variants": variants,
                "specs": specs,
                "use": [list(_split(u)) for u in line.get("use") or []],
                "rating_x10": rating,
                "review_count": reviews,
                "gift": bool(line.get("gift")),
                "subscribe": bool(line.get("subscribe") or dept.get("subscribe")),
                **extra,
            }
        )

    for dept in grammar["departments"]:
        if dept.get("books"):
            for line in dept["lines"]:
                for b in books[line["key"]]:
                    publisher = dept["brands"][r.randrange(len(dept["brands"]))]["name"]
                    base = _price(line["price"] * r.uniform(0.8, 1.35))
                    add(
                        dept,
                        line,
                        publisher,
                        "",
                        (b["title"], b["title"], b.get("de", b["title"])),
                        base,
                        {"author": b["author"]},
                    )
            continue
        for line in dept["lines"]:
            for brand in dept["brands"]:
                if r.random() > 0.85 or (line.get("brands") and brand["name"] not in line["brands"]):
                    continue
                models = brand["models"][:]
                r.shuffle(models)
                for k, model in enumerate(models[: 2 if r.random() < 0.65 else 1]):
                    en, gb, de = line["en"], line.get("gb", line["en"]), line["de"]
                    base = _price(line["price"] * brand["tier"] / 100 * MODEL_FACTOR[k] * r.uniform(0.92, 1.08))
                    name = brand["name"]
                    add(
                        dept,
                        line,
                        name,
                        model,
                        (f"{name} {model} {en}", f"{name} {model} {gb}", f"{name} {model} {de}"),
                        base,
                        {},
                    )
    slugs: dict[str, int] = {}
    for p in out:  # a slug names one product
        n = slugs.get(p["slug"], 0)
        slugs[p["slug"]] = n + 1
        if n:
            p["slug"] = f"{p['slug']}-{n + 1}"
    return sorted(out, key=lambda p: p["id"])


def main() -> None:
    """Write products.json next to this file and print the counts."""
    products = build()
    (HERE / "products.json").write_text(
        json.dumps(products, ensure_ascii=False, indent=None, sort_keys=True).replace('}, {"brand"', '},\n{"brand"')
        + "\n"
    )
    variants = sum(len(p["variants"]) for p in products)
    print(f"{len(products)} products, {variants} variants, {len({p['department'] for p in products})} departments")


if __name__ == "__main__":
    main()
