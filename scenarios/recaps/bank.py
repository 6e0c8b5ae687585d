"""Larkspur Bank's answers summed over several apps (ids ``<persona>/bank/x-...``)."""

from __future__ import annotations

import datetime as dt

from apps.bank.tasks import KIT
from builder.money import money
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
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

    def apps_of(spends) -> list[str]:
        apps = sorted({s.app for s in spends})
        return sorted(set(apps) | {"bank"}) if "dining" in apps else apps

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
        if len(spends) < 2 or (variant != "extras" and "dining" not in {s.app for s in spends}):
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
                apps_of(spends),
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
                apps_of(spends),
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
                apps_of(spends),
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
                apps_of(spends),
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
                apps_of(spends),
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


SCENARIOS = [Scenario(home="bank", apps=("bank",), tasks=crossapp_tasks, rank=RECAPS)]
