"""Independent readers of Basketful's answer tasks (:mod:`builder.tasks.reader`): each answer derived from the
pages the persona sees signed in (Your orders and each order's receipt); never from the world or the database.
The helpers serve the scenarios homed in Basketful too (scenarios/*/grocery.py)."""

from __future__ import annotations

import datetime as dt
from collections import Counter

from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text
from builder.tasks.dates import day_in

APP = "grocery"


def orders(see: See) -> list[dict]:
    """Every order of Your orders, newest first, as listed: ``{id, href, store, status, placed (date), total
    (cents)}``."""
    doc = see.page(APP, "/orders")
    out = []
    for li in doc.xpath('//li[@data-testid="order"]'):
        link = li.xpath(".//a")[0]
        line = visible_text(li.xpath('.//div[contains(@class, "bf-muted")]')[0])
        out.append(
            {
                "id": li.get("data-id"),
                "href": link.get("href"),
                "store": visible_text(link),
                "status": visible_text(li.xpath('.//span[contains(@class, "bf-status")]')[0]),
                "placed": day_in(line.split("placed", 1)[-1]),
                "total": parse_money(visible_text(li.xpath('.//*[@data-testid="order-total"]')[0])),
            }
        )
    return out


def receipt(see: See, order: dict) -> dict:
    """An order's receipt: ``{label: cents}`` of its totals table (Subtotal, Delivery fee, Service fee, Tip, Total,
    in the page's own words), plus ``tip`` and ``total`` by their test ids and ``fees`` (every line whose label
    says fee)."""
    page = see.page(APP, order["href"])
    rows = {}
    for tr in page.xpath('//table[contains(@class, "bf-totals")]//tr'):
        cells = tr.xpath("./td")
        rows[visible_text(cells[0])] = parse_money(visible_text(cells[1]))
    fees = sum(c for k, c in rows.items() if "fee" in k.casefold() or "gebühr" in k.casefold())
    return {
        **rows,
        "tip": parse_money(visible_text(page.xpath('//*[@data-testid="tip"]')[0])),
        "total": parse_money(visible_text(page.xpath('//*[@data-testid="total"]')[0])),
        "fees": fees,
    }


def in_month(see: See, month: str) -> list[dict]:
    """The orders placed in ``month`` (``YYYY-MM``)."""
    return [o for o in orders(see) if o["placed"].isoformat()[:7] == month]


def _last_month(today: dt.date) -> str:
    return (today.replace(day=1) - dt.timedelta(days=1)).isoformat()[:7]


@reader(unique=True)
def usual_store(see: See, given: dict) -> Reading:
    """The store with the most orders in Your orders, as ``<n> orders``."""
    mine = orders(see)
    counts = Counter(o["store"] for o in mine)
    ranked = counts.most_common()
    if not ranked:
        raise Unreadable("no Basketful order")
    (top, n), runner = ranked[0], (ranked[1][1] if len(ranked) > 1 else 0)
    return Reading(
        values={"store": top, "count": n},
        steps=[f"Your orders: {len(mine)}", "by store: " + ", ".join(f"{k} {v}" for k, v in ranked[:4])],
        margin=n - runner,
    )


@reader("year")
def tips_this_year(see: See, given: dict) -> Reading:
    """The tips of the receipts of the orders placed in the year."""
    year = int(given["year"])
    mine = [o for o in orders(see) if o["placed"].year == year]
    tips = sum(receipt(see, o)["tip"] for o in mine)
    return Reading(values={"total": tips}, steps=[f"{len(mine)} orders placed in {year}; their receipts' tips: {tips}"])


@reader(unique=True)
def pref_staples(see: See, given: dict) -> Reading:
    """The three items in the most orders (each receipt's items counted once), most first."""
    mine = orders(see)
    counts: Counter = Counter()
    for o in mine:
        page = see.page(APP, o["href"])
        names = {visible_text(a) for a in page.xpath('//*[@data-testid="item"]//a')}
        counts.update(names)
    ranked = counts.most_common(4)
    if len(ranked) < 4:
        raise Unreadable("fewer than four different items in the orders")
    margin = min(ranked[0][1] - ranked[1][1], ranked[1][1] - ranked[2][1], ranked[2][1] - ranked[3][1])
    return Reading(
        values={"top": ranked[0][0], "ranking": [n for n, _ in ranked[:3]]},
        steps=[f"{len(mine)} orders; orders per item: " + ", ".join(f"{k} {v}" for k, v in ranked)],
        margin=margin,
    )


READERS = {
    "usual-store": usual_store,
    "tips-this-year": tips_this_year,
    "pref-staples": pref_staples,
}
