"""The simulation context shared by the world's modules (finance, travel, orders, comms, browsing).

Each module's steps are functions ``f(sim)`` (declared with :func:`builder.world.engine.world_step`) that append events
through :meth:`Sim.event`; each draws randomness only from ``sim.rng("<module>/<what>")`` so that adding a module
or a stream never shifts another module's draws.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..persona import Contact, Persona
from ..reference import people as people_names
from ..reference.locale import territory
from ..rng import derived_id, faker, rng
from .events import check
from .model import Event, Merchant, Posting

WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


@dataclass(frozen=True)
class Charge:
    """A money movement attached to an event: ``amount_cents`` > 0 enters ``account``, < 0 leaves it."""

    account: str
    amount_cents: int
    description: str
    counterparty: str | None = None
    category: str = "other"
    kind: str = "card_purchase"
    transfer_id: str | None = None
    memo: str | None = None


@dataclass
class Sim:
    """Mutable state of one simulation run. Times are naive local (persona's zone); ``now`` splits done/scheduled."""

    persona: Persona
    start: dt.datetime
    now: dt.datetime
    end: dt.datetime
    merchants: list[Merchant]
    events: list[Event] = field(default_factory=list)
    planted: list[dict[str, Any]] = field(default_factory=list)  # see World.planted
    # The engine's step now running (builder.world.engine.Step): reads and writes outside its declaration fail.
    step: Any = None
    # Account kind -> balance at the history's start (ledger sign, cents) the world worked out for an account the spec
    # gives by its ``balance`` on as_of (finance.settle, investing); :func:`builder.world.simulate.finish` writes them
    # into the world's persona as ``opening_balance``.
    openings: dict[str, int] = field(default_factory=dict)
    # Account kind -> balance at ``now`` of a spec account whose money moves outside the bank's ledger (the
    # ``brokerage`` account: the broker's cash, set by investing): ``World.closings``.
    closings: dict[str, int] = field(default_factory=dict)
    # The channels modules send through, made on first use: ``mail`` -> builder.world.mail.Mailbox.
    channels: dict[str, Any] = field(default_factory=dict)
    _ids: set[str] = field(default_factory=set)
    # ``events`` by kind, in creation order, for the first ``_indexed`` events (events are only ever appended).
    _by_kind: dict[str, list[Event]] = field(default_factory=dict)
    _indexed: int = 0

    @property
    def seed(self) -> int:
        """The persona's seed."""
        return self.persona.seed

    def rng(self, stream: str) -> random.Random:
        """A fresh ``random.Random`` for ``world/<stream>``."""
        return rng(self.seed, f"world/{stream}")

    def faker(self, stream: str):
        """A Faker in the persona's locale seeded from ``world/<stream>``."""
        return faker(self.seed, f"world/{stream}", self.persona.bank)

    @property
    def country(self) -> str:
        """The country the persona lives in: its address's, else its locale's."""
        a = self.persona.identity.address
        return a.country if a else territory(self.persona.locale)

    def people(self, stream: str, country: str | None = None) -> people_names.Names:
        """Names of the people who live in ``country`` (default: the persona's) seeded from ``world/<stream>``
        (:func:`builder.reference.people.names`); at home the draws of :meth:`faker` for the same stream."""
        return people_names.names(self.seed, f"world/{stream}", self.persona.bank, country or self.country)

    def days(self, start: dt.date | None = None, end: dt.date | None = None) -> Iterator[dt.date]:
        """Every date from ``start`` (default: history start) to ``end`` (default: horizon end), inclusive."""
        day, last = start or self.start.date(), end or self.end.date()
        while day <= last:
            yield day
            day += dt.timedelta(days=1)

    def past_days(self) -> Iterator[dt.date]:
        """Every date from the history start to ``as_of`` inclusive."""
        return self.days(end=self.now.date())

    def weekday(self, day: dt.date) -> str:
        """``mon`` .. ``sun``."""
        return WEEKDAYS[day.weekday()]

    def contact(self, name: str) -> Contact:
        """The contact named ``name``. Raises ``KeyError`` if the persona has none of that name."""
        for c in self.persona.contacts:
            if c.name == name:
                return c
        raise KeyError(f"no contact named {name!r}")

    def event(
        self,
        kind: str,
        at: dt.datetime,
        data: dict[str, Any],
        charges: list[Charge] = (),
        key: object = "",
        id: str | None = None,
    ) -> Event:
        """Append and return an event; its id is uuid5 of (kind, at, key) unless given. ``status`` follows ``now``.

        ``data`` is checked against the kind's model in :mod:`builder.world.events` (and kept as given).
        Raises ``ValueError`` if the same id was already used (two events must differ in kind, time or key), or if
        the running step did not declare that it writes ``kind`` (or ``ledger``, with charges);
        :class:`~builder.world.events.EventDataError` (a ``ValueError``) for an unknown kind or data that does not
        match its kind (the message names the kind and key).
        """
        if self.step is not None:
            declared = self.step.writes | self.step.amends
            if kind not in declared or (charges and "ledger" not in declared):
                raise ValueError(f"world step {self.step.name} writes {kind!r} (charges: {bool(charges)}) undeclared")
        check(kind, data)
        eid = id or derived_id(self.seed, "event", kind, at.isoformat(), key)
        if eid in self._ids:
            raise ValueError(f"duplicate event id for {kind} at {at} key {key!r}")
        self._ids.add(eid)
        postings = tuple(
            Posting(
                c.account,
                at,
                c.amount_cents,
                c.description,
                c.counterparty,
                c.category,
                c.kind,
                eid,
                c.transfer_id,
                c.memo,
            )
            for c in charges
        )
        event = Event(eid, kind, at, data, "done" if at <= self.now else "scheduled", postings)
        self.events.append(event)
        return event

    def card(self) -> str:
        """The account kind everyday card spending goes to: the credit card if there is one, else checking."""
        return "credit_card" if any(a.kind == "credit_card" for a in self.persona.accounts) else "checking"

    def of_kind(self, *kinds: str) -> list[Event]:
        """Events so far of the given kinds, in creation order. Raises ``ValueError`` if the running step did not
        declare that it reads (or writes) one of them."""
        if self.step is not None:
            undeclared = set(kinds) - self.step.reads - self.step.writes - self.step.amends
            if undeclared:
                raise ValueError(f"world step {self.step.name} reads {sorted(undeclared)} undeclared")
        if len(kinds) != 1:
            return [e for e in self.events if e.kind in kinds]
        for e in self.events[self._indexed :]:
            self._by_kind.setdefault(e.kind, []).append(e)
        self._indexed = len(self.events)
        return list(self._by_kind.get(kinds[0], ()))
