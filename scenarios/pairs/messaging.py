"""Parley's two-app answer tasks (ids ``<persona>/messaging/pair-...``): one question each whose answer needs
exactly the two apps it names (see :mod:`builder.tasks.pairs` for the shared rules)."""

from __future__ import annotations

from builder.tasks import answers as A
from builder.tasks import pairs as P
from builder.tasks.collect import Scenario
from builder.tasks.model import RubricItem, Task
from builder.tasks.phrasing import month_phrase
from builder.world import World
from scenarios import PAIRS


def pair_tasks(world: World) -> list[Task]:
    """Parley's pair tasks of ``world`` (empty when the world lacks their material)."""
    return P.collect(world, "messaging", _build)


def _build(world: World, task) -> None:
    today = world.now.date()
    me = world.persona.identity.name
    nxt = P.next_trip(world)
    if nxt:
        fb = nxt["booking"]
        friends = [n for n in fb.data["passengers"] if n != me]
        ref = {fb.id} | {f.id for f in nxt["flights"]}
        said = [
            m
            for m in P.done(world, "chat_message")
            if m.data.get("ref") in ref and m.data["sender"] != "me" and m.data.get("contact") in friends
        ]
        if said:
            who = said[-1].data["contact"]
            last = nxt["flights"][-1]
            dep = P.ts(nxt["flights"][0].data["dep_local"])
            back = P.ts(last.data["dep_local"])
            pnr = fb.data["pnr"]
            task(
                "pair-trip-friend-flight",
                ["messaging", "airline"],
                kind="lookup",
                difficulty="medium",
                time_limit_seconds=420,
                instruction=f"{who.split()[0]} has been texting me about our trip {month_phrase(dep.date(), today)}"
                ". What's our booking's confirmation code, and which flight brings us home on what day?",
                expected={
                    "friend": who,
                    "pnr": pnr,
                    "return_flight": last.data["flight_number"],
                    "return_departs": last.data["dep_local"],
                },
                rubric=[
                    RubricItem(id="pnr", weight=40, requirement=f"Gives {pnr}", check=A.text(pnr)),
                    RubricItem(
                        id="flight",
                        weight=35,
                        requirement=f"Names {last.data['flight_number']}",
                        check=A.text(last.data["flight_number"], last.data["flight_number"].replace(" ", "")),
                    ),
                    RubricItem(
                        id="day",
                        weight=25,
                        requirement=f"Leaves {back:%B %d}",
                        check=A.text(*A.date_forms(back.date())),
                    ),
                ],
            )


SCENARIOS = [Scenario(home="messaging", apps=("messaging",), tasks=pair_tasks, rank=PAIRS)]
