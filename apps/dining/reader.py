"""Independent readers of TableTime's own answer tasks (:mod:`builder.tasks.reader`): each answer derived from the
Reservations pages and the restaurants' pages the persona sees, signed in; never from the world or the database."""

from __future__ import annotations

from collections import Counter

from builder.tasks.reader import Reading, See, Unreadable, reader

APP = "dining"


def rows(see: See, tab: str) -> list[dict]:
    """The reservations of one tab of ``/reservations`` (``upcoming``, ``past``, ``cancelled``), as listed: each
    ``{confirmation, day, time, party, name}`` (the day and time as the row's machine-readable attributes)."""
    page = see.page(APP, "/reservations", {} if tab == "upcoming" else {"tab": tab})
    out = []
    for li in page.xpath('//li[@data-testid="reservation"]'):
        out.append(
            {
                "confirmation": li.get("data-confirmation"),
                "day": li.get("data-day"),
                "time": li.get("data-time"),
                "party": int(li.get("data-party")),
                "name": " ".join(li.xpath(".//strong")[0].text_content().split()),
            }
        )
    return out


def detail(see: See, confirmation: str) -> dict:
    """The reservation page of ``confirmation``: the restaurant's name and page, the companions listed."""
    page = see.page(APP, f"/reservations/{confirmation}")
    link = page.xpath('//main//a[starts-with(@href, "/r/")]')
    if not link:
        raise Unreadable(f"reservation {confirmation} names no restaurant")
    who = page.xpath('//*[@data-testid="companions"]')
    companions = []
    if who:
        text = " ".join(who[0].text_content().split())
        text = text.removeprefix("Dining with").strip()
        companions = [n.strip() for n in text.split(",") if n.strip()]
    return {"name": " ".join(link[0].text_content().split()), "href": link[0].get("href"), "companions": companions}


def cuisine(see: See, href: str) -> str:
    """The cuisine a restaurant's page names in its header line (``★ 4.4 · 903 reviews · $$ · Thai``)."""
    page = see.page(APP, href)
    head = page.xpath('//*[@data-testid="restaurant-name"]/following-sibling::*[1]')
    line = " ".join(head[0].text_content().split()) if head else ""
    parts = [p.strip() for p in line.split("·")]
    if len(parts) < 2:
        raise Unreadable(f"{href} names no cuisine (header {line!r})")
    return parts[-1]


def winner(counts: Counter, what: str) -> tuple[str, int, float, list[str]]:
    """``(winner, count, margin, steps)`` of a tally: the most counted, its lead over the next (0: a tie)."""
    ranked = counts.most_common()
    if not ranked:
        raise Unreadable(f"no {what} to count")
    top, n = ranked[0]
    margin = n - (ranked[1][1] if len(ranked) > 1 else 0)
    steps = [f"{what}: " + ", ".join(f"{k} {v}" for k, v in ranked[:4])]
    return top, n, margin, steps


def booking_on(see: See, tab: str, restaurant: str, day: str) -> dict:
    """The one reservation of ``tab`` at ``restaurant`` (as listed) on ``day`` (``YYYY-MM-DD``). Raises
    :class:`Unreadable` when there is none or more than one."""
    hits = [r for r in rows(see, tab) if r["day"] == day and r["name"].casefold() == restaurant.casefold()]
    if len(hits) != 1:
        raise Unreadable(f"{len(hits)} {tab} reservations at {restaurant} on {day}")
    return hits[0]


@reader()
def next_reservation(see: See, given: dict) -> Reading:
    """The earliest reservation of the Upcoming tab: its restaurant, confirmation and day."""
    up = rows(see, "upcoming")
    if not up:
        raise Unreadable("no upcoming reservation on TableTime")
    first = min(up, key=lambda r: (r["day"], r["time"]))
    name = detail(see, first["confirmation"])["name"]
    return Reading(
        values={"restaurant": name, "confirmation": first["confirmation"], "when": first["day"]},
        steps=[f"Upcoming tab: {len(up)} reservation(s); the earliest is {name} on {first['day']} {first['time']}"],
    )


@reader(unique=True)
def most_visited(see: See, given: dict) -> Reading:
    """The restaurant page most past reservations are at, and how many."""
    past = rows(see, "past")
    # A restaurant is its page (a chain has one page per address), named as the page names it.
    counts: Counter = Counter()
    for r in past:
        counts[detail(see, r["confirmation"])["href"]] += 1
    href, n, margin, steps = winner(counts, "past reservations by restaurant page")
    name = " ".join(see.page(APP, href).xpath('//*[@data-testid="restaurant-name"]')[0].text_content().split())
    return Reading(
        values={"restaurant": name, "visits": f"{n} times"},
        steps=[f"Past tab: {len(past)} reservations", *steps, f"{name}: {n} visits, {margin} more than the next"],
        margin=margin,
    )


@reader(unique=True)
def pref_cuisine(see: See, given: dict) -> Reading:
    """The cuisine (each restaurant's page) of the most past reservations, and how many."""
    past = rows(see, "past")
    counts: Counter = Counter(cuisine(see, detail(see, r["confirmation"])["href"]) for r in past)
    top, n, margin, steps = winner(counts, "past reservations by cuisine")
    return Reading(
        values={"cuisine": top, "count": n},
        steps=[f"Past tab: {len(past)} reservations; each restaurant's page names its cuisine", *steps],
        margin=margin,
    )


READERS = {
    "next-reservation": next_reservation,
    "most-visited": most_visited,
    "pref-cuisine": pref_cuisine,
}
