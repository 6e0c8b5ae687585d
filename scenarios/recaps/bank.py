"""Larkspur Bank's answers summed over several apps (ids ``<persona>/bank/x-...``)."""

from __future__ import annotations

import datetime as dt
import re

from apps.bank import reader as B
from apps.bank.tasks import KIT
from builder.money import money
from builder.tasks.collect import Scenario
from builder.tasks.dates import day_in
from builder.tasks.model import RubricItem, Task
from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text
from builder.world import World
from scenarios import RECAPS


def _spread(total: int, n: int) -> list[int]:
    """``total`` split into ``n`` integer weights, the remainder on the first."""
    base = total // n
    return [base + total - base * n] + [base] * (n - 1)


def crossapp_tasks(world: World) -> list[Task]:
    """Answer tasks over the ordering apps (Shopwell, DashBite, Basketful, ZipRide, TableTime meals on the card),
    Meridian Air and Bramblestay: a month's totals, ranking, extras and counts, a year's largest charges and totals.
    A month or year with fewer than two of the apps in it gives no task."""
    from apps.bank.spending import service_spend
    from builder.tasks import answers as A
    from builder.tasks.crossapp import month_window
    from builder.tasks.phrasing import month_phrase

    p = world.persona
    _pid, cur, today = p.id, world.currency, world.now.date()
    out: list[Task] = []
    spell = {
        "shop": ["Shopwell"],
        "delivery": ["DashBite", "Dash Bite"],
        "grocery": ["Basketful"],
        "rides": ["ZipRide", "Zip Ride"],
        "dining": ["TableTime", "Table Time"],
        "airline": ["Meridian Air", "Meridian"],
        "stays": ["Bramblestay"],
    }

    def m(c: int) -> str:
        return money(c, cur)

    def dined(start: dt.date, end: dt.date) -> bool:
        """Whether the persona ate out through TableTime in the window (a meal a friend paid for included: the card
        then shows no charge for it, which only the bank tells)."""
        return any(
            e.status == "done"
            and start <= dt.date.fromisoformat(e.data["reservation_local"][:10]) <= end
            and dt.datetime.fromisoformat(e.data["reservation_local"]).replace(tzinfo=None) < world.now
            for e in world.of_kind("restaurant_booking")
        )

    def apps_of(spends, meals: bool = False) -> list[str]:
        apps = {s.app for s in spends}
        return sorted(apps | {"bank", "dining"}) if "dining" in apps or meals else sorted(apps)

    task = KIT.adder(world, out)

    listing = "Shopwell, DashBite, Basketful, ZipRide and the restaurant meals I booked on TableTime"
    variants = ["totals", "rank", "extras", "counts", "all-in", "per-app", "rank", "counts"]
    for back, variant in enumerate(variants):
        start, end = month_window(world, back)
        spends = service_spend(world, start, end)
        fx = sum(
            e.data["amount_cents"]
            for e in world.of_kind("card_fee")
            if e.status == "done" and start <= e.at.date() <= end
        )
        if variant == "extras":
            spends = [s for s in spends if s.app != "dining"]
            if not fx:  # the card's foreign fees are the bank's part of the extras
                continue
        meals = dined(start, end)
        if len(spends) < 2 or (variant != "extras" and "dining" not in {s.app for s in spends} and not meals):
            continue  # the bank's part: the TableTime meals' card charges (the extras: the card's foreign fees)
        when = month_phrase(start, today)
        slug = f"x-apps-{variant}-{start:%Y-%m}"
        grand = sum(s.total_cents for s in spends)
        if variant == "totals":
            ws = _spread(90, len(spends))
            rubric = [
                RubricItem(
                    id=s.app, weight=w, requirement=f"{s.brand}: {m(s.total_cents)}", check=A.amount(s.total_cents)
                )
                for s, w in zip(spends, ws)
            ]
            rubric += [RubricItem(id="sum", weight=10, requirement=f"All together {m(grand)}", check=A.amount(grand))]
            task(
                slug,
                apps_of(spends, meals),
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1200,
                instruction=f"Tally up what my ordering apps have charged me {when} so far: {listing}. Give me each "
                "one's total and the grand total.",
                expected={
                    "month": f"{start:%Y-%m}",
                    "totals_cents": {s.app: s.total_cents for s in spends},
                    "total_cents": grand,
                },
                rubric=rubric,
            )
        elif variant == "rank":
            ranked = sorted(spends, key=lambda s: (-s.total_cents, s.app))
            top = ranked[0]
            task(
                slug,
                apps_of(spends, meals),
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1200,
                instruction=f"Rank the apps I paid through {when} by how much they cost me, most first: {listing}. "
                "And what did the top one come to?",
                expected={
                    "month": f"{start:%Y-%m}",
                    "ranking": [s.app for s in ranked],
                    "totals_cents": {s.app: s.total_cents for s in spends},
                },
                rubric=[
                    RubricItem(
                        id="order",
                        weight=60,
                        requirement="Ranks them " + " > ".join(f"{s.brand} ({m(s.total_cents)})" for s in ranked),
                        check=A.names([spell[s.app] for s in ranked], ordered=True),
                    ),
                    RubricItem(
                        id="top",
                        weight=40,
                        requirement=f"{top.brand} came to {m(top.total_cents)}",
                        check=A.amount(top.total_cents),
                    ),
                ],
            )
        elif variant == "extras":
            extra = sum(s.extra_cents for s in spends) + fx
            ws = _spread(80, len(spends) + 1)
            rubric = [
                RubricItem(
                    id=s.app,
                    weight=w,
                    requirement=f"{s.brand} {s.extra_name}: {m(s.extra_cents)}",
                    check=A.amount(s.extra_cents),
                )
                for s, w in zip(spends, ws)
            ]
            rubric += [
                RubricItem(
                    id="fx", weight=ws[-1], requirement=f"Card foreign transaction fees: {m(fx)}", check=A.amount(fx)
                ),
                RubricItem(id="sum", weight=20, requirement=f"Extras together {m(extra)}", check=A.amount(extra)),
            ]
            task(
                slug,
                sorted({s.app for s in spends} | {"bank"}),
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1200,
                instruction=f"{when[0].upper() + when[1:]}, how much of what I paid went on extras rather than the "
                "things themselves? Shopwell shipping, DashBite and Basketful fees and tips, ZipRide tips, "
                "and the foreign transaction fees on my card: one figure each, then the sum.",
                expected={
                    "month": f"{start:%Y-%m}",
                    "extras_cents": {s.app: s.extra_cents for s in spends},
                    "fx_fees_cents": fx,
                    "total_cents": extra,
                },
                rubric=rubric,
            )
        elif variant == "counts":
            big = max(spends, key=lambda s: (s.largest_cents, s.app))
            if sum(s.largest_cents == big.largest_cents for s in spends) > 1:
                continue  # two apps' largest charges tie: "where" has no one answer
            ws = _spread(70, len(spends))
            rubric = [
                RubricItem(id=s.app, weight=w, requirement=f"{s.count} {s.brand} {s.noun}", check=A.number(s.count))
                for s, w in zip(spends, ws)
            ]
            rubric += [
                RubricItem(
                    id="largest",
                    weight=20,
                    requirement=f"The largest charge was {m(big.largest_cents)}",
                    check=A.amount(big.largest_cents),
                ),
                RubricItem(id="largest-app", weight=10, requirement=f"…at {big.brand}", check=A.text(*spell[big.app])),
            ]
            task(
                slug,
                apps_of(spends, meals),
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1200,
                instruction=f"Count up my orders {when} across apps: Shopwell orders, DashBite orders, Basketful "
                "orders, ZipRide rides and meals out booked on TableTime. Which single charge among all "
                "of them was the largest, and where?",
                expected={
                    "month": f"{start:%Y-%m}",
                    "counts": {s.app: s.count for s in spends},
                    "largest": {"app": big.app, "cents": big.largest_cents},
                },
                rubric=rubric,
            )
        elif variant == "all-in":
            extra = sum(s.extra_cents for s in spends if s.app != "dining")
            task(
                slug,
                apps_of(spends, meals),
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1200,
                instruction=f"What did {listing} cost me altogether {when}? And how much of that was shipping, "
                "delivery and service fees and tips on the Shopwell, DashBite, Basketful and ZipRide side?",
                expected={"month": f"{start:%Y-%m}", "total_cents": grand, "extras_cents": extra},
                rubric=[
                    RubricItem(id="total", weight=60, requirement=f"Altogether {m(grand)}", check=A.amount(grand)),
                    RubricItem(id="extras", weight=40, requirement=f"Extras {m(extra)}", check=A.amount(extra)),
                ],
            )
        else:
            ws = _spread(100, 2 * len(spends))
            rubric = []
            for i, s in enumerate(spends):
                rubric += [
                    RubricItem(
                        id=f"{s.app}-total",
                        weight=ws[2 * i],
                        requirement=f"{s.brand}: {m(s.total_cents)}",
                        check=A.amount(s.total_cents),
                    ),
                    RubricItem(
                        id=f"{s.app}-count",
                        weight=ws[2 * i + 1],
                        requirement=f"{s.brand}: {s.count} {s.noun}",
                        check=A.number(s.count),
                    ),
                ]
            task(
                slug,
                apps_of(spends, meals),
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1200,
                instruction=f"Break down my app spending {when} for me: for {listing}, how much each cost me and how "
                "many orders, rides or meals that was.",
                expected={
                    "month": f"{start:%Y-%m}",
                    "totals_cents": {s.app: s.total_cents for s in spends},
                    "counts": {s.app: s.count for s in spends},
                },
                rubric=rubric,
            )

    # A year's largest single charge and totals per app, Meridian Air and Bramblestay (card charge) included.
    for year, variant in (
        (today.year, "totals"),
        (today.year, "largest"),
        (today.year - 1, "largest"),
        (today.year - 1, "totals"),
    ):
        start, end = dt.date(year, 1, 1), min(dt.date(year, 12, 31), today)
        spends = service_spend(world, start, end)
        flights = [
            b for b in world.of_kind("flight_booking") if b.status == "done" and b.at <= world.now and b.at.year == year
        ]
        stays = [
            h for h in world.of_kind("hotel_checkout") if h.status == "done" and h.at <= world.now and h.at.year == year
        ]
        rows = [(s.app, s.brand, s.total_cents, s.largest_cents) for s in spends]
        if flights:
            fl = [b.data["price_cents"] for b in flights]
            rows.append(("airline", "Meridian Air", sum(fl), max(fl)))
        if stays:
            st = [-sum(x.amount_cents for x in h.postings) for h in stays]
            rows.append(("stays", "Bramblestay", sum(st), max(st)))
        if len(rows) < 3 or not {"dining", "stays"} & {r[0] for r in rows}:
            continue  # the bank's part: the card charges of the meals and hotels
        apps = sorted({r[0] for r in rows} | ({"bank"} if {"dining", "stays"} & {r[0] for r in rows} else set()))
        when = "this year" if year == today.year else f"in {year}"
        names = (
            "Meridian Air (flights), Bramblestay (hotels, as charged to my card), Shopwell, DashBite, Basketful, "
            "ZipRide and TableTime (meals out, as charged to my card)"
        )
        if variant == "largest":
            ws = _spread(100, len(rows))
            task(
                f"x-largest-charge-{year}",
                apps,
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1500,
                instruction=f"For each app I've paid through {when} ({names}), what was the single biggest charge?",
                expected={"year": year, "largest_cents": {r[0]: r[3] for r in rows}},
                rubric=[
                    RubricItem(id=r[0], weight=w, requirement=f"{r[1]}: {m(r[3])}", check=A.amount(r[3]))
                    for r, w in zip(rows, ws)
                ],
            )
        else:
            ranked = sorted(rows, key=lambda r: (-r[2], r[0]))
            task(
                f"x-app-totals-{year}",
                apps,
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1500,
                instruction=f"Where has my money gone {when} across {names}? Rank them by what I spent, biggest first, "
                "and give me the top two amounts.",
                expected={"year": year, "ranking": [r[0] for r in ranked], "totals_cents": {r[0]: r[2] for r in rows}},
                rubric=[
                    RubricItem(
                        id="order",
                        weight=50,
                        requirement="Ranks them " + " > ".join(f"{r[1]} ({m(r[2])})" for r in ranked),
                        check=A.names([spell[r[0]] for r in ranked], ordered=True),
                    ),
                    RubricItem(
                        id="first",
                        weight=25,
                        requirement=f"{ranked[0][1]}: {m(ranked[0][2])}",
                        check=A.amount(ranked[0][2]),
                    ),
                    RubricItem(
                        id="second",
                        weight=25,
                        requirement=f"{ranked[1][1]}: {m(ranked[1][2])}",
                        check=A.amount(ranked[1][2]),
                    ),
                ],
            )
    return out


