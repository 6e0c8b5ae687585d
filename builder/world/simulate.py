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
from decimal import Decimal

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
    """The :class:`World` of a :class:`Sim` whose steps have run: its events sorted by (time, id). The world's
    persona is the simulated one with the opening balances the world worked out (``sim.openings``: accounts the spec
    gives by their ``balance`` on as_of) filled in, so :meth:`World.opening_balance_cents` reads them."""
    return World(
        persona=with_openings(sim.persona, sim.openings),
        start=sim.start,
        now=sim.now,
        end=sim.end,
        currency=sim.persona.finances.currency,
        merchants=sim.merchants,
        events=sorted(sim.events, key=lambda e: (e.at, e.id)),
        planted=list(sim.planted),
        closings=dict(sim.closings),
    )


def with_openings(p: Persona, openings: dict[str, int]) -> Persona:
    """``p`` with each account of ``openings`` (kind -> cents at the history's start, ledger sign: a card owing $5 is
    -500) given that ``opening_balance`` (currency units; a card's is what is owed); ``p`` itself when there are none.
    Its ``balance`` stays: the completed spec says both."""
    if not openings:
        return p
    accounts = [
        a.model_copy(
            update={
                "opening_balance": Decimal(-openings[a.kind] if a.kind == "credit_card" else openings[a.kind]) / 100
            }
        )
        if a.kind in openings
        else a
        for a in p.finances.accounts
    ]
    return p.model_copy(update={"finances": p.finances.model_copy(update={"accounts": accounts})})
