"""DashBite's errands across apps, among its own tasks: the usual dinner tonight (the bank shows the charge), the sick
day (the usual dinner delivered, work chat told, the calendar cleared, mail), an order again from its confirmation
mail; with their reference solutions."""

from __future__ import annotations

import datetime as dt

from apps.delivery.steps import KIT, SLACK_MINUTES, charge_pending, new_order, order, scheduled, window
from apps.delivery.tasks import APP, done_orders, in_use, open_for, usual_dinner
from builder.reference.delivery import catalogue as delivery
from builder.money import money
from builder.tasks import effects
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.oracle import Web
from builder.world import World


def _sick_day(world: World, place: dict, slot: dt.datetime, items: list[dict], q: dict, tp: int) -> list[Task]:
    """Off sick today (five apps, long horizon): the Huddle status and a post in the team channel, a mail to the lead,
    the day blocked in the work calendar, and the usual DashBite dinner at 7 pm with the usual tip."""
    from apps.calendar import steps as daybook
    from apps.mail import steps as mailbox
    from apps.workchat import steps as huddle
    from builder.tasks import steps as S

    p = world.persona
    cur = world.currency
    lead_of, team = S.work_lead(world), S.team_channel(world)
    if lead_of is None or team is None:
        return []
    lead, lead_email = lead_of
    today = world.now.date().isoformat()
    sick = ["sick", "unwell"]  # not "ill": it is inside "will"
    task = Task(
        id=f"{p.id}/delivery/sick-day",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=["delivery", "bank", "workchat", "mail", "calendar"],
        difficulty="hard",
        time_limit_seconds=1500,
        instruction=f'I\'m off sick today. Set my Huddle status to "Out sick" for today, tell #{team} on Huddle, '
        f'email {lead.split()[0]} that I\'m off sick, block today in my work calendar as an all-day "Out sick", '
        f"and get my usual from {place['name']} delivered on DashBite at 7 pm tonight, with my usual tip.",
        expected={
            "restaurant": place["name"],
            "items": items,
            "when": "later",
            "at": slot.strftime("%Y-%m-%dT%H:%M"),
            "tip": tp,
            **q,
            "channel": team,
            "lead": lead,
            "lead_email": lead_email,
            "today": today,
        },
        rubric=[
            RubricItem(
                id="status",
                weight=10,
                requirement=f'Huddle status "Out sick" clearing today ({today})',
                check=huddle.status_set(sick, today),
            ),
            RubricItem(
                id="post",
                weight=10,
                requirement=f"A post in #{team} says I'm sick",
                check=huddle.posted(team, [sick]),
            ),
            RubricItem(
                id="mail",
                weight=10,
                requirement=f"A mail to {lead} ({lead_email}) says I'm sick",
                check=mailbox.sent(lead_email, [sick]),
            ),
            RubricItem(
                id="calendar",
                weight=15,
                requirement='An all-day "Out sick" in the work calendar today',
                check=daybook.created(today, [sick], calendar="work"),
            ),
            RubricItem(
                id="ordered",
                weight=25,
                requirement=f"A new order from {place['name']} for {slot:%H:%M} today with the usual dishes",
                check=scheduled(place, slot, items, q),
            ),
            RubricItem(
                id="charged",
                weight=15,
                requirement=f"The bank shows {money(q['total_cents'], cur)} pending from DashBite",
                check=charge_pending(q),
            ),
            new_order(len(items)),
        ],
    )
    return [
        effects.acting(
            task,
            ("workchat", f"the status and the post in #{team}", huddle.new_posts(1, 2, status=True)),
            ("calendar", "the day blocked", daybook.new_events(1)),
            ("mail", f"the mail to {lead} (and the answer it draws)", mailbox.new_mail(1)),
        )
    ]


def sick_day(task: Task, web: Web) -> str:
    """The Huddle status and post, the mail to the lead, the work calendar, then the usual dinner."""
    from apps.calendar import steps as daybook
    from apps.mail import steps as mailbox
    from apps.workchat import steps as huddle

    exp = task.expected
    huddle.set_status(web, ":face_with_thermometer:", "Out sick", exp["today"])
    huddle.post(web, exp["channel"], "I'm off sick today, back as soon as I can.")
    mailbox.send(web, exp["lead_email"], "Out sick today", f"Hi {exp['lead'].split()[0]},\n\nI'm off sick today.\n")
    daybook.create(web, title="Out sick", date=exp["today"], all_day="1", calendar="work")
    return order(task, web)


def sick_day_tasks(world: World) -> list[Task]:
    """The sick-day errand, when the usual dinner can be ordered tonight."""
    plan = usual_dinner(world) if in_use(world) else None
    if plan is None:
        return []
    place, slot, items, q = plan
    return _sick_day(world, place, slot, items, q, world.persona.preferences.tipping_percent)


