"""DashBite's errand across apps: the sick day (the usual dinner delivered, work chat told, the calendar cleared, mail);
with its reference solution."""

from __future__ import annotations

import datetime as dt

from apps.delivery.steps import charge_pending, new_order, order, scheduled
from apps.delivery.tasks import in_use, usual_dinner
from builder.money import money
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
    return [
        Task(
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


SCENARIOS = [
    Scenario(
        home="delivery",
        apps=("delivery", "bank", "workchat", "mail", "calendar"),
        tasks=sick_day_tasks,
        solvers={"sick-day": sick_day},
        after="schedule-usual-dinner",
    )
]