# --- Independent readers (builder.tasks.reader): each app's own history pages, and the bank's card lines for the
# meals booked on TableTime and the Bramblestay stays ("as charged to my card").


def _shop_orders(see: See, year: int) -> list[dict]:
    """Shopwell's orders placed in ``year`` (its year tab, every page): ``{day, cents, number, state}``."""
    out: list[dict] = []
    page_no = 1
    while True:
        page = see.page("shop", "/orders", {"year": str(year), **({"page": str(page_no)} if page_no > 1 else {})})
        if not page.xpath('//*[@data-testid="order-count"]'):
            raise Unreadable(f"Shopwell's orders of {year} show no count")
        for o in page.xpath('//*[@data-testid="order"]'):
            head = o.xpath('.//*[@class="sw-order-head"]/div[1]/b')
            out.append(
                {
                    "day": day_in(visible_text(head[0])),
                    "cents": int(o.get("data-total")),
                    "number": o.get("data-order"),
                    "state": o.get("data-state"),
                }
            )
        if not page.xpath('//*[@data-testid="next-page"]'):
            break
        page_no += 1
    # A year the shop has no tab for shows every order: keep only that year's.
    return [o for o in out if o["day"].year == year and o["state"] != "cancelled"]


def _shop_shipping(see: See, order: dict) -> int:
    """The shipping an order's page states (``Shipping : $4.99``)."""
    return B.amount_after(
        visible_text(see.page("shop", f"/orders/{order['number']}").xpath("//main")[0]), "Shipping", "Versand"
    )