def usual_dinner_tasks(world: World) -> list[Task]:
    """The usual order scheduled for 7 pm tonight with the usual tip; the bank shows the pending charge."""
    out: list[Task] = []
    cur, tp = world.currency, world.persona.preferences.tipping_percent
    plan = usual_dinner(world)
    if plan:
        place, slot, items, q = plan
        KIT.adder(world, out)(
            "schedule-usual-dinner",
            [APP, "bank"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Order my usual from {place['name']} on DashBite, scheduled to arrive at 7 pm tonight, "
            "to my home, with my usual tip.",
            expected={
                "restaurant": place["name"],
                "items": items,
                "when": "later",
                "at": slot.strftime("%Y-%m-%dT%H:%M"),
                "tip": tp,
                **q,
            },
            rubric=[
                RubricItem(
                    id="scheduled",
                    weight=45,
                    requirement=f"A new order from {place['name']} scheduled for {slot:%H:%M} today "
                    f"(within {SLACK_MINUTES} minutes) with the usual dishes",
                    check=scheduled(place, slot, items, q),
                ),
                RubricItem(
                    id="charged",
                    weight=40,
                    requirement=f"The bank shows {money(q['total_cents'], cur)} pending from DashBite",
                    check=charge_pending(q),
                ),
                new_order(len(items)),
            ],
        )
    return out


def reorder_from_mail_tasks(world: World) -> list[Task]:
    """The last order not from the usual place, found by its confirmation mail's date, ordered again for 7:30 pm
    tonight (when that restaurant is open then)."""
    out: list[Task] = []
    p, cur = world.persona, world.currency
    by_name = {x["name"]: x for x in delivery.home_catalogue(p)}
    other = [e for e in done_orders(world) if not e.data["usual"] and e.data["restaurant"] in by_name]
    slot = dt.datetime.combine(world.now.date(), dt.time(19, 30))
    other = [e for e in other if open_for(by_name[e.data["restaurant"]], slot)]
    if other:
        e = other[-1]
        d = e.data
        items = [{"dish_id": x["dish_id"], "qty": x["qty"], "option_ids": x.get("option_ids", [])} for x in d["items"]]
        placed = dt.datetime.fromisoformat(d["placed_local"])
        KIT.adder(world, out)(
            "reorder-from-mail",
            [APP, "mail"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=600,
            instruction=f"I got a DashBite order confirmation by email on {placed:%B %-d, %Y}. Order exactly the same "
            "again (same dishes, options and quantities), delivered to my home at 7:30 pm tonight.",
            expected={
                "order_id": d["order_id"],
                "restaurant": d["restaurant"],
                "items": items,
                "when": "later",
                "at": slot.strftime("%Y-%m-%dT%H:%M"),
                "tip": p.preferences.tipping_percent,
            },
            rubric=[
                RubricItem(
                    id="reordered",
                    weight=85,
                    requirement=f"A new order from {d['restaurant']} for {slot:%H:%M} today with the "
                    f"{len(items)} dishes of {d['order_id']} and a subtotal of "
                    f"{money(d['subtotal_cents'], cur)}",
                    check=KIT.sql(
                        """SELECT COUNT(*) FROM orders o WHERE o.world_ref IS NULL
                                              AND o.restaurant_name = ? AND o.scheduled_for BETWEEN ? AND ?
                                              AND o.subtotal_cents = ?
                                              AND (SELECT COUNT(*) FROM order_items i WHERE i.order_id = o.id) = ?""",
                        [d["restaurant"], *window(slot), d["subtotal_cents"], len(items)],
                        [[1]],
                    ),
                ),
                new_order(len(items)),
            ],
        )
    return out


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=usual_dinner_tasks,
        solvers={"schedule-usual-dinner": order},
        after=("favourite-besides-usual", "biggest-order", "usual-order", "last-month-takeout", "usual-tip"),
        when=in_use,
    ),
    Scenario(
        home="delivery",
        apps=("delivery", "bank", "workchat", "mail", "calendar"),
        tasks=sick_day_tasks,
        solvers={"sick-day": sick_day},
        after="schedule-usual-dinner",
    ),
    Scenario(
        home=APP,
        apps=(APP, "mail"),
        tasks=reorder_from_mail_tasks,
        solvers={"reorder-from-mail": order},
        after=(
            "sick-day",
            "schedule-usual-dinner",
            "favourite-besides-usual",
            "biggest-order",
            "usual-order",
            "last-month-takeout",
            "usual-tip",
        ),
        when=in_use,
    ),
]
