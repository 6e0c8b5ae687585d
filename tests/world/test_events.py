"""Typed world events (builder/world/events.py): every emitted event matches its kind's model, a wrong one is refused
where it is made, the checked-in JSON Schema is current and describes the lines of events.jsonl."""

from __future__ import annotations

import ast
import copy
import datetime as dt
import json

import pytest
from jsonschema import Draft202012Validator

from builder.world import events as ev
from builder.world import write_world
from builder.world.context import Sim
from builder.world.events import MISSING, CardPurchase, EventDataError, Flight, HotelBooking, Transfer

from ..conftest import PERSONAS, REPO, _world


def _data(world, kind):
    return next(e for e in world.events if e.kind == kind).data


# Kinds the shipped personas never emit (a split happens only to some holdings of some portfolios).
RARE = {"brokerage_split"}


def test_every_kind_has_a_model_and_every_model_is_emitted():
    emitted = set()
    for stem in PERSONAS:
        _, world = _world(stem)
        emitted |= {e.kind for e in world.events}
    # the world made them all through Sim.event, which checks each one: no kind without a model, and no model that
    # the shipped personas never exercise but the rare ones (a stale model would document fields nobody writes)
    assert emitted == set(ev.KINDS) - RARE


def _event_calls():
    """(path, line, kind, literal data keys or None) of every ``.event("<kind>", at, data...)`` call in the world."""
    for path in sorted((REPO / "builder" / "world").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "event":
                if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                    data = node.args[2] if len(node.args) > 2 else None
                    keys = (
                        [k.value for k in data.keys if isinstance(k, ast.Constant)]
                        if isinstance(data, ast.Dict)
                        else None
                    )
                    yield path.relative_to(REPO), node.lineno, node.args[0].value, keys


def test_every_event_the_code_makes_names_a_kind_and_its_fields():
    # the paths the shipped personas do not take are checked here from the code itself: a literal kind must have a
    # model, and the keys of a literal data dict must be fields of it
    calls = list(_event_calls())
    assert len(calls) > 40
    for path, line, kind, keys in calls:
        assert kind in ev.KINDS, f"{path}:{line}: no model for {kind!r}"
        fields = {f.alias or name for name, f in ev.KINDS[kind].model_fields.items()}
        assert not set(keys or ()) - fields, f"{path}:{line}: {kind} keys {sorted(set(keys) - fields)} not in its model"


def test_every_model_documents_its_kind():
    for kind, cls in ev.KINDS.items():
        assert cls.__doc__ and cls.__doc__.strip(), kind
        assert cls.KIND == kind


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("merchant"), "card_purchase event data: merchant: Field required"),
        (lambda d: d.update(colour="red"), "card_purchase event data: colour: Extra inputs are not permitted"),
        (lambda d: d.update(amount_cents=True), "card_purchase event data: amount_cents: Input should be a valid int"),
        (lambda d: d.update(amount_cents="12.00"), "card_purchase event data: amount_cents: Input should be a valid"),
        (lambda d: d.update(city=None), "card_purchase event data: city: Input should be a valid string"),
        (lambda d: d.update(local_time="2025-07-19 10:01"), "card_purchase event data: local_time: String should"),
    ],
)
def test_wrong_data_is_an_error_naming_kind_and_key(world, change, message):
    data = copy.deepcopy(_data(world, "card_purchase"))
    ev.check("card_purchase", data)
    change(data)
    with pytest.raises(EventDataError) as err:
        ev.check("card_purchase", data)
    assert str(err.value).startswith(message), str(err.value)


def test_nested_and_aliased_keys_are_named_by_their_path(world):
    data = copy.deepcopy(_data(world, "hotel_booking"))
    data["price"]["nights"][0]["cents"] = "12"
    with pytest.raises(EventDataError, match=r"^hotel_booking event data: price\.nights\.0\.cents: "):
        ev.check("hotel_booking", data)
    data = copy.deepcopy(_data(world, "transfer"))
    del data["from"]
    with pytest.raises(EventDataError, match=r"^transfer event data: from: Field required"):
        ev.check("transfer", data)


def test_unknown_kind_is_an_error():
    with pytest.raises(EventDataError, match="unknown event kind 'card_purchsae'"):
        ev.check("card_purchsae", {})


def test_check_leaves_the_data_as_it_was(world):
    for kind in ev.KINDS:
        data = _data(world, kind) if any(e.kind == kind for e in world.events) else None
        if data is None:
            continue
        before = json.dumps(data, ensure_ascii=False)
        ev.check(kind, data)
        assert json.dumps(data, ensure_ascii=False) == before


def test_sim_refuses_an_event_that_does_not_match_its_kind(persona):
    start = dt.datetime(2025, 1, 1)
    sim = Sim(persona=persona, start=start, now=start, end=start, merchants=[])
    with pytest.raises(EventDataError, match="^transfer event data: sweep: Input should be a valid boolean"):
        sim.event(
            "transfer", start, {"from": "checking", "to": "savings", "amount_cents": 100, "recurring": True, "sweep": 0}
        )
    with pytest.raises(EventDataError, match="unknown event kind 'tranfser'"):
        sim.event("tranfser", start, {})
    assert sim.events == []
    made = sim.event("transfer", start, {"from": "checking", "to": "savings", "amount_cents": 100, "recurring": True})
    assert sim.events == [made]


def test_events_of_yields_typed_events_that_round_trip(any_world):
    _, world = any_world
    for cls in (CardPurchase, Flight, HotelBooking, Transfer):
        typed = list(world.events_of(cls))
        assert [t.event for t in typed] == world.of_kind(cls.KIND)
        for t in typed:
            assert isinstance(t.data, cls)
            assert (t.id, t.at, t.status, t.postings) == (t.event.id, t.event.at, t.event.status, t.event.postings)
            assert t.data.model_dump(by_alias=True) == t.event.data
    purchase = next(world.events_of(CardPurchase)).data
    assert isinstance(purchase.amount_cents, int) and purchase.amount_cents > 0
    assert all(t.data.from_ in world.account_kinds() for t in world.events_of(Transfer))
    assert any(t.data.foreign_currency is MISSING for t in world.events_of(CardPurchase))


def test_schema_file_is_current():
    assert ev.SCHEMA_PATH.read_text(encoding="utf-8") == ev.schema_text(), "run: python -m builder.world.events"
    assert ev.main(["--check"]) == 0


def test_schema_describes_the_lines_of_events_jsonl(world, tmp_path):
    schema = json.loads(ev.SCHEMA_PATH.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    line = Draft202012Validator(schema)
    write_world(world, tmp_path)
    seen: dict[str, int] = {}
    records = []
    for text in (tmp_path / "events.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(text)
        if seen.get(record["kind"], 0) < 20:  # a sample of every kind keeps it fast
            seen[record["kind"]] = seen.get(record["kind"], 0) + 1
            records.append(record)
    assert len(seen) > 30
    for record in records:
        errors = list(line.iter_errors(record))
        assert not errors, (record["kind"], [e.message for e in errors][:3])
    broken = dict(next(r for r in records if r["kind"] == "card_purchase"), amount_cents="12.00")
    assert not line.is_valid(broken)
    broken = dict(next(r for r in records if r["kind"] == "email"), colour="red")
    assert not line.is_valid(broken)
