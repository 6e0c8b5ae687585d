"""The timeline: runs the world's modules over one :class:`Sim` in the order the engine derives from their
declarations (:mod:`builder.world.engine`).

``now`` is ``as_of`` at 09:00 local time; events after it are ``scheduled`` (only planned
items: paychecks, bills, bookings, trips, meetings). History starts ``history_months``
months before ``as_of`` on the same day of month; the horizon ends ``horizon_days`` after it.

Order matters only for reading: a step reads the events of the steps before it (mail quotes bookings, browsing
follows orders, settlement sees every card charge); each draws from its own streams, so adding a module never
shifts another's draws.
"""

from __future__ import annotations

import datetime as dt

from ..dates import add_months
from ..persona import Persona
from .engine import plan, run_steps
from .context import Sim
from .finance import make_merchants
from .model import World


def simulate(p: Persona, *, without: tuple[str, ...] = ()) -> World:
    """Simulate the completed persona ``p`` (see :func:`builder.persona.complete`) into a :class:`World`.

    ``without`` names world modules (``career``) or steps (``finance.settle``) to leave out (the tests that adding
    one shifts nothing else). Raises ``ValueError`` if ``p`` lacks a checking account (every flow runs through it),
    ``KeyError`` for an unknown name in ``without``.
    """
    steps = plan(without)
    sim = begin(p)
    run_steps(sim, steps)
    return finish(sim)


def begin(p: Persona) -> Sim:
    """The empty :class:`Sim` of the completed persona ``p``: its history start, ``now`` and horizon end, and its
    merchants. :func:`simulate` is ``finish(run_steps(begin(p), plan(without)))``; a caller that runs several plans
    sharing their first steps may run those once and continue from a copy (a pickle round trip). Raises
    ``ValueError`` if ``p`` lacks a checking account (every flow runs through it)."""
    if "checking" not in [a.kind for a in p.accounts]:
        raise ValueError("the persona needs a checking account")
    now = dt.datetime.combine(p.as_of, dt.time(9, 0))
    start = dt.datetime.combine(add_months(p.as_of, -p.history_months), dt.time(0, 0))
    end = dt.datetime.combine(p.as_of + dt.timedelta(days=p.horizon_days), dt.time(23, 59, 59))
    return Sim(persona=p, start=start, now=now, end=end, merchants=make_merchants(p))


def finish(sim: Sim) -> World:
    """The :class:`World` of a :class:`Sim` whose steps have run: its events sorted by (time, id)."""
    return World(
        persona=sim.persona,
        start=sim.start,
        now=sim.now,
        end=sim.end,
        currency=sim.persona.finances.currency,
        merchants=sim.merchants,
        events=sorted(sim.events, key=lambda e: (e.at, e.id)),
        planted=list(sim.planted),
    )
