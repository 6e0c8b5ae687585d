"""The long chain the planted schedule change breaks, across six apps (``scenarios/errands/airline.py:
flight_change_task``): move the flight in Daybook, book the airport ride in ZipRide for the new departure, start
the Bramblestay stay the night the persona now arrives, mail the restaurant of the first evening's dinner, and tell
the travel companion in Parley.

Its reference solution sits beside it (``flight-change-fallout``), run with every other action
task's by ``tests/tasks/test_oracles.py`` (doing nothing scores 0, the solution the full machine weight).
"""

from __future__ import annotations

from scenarios.errands.airline import flight_change_task


def test_the_chain_is_a_long_horizon_task_over_five_apps_or_more(world):
    task = flight_change_task(world)
    assert task is not None, "the default persona's world plants the flight change"
    assert task.category == "long_horizon" and task.kind == "action"
    assert len(task.apps_involved) >= 5
    assert task.planted == ["chain/flight-change"]
    judged = sum(i.weight for i in task.rubric if not i.check.machine)
    assert judged <= 20
    assert any(i.check.type == "state_diff" for i in task.rubric)
