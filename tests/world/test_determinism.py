"""Editing one fact of the spec changes only what mentions it (per-field and per-module streams)."""

from __future__ import annotations

import json

from builder.persona import complete, load
from builder.world import simulate

from tests.conftest import DEFAULT_PERSONA


def _world_lines(path):
    world = simulate(complete(load(path)))
    return [json.dumps(e.to_json(), ensure_ascii=False) for e in world.events]


def test_changing_one_contact_phone_changes_only_what_mentions_that_contact(tmp_path):
    spec = json.loads(DEFAULT_PERSONA.read_text())
    contact = spec["contacts"][1]
    old_phone, new_phone = contact["phone"], "+1 503-555-0199"
    contact["phone"] = new_phone
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(spec))

    before, after = _world_lines(DEFAULT_PERSONA), _world_lines(edited)
    assert len(before) == len(after)
    changed = [(a, b) for a, b in zip(before, after) if a != b]
    assert changed, "the phone appears nowhere in the world"
    for a, b in changed:
        assert old_phone in a and new_phone in b, (a, b)
        assert a.replace(old_phone, new_phone) == b

    # Completion too: every other completed field keeps its value.
    p_before, p_after = complete(load(DEFAULT_PERSONA)), complete(load(edited))
    assert p_before.model_dump(exclude={"contacts"}) == p_after.model_dump(exclude={"contacts"})
    assert [c.model_dump(exclude={"phone"}) for c in p_before.contacts] == [
        c.model_dump(exclude={"phone"}) for c in p_after.contacts
    ]


def test_dropping_a_field_refills_only_that_field(tmp_path):
    spec = json.loads(DEFAULT_PERSONA.read_text())
    del spec["identity"]["phone"]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(spec))
    a, b = complete(load(DEFAULT_PERSONA)), complete(load(edited))
    assert a.identity.phone != b.identity.phone and b.identity.phone.startswith("+1 ")
    assert a.model_dump(exclude={"identity"}) == b.model_dump(exclude={"identity"})
