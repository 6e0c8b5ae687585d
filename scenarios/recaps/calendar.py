"""Daybook's answers summed over several apps (ids ``<persona>/calendar/x-...``)."""

from __future__ import annotations

import datetime as dt

from apps.calendar.tasks import year_counts
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.world import World
from scenarios import RECAPS


def crossapp_tasks(world: World) -> list[Task]:
    """A year in numbers across seven apps (flights flown, hotel nights, rides, meals out, DashBite, Basketful and
    Shopwell orders) and the next two weeks across Daybook, TableTime, Shopwell and ZipRide. Missing material gives
    no task."""
    from builder.tasks import answers as A

    p = world.persona
    pid, today = p.id, world.now.date()
    out: list[Task] = []
    labels = {
        "calendar": ("appointments (doctor, dentist and the like) on my calendar", "appointments"),
        "airline": ("flights flown on Meridian Air", "flights"),
        "stays": ("hotel nights booked on Bramblestay", "nights"),
        "rides": ("ZipRide rides", "rides"),
        "dining": ("restaurant meals booked on TableTime", "meals out"),
        "delivery": ("DashBite orders", "DashBite orders"),
        "grocery": ("Basketful grocery orders", "Basketful orders"),
        "shop": ("Shopwell orders", "Shopwell orders"),
    }
    for year in (today.year, today.year - 1):
        counts = {k: v for k, v in year_counts(world, year).items() if v}
        if len(counts) < 3:
            continue
        when = "this year so far" if year == today.year else f"in {year}"
        ws = [100 // len(counts)] * len(counts)
        ws[0] += 100 - sum(ws)
        ask = ", ".join(labels[k][0] for k in counts)
        opening = "My year in numbers, please" if year == today.year else f"Looking back at {year}"
        out.append(
            Task(
                id=f"{pid}/calendar/x-year-in-numbers-{year}",
                persona=pid,
                apps_involved=sorted(counts),
                kind="aggregation",
                difficulty="hard",
                time_limit_seconds=1500,
                instruction=f"{opening}: how many {ask} did I have {when}? One number each.",
                expected={"year": year, "counts": counts},
                rubric=[
                    RubricItem(id=k, weight=w, requirement=f"{v} {labels[k][1]}", check=A.number(v))
                    for (k, v), w in zip(counts.items(), ws)
                ],
            )
        )

    # The next two weeks: personal appointments and occasions (calendar), tables booked (TableTime), parcels due
    # (Shopwell), rides booked (ZipRide).
    end = world.now + dt.timedelta(days=14)
    soon = [e for e in world.events if world.now < e.at <= end]
    appts = sorted(
        {
            e.data["title"]
            for e in soon
            if e.kind == "calendar_event"
            and e.data.get("calendar") == "personal"
            and e.data.get("source") in ("appointment", "life_event", "birthday")
        }
    )
    tables = [
        e
        for e in world.of_kind("restaurant_booking")
        if world.now < dt.datetime.fromisoformat(e.data["reservation_local"]).replace(tzinfo=None) <= end
    ]
    parcels = [e for e in soon if e.kind == "retail_delivery"]
    rides = [e for e in soon if e.kind == "ride"]
    groups = [x for x in (appts, tables, parcels, rides) if x]
    if appts and len(groups) >= 2:
        apps = (
            ["calendar"] + (["dining"] if tables else []) + (["shop"] if parcels else []) + (["rides"] if rides else [])
        )
        items: list = [[t] for t in appts] + [[e.data["restaurant"]] for e in tables]
        rubric = [
            RubricItem(
                id="named",
                weight=60 if parcels or rides else 100,
                requirement="Names " + "; ".join(x[0] for x in items),
                check=A.names(items),
            )
        ]
        ask = ["my appointments, birthdays and other occasions in the calendar (not the gym or meetings)"]
        expected = {"calendar": appts, "tables": [e.data["restaurant"] for e in tables]}
        if tables:
            ask.append("the restaurant tables I've booked")
        if parcels:
            ask.append("how many Shopwell parcels are due")
            rubric.append(
                RubricItem(
                    id="parcels",
                    weight=40 if not rides else 20,
                    requirement=f"{len(parcels)} parcels due",
                    check=A.number(len(parcels)),
                )
            )
            expected["parcels"] = [e.data["order_id"] for e in parcels]
        if rides:
            ask.append("how many ZipRides I have booked")
            rubric.append(
                RubricItem(
                    id="rides",
                    weight=40 if not parcels else 20,
                    requirement=f"{len(rides)} rides booked",
                    check=A.number(len(rides)),
                )
            )
            expected["rides"] = [e.data["ride_id"] for e in rides]
        out.append(
            Task(
                id=f"{pid}/calendar/x-next-two-weeks",
                persona=pid,
                apps_involved=apps,
                kind="aggregation",
                difficulty="medium",
                time_limit_seconds=900,
                instruction="Brief me on the next two weeks: " + ", ".join(ask[:-1]) + f" and {ask[-1]}.",
                expected=expected,
                rubric=rubric,
            )
        )
    return out


SCENARIOS = [Scenario(home="calendar", apps=("calendar",), tasks=crossapp_tasks, rank=RECAPS)]
