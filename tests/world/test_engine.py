"""The world's engine (builder/world/engine.py): steps found by their declarations, ordered from them, held to them."""

from __future__ import annotations

import datetime as dt

import pytest

from builder.world.context import Sim
from builder.world.engine import Step, discover, order, plan, run_steps


def _step(name: str, rank: int = 0, reads=(), writes=(), amends=(), run=lambda sim: None) -> Step:
    return Step(name, name.split(".")[0], run, frozenset(reads), frozenset(writes), frozenset(amends), rank)


def test_readers_run_after_writers_and_amenders_after_readers():
    steps = plan()
    at = {s.name: n for n, s in enumerate(steps)}
    for s in steps:
        for w in steps:
            if w is not s and s.reads & w.writes:
                assert at[w.name] < at[s.name], (w.name, s.name)
            if w is not s and s.amends & w.reads:
                assert at[w.name] < at[s.name], (w.name, s.name)
    assert steps[-1].name == "finance.settle"  # reads the whole ledger


def test_every_step_is_found_once_and_declares_what_it_writes():
    steps = discover()
    assert len({s.name for s in steps}) == len(steps)
    assert {"finance", "travel", "orders", "mail", "planted", "career"} <= {s.module for s in steps}
    assert all(s.writes or s.amends for s in steps)


def test_ties_go_by_rank_then_name():
    a, b, c = _step("b.x", rank=2), _step("a.x", rank=2), _step("c.x", rank=1)
    assert [s.name for s in order([a, b, c])] == ["c.x", "a.x", "b.x"]
    # a declaration outranks the rank: the reader waits for its writer
    w, r = _step("w.x", rank=9, writes=("thing",)), _step("r.x", rank=1, reads=("thing",))
    assert [s.name for s in order([r, w])] == ["w.x", "r.x"]
    # an amender waits for the readers of what it amends
    m = _step("m.x", rank=0, amends=("thing",))
    assert [s.name for s in order([m, r, w])] == ["w.x", "r.x", "m.x"]


def test_a_cycle_is_an_error_naming_it():
    a = _step("a.x", reads=("b",), writes=("a",))
    b = _step("b.x", reads=("a",), writes=("b",))
    c = _step("c.x", writes=("c",))
    with pytest.raises(ValueError, match=r"a\.x -> b\.x -> a\.x"):
        order([c, a, b])


def test_leaving_out_names_modules_or_steps():
    names = [s.name for s in plan(("career", "finance.settle"))]
    assert "career.simulate_career" not in names and "finance.settle" not in names
    assert "finance.simulate_p2p" in names
    with pytest.raises(KeyError):
        plan(("astrology",))


def test_a_step_is_held_to_its_declarations(persona):
    now = dt.datetime.combine(persona.as_of, dt.time(9))
    sim = Sim(persona=persona, start=now - dt.timedelta(days=30), now=now, end=now, merchants=[])

    def writes_undeclared(sim):
        sim.event("email", now, {})

    def reads_undeclared(sim):
        sim.of_kind("flight")

    def fine(sim):
        sim.event("forecast_watch", now, {"ticker": "RAIN"})
        assert len(sim.of_kind("forecast_watch")) == 1

    run_steps(sim, [_step("ok.x", writes=("forecast_watch",), run=fine)])
    for f in (writes_undeclared, reads_undeclared):
        with pytest.raises(ValueError, match="undeclared"):
            run_steps(sim, [_step("bad.x", writes=("forecast_watch",), run=f)])
    assert sim.step is None


def test_no_world_module_sits_in_an_import_cycle():
    """The engine finds the modules, so none imports another back (scripts/structure-report, function-level imports
    counted too)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, str(root / "scripts" / "structure-report"), str(root)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    line = next(x for x in out.splitlines() if x.startswith("world modules in import cycles"))
    assert line.split()[-3] == "0", line