def _delivery_orders(see: See) -> list[dict]:
    """DashBite's orders (``/orders``, all months): ``{day, cents, href, state}``."""
    out = []
    for row in see.page("delivery", "/orders").xpath('//*[@data-testid="order-row"]'):
        spans = row.xpath("./span")
        state = (row.xpath('./span[contains(@class, "dbt-state")]') or [None])[0]
        out.append(
            {
                "day": day_in(visible_text(spans[0])),
                "cents": int(row.xpath("./span[@data-cents]")[0].get("data-cents")),
                "href": row.xpath(".//a/@href")[0],
                "state": (state.get("class") or "").split("dbt-state-")[-1] if state is not None else "",
            }
        )
    return [o for o in out if o["state"] != "cancelled"]


def _grocery_orders(see: See) -> list[dict]:
    """Basketful's orders (``/orders``): ``{day (placed), cents, href, state}``."""
    out = []
    for li in see.page("grocery", "/orders").xpath('//*[@data-testid="order"]'):
        text = visible_text(li)
        m = re.search(r"placed\s+(.+?\d{4})", text)
        if not m:
            raise Unreadable(f"a Basketful order without its day placed: {text[:120]!r}")
        state = (li.xpath('.//*[contains(@class, "bf-status-")]') or [None])[0]
        out.append(
            {
                "day": day_in(m.group(1)),
                "cents": parse_money(visible_text(li.xpath('.//*[@data-testid="order-total"]')[0])),
                "href": li.xpath(".//a/@href")[0],
                "state": (state.get("class") or "").split("bf-status-")[-1] if state is not None else "",
            }
        )
    return [o for o in out if o["state"] != "cancelled"]


