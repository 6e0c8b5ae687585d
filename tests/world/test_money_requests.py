"""Open money requests (builder/world/requests.py) and the contact cards that carry them."""

from __future__ import annotations

import datetime as dt
import json

from builder.world import simulate
from builder.world.cards import contact_card


def test_requests_are_open_recent_and_asked_in_chat(world):
    reqs = world.of_kind("money_request")
    assert 1 <= len(reqs) <= 2
    chats = {}
    for e in world.of_kind("chat_message"):
        chats.setdefault(e.data.get("ref"), e)  # the first message about each request: the ask
    bookings = {e.id: e for e in world.of_kind("restaurant_booking")}
    for r in reqs:
        assert r.status == "done" and r.data["paid"] is False
        assert world.now - dt.timedelta(days=14) <= r.at <= world.now
        assert r.data["ref"] in bookings and r.data["contact"] in bookings[r.data["ref"]].data["companions"]
        ask = chats[r.id]
        assert ask.data["sender"] == r.data["contact"] and ask.at == r.at
        amount = f"{r.data['amount_cents'] // 100}.{r.data['amount_cents'] % 100:02d}"
        assert amount in ask.data["text"], ask.data["text"]
        card = contact_card(world, r.data["contact"])
        assert any(
            q["amount_cents"] == r.data["amount_cents"] and q["memo"] == r.data["memo"] for q in card["requests"]
        )


def test_requests_module_shifts_no_other_event(persona, world):
    without = simulate(persona, without=("requests",))
    mine = {e.id for e in world.events if e.kind == "money_request"}
    mine |= {e.id for e in world.of_kind("chat_message") if e.data.get("ref") in mine}
    rest = [e for e in world.events if e.id not in mine]
    assert [e.id for e in rest] == [e.id for e in without.events]
    assert all(a.data == b.data for a, b in zip(rest, without.events))


def test_contact_card_is_json_and_deterministic(world):
    for c in world.persona.contacts:
        a, b = contact_card(world, c.name), contact_card(world, c.name)
        assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
        assert a["persona"]["name"] == world.persona.identity.name
        assert all(b["date"] > world.now.date().isoformat() for b in a["busy"])
