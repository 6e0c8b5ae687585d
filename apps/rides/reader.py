"""Independent readers of ZipRide's own answer tasks (:mod:`builder.tasks.reader`): each answer derived again from
the pages the rider sees, signed in: Activity (with its month and purpose filters), each ride's receipt, the
Scheduled rides page and the request page's price list; never from the world or the database. The helpers here
(:func:`activity`, :func:`receipt`, :func:`trips`, :func:`quote`, ...) serve the readers of the scenarios homed in
ZipRide too (``scenarios/{pairs,insights,recaps}/rides.py``)."""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections import Counter

from builder.tasks.dates import clock_in, day_in, day_time_in, last_month
from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text

APP = "rides"


def _one(node, xp: str):
    found = node.xpath(xp)
    return found[0] if found else None


def activity(see: See, month: str = "", purpose: str = "") -> list[dict]:
    """The rides Activity lists (newest first), filtered by ``YYYY-MM`` month and purpose code as its filter form
    does: each ``{href, ride_id, to, from, when (naive local pickup), purpose, cents (total)}``."""
    params = {k: v for k, v in (("month", month), ("purpose", purpose)) if v}
    page = see.page(APP, "/activity", params)
    out = []
    for li in page.xpath('//li[@data-testid="ride-row"]'):
        a = _one(li, ".//a")
        to = visible_text(_one(li, ".//strong"))
        line = visible_text(_one(li, './/span[@class="zr-muted"]'))
        when_text, _, rest = line.partition(" · from ")
        parts = rest.rsplit(" · ", 1)
        out.append(
            {
                "href": a.get("href"),
                "ride_id": li.get("data-ride-id"),
                "to": to,
                "from": parts[0],
                "purpose": parts[1] if len(parts) > 1 else "",
                "when": day_time_in(when_text),
                "cents": int(_one(li, './/*[@class="zr-price"]').get("data-cents")),
            }
        )
    return out


def receipt(see: See, href: str) -> dict:
    """A ride's page (``/rides/<n>``): ``{ride_id, type, day, pickup, dropoff (addresses), pickup_at, dropoff_at
    (naive local), fare, tip, total (cents), driver, plate, purpose}``."""
    page = see.page(APP, href)
    art = _one(page, '//article[@data-testid="receipt"]')
    if art is None:
        raise Unreadable(f"{href} shows no ride")
    head = visible_text(_one(art, ".//header/p"))
    bits = [b.strip() for b in head.split("·")]
    day = day_in(bits[0])
    times = [visible_text(s) for s in art.xpath('.//*[@class="zr-time"]')]
    muted = art.xpath('./p[@class="zr-muted"]')
    purpose = ""
    if muted:
        tail = [b.strip() for b in visible_text(muted[0]).split("·")]
        purpose = tail[2] if len(tail) > 2 else ""

    def cents(testid: str) -> int:
        node = _one(art, f'.//*[@data-testid="{testid}"]')
        return int(node.get("data-cents")) if node is not None else 0

    pickup_at = dt.datetime.combine(day, clock_in(times[0]))
    dropoff_at = dt.datetime.combine(day, clock_in(times[1]))
    if dropoff_at < pickup_at:
        dropoff_at += dt.timedelta(days=1)
    rows = [tr.xpath("./td") for tr in art.xpath('.//table[@data-testid="fare-table"]//tr')]
    parts = [parse_money(visible_text(td[0])) for td in rows[:4] if td]
    driver = _one(art, './/*[@data-testid="driver"]')
    plate = _one(art, './/*[@data-testid="plate"]')
    return {
        "href": href,
        "ride_id": visible_text(_one(art, './/*[@data-testid="ride-id"]')),
        "type": bits[1] if len(bits) > 2 else "",
        "day": day,
        "pickup": visible_text(_one(art, './/*[@data-testid="pickup"]')),
        "dropoff": visible_text(_one(art, './/*[@data-testid="dropoff"]')),
        "pickup_at": pickup_at,
        "dropoff_at": dropoff_at,
        "fare": cents("fare"),
        "tip": cents("tip"),
        "total": cents("total"),
        "driver": visible_text(driver) if driver is not None else "",
        "plate": visible_text(plate) if plate is not None else "",
        "purpose": purpose,
        "parts": parts,
    }