def _extras_of(see: See, app: str, order: dict) -> int:
    """Fees and tip of a DashBite or Basketful order: its page's total less its subtotal."""
    text = visible_text(see.page(app, order["href"]).xpath("//main")[0])
    total = B.amount_after(text, "Total", "Gesamt")
    return total - B.amount_after(text, "Subtotal", "Zwischensumme")


def _rides(see: See) -> list[dict]:
    """ZipRide's completed rides (``/activity``): ``{day, cents, href}``."""
    out = []
    for li in see.page("rides", "/activity").xpath('//*[@data-testid="ride-row"]'):
        text = visible_text(li)
        if "Cancelled" in text or "In progress" in text:
            continue
        when = li.xpath('.//span[contains(@class, "zr-muted")]')
        out.append(
            {
                "day": day_in(visible_text(when[0]).split("·")[0]),
                "cents": int(li.xpath('.//*[contains(@class, "zr-price")]')[0].get("data-cents")),
                "href": li.xpath(".//a/@href")[0],
            }
        )
    return out


def _ride_tip(see: See, ride: dict) -> int:
    """A ride's tip: its receipt's total less its fare."""
    text = visible_text(see.page("rides", ride["href"]).xpath("//main")[0])
    return B.amount_after(text, "Total") - B.amount_after(text, "Fare")


