"""Independent readers of DashBite's own answer tasks (:mod:`builder.tasks.reader`): each answer derived again from
the pages the persona sees, signed in: Orders (with its month filter), each order's page, the home page's "Your
usual" card and restaurant cards; never from the world or the database. The helpers here (:func:`orders`,
:func:`order`, :func:`usual`, ...) serve the readers of the scenarios homed in DashBite too
(``scenarios/{checks,pairs,recaps}/delivery.py``)."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter

from builder.tasks.dates import day_in, day_time_in
from builder.tasks.reader import Reading, See, Unreadable, reader, visible_text

APP = "delivery"


def _one(node, xp: str):
    found = node.xpath(xp)
    return found[0] if found else None


def orders(see: See, month: str = "") -> list[dict]:
    """The orders the Orders page lists (newest first), for one ``YYYY-MM`` month when given (its month filter):
    each ``{href, order_id, restaurant, items (the row's line), day (placed), cents (total)}``."""
    page = see.page(APP, "/orders", {"month": month} if month else None)
    out = []
    for row in page.xpath('//div[@data-testid="order-row"]'):
        link = _one(row, './/a[starts-with(@href, "/orders/")]')
        spans = row.xpath("./span")
        out.append(
            {
                "href": link.get("href"),
                "order_id": row.get("data-order-id"),
                "restaurant": visible_text(link),
                "items": visible_text(_one(row, "./div/div")),
                "day": day_in(visible_text(spans[0])),
                "cents": int(_one(row, "./span[@data-cents]").get("data-cents")),
            }
        )
    return out


def order(see: See, href: str) -> dict:
    """An order's page: ``{order_id, restaurant, placed (naive local), lines [{qty, name}], subtotal, discount,
    delivery, service, small_order, tip, total (cents), tip_percent (the tip line's "(20%)" or None)}``."""
    page = see.page(APP, href)
    main = _one(page, '//main[@data-testid="order"]')
    if main is None:
        raise Unreadable(f"{href} shows no order")

    def cents(testid: str) -> int:
        node = _one(main, f'.//*[@data-testid="{testid}"]')
        return int(node.get("data-cents")) if node is not None else 0

    tip_node = _one(main, './/*[@data-testid="tip"]')
    label = visible_text(tip_node.getparent()) if tip_node is not None else ""
    pct = re.search(r"\((\d+)\s*%\)", label)
    head = visible_text(_one(main, ".//h1/following-sibling::p[1]"))
    placed = head.split("·", 1)[1] if "·" in head else head
    return {
        "href": href,
        "order_id": visible_text(_one(main, './/*[@data-testid="order-id"]')),
        "restaurant": visible_text(_one(main, ".//h1")),
        "placed": day_time_in(placed),
        "lines": [
            {
                "qty": int(visible_text(_one(div, './/*[@data-testid="line-qty"]'))),
                "name": visible_text(_one(div, './/*[@data-testid="line-name"]')),
            }
            for div in main.xpath('.//*[@data-testid="order-line"]')
        ],
        "subtotal": cents("subtotal"),
        "discount": cents("discount"),
        "delivery": cents("delivery"),
        "service": cents("service"),
        "small_order": cents("small-order"),
        "tip": cents("tip"),
        "total": cents("total"),
        "tip_percent": int(pct[1]) if pct else None,
    }


def usual(see: See) -> dict:
    """The home page's "Your usual" card: ``{restaurant, items (names, as listed), cents (what it came to last
    time)}``. Raises :class:`Unreadable` without one."""
    page = see.page(APP, "/")
    card = _one(page, '//*[@data-testid="usual-card"]')
    if card is None:
        raise Unreadable("DashBite's home page shows no usual order")
    items = visible_text(_one(card, './/*[@data-testid="usual-items"]'))
    last = [visible_text(p) for p in card.xpath(".//p")][-1]
    from builder.tasks.reader import parse_money

    return {
        "restaurant": visible_text(_one(card, ".//h2")),
        "items": [re.sub(r"^\d+ × ", "", x.strip()) for x in items.split("·") if x.strip()],
        "cents": parse_money(last.split("·")[-1]),
    }


def cuisines(see: See) -> dict[str, str]:
    """Restaurant name -> cuisine, as the home page's restaurant cards write it (``Thai · $$ · Division``)."""
    page = see.page(APP, "/")
    out = {}
    for card in page.xpath('//a[@data-testid="restaurant-card"]'):
        name = visible_text(_one(card, ".//strong"))
        line = visible_text(_one(card, './/*[@class="dbt-card-body"]/span[@class="dbt-muted"]'))
        out[name] = line.split("·")[0].strip()
    return out


def _ranked(counts: Counter) -> tuple[str, int, int, list]:
    ranked = sorted(counts.items(), key=lambda x: (-x[1], x[0]))
    if not ranked:
        raise Unreadable("nothing to count")
    top, n = ranked[0]
    return top, n, n - (ranked[1][1] if len(ranked) > 1 else 0), ranked


# --- DashBite's own tasks ------------------------------------------------------------------------------


@reader(unique=True)
def usual_tip(see: See, given: dict) -> Reading:
    details = [order(see, o["href"]) for o in orders(see)]
    counts = Counter(
        d["tip_percent"] if d["tip_percent"] is not None else round(d["tip"] * 100 / d["subtotal"])
        for d in details
        if d["subtotal"]
    )
    top, n, margin, ranked = _ranked(counts)
    return Reading(
        values={"percent": f"{top}%"},
        steps=[f"{len(details)} order pages; tip line by percent: " + ", ".join(f"{k}% x{v}" for k, v in ranked[:4])],
        margin=margin,
    )


@reader()
def usual_order(see: See, given: dict) -> Reading:
    u = usual(see)
    return Reading(
        values={"restaurant": u["restaurant"], "items": u["items"], "total": u["cents"]},
        steps=[f"home page, Your usual: {u['restaurant']}: {', '.join(u['items'])}; last time {u['cents']}"],
    )


@reader("year", unique=True)
def favourite_besides_usual(see: See, given: dict) -> Reading:
    mine = usual(see)["restaurant"]
    year = int(given["year"])
    rows = [o for o in orders(see) if o["day"].year == year]
    counts = Counter(o["restaurant"] for o in rows if o["restaurant"] != mine)
    top, n, margin, ranked = _ranked(counts)
    return Reading(
        values={"restaurant": top, "count": n},
        steps=[
            f"usual: {mine}; {len(rows)} orders in {year}; others by restaurant: "
            + ", ".join(f"{k} x{v}" for k, v in ranked[:4])
        ],
        margin=margin,
    )


@reader(unique=True)
def pref_cuisine(see: See, given: dict) -> Reading:
    mine = usual(see)["restaurant"]
    kinds = cuisines(see)
    rows = [o for o in orders(see) if o["restaurant"] != mine]
    missing = sorted({o["restaurant"] for o in rows} - set(kinds))
    if missing:
        raise Unreadable(f"no restaurant card for {missing}")
    top, n, margin, ranked = _ranked(Counter(kinds[o["restaurant"]] for o in rows))
    return Reading(
        values={"cuisine": top, "count": n},
        steps=[
            f"usual: {mine}; {len(rows)} other orders by the cuisine their restaurant's card names: "
            + ", ".join(f"{k} x{v}" for k, v in ranked[:4])
        ],
        margin=margin,
    )


_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


@reader(unique=True)
def pref_order_day(see: See, given: dict) -> Reading:
    rows = orders(see)
    top, n, margin, ranked = _ranked(Counter(o["day"].weekday() for o in rows))
    return Reading(
        values={"day": _WEEKDAYS[top], "count": n},
        steps=[f"{len(rows)} orders by weekday: " + ", ".join(f"{_WEEKDAYS[k]} {v}" for k, v in ranked)],
        margin=margin,
    )


def month_details(see: See, month: str) -> list[dict]:
    """The order pages of the orders placed in ``YYYY-MM`` (Orders' month filter)."""
    return [order(see, o["href"]) for o in orders(see, month)]


def placed_in(see: See, start: dt.date, end: dt.date) -> list[dict]:
    """The Orders rows placed from ``start`` to ``end`` (both included)."""
    return [o for o in orders(see) if start <= o["day"] <= end]


READERS = {
    "usual-tip": usual_tip,
    "usual-order": usual_order,
    "favourite-besides-usual": favourite_besides_usual,
    "pref-cuisine": pref_cuisine,
    "pref-order-day": pref_order_day,
}