def receipts(see: See, month: str = "", purpose: str = "") -> list[dict]:
    """:func:`receipt` of every ride :func:`activity` lists with those filters, newest first."""
    return [receipt(see, r["href"]) for r in activity(see, month, purpose)]


def scheduled(see: See) -> list[dict]:
    """The Scheduled rides page: each ``{ride_id, href, when (naive local pickup), route, cents (fare)}``, soonest
    first."""
    page = see.page(APP, "/scheduled")
    out = []
    for li in page.xpath('//li[starts-with(@data-testid, "scheduled-")]'):
        first = _one(li, "./div")
        lines = [visible_text(x) for x in first.xpath("./strong")] + [
            t.strip() for t in first.xpath("./text()") if t.strip()
        ]
        link = _one(li, './/a[starts-with(@href, "/rides/")]')
        out.append(
            {
                "ride_id": li.get("data-testid").removeprefix("scheduled-"),
                "href": link.get("href") if link is not None else "",
                "when": day_time_in(lines[0]),
                "route": " ".join(lines[1:]),
                "cents": int(_one(li, './/*[@class="zr-price"]').get("data-cents")),
            }
        )
    return out


def quote(see: See, pickup: str, dropoff: str) -> dict[str, int]:
    """The request page's prices for a ride from ``pickup`` to ``dropoff`` (addresses ZipRide knows): ride type code
    -> fare in cents (``price-<code>``). Raises :class:`Unreadable` when the page quotes nothing."""
    page = see.page(APP, "/", {"pickup": pickup, "dropoff": dropoff})
    out = {
        n.get("data-testid").removeprefix("price-"): int(n.get("data-cents"))
        for n in page.xpath('//*[starts-with(@data-testid, "price-")]')
    }
    if not out:
        err = _one(page, '//*[@data-testid="request-error"]')
        raise Unreadable(f"no prices for {pickup} -> {dropoff}: {visible_text(err) if err is not None else ''}")
    return out


def type_names(see: See, pickup: str, dropoff: str) -> dict[str, str]:
    """Ride type code -> the name the request page shows (``xl`` -> ``Zip XL``)."""
    page = see.page(APP, "/", {"pickup": pickup, "dropoff": dropoff})
    return {
        n.get("data-testid").removeprefix("quote-"): visible_text(_one(n, ".//strong"))
        for n in page.xpath('//*[starts-with(@data-testid, "quote-")]')
    }


def _is_airport(name: str) -> bool:
    return bool(re.match(r"^[A-Z]{3} .*(Airport|Flughafen|International)", name)) or "Airport" in name


def home_address(see: See) -> str:
    """The address of the saved place Home (a ride to or from it shows it on its receipt)."""
    for r in activity(see):
        if r["to"] == "Home":
            return receipt(see, r["href"])["dropoff"]
        if r["from"] == "Home":
            return receipt(see, r["href"])["pickup"]
    raise Unreadable("no ride to or from Home in Activity")


def trips(see: See) -> list[list[dict]]:
    """The rider's trips as ZipRide shows them, oldest first: the Trip rides (Activity's Trip filter) in time order,
    cut after each ride that ends at Home; each trip a list of :func:`receipt` dicts, oldest first."""
    home = home_address(see)
    rides = sorted(receipts(see, purpose="trip"), key=lambda r: r["pickup_at"])
    out: list[list[dict]] = []
    cur: list[dict] = []
    for r in rides:
        if cur and r["pickup_at"] - cur[-1]["dropoff_at"] > dt.timedelta(days=30):
            out.append(cur)
            cur = []
        cur.append(r)
        if r["dropoff"] == home:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[^\wÀ-ÿ]+", text.casefold()) if len(w) > 2]


def names_place(text: str, place: str) -> bool:
    """Whether ``text`` names ``place``, allowing another language's spelling of a city (``Kopenhagen`` for
    ``Copenhagen``: one or two letters apart). A name of several words (``Mexico City``, ``Addis Ababa``) is looked
    for as as many words in a row."""
    want = " ".join(_words(place))
    if not want:
        return place.casefold() in text.casefold()
    n = len(want.split(" "))
    words = _words(text)
    for i in range(len(words) - n + 1):
        w = " ".join(words[i : i + n])
        if w == want or difflib.SequenceMatcher(None, w, want).ratio() >= 0.85:
            return True
    return False


