"""Independent readers of Shopwell's answer tasks (:mod:`builder.tasks.reader`): each answer derived from the pages
the persona sees signed in (Your orders, an order's details, a product's page); never from the world or the
database. The helpers here serve the scenarios homed in Shopwell too (scenarios/*/shop.py)."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text
from builder.tasks.dates import day_in

APP = "shop"


def _clean(node) -> str:
    return visible_text(node) if node is not None else ""


def orders(see: See) -> list[dict]:
    """Every order of Your orders (all pages), newest first, as listed: ``{number, placed (date), total (cents),
    state (ordered / shipped / delivered, the row's own attribute), status (its words: "Arriving Thu, Nov 19"),
    items (names), gift_for (the gift line's name or None)}``."""
    cached = see._pages.get(("shop-orders",))
    if cached is not None:
        return cached
    out: list[dict] = []
    page = 1
    while True:
        doc = see.page(APP, "/orders", {"page": str(page)} if page > 1 else None)
        for art in doc.xpath('//article[@data-testid="order"]'):
            head = art.xpath('.//div[contains(@class, "sw-order-head")]/div')
            placed = day_in(_clean(head[0].xpath("./b")[0]))
            body = art.xpath('.//div[contains(@class, "sw-order-body")]')[0]
            gift = [_clean(p) for p in body.xpath("./p") if "🎁" in _clean(p)]
            gift_for = None
            if gift:
                words = gift[0].replace("🎁", "").strip()
                for lead in ("Gift for ", "Geschenk für "):
                    if words.startswith(lead):
                        gift_for = words[len(lead) :].strip()
            out.append(
                {
                    "number": art.get("data-order"),
                    "placed": placed,
                    "total": parse_money(_clean(head[1].xpath("./b")[0])),
                    "state": art.get("data-state"),
                    "status": _clean(body.xpath('./p[contains(@class, "sw-status")]')[0]),
                    "items": [_clean(a) for a in body.xpath('./p/a[starts-with(@href, "/p/")]')],
                    "gift_for": gift_for,
                }
            )
        if not doc.xpath('//a[@data-testid="next-page"]'):
            break
        page += 1
    see._pages[("shop-orders",)] = out
    return out


def order(see: See, number: str) -> dict:
    """An order's details page: ``{number, placed, subtotal, shipping, total (cents), status (words), carrier,
    tracking, lines: [{name, variant, slug, sku, qty, price (unit cents), refund (the return form's refund in
    cents or None)}]}``."""
    doc = see.page(APP, f"/orders/{number}")
    panel = doc.xpath('//*[@data-testid="order-detail"]')
    if not panel:
        raise Unreadable(f"Shopwell shows no order {number}")
    totals = {}
    for tr in panel[0].xpath('.//table[contains(@class, "sw-totals")]//tr'):
        cells = [_clean(td) for td in tr.xpath("./td")]
        if len(cells) == 2:
            totals[cells[0].rstrip(" :")] = parse_money(cells[1])
    track = doc.xpath('//*[@data-testid="tracking"]')
    carrier = ""
    if track:
        line = _clean(track[0].getparent())
        carrier = line.split("·")[0].strip()
    lines = []
    for div in doc.xpath('//div[@data-testid="item"]'):
        link = div.xpath('.//a[starts-with(@href, "/p/")]')[0]
        small = [_clean(s) for s in div.xpath('./div/div[contains(@class, "sw-small")]')]
        qty_line = next((s for s in small if s.startswith(("Qty", "Menge"))), "")
        variant = next((s for s in small if not s.startswith(("Qty", "Menge"))), "")
        refund = None
        for p in div.xpath('.//form[@data-testid="return-form"]//p'):
            words = _clean(p)
            if words.startswith(("Refund:", "Erstattung:")):
                refund = parse_money(words.split(":", 1)[1])
        lines.append(
            {
                "name": _clean(link),
                "variant": variant,
                "slug": link.get("href").split("/p/", 1)[1],
                "sku": div.get("data-sku"),
                "qty": int(qty_line.split(":", 1)[1].split("·")[0]) if qty_line else int(div.get("data-qty")),
                "price": parse_money(qty_line.split("·", 1)[1]) if "·" in qty_line else int(div.get("data-price")),
                "refund": refund,
            }
        )
    return {
        "number": number,
        "subtotal": totals.get("Items", totals.get("Artikel")),
        "shipping": totals.get("Shipping", totals.get("Versand")),
        "total": parse_money(_clean(doc.xpath('//*[@data-testid="total"]')[0])),
        "status": _clean(doc.xpath('//*[@data-testid="status"]')[0]),
        "carrier": carrier,
        "tracking": _clean(track[0]) if track else "",
        "lines": lines,
    }


def brand(see: See, slug: str) -> str | None:
    """The brand a product's page names in its specs table (``Brand`` / ``Marke``), or None."""
    doc = see.page(APP, f"/p/{slug}")
    for tr in doc.xpath('//table[@data-testid="specs"]//tr'):
        if _clean(tr.xpath("./th")[0]) in ("Brand", "Marke"):
            return _clean(tr.xpath("./td")[0])
    return None


def in_year(see: See, year: int) -> list[dict]:
    """The orders placed in ``year`` (Your orders' own dates)."""
    return [o for o in orders(see) if o["placed"].year == year]


def shipping_paid(see: See, year: int) -> tuple[int, int, list[str]]:
    """``(cents, orders, steps)``: the shipping paid on the orders placed in ``year``, read off each order's page."""
    mine = in_year(see, year)
    paid = [(o["number"], order(see, o["number"])["shipping"]) for o in mine]
    paid = [(n, c) for n, c in paid if c]
    cents = sum(c for _, c in paid)
    return cents, len(paid), [f"Your orders: {len(mine)} placed in {year}; {len(paid)} paid shipping, {cents} cents"]


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


# --- readers -------------------------------------------------------------------------------------------------------


@reader("item", "placed")
def item_price(see: See, given: dict) -> Reading:
    """The price of the named item on the order placed that day (its order page; quantity × unit price)."""
    day = dt.date.fromisoformat(given["placed"])
    hits = [o for o in orders(see) if o["placed"] == day and any(_same(n, given["item"]) for n in o["items"])]
    if len(hits) != 1:
        raise Unreadable(f"{len(hits)} orders of {day} hold {given['item']!r}")
    lines = [x for x in order(see, hits[0]["number"])["lines"] if _same(x["name"], given["item"])]
    if len(lines) != 1:
        raise Unreadable(f"order {hits[0]['number']} has {len(lines)} lines of {given['item']!r}")
    line = lines[0]
    return Reading(
        values={"price": line["price"] * line["qty"]},
        steps=[f"Your orders: {hits[0]['number']} placed {day}", f"its page: {line['qty']} × {line['price']} cents"],
    )


@reader(unique=True)
def pref_brand(see: See, given: dict) -> Reading:
    """The brand with the most items (by quantity) over every order; each item's brand from its product page."""
    counts: Counter = Counter()
    seen = orders(see)
    for o in seen:
        for line in order(see, o["number"])["lines"]:
            b = brand(see, line["slug"])
            if b:
                counts[b] += line["qty"]
    ranked = counts.most_common()
    if not ranked:
        raise Unreadable("no branded item in any Shopwell order")
    (top, n), runner = ranked[0], (ranked[1][1] if len(ranked) > 1 else 0)
    return Reading(
        values={"brand": top, "count": n},
        steps=[
            f"{len(seen)} orders; each item's brand from its product page, counted by quantity",
            "items by brand: " + ", ".join(f"{k} {v}" for k, v in ranked[:4]),
        ],
        margin=n - runner,
    )


@reader("year")
def cf_free_shipping(see: See, given: dict) -> Reading:
    """The shipping paid on the orders placed in the year, and on how many orders (each order's page)."""
    cents, n, steps = shipping_paid(see, int(given["year"]))
    return Reading(values={"saved": cents, "orders": n}, steps=steps)


READERS = {
    "item-price": item_price,
    "pref-brand": pref_brand,
    "cf-free-shipping": cf_free_shipping,
}
