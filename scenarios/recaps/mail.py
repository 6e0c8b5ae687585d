"""Mailbox's answers summed or compared over several apps, among its own tasks: last month's food delivery receipts
and the latest payslip against the bank; after its clean-up, a meeting the mail moved but the calendar has not, the
invitations and documents still owed, and the unread round-up across mail, Parley and Huddle."""

from __future__ import annotations

import datetime as dt

from apps.mail.tasks import KIT
from builder.money import money
from builder.tasks import answers as A
from builder.tasks.collect import FIRST, Scenario
from builder.tasks.model import Check, RubricItem, Task
from builder.tasks.phrasing import last_month
from builder.world import World


def _date_forms(day: dt.date) -> list[str]:
    return [
        f"{day:%B} {day.day}",
        f"{day:%b} {day.day}",
        f"{day.month}/{day.day}",
        day.isoformat(),
        f"{day.day} {day:%B}",
    ]


def bank_tasks(world: World) -> list[Task]:
    """Last month's food delivery receipts (count and total, the card's charges agree) and the latest payslip's net
    pay against the checking deposit; none without their material."""
    cur = world.currency
    mails = [e for e in world.of_kind("email") if e.status == "done"]
    m_start, m_end = last_month(world.now)
    out: list[Task] = []
    task = KIT.adder(world, out)

    # 1. Food delivery receipts last month (mail receipts, the same charges in the bank).
    food = [e for e in world.of_kind("food_order") if e.status == "done" and m_start <= e.at.date() <= m_end]
    if food:
        total = sum(e.data["total_cents"] for e in food)
        task(
            "food-orders-month",
            ["mail", "bank"],
            kind="aggregation",
            difficulty="hard",
            time_limit_seconds=600,
            instruction=f"Add up my food delivery order receipts from {m_start:%B %Y}: how many orders and what was "
            "the total? Check it against the card charges.",
            expected={"orders": len(food), "total_cents": total},
            rubric=[
                RubricItem(
                    id="total",
                    weight=70,
                    requirement=f"States the total {money(total, cur)}",
                    check=Check(type="answer_amount", cents=total),
                ),
                RubricItem(
                    id="count",
                    weight=30,
                    requirement=f"Says it was {len(food)} orders",
                    check=A.text(f"{len(food)} orders", f"{len(food)} food", f"{len(food)} deliver"),
                ),
            ],
        )

    # 2. The last payslip's net pay, and whether the bank deposit matches (mail + bank).
    pay_mails = [e for e in mails if "payroll" in e.data["labels"] and e.data.get("ref")]
    paychecks = {e.id: e for e in world.of_kind("paycheck")}
    if pay_mails and pay_mails[-1].data["ref"] in paychecks:
        pc = paychecks[pay_mails[-1].data["ref"]]
        net = pc.data["net_cents"]
        task(
            "payslip-vs-deposit",
            ["mail", "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=420,
            instruction="Open my latest pay statement from payroll: what net pay does it show, and did the same "
            "amount arrive in my checking account?",
            expected={"net_cents": net, "pay_date": pc.at.date().isoformat(), "deposit_matches": True},
            rubric=[
                RubricItem(
                    id="net",
                    weight=60,
                    requirement=f"States the net pay {money(net, cur)}",
                    check=Check(type="answer_amount", cents=net),
                ),
                RubricItem(
                    id="date",
                    weight=20,
                    requirement=f"Gives the pay date {pc.at:%B %-d}",
                    check=Check(type="answer_text", any_of=_date_forms(pc.at.date())),
                ),
                RubricItem(id="match", weight=20, requirement="Says the checking deposit matches the payslip"),
            ],
        )
    return out


def reasoning_tasks(world: World) -> list[Task]:
    """Mail's contradiction task (how far the organizer's mail moved a meeting the calendar still has at the old
    time), the invitations and documents still owed (mail and calendar) and the unread round-up across mail, Parley
    and Huddle (every ``unread`` item the world planted). Items the world lacks give no task."""
    from builder.tasks import answers as A

    p = world.persona
    pid = p.id
    out: list[Task] = []

    it = A.planted(world, "contradiction/meeting-moved")
    if it:
        cal, new = dt.datetime.fromisoformat(it["calendar_start"]), dt.datetime.fromisoformat(it["mail_start"])
        end = new + dt.timedelta(minutes=it.get("minutes") or 0)
        first = it["organizer"].split()[0]
        rubric = [
            RubricItem(
                id="start",
                weight=35,
                requirement=f"Gives the new start {new:%A %H:%M}",
                check=A.text(*A.time_forms(new)),
            ),
            RubricItem(
                id="calendar",
                weight=25,
                requirement=f"Says the calendar still shows {cal:%A %H:%M}",
                check=A.text(*A.time_forms(cal)),
            ),
            RubricItem(
                id="order",
                weight=25,
                requirement="Names the new time before the calendar's",
                check=A.names([A.time_forms(new), A.time_forms(cal)], ordered=True),
            ),
        ]
        if it.get("minutes"):
            rubric.append(
                RubricItem(
                    id="end", weight=15, requirement=f"Gives the end {end:%H:%M}", check=A.text(*A.time_forms(end))
                )
            )
        else:
            rubric[0] = rubric[0].model_copy(update={"weight": 50})
        out.append(
            Task(
                id=f"{pid}/mail/cx-meeting-email",
                persona=pid,
                apps_involved=["mail", "calendar"],
                kind="lookup",
                category="contradiction",
                difficulty="medium",
                time_limit_seconds=420,
                instruction=f"{first} emailed me about “{it['title']}”. According to that email, when does it "
                "start and end now, and what does my calendar still show? New time first.",
                expected={
                    "title": it["title"],
                    "right": it["mail_start"],
                    "end": end.isoformat(),
                    "stale": it["calendar_start"],
                    "truth": "mail",
                },
                planted=[it["id"]],
                rubric=rubric,
            )
        )

    rsvp, docs = A.planted_of(world, "pending", "rsvp"), A.planted_of(world, "pending", "send_document")
    if rsvp or docs:
        items = [(x["title"], x["rsvp_by"]) for x in rsvp] + [(x["form"], x["due"]) for x in docs]
        rubric = []
        for i, (what, due) in enumerate(items):
            rubric += [
                RubricItem(id=f"what-{i}", weight=1, requirement=f"Names {what}", check=A.text(what)),
                RubricItem(
                    id=f"due-{i}", weight=1, requirement=f"Gives the deadline {due}", check=A.text(*A.date_forms(due))
                ),
            ]
        share = 100 // len(rubric)
        rubric = [
            r.model_copy(update={"weight": share + (100 - share * len(rubric) if k == 0 else 0)})
            for k, r in enumerate(rubric)
        ]
        out.append(
            Task(
                id=f"{pid}/mail/open-obligations",
                persona=pid,
                apps_involved=["mail", "calendar"],
                kind="aggregation",
                difficulty="medium",
                time_limit_seconds=600,
                instruction="Which invitations am I still supposed to answer, and which documents have people "
                "asked me to send? For each, tell me what it is and the deadline.",
                expected={"items": [{"what": w, "due": d} for w, d in items]},
                planted=[x["id"] for x in rsvp + docs],
                rubric=rubric,
            )
        )

    unread = A.planted_of(world, "unread")
    if unread:
        people = {c.name for c in p.contacts} | set(p.work.colleagues if p.work and p.work.colleagues else [])
        who = list(dict.fromkeys(x["sender"] for x in unread if x["sender"] in people))
        apps = list(dict.fromkeys(x["app"] for x in unread))
        label = {"mail": "email", "messaging": "Parley", "workchat": "Huddle"}
        if who:
            out.append(
                Task(
                    id=f"{pid}/mail/unread-people",
                    persona=pid,
                    apps_involved=apps,
                    kind="aggregation",
                    difficulty="hard",
                    time_limit_seconds=900,
                    instruction="I've fallen behind on messages. Across "
                    + ", ".join(label.get(a, a) for a in apps)
                    + ", which people (not companies or newsletters) have written to me in the last "
                    "three days without me having read it yet? And how many unread messages is "
                    "that in total, companies included?",
                    expected={"people": who, "unread": len(unread), "apps": apps},
                    planted=[x["id"] for x in unread],
                    rubric=[
                        RubricItem(
                            id="people",
                            weight=70,
                            requirement="Names " + ", ".join(who),
                            check=A.names([A.person(n) for n in who]),
                        ),
                        RubricItem(
                            id="count",
                            weight=30,
                            requirement=f"Says {len(unread)} unread messages",
                            check=A.number(len(unread)),
                        ),
                    ],
                )
            )
    return out


SCENARIOS = [
    Scenario(home="mail", apps=("mail", "bank"), tasks=bank_tasks, after=("newsletter-count", FIRST)),
    Scenario(
        home="mail",
        apps=("mail",),
        tasks=reasoning_tasks,
        after=("archive-newsletters", "reply-latest", "newsletter-count", FIRST),
    ),
]
