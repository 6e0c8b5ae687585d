"""The world: entities and one time-ordered timeline of typed events.

All times are naive local wall-clock ``datetime`` values in the persona's time zone
(``World.timezone``); money is integer cents in ``World.currency``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Generic, Iterator, TypeVar

from ..persona import Persona
from .events import EventData, EventDataError, parse

D = TypeVar("D", bound=EventData)


class SpecNotHonoured(ValueError):
    """A spec fact the world finds no way to honour (a balance on as_of its history cannot reach, a holding no run of
    the account ends at, a prediction market that closed). ``path`` is the fact's JSON path in the spec
    (``finances.accounts[1].balance``), ``reason`` says why; ``str()`` is ``"path: reason"``, the line a refused spec
    prints."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


@dataclass(frozen=True)
class Merchant:
    """A place where the persona spends money, located in the persona's city."""

    id: str
    name: str
    category: str
    city: str


@dataclass(frozen=True)
class Posting:
    """One ledger line: ``amount_cents`` > 0 enters ``account`` (a kind: checking/savings/credit_card), < 0 leaves it."""

    account: str
    at: dt.datetime
    amount_cents: int
    description: str
    counterparty: str | None
    category: str
    kind: str
    event_id: str
    transfer_id: str | None = None
    memo: str | None = None


@dataclass(frozen=True)
class Event:
    """A timeline event. ``kind`` names its type (``paycheck``, ``card_purchase``, ``email``...: one model per kind
    in :mod:`builder.world.events`, which lists them all and says what each records); ``status`` is ``done`` up to the
    world's now and ``scheduled`` after it; ``data`` holds the kind's fields (JSON-serialisable, insertion-ordered,
    checked against the kind's model when the event is made; typed access: :meth:`World.events_of`)."""

    id: str
    kind: str
    at: dt.datetime
    data: dict[str, Any]
    status: str = "done"
    postings: tuple[Posting, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return the JSON Lines record of this event (postings included, times ISO 8601 local)."""
        return {
            "id": self.id,
            "kind": self.kind,
            "at": self.at.isoformat(),
            "status": self.status,
            **self.data,
            "postings": [
                {
                    "account": p.account,
                    "amount_cents": p.amount_cents,
                    "description": p.description,
                    **({"transfer_id": p.transfer_id} if p.transfer_id else {}),
                }
                for p in self.postings
            ],
        }


@dataclass(frozen=True)
class TypedEvent(Generic[D]):
    """One event with its data as the kind's model (:mod:`builder.world.events`): ``.data`` typed, the envelope
    from ``.event`` (and ``.id``, ``.at``, ``.status``, ``.postings``)."""

    event: Event
    data: D

    @property
    def id(self) -> str:
        """The event's id (uuid5)."""
        return self.event.id

    @property
    def at(self) -> dt.datetime:
        """The event's naive local time in the persona's zone."""
        return self.event.at

    @property
    def status(self) -> str:
        """``done`` up to the world's now, ``scheduled`` after."""
        return self.event.status

    @property
    def postings(self) -> tuple[Posting, ...]:
        """The event's ledger lines."""
        return self.event.postings


def typed(event: Event, cls: type[D]) -> TypedEvent[D]:
    """``event`` with its data parsed as ``cls``. Raises :class:`~builder.world.events.EventDataError` if the kinds
    differ or the data does not match."""
    if event.kind != cls.KIND:
        raise EventDataError(f"event {event.id} is a {event.kind}, not a {cls.KIND}")
    return TypedEvent(event, parse(cls, event.data))


@dataclass
class World:
    """The simulated life of one persona: ``events`` sorted by (at, id), ``start`` < ``now`` < ``end``."""

    persona: Persona
    start: dt.datetime
    now: dt.datetime
    end: dt.datetime
    currency: str
    merchants: list[Merchant]
    events: list[Event] = field(default_factory=list)
    # Loose ends planted on purpose (contradictions, pending obligations, dependency chains...): one dict per item
    # with ``id``, ``kind``, ``summary`` and ``shows_in`` (where each side of it can be seen); see planted.py.
    planted: list[dict[str, Any]] = field(default_factory=list)
    # Account kind -> balance at ``now`` of a spec account whose money moves outside the bank's ledger (the
    # ``brokerage`` account: the broker's cash, builder.world.investing).
    closings: dict[str, int] = field(default_factory=dict)
    _kind_index: dict[str, list[Event]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _kind_index_key: tuple[int, int] = field(default=(0, -1), init=False, repr=False, compare=False)

    @property
    def seed(self) -> int:
        """The persona's seed (root of every random stream)."""
        return self.persona.seed

    def postings(self, account: str | None = None) -> list[Posting]:
        """Return posted (not scheduled) ledger lines, of one account kind if given, in timeline order."""
        return [
            p for e in self.events if e.status == "done" for p in e.postings if account is None or p.account == account
        ]

    def opening_balance_cents(self, account: str) -> int:
        """Balance of ``account`` at ``start`` in the ledger's sign (a card owing $5 is -500)."""
        spec = next(a for a in self.persona.accounts if a.kind == account)
        cents = int(spec.opening_balance * 100)
        return -cents if account == "credit_card" else cents

    def closing_balance_cents(self, account: str) -> int:
        """Balance of ``account`` at ``now``: opening + all posted amounts (ledger sign); for an account whose money
        moves outside the bank's ledger (the ``brokerage`` account: the broker's cash), what :attr:`closings` says."""
        if account in self.closings:
            return self.closings[account]
        return self.opening_balance_cents(account) + sum(p.amount_cents for p in self.postings(account))

    def account_kinds(self) -> list[str]:
        """The persona's account kinds in spec order."""
        return [a.kind for a in self.persona.accounts]

    def of_kind(self, *kinds: str) -> list[Event]:
        """Events of the given kinds in timeline order (a new list each call; as :meth:`Sim.of_kind
        <builder.world.context.Sim.of_kind>` takes them)."""
        if len(kinds) != 1:
            wanted = set(kinds)
            return [e for e in self.events if e.kind in wanted]
        kind = kinds[0]
        # The layer and the tasks ask hundreds of times over ~100k events: index them by kind once, again
        # only if ``events`` was replaced or grew.
        key = (id(self.events), len(self.events))
        if self._kind_index_key != key:
            index: dict[str, list[Event]] = {}
            for e in self.events:
                index.setdefault(e.kind, []).append(e)
            self._kind_index, self._kind_index_key = index, key
        return list(self._kind_index.get(kind, ()))

    def events_of(self, cls: type[D]) -> Iterator[TypedEvent[D]]:
        """Events of the kind of ``cls`` (a model of :mod:`builder.world.events`, e.g. ``CardPurchase``) in timeline
        order, each with its data parsed as ``cls`` (``.data.merchant``, ``.at``). Raises
        :class:`~builder.world.events.EventDataError` if an event's data does not match (it was checked when made)."""
        for e in self.of_kind(cls.KIND):
            yield typed(e, cls)