def trip_to(see: See, destination: str, month: str = "") -> tuple[list[dict], list[str]]:
    """The latest trip (:func:`trips`) whose rides name ``destination`` (and, given ``month``, with a ride in that
    ``YYYY-MM``), with the steps that found it. Raises :class:`Unreadable` when none does."""
    all_trips = trips(see)
    hits = [
        t
        for t in all_trips
        if any(names_place(f"{r['pickup']} {r['dropoff']}", destination) for r in t)
        and (not month or any(f"{r['pickup_at']:%Y-%m}" == month for r in t))
    ]
    if not hits:
        raise Unreadable(f"no trip's rides name {destination!r}" + (f" in {month}" if month else ""))
    t = hits[-1]
    steps = [
        f"Activity, Trip filter: {sum(len(x) for x in all_trips)} rides in {len(all_trips)} trips; the "
        f"{destination} trip" + (f" of {month}" if month else "") + f" is {len(t)} rides:",
        *(f"  {r['pickup_at']:%Y-%m-%d %H:%M} {r['pickup']} -> {r['dropoff']}: {r['total']}" for r in t),
    ]
    return t, steps


# --- ZipRide's own tasks ------------------------------------------------------------------------------


@reader(unique=True)
def usual_tip(see: See, given: dict) -> Reading:
    rides = receipts(see)
    pct = Counter(round(r["tip"] * 100 / r["fare"]) for r in rides if r["tip"] and r["fare"])
    ranked = pct.most_common()
    if not ranked:
        raise Unreadable("no tipped ride on ZipRide")
    top, n = ranked[0]
    margin = n - (ranked[1][1] if len(ranked) > 1 else 0)
    return Reading(
        values={"percent": f"{top}%"},
        steps=[
            f"{len(rides)} ride receipts; tip as a share of the fare: " + ", ".join(f"{k}% x{v}" for k, v in ranked[:4])
        ],
        margin=margin,
    )


@reader()
def driver_from_airport(see: See, given: dict) -> Reading:
    back = [r for r in activity(see) if r["to"] == "Home" and _is_airport(r["from"])]
    if not back:
        raise Unreadable("no ride from an airport to Home in Activity")
    r = receipt(see, back[0]["href"])
    if not r["driver"] or not r["plate"]:
        raise Unreadable(f"ride {r['ride_id']} names no driver or plate")
    return Reading(
        values={"driver": r["driver"], "plate": r["plate"]},
        steps=[
            f"Activity: the latest ride from an airport home is {r['ride_id']} ({r['pickup']}, {r['pickup_at']})",
            f"its receipt: driver {r['driver']}, plate {r['plate']}",
        ],
    )


@reader("year")
def work_rides_count(see: See, given: dict) -> Reading:
    year = str(given["year"])
    rows = [r for r in activity(see, purpose="work") if f"{r['when']:%Y}" == year]
    total = sum(r["cents"] for r in rows)
    return Reading(
        values={"count": len(rows), "total": total},
        steps=[f"Activity, Work filter, {year}: {len(rows)} rides, " + ", ".join(str(r["cents"]) for r in rows)],
    )


@reader()
def cf_comfort(see: See, given: dict) -> Reading:
    rows = activity(see)
    if not rows:
        raise Unreadable("no ride in Activity")
    r = receipt(see, rows[0]["href"])
    q = quote(see, r["pickup"], r["dropoff"])
    names = type_names(see, r["pickup"], r["dropoff"])
    code = next((c for c, n in names.items() if "comfort" in n.casefold()), "comfort")
    if q.get("zip") != r["fare"]:
        # The request page prices by today's tariff: its Comfort price is that ride's only while its Zip price is
        # the fare paid.
        raise Unreadable(
            f"the Zip price of {r['pickup']} -> {r['dropoff']} ({q.get('zip')}) is not its fare {r['fare']}"
        )
    steps = [
        f"the last ride {r['ride_id']} ({r['type']}): {r['pickup']} -> {r['dropoff']}, fare {r['fare']}",
        f"the request page prices the same trip: Zip {q.get('zip')} (the fare paid), {names.get(code, code)} {q[code]}",
    ]
    return Reading(values={"comfort": q[code], "more": q[code] - r["fare"]}, steps=steps)


