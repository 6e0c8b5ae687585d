"""What the recaps' independent readers (``scenarios/recaps/{rides,delivery}.py``) read of the apps besides their
home: DashBite's orders, Basketful's orders, Shopwell's parcels, TableTime's past reservations and Larkspur Bank's
card lines, each from the pages the persona sees signed in (:mod:`builder.tasks.reader`). Kept here, not in those
apps' ``reader.py``: a scenario imports no app's reader but its home's."""

from __future__ import annotations

import datetime as dt

from builder.tasks.dates import day_in
from builder.tasks.reader import See, Unreadable, parse_money, visible_text


def _one(node, xp: str):
    found = node.xpath(xp)
    return found[0] if found else None


def _year_after(text: str, after: dt.date) -> dt.date:
    """The day ``text`` writes without a year (``Sun, Nov 15``): the first such day on or after ``after``. Raises
    :class:`Unreadable` when it writes none."""
    return day_in(text, after=after)


# --- DashBite ----------------------------------------------------------------------------------------


def dashbite_orders(see: See) -> list[dict]:
    """DashBite's Orders rows: ``{href, restaurant, day (placed), cents (total)}``, newest first."""
    page = see.page("delivery", "/orders")
    out = []
    for row in page.xpath('//div[@data-testid="order-row"]'):
        link = _one(row, './/a[starts-with(@href, "/orders/")]')
        out.append(
            {
                "href": link.get("href"),
                "restaurant": visible_text(link),
                "day": day_in(visible_text(row.xpath("./span")[0])),
                "cents": int(_one(row, "./span[@data-cents]").get("data-cents")),
            }
        )
    return out


def dashbite_tip(see: See, href: str) -> int:
    """The tip an order's page shows, in cents."""
    node = _one(see.page("delivery", href), '//*[@data-testid="tip"]')
    return int(node.get("data-cents")) if node is not None else 0


def dashbite_delivered(see: See, href: str) -> dt.date:
    """The day an order's page says it was delivered."""
    node = _one(see.page("delivery", href), '//*[@data-testid="arrival"]')
    if node is None:
        raise Unreadable(f"{href} shows no delivery")
    return day_in(visible_text(node))


# --- Basketful ---------------------------------------------------------------------------------------


def basketful_orders(see: See) -> list[dict]:
    """Basketful's Your orders: ``{href, id, status, placed (day), window (the delivery window's day), cents}``,
    newest first (a window's day has no year on the page: the first such day from the day it was placed)."""
    page = see.page("grocery", "/orders")
    out = []
    for li in page.xpath('//li[@data-testid="order"]'):
        small = li.xpath('.//div[contains(@class, "bf-small")]')
        placed_line = visible_text(small[1]) if len(small) > 1 else ""
        placed = day_in(placed_line.split("placed", 1)[-1])
        window = visible_text(small[0])
        window_day = None
        if window:
            words = window.split()
            # "Delivery Sun, Nov 15, 2:00 PM – 4:00 PM": the day is what comes before the first clock time.
            head = window.split(":")[0].rsplit(" ", 1)[0].rstrip(",")
            body = head.split(" ", 1)[1] if len(words) > 1 else head
            try:
                window_day = _year_after(body, placed)
            except Unreadable:
                window_day = None
        out.append(
            {
                "href": _one(li, ".//a").get("href"),
                "id": li.get("data-id"),
                "status": visible_text(_one(li, './/*[contains(@class, "bf-status")]')),
                "placed": placed,
                "window": window_day,
                "cents": parse_money(visible_text(_one(li, './/*[@data-testid="order-total"]'))),
            }
        )
    return out


def basketful_tip(see: See, href: str) -> int:
    """The tip a Basketful order's page shows, in cents."""
    node = _one(see.page("grocery", href), '//*[@data-testid="tip"]')
    return parse_money(visible_text(node)) if node is not None else 0


# --- Shopwell ----------------------------------------------------------------------------------------


def shop_delivered(see: See, start: dt.date, end: dt.date) -> list[dict]:
    """Shopwell's orders whose status says they were delivered from ``start`` to ``end``: ``{number, placed,
    delivered}`` (the pages of Your orders, newest placed first, read until orders placed 60 days before
    ``start``)."""
    out = []
    n = 1
    while True:
        doc = see.page("shop", "/orders", {"page": str(n)} if n > 1 else None)
        arts = doc.xpath('//article[@data-testid="order"]')
        oldest = None
        for art in arts:
            head = art.xpath('.//div[contains(@class, "sw-order-head")]/div')
            placed = day_in(visible_text(head[0]))
            oldest = placed
            status = art.xpath('.//p[contains(@class, "sw-status")]')
            words = visible_text(status[0]) if status else ""
            if not (words.startswith("Delivered") or words.startswith("Zugestellt") or words.startswith("Geliefert")):
                continue
            day = _year_after(words.split(" ", 1)[1], placed)
            if start <= day <= end:
                out.append({"number": art.get("data-order"), "placed": placed, "delivered": day})
        if not arts or not doc.xpath('//a[@data-testid="next-page"]'):
            break
        if oldest is not None and oldest < start - dt.timedelta(days=60):
            break
        n += 1
    return out


# --- TableTime and the bank ----------------------------------------------------------------------------


def tabletime_past(see: See) -> list[dict]:
    """TableTime's past reservations: ``{confirmation, day (date), restaurant}``."""
    page = see.page("dining", "/reservations", {"tab": "past"})
    out = []
    for li in page.xpath('//li[@data-testid="reservation"]'):
        name = _one(li, ".//strong")
        out.append(
            {
                "confirmation": li.get("data-confirmation"),
                "day": dt.date.fromisoformat(li.get("data-day")),
                "restaurant": visible_text(name) if name is not None else "",
            }
        )
    return out


def card_lines(see: See, start: dt.date, end: dt.date) -> list[dict]:
    """Every line of the persona's card accounts (the checking account's debit card and the credit card) posted
    from ``start`` to ``end``: ``{day, description, category, cents (signed as shown), account}``, all pages of
    each account's activity with its date filter."""
    over = see.page("bank", "/")
    out = []
    for a in over.xpath("//a[@data-account-id]"):
        kind = (a.get("data-testid") or "").removeprefix("account-card-")
        if kind not in ("checking", "credit_card"):
            continue
        n = 1
        got = 0
        while True:
            params = {"from": start.isoformat(), "to": end.isoformat(), **({"page": str(n)} if n > 1 else {})}
            page = see.page("bank", f"/accounts/{a.get('data-account-id')}", params)
            rows = page.xpath('//tr[@data-testid="txn-row"]')
            for tr in rows:
                cells = tr.xpath("./td")
                desc = cells[1].xpath('.//*[@class="lb-desc"]')
                out.append(
                    {
                        "day": day_in(visible_text(cells[0])),
                        "description": visible_text(desc[0]) if desc else visible_text(cells[1]),
                        "category": visible_text(cells[2]),
                        "cents": parse_money(visible_text(cells[3])),
                        "account": kind,
                    }
                )
            got += len(rows)
            count = page.xpath('//*[@data-testid="result-count"]')
            total = int(count[0].get("data-total")) if count and count[0].get("data-total") else got
            if not rows or got >= total:
                break
            n += 1
    return out
