"""Contact cards: what a contact knows and does, for the reply engine of the chat and mail apps.

``contact_card(world, name)`` gathers, from the world only, the facts a contact's answer may
use: who they are to the persona, their messaging style, the plans they share with the persona
(bookings, trips, meetings ahead), money between them (open requests, recent payments), and
their own busy evenings over the next weeks (drawn from ``cards/<name>/busy``, so every app that
stores the card stores the same one). The card is JSON-ready (str, int, bool, lists, dicts) and
identical for every app that asks; apps store it and pass it to ``@persona/platform/replies``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..rng import rng
from ..reference.locale import format_money
from .locale import phrase_bank
from .model import World

#: How far ahead a card's plans and busy evenings reach.
HORIZON_DAYS = 21


def _first(name: str) -> str:
    return name.split()[0] if name.split() else name


def _local(at: dt.datetime) -> str:
    return at.replace(microsecond=0).isoformat()


def contact_card(world: World, name: str) -> dict[str, Any]:
    """The card of the persona's contact ``name`` (a contact of the spec).

    Keys: ``name``, ``first_name``, ``relationship``, ``style`` (brief/chatty/formal/emoji),
    ``closeness`` (1-5), ``email``, ``phone``, ``colleague`` (bool), ``persona``
    ({``name``, ``first_name``}), ``locale``, ``currency``, ``now`` (local ISO), ``plans`` (upcoming
    shared plans: ``what``, ``start`` local ISO, ``where``), ``meetings`` (upcoming shared meetings:
    ``title``, ``start``), ``busy`` (``date``, ``reason``: the contact's own busy evenings),
    ``requests`` (open money requests from the contact: ``amount_cents``, ``amount``, ``memo``,
    ``asked``), ``payments`` (the last 3 P2P payments between them: ``direction``, ``amount``,
    ``memo``, ``date``), ``activities`` (shared activities). Amounts are written as the persona's locale
    writes them (``$12.50``, ``£12.50``, ``12,50 €``). Raises ``KeyError`` for an unknown name.
    """
    p = world.persona
    contact = next((c for c in p.contacts if c.name == name), None)
    if contact is None:
        raise KeyError(name)
    now, until = world.now, world.now + dt.timedelta(days=HORIZON_DAYS)
    cur = world.currency
    bank = phrase_bank("cards", p.bank)
    words = bank["plan"]
    plans, meetings = [], []
    for e in world.events:
        if not now <= e.at <= until and e.kind != "calendar_event":
            continue
        d = e.data
        if e.kind == "restaurant_booking" and name in (d.get("companions") or []) and e.status == "scheduled":
            plans.append(
                {
                    "what": words["party"].format(restaurant=d.get("restaurant"), n=d.get("party_size")),
                    "start": str(d.get("reservation_local", ""))[:19],
                    "where": d.get("address", ""),
                }
            )
        elif e.kind == "flight_booking" and name in (d.get("passengers") or []):
            legs = d.get("itinerary") or []
            if legs and str(legs[0].get("dep_local", ""))[:19] >= _local(now):
                plans.append(
                    {
                        "what": words["trip"].format(
                            dest=d.get("destination"), flights=", ".join(d.get("flights") or [])
                        ),
                        "start": str(legs[0]["dep_local"])[:19],
                        "where": d.get("destination", ""),
                    }
                )
        elif e.kind == "calendar_event" and e.status == "scheduled" and d.get("start", "")[:19] <= _local(until):
            if any(a.get("name") == name for a in d.get("attendees") or []):
                meetings.append({"title": d.get("title", ""), "start": d.get("start", "")[:19]})
    meetings = sorted(meetings, key=lambda m: (m["start"], m["title"]))[:10]

    def money(amount: int, currency: str) -> str:
        return format_money(amount, currency, p.bank)

    requests = [
        {
            "amount_cents": e.data["amount_cents"],
            "amount": money(e.data["amount_cents"], cur),
            "memo": e.data["memo"],
            "asked": _local(e.at),
        }
        for e in world.of_kind("money_request")
        if e.data["contact"] == name and not e.data.get("paid")
    ]
    payments = [
        {
            "direction": e.data["direction"],
            "amount": money(e.data["amount_cents"], cur),
            "memo": e.data.get("memo", ""),
            "date": e.at.date().isoformat(),
        }
        for e in world.of_kind("p2p_payment")
        if e.data.get("contact") == name and e.status == "done"
    ][-3:]
    r = rng(world.seed, f"cards/{name}/busy")
    reasons = [f"{a}" for a in (contact.shared_activities or [])] + bank["busy_reasons"]
    busy = []
    for i in range(1, HORIZON_DAYS + 1):
        day = now.date() + dt.timedelta(days=i)
        if r.random() < 0.3:
            busy.append({"date": day.isoformat(), "reason": reasons[r.randrange(len(reasons))]})
    return {
        "name": contact.name,
        "first_name": _first(contact.name),
        "relationship": contact.relationship,
        "style": contact.messaging_style or "chatty",
        "closeness": contact.closeness,
        "email": contact.email,
        "phone": contact.phone,
        "colleague": contact.name in (p.work.colleagues if p.work else []),
        "persona": {"name": p.identity.name, "first_name": _first(p.identity.name)},
        "locale": p.bank,
        "currency": cur,
        "now": _local(now),
        "plans": sorted(plans, key=lambda x: (x["start"], x["what"])),
        "meetings": meetings,
        "busy": busy,
        "requests": requests,
        "payments": payments,
        "activities": list(contact.shared_activities or []),
    }