def scale_percent(see: See, rides: list[dict], code: str) -> int:
    """How much ride type ``code`` scales the Zip fare's base, distance and time (the request page: "other ride types
    scale the base, distance and time"; the booking fee stays), in percent: read off the prices of the first of
    ``rides`` the request page quotes (``(price - booking fee) / (Zip price - booking fee)``)."""
    for r in rides:
        try:
            q = quote(see, r["pickup"], r["dropoff"])
        except Unreadable:
            continue
        fee = r["parts"][3]
        return round((q[code] - fee) * 100 / (q["zip"] - fee))
    raise Unreadable(f"the request page quotes none of the rides as {code}")


@reader("destination")
def cf_xl_trip(see: See, given: dict) -> Reading:
    t, steps = trip_to(see, given["destination"])
    xl = 0
    for r in t:
        try:
            q = quote(see, r["pickup"], r["dropoff"])
        except Unreadable as e:
            # The request page will not price this trip now (a city it does not serve from here): scale the
            # receipt's own base, distance and time as the page says other ride types do.
            pct = scale_percent(see, t, "xl")
            base, distance, time, fee = r["parts"]
            price = sum((x * pct + 50) // 100 for x in (base, distance, time)) + fee
            xl += price
            steps.append(f"  {e}; its receipt's parts {r['parts']} at {pct}% (fee unscaled): {price}")
            continue
        if q.get("zip") != r["fare"]:
            raise Unreadable(f"the Zip price of {r['pickup']} -> {r['dropoff']} ({q.get('zip')}) is not its fare")
        xl += q["xl"]
        steps.append(f"  priced as Zip XL: {q['xl']} (Zip {q['zip']} = the fare paid)")
    fares = sum(r["fare"] for r in t)
    return Reading(values={"xl": xl, "fares": fares}, steps=[*steps, f"XL {xl} against fares {fares}"])


@reader(unique=True)
def pref_destination(see: See, given: dict) -> Reading:
    home = home_address(see)
    rides = [r for r in receipts(see) if r["purpose"] != "Trip" and r["dropoff"] != home]
    counts = Counter(r["dropoff"] for r in rides)
    ranked = counts.most_common()
    if not ranked:
        raise Unreadable("no ride in the home city other than home")
    top, n = ranked[0]
    margin = n - (ranked[1][1] if len(ranked) > 1 else 0)
    return Reading(
        values={"address": top, "count": n},
        steps=[
            f"{len(rides)} rides not on a trip and not to Home; by drop-off: "
            + "; ".join(f"{k} x{v}" for k, v in ranked[:4])
        ],
        margin=margin,
    )


@reader(unique=True)
def pref_ride_type(see: See, given: dict) -> Reading:
    rides = receipts(see)
    counts = Counter(r["type"] for r in rides)
    ranked = counts.most_common()
    top, n = ranked[0]
    margin = n - (ranked[1][1] if len(ranked) > 1 else 0)
    return Reading(
        values={"type": f"{top} rides", "count": n},
        steps=[f"{len(rides)} ride receipts by type: " + ", ".join(f"{k} x{v}" for k, v in ranked)],
        margin=margin,
    )


def month_rides(see: See, month: str) -> list[dict]:
    """The receipts of the rides of ``YYYY-MM`` (Activity's month filter)."""
    return receipts(see, month=month)


def last_month_of(see: See) -> str:
    """``YYYY-MM`` of the month before the desktop's today."""
    return last_month(see.now.date())


READERS = {
    "usual-tip": usual_tip,
    "driver-from-airport": driver_from_airport,
    "work-rides-count": work_rides_count,
    "cf-comfort": cf_comfort,
    "cf-xl-trip": cf_xl_trip,
    "pref-destination": pref_destination,
    "pref-ride-type": pref_ride_type,
}
