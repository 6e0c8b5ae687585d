"""The timeline engine: runs the world's modules in a fixed order over one :class:`Sim`.

``now`` is ``as_of`` at 09:00 local time; events after it are ``scheduled`` (only planned
items: paychecks, bills, bookings, trips, meetings). History starts ``history_months``
months before ``as_of`` on the same day of month; the horizon ends ``horizon_days`` after it.

Order matters only for reading: a module may read the events of the modules before it
(mail quotes bookings, browsing follows orders, settlement sees every card charge); each
draws from its own streams, so adding a module never shifts another's draws.
"""

from __future__ import annotations

import datetime as dt

from ..dates import add_months
from ..persona import Persona
from . import (
    browsing,
    calendar,
    career,
    chat,
    finance,
    forecasts,
    investing,
    mail,
    orders,
    planted,
    projects,
    requests,
    tax_year,
    travel,
    work_chat,
)
from .context import Sim
from .model import World


# Modules that came after the first twelve apps' world, run after it in this order. Each draws only from its own
# named streams and adds events of its own keys, so the events before it stay identical; the money it moves
# through the bank only changes what finance.settle computes from the ledger (tests/world/test_modules.py).
LATER_MODULES = (
    ("investing", investing.simulate_investing),
    ("forecasts", forecasts.simulate_forecasts),
    ("tax_year", tax_year.simulate_tax_year),
    ("projects", projects.simulate_projects),
    ("career", career.simulate_career),
)


def simulate(p: Persona, *, without: tuple[str, ...] = ()) -> World:
    """Simulate the completed persona ``p`` (see :func:`builder.persona.complete`) into a :class:`World`.

    ``without`` names :data:`LATER_MODULES` to leave out (the test that adding one shifts nothing else).
    Raises ``ValueError`` if ``p`` lacks a checking account (every flow runs through it), ``KeyError`` for an
    unknown name in ``without``.
    """
    unknown = set(without) - {name for name, _ in LATER_MODULES}
    if unknown:
        raise KeyError(f"no world module {sorted(unknown)}")
    if "checking" not in [a.kind for a in p.accounts]:
        raise ValueError("the persona needs a checking account")
    now = dt.datetime.combine(p.as_of, dt.time(9, 0))
    start = dt.datetime.combine(add_months(p.as_of, -p.history_months), dt.time(0, 0))
    end = dt.datetime.combine(p.as_of + dt.timedelta(days=p.horizon_days), dt.time(23, 59, 59))
    sim = Sim(persona=p, start=start, now=now, end=end, merchants=finance.make_merchants(p))

    finance.simulate_income_and_bills(sim)
    finance.simulate_everyday_spending(sim)
    finance.simulate_p2p(sim)
    travel.simulate_travel(sim)
    orders.simulate_orders(sim)
    calendar.simulate_calendar(sim)
    mail.simulate_mail(sim)
    chat.simulate_chat(sim)
    work_chat.simulate_work_chat(sim)
    requests.simulate_money_requests(sim)
    planted.simulate_planted(sim)
    browsing.simulate_browsing(sim)
    for name, run in LATER_MODULES:
        if name not in without:
            run(sim)
    finance.settle(sim)

    return World(
        persona=p,
        start=start,
        now=now,
        end=end,
        currency=p.finances.currency,
        merchants=sim.merchants,
        events=sorted(sim.events, key=lambda e: (e.at, e.id)),
        planted=list(sim.planted),
    )