def _meals(see: See) -> list[dict]:
    """The meals booked on TableTime as the card shows them: each past reservation (``/reservations?tab=past``: the
    restaurant and the day) with the card purchase at that restaurant on that day (credit or debit card), ``{day,
    cents, restaurant}``. A meal without a charge of the persona's (a friend paid) is left out."""
    page = see.page("dining", "/reservations", {"tab": "past"})
    booked = []
    for li in page.xpath('//li[@data-testid="reservation"]'):
        name = " ".join(li.xpath(".//strong")[0].text_content().split())
        booked.append((dt.date.fromisoformat(li.get("data-day")), name))
    if not booked:
        return []
    first, last = min(d for d, _ in booked), max(d for d, _ in booked)
    lines = B.purchases(see, first, last)
    out, used = [], set()
    for day, name in sorted(booked):
        for i, r in enumerate(lines):
            if i not in used and r["day"] == day and B.merchant(r).upper() == name.upper():
                used.add(i)
                out.append({"day": day, "cents": -r["cents"], "restaurant": name})
                break
    return out


def _flights(see: See) -> list[dict]:
    """Meridian Air's bookings (every tab of My Trips): ``{day (booked), cents (total paid)}``."""
    out = []
    for tab in ("upcoming", "past", "cancelled"):
        for li in see.page("airline", "/", {"tab": tab}).xpath('//li[@data-testid="trip"]'):
            text = visible_text(see.page("airline", f"/trips/{li.get('data-pnr')}").xpath("//main")[0])
            m = re.search(r"Booked\s+(.+?\d{4})", text)
            if not m:
                raise Unreadable(f"trip {li.get('data-pnr')} names no booking day")
            out.append({"day": day_in(m.group(1)), "cents": B.amount_after(text, "Total paid"), "tab": tab})
    return out


