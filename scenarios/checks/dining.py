"""TableTime's look-ups through one other app (ids ``<persona>/dining/<slug>``): the meal out in the calendar, the
card charge of the latest dinner, who came to the latest dinner with company. They open TableTime's list, after its
next reservation when there is one."""

from __future__ import annotations

from apps.dining.tasks import APP, KIT, day_text, history, in_use, text
from builder.money import money
from builder.tasks.collect import Scenario
from builder.tasks.model import Check, RubricItem, Task
from builder.world import World


def calendar_tasks(world: World) -> list[Task]:
    """What the meal out in the calendar on the day of the last upcoming reservation is (dining + calendar)."""
    out: list[Task] = []
    _, upcoming = history(world)
    if upcoming:
        last_up = upcoming[-1]
        d = last_up["at"].date()
        KIT.adder(world, out)(
            "dinner-on-calendar",
            [APP, "calendar"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"I have a meal out in my calendar on {day_text(d, world.persona.bank)}. Which restaurant is "
            "it, and how many people is the table for?",
            expected={
                "restaurant": last_up["restaurant"],
                "party": last_up["party_size"],
                "confirmation": last_up["confirmation"],
            },
            rubric=[
                RubricItem(
                    id="restaurant",
                    weight=70,
                    requirement=f"Names {last_up['restaurant']}",
                    check=text(last_up["restaurant"]),
                ),
                RubricItem(id="party", weight=30, requirement=f"Says a table for {last_up['party_size']}"),
            ],
        )
    return out


def bank_tasks(world: World) -> list[Task]:
    """What the latest dinner paid by card came to, tip included (dining + bank)."""
    out: list[Task] = []
    past, _ = history(world)
    paid = [b for b in past if b["paid"] is not None and b["paid"].status == "done"]
    if paid:
        b = paid[-1]
        amount = b["paid"].data["amount_cents"]
        d = b["at"].date()
        KIT.adder(world, out)(
            "last-dinner-cost",
            [APP, "bank"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"How much did my meal at {b['restaurant']} on {day_text(d, world.persona.bank)} come to "
            "on my card, tip included?",
            expected={
                "confirmation": b["confirmation"],
                "amount_cents": amount,
                "tip_cents": b["paid"].data.get("tip_cents"),
            },
            rubric=[
                RubricItem(
                    id="amount",
                    weight=100,
                    requirement=f"States {money(amount, world.currency)}",
                    check=Check(type="answer_amount", cents=amount),
                )
            ],
        )
    return out


def messaging_tasks(world: World) -> list[Task]:
    """Who came to the latest dinner with company (dining + messaging)."""
    out: list[Task] = []
    past, _ = history(world)
    company = [b for b in past if b["companions"]]
    if company:
        b = company[-1]
        d = b["at"].date()
        weight = 100 // len(b["companions"])
        items = [
            RubricItem(
                id=f"name-{i}",
                weight=weight + (100 - weight * len(b["companions"]) if i == 0 else 0),
                requirement=f"Names {n}",
                check=text(n, n.split()[0]),
            )
            for i, n in enumerate(b["companions"])
        ]
        KIT.adder(world, out)(
            "who-came",
            [APP, "messaging"],
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"Who did I eat with at {b['restaurant']} on {day_text(d, world.persona.bank)}?",
            expected={"confirmation": b["confirmation"], "companions": b["companions"]},
            rubric=items,
        )
    return out


#: After the next reservation, or first when there is none; in this order.
_FIRST = ("next-reservation", "")

SCENARIOS = [
    Scenario(home=APP, apps=(APP, "calendar"), tasks=calendar_tasks, after=_FIRST, when=in_use),
    Scenario(home=APP, apps=(APP, "bank"), tasks=bank_tasks, after=_FIRST, when=in_use),
    Scenario(home=APP, apps=(APP, "messaging"), tasks=messaging_tasks, after=_FIRST, when=in_use),
]