def _stays(see: See) -> list[dict]:
    """Bramblestay's past stays as charged to the card: each past trip's card line from its check-in to two days
    after its check-out (the card posts a charge abroad on the home clock's day) naming the property or BRAMBLESTAY
    and the confirmation, ``{day (posted), cents, hotel}``."""
    out = []
    for t in see.page("stays", "/trips", {"tab": "past"}).xpath('//*[@data-testid="trip"]'):
        first = dt.date.fromisoformat(t.get("data-check-in"))
        last = dt.date.fromisoformat(t.get("data-check-out")) + dt.timedelta(days=2)
        conf = t.get("data-confirmation")
        prop = t.xpath('.//div[@class="bs-trip-main"]/span[1]')
        name = visible_text(prop[0]).upper() if prop else ""
        lines = [
            r
            for kind in B.card_kinds(see)
            for r in B.ledger(see, kind, first, last)
            if r["cents"] < 0 and (conf in r["description"] or (name and B.merchant(r).upper().startswith(name)))
        ]
        if len(lines) != 1:
            raise Unreadable(f"stay {conf} ({name}): {len(lines)} card lines from {first} to {last}")
        out.append({"day": lines[0]["day"], "cents": -lines[0]["cents"], "hotel": name})
    return out


BRANDS = {
    "shop": "Shopwell",
    "delivery": "DashBite",
    "grocery": "Basketful",
    "rides": "ZipRide",
    "dining": "TableTime",
    "airline": "Meridian Air",
    "stays": "Bramblestay",
}


def _charges(see: See, start: dt.date, end: dt.date, travel: bool = False) -> dict[str, list[dict]]:
    """App -> its charges from ``start`` to ``end`` (both included, up to today), as the apps show them: Shopwell,
    DashBite, Basketful and ZipRide by their own histories, the TableTime meals by the card; with ``travel``,
    Meridian Air's bookings and the Bramblestay stays as charged too. An app with none is left out."""
    today = see.now.date()
    end = min(end, today)

    def inside(rows):
        return [r for r in rows if start <= r["day"] <= end]

    found = {
        "shop": [o for y in range(start.year, end.year + 1) for o in inside(_shop_orders(see, y))],
        "delivery": inside(_delivery_orders(see)) if "delivery" in see.domains else [],
        "grocery": inside(_grocery_orders(see)) if "grocery" in see.domains else [],
        "rides": inside(_rides(see)) if "rides" in see.domains else [],
        "dining": inside(_meals(see)),
    }
    if travel:
        found["airline"] = inside(_flights(see))
        found["stays"] = inside(_stays(see))
    return {app: rows for app, rows in found.items() if rows}


def _extras(see: See, app: str, rows: list[dict]) -> int:
    """The extras of ``rows`` of ``app``: Shopwell's shipping, DashBite's and Basketful's fees and tips, ZipRide's
    tips, as each order's or ride's page states them."""
    if app == "shop":
        return sum(_shop_shipping(see, o) for o in rows)
    if app in ("delivery", "grocery"):
        return sum(_extras_of(see, app, o) for o in rows)
    if app == "rides":
        return sum(_ride_tip(see, r) for r in rows)
    return 0


def _fx_fees(see: See, start: dt.date, end: dt.date) -> int:
    """The cards' foreign transaction fees from ``start`` to ``end``: their lines in category Fees (the credit
    card's, and the debit card's on checking)."""
    return -sum(r["cents"] for r in B.fees(see, start, end))


def _tally(charges: dict[str, list[dict]]) -> list[str]:
    return [
        f"{BRANDS[a]}: {len(rows)} charges, {sum(r['cents'] for r in rows)} cents, largest "
        f"{max(r['cents'] for r in rows)}"
        for a, rows in charges.items()
    ]


def _ranking(totals: dict[str, int]) -> tuple[list[str], float]:
    """Apps by total, most first, and the smallest gap between neighbours (0: a tie somewhere)."""
    order = sorted(totals, key=lambda a: -totals[a])
    gaps = [totals[a] - totals[b] for a, b in zip(order, order[1:])]
    return order, min(gaps) if gaps else 1


def _month(given: dict) -> tuple[dt.date, dt.date]:
    return B.month_bounds(given["month"])


@reader("month")
def _read_totals(see: See, given: dict) -> Reading:
    ch = _charges(see, *_month(given))
    values = {a: sum(r["cents"] for r in rows) for a, rows in ch.items()}
    values["sum"] = sum(values.values())
    return Reading(values=values, steps=[f"{given['month']}:", *_tally(ch)])


@reader("month", unique=True)
def _read_rank(see: See, given: dict) -> Reading:
    ch = _charges(see, *_month(given))
    totals = {a: sum(r["cents"] for r in rows) for a, rows in ch.items()}
    order, margin = _ranking(totals)
    return Reading(
        values={"order": [BRANDS[a] for a in order], "top": totals[order[0]]},
        steps=[f"{given['month']}:", *_tally(ch)],
        margin=margin,
    )


@reader("month")
def _read_extras(see: See, given: dict) -> Reading:
    start, end = _month(given)
    ch = {a: rows for a, rows in _charges(see, start, end).items() if a != "dining"}
    values = {a: _extras(see, a, rows) for a, rows in ch.items()}
    values["fx"] = _fx_fees(see, start, end)
    values["sum"] = sum(values.values())
    return Reading(values=values, steps=[f"{given['month']} extras: {values}"])


@reader("month", unique=True)
def _read_counts(see: See, given: dict) -> Reading:
    ch = _charges(see, *_month(given))
    values: dict = {a: len(rows) for a, rows in ch.items()}
    every = sorted(((r["cents"], a) for a, rows in ch.items() for r in rows), reverse=True)
    values["largest"], top = every[0]
    values["largest-app"] = BRANDS[top]
    # The answer is the amount and its app: a second charge of the same amount at the same app changes neither.
    others = [c for c, a in every if a != top]
    margin = every[0][0] - others[0] if others else every[0][0]
    return Reading(values=values, steps=[f"{given['month']}:", *_tally(ch)], margin=margin)


@reader("month")
def _read_all_in(see: See, given: dict) -> Reading:
    ch = _charges(see, *_month(given))
    total = sum(r["cents"] for rows in ch.values() for r in rows)
    extras = sum(_extras(see, a, rows) for a, rows in ch.items() if a != "dining")
    return Reading(values={"total": total, "extras": extras}, steps=[f"{given['month']}:", *_tally(ch)])


@reader("month")
def _read_per_app(see: See, given: dict) -> Reading:
    ch = _charges(see, *_month(given))
    values: dict = {}
    for a, rows in ch.items():
        values[f"{a}-total"] = sum(r["cents"] for r in rows)
        values[f"{a}-count"] = len(rows)
    return Reading(values=values, steps=[f"{given['month']}:", *_tally(ch)])


def _year(see: See, given: dict) -> dict[str, list[dict]]:
    y = int(given["year"])
    return _charges(see, dt.date(y, 1, 1), dt.date(y, 12, 31), travel=True)


@reader("year")
def _read_year_largest(see: See, given: dict) -> Reading:
    ch = _year(see, given)
    return Reading(values={a: max(r["cents"] for r in rows) for a, rows in ch.items()}, steps=_tally(ch))


@reader("year", unique=True)
def _read_year_totals(see: See, given: dict) -> Reading:
    ch = _year(see, given)
    totals = {a: sum(r["cents"] for r in rows) for a, rows in ch.items()}
    order, margin = _ranking(totals)
    return Reading(
        values={"order": [BRANDS[a] for a in order], "first": totals[order[0]], "second": totals[order[1]]},
        steps=_tally(ch),
        margin=margin,
    )


_VARIANTS = {
    "totals": _read_totals,
    "rank": _read_rank,
    "extras": _read_extras,
    "counts": _read_counts,
    "all-in": _read_all_in,
    "per-app": _read_per_app,
}
#: Slug -> reader. The slugs name their month or year; every month and year a build's clock can give is listed.
READERS = {
    **{f"x-apps-{v}-*": r for v, r in _VARIANTS.items()},
    "x-largest-charge-*": _read_year_largest,
    "x-app-totals-*": _read_year_totals,
}


SCENARIOS = [Scenario(home="bank", apps=("bank",), tasks=crossapp_tasks, rank=RECAPS, readers=READERS)]
