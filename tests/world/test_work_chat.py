"""Work chat (``work_chat_message``): isolation from the other modules, determinism, volume, timing, threads,
channels, DMs, ties to meetings and trips, and the phrase banks of every locale."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter

import pytest
import yaml

from builder.persona import complete, load
from builder.world import simulate
from builder.world.calendar import public_holidays
from builder.world.work_chat import BANKS, MAX_REPEAT, bank, channels

from tests.conftest import DEFAULT_PERSONA

FIELDS = [
    "workspace",
    "workspace_domain",
    "channel",
    "channel_kind",
    "thread_id",
    "sender",
    "sender_email",
    "text",
    "mentions",
    "reactions",
    "pinned",
    "read",
    "ref",
]


def _msgs(world):
    return [e for e in world.events if e.kind == "work_chat_message"]


def _dump(events):
    return [json.dumps(e.to_json(), sort_keys=True, default=str) for e in events]


def _away(persona) -> set[dt.date]:
    out = set()
    for t in persona.travel.trips or []:
        d = t.depart
        while d <= t.return_:
            out.add(d)
            d += dt.timedelta(days=1)
    return out


# --- isolation and determinism ---------------------------------------------------------------------


def test_other_modules_unchanged_without_work_chat(persona):
    """Every module but the project board (whose tickets are the ones the work chat mentions, by design) is
    the same with and without the work chat."""
    with_chat = simulate(persona, without=("projects",))
    without = simulate(persona, without=("projects", "work_chat"))
    assert not _msgs(without)
    ours = [e for e in with_chat.events if e.kind != "work_chat_message"]
    assert _dump(ours) == _dump(without.events)


def test_same_spec_same_messages(world):
    again = simulate(complete(load(DEFAULT_PERSONA)))
    assert _dump(_msgs(again)) == _dump(_msgs(world))
    assert channels(again) == channels(world)


# --- shape, volume, timing -------------------------------------------------------------------------


def test_event_contract_and_volume(world, persona):
    msgs = _msgs(world)
    assert len(msgs) >= 2000
    for e in msgs:
        assert list(e.data) == FIELDS
        d = e.data
        assert d["workspace"] == persona.work.employer and d["workspace_domain"] == "cascadia-robotics"
        assert d["channel_kind"] in ("channel", "dm") and d["text"].strip()
        assert d["sender_email"].endswith("@cascadia-robotics.test")
        for r in d["reactions"]:
            assert r["by"] == sorted(r["by"]) and r["by"]
        assert [r["emoji"] for r in d["reactions"]] == sorted(r["emoji"] for r in d["reactions"])
        for name in d["mentions"]:
            assert f"@{name}" in d["text"]
    assert sum(e.data["pinned"] for e in msgs) >= 5
    assert any(e.data["reactions"] for e in msgs)
    assert {e.data["sender"] for e in msgs} >= {persona.identity.name, *persona.work.colleagues}
    me = next(e for e in msgs if e.data["sender"] == persona.identity.name)
    assert me.data["sender_email"] == persona.work.email


def test_working_hours_weekdays_and_now(any_world):
    persona, world = any_world
    msgs = _msgs(world)
    holidays = {d for y in range(world.start.year, world.now.year + 1) for d in public_holidays(persona.bank, y)}
    weekend = 0
    for e in msgs:
        assert world.start <= e.at <= world.now and e.status == "done", e
        if e.at.weekday() >= 5:
            weekend += 1
            continue
        assert e.at.date() not in holidays, e
        assert dt.time(8, 30) <= e.at.time() <= dt.time(18, 30), e
    assert weekend <= 0.02 * len(msgs)


def test_distinct_texts_and_no_sender_repeats(any_world):
    _, world = any_world
    msgs = _msgs(world)
    texts = [e.data["text"] for e in msgs]
    assert len(set(texts)) / len(texts) >= 0.70
    per_sender = Counter((e.data["sender"], e.data["text"]) for e in msgs)
    assert max(per_sender.values()) <= MAX_REPEAT


def test_greetings_match_time_of_day(world):
    for e in _msgs(world):
        text = e.data["text"].lower()
        if re.match(r"(hey, )?(good )?morning", text):
            assert e.at.hour < 12, e


# --- threads, channels, DMs ------------------------------------------------------------------------


def test_thread_replies_follow_their_root(any_world):
    _, world = any_world
    by_id = {e.id: e for e in _msgs(world)}
    replies = [e for e in by_id.values() if e.data["thread_id"]]
    assert replies
    for e in replies:
        root = by_id[e.data["thread_id"]]
        assert root.data["thread_id"] is None
        assert root.data["channel"] == e.data["channel"] and root.at < e.at


def test_channels_match_messages(any_world):
    persona, world = any_world
    chans = channels(world)
    assert chans == channels(persona)
    by_name = {c["name"]: c for c in chans}
    assert len(by_name) == len(chans)
    assert {"general", "random"} <= set(by_name)
    assert sum(1 for c in chans if c["name"].startswith("proj-")) in (2, 3)
    first: dict[str, dt.date] = {}
    for e in _msgs(world):
        c = by_name[e.data["channel"]]
        assert c["kind"] == e.data["channel_kind"]
        assert e.data["sender"] in c["members"], e
        first.setdefault(c["name"], e.at.date())
    for name, day in first.items():
        assert dt.date.fromisoformat(by_name[name]["created"]) <= day
    for c in chans:
        assert set(c) == {"name", "kind", "topic", "purpose", "members", "created"}


def test_dms_only_with_colleagues(any_world):
    persona, world = any_world
    colleagues = set(persona.work.colleagues)
    dms = [c for c in channels(world) if c["kind"] == "dm"]
    assert len(dms) == len(colleagues)
    for c in dms:
        me, other = c["members"]
        assert me == persona.identity.name and other in colleagues
    for e in _msgs(world):
        if e.data["channel_kind"] == "dm":
            c = next(c for c in dms if c["name"] == e.data["channel"])
            assert e.data["sender"] in c["members"]
            assert e.data["thread_id"] is None


# --- ties to the world -----------------------------------------------------------------------------


def test_refs_resolve_and_meeting_messages_are_on_the_meeting_day(any_world):
    _, world = any_world
    events = {e.id: e for e in world.events}
    meeting_refs = 0
    for e in _msgs(world):
        ref = e.data["ref"]
        if ref is None:
            continue
        target = events[ref]
        assert target.kind in ("calendar_event", "flight", "hotel_stay"), target.kind
        if target.kind == "calendar_event":
            assert target.data["source"] in ("meeting", "holiday")
            if target.data["source"] == "meeting":
                meeting_refs += 1
                assert target.at.date() == e.at.date()
    assert meeting_refs >= 50


def test_out_of_office_before_each_past_trip_refs_its_flight(any_world):
    persona, world = any_world
    flights = [e for e in world.events if e.kind == "flight"]
    by_ref = Counter()
    for e in _msgs(world):
        if e.data["ref"] and e.data["sender"] == persona.identity.name:
            by_ref[e.data["ref"]] += 1
    checked = 0
    for i, t in enumerate(persona.travel.trips or []):
        out = sorted(
            (f for f in flights if f.data["trip"] == i and f.data["direction"] == "outbound"), key=lambda f: f.at
        )
        if not out or not world.start.date() + dt.timedelta(days=30) < t.depart <= world.now.date():
            continue
        notices = [
            e
            for e in _msgs(world)
            if e.data["ref"] == out[0].id
            and e.data["sender"] == persona.identity.name
            and e.data["channel"].startswith("team-")
        ]
        assert notices and all(e.at.date() < t.depart for e in notices), t
        assert any(t.destination in e.data["text"] or e.data["pinned"] for e in notices)
        checked += 1
    assert checked >= 2


def test_persona_silent_while_away_except_back_tomorrow(any_world):
    persona, world = any_world
    away = _away(persona)
    returns = {e.id for e in world.events if e.kind in ("flight", "hotel_stay")}
    for e in _msgs(world):
        if e.data["sender"] == persona.identity.name and e.at.date() in away:
            assert e.data["ref"] in returns, e


# --- other workspaces ------------------------------------------------------------------------------


def test_no_colleagues_small_workspace_and_no_employer(persona):
    alone = persona.model_copy(update={"work": persona.work.model_copy(update={"colleagues": [], "meetings": []})})
    world = simulate(alone)
    msgs = _msgs(world)
    chans = channels(alone)
    assert 200 <= len(msgs) < 2000
    assert not [c for c in chans if c["kind"] == "dm"]
    contacts = {c.name for c in alone.contacts}
    team = next(c for c in chans if c["name"].startswith("team-"))
    assert len(team["members"]) == 5 and not contacts & set(team["members"])
    assert channels(alone) == chans
    jobless = persona.model_copy(update={"work": persona.work.model_copy(update={"employer": None})})
    assert channels(jobless) == []


# --- phrase banks ----------------------------------------------------------------------------------

CODE_SLOTS = {
    "a",
    "b",
    "c",
    "@a",
    "@b",
    "@c",
    "hi",
    "project",
    "artifact",
    "artifact2",
    "ticket",
    "pr",
    "doc",
    "time",
    "day",
    "meeting",
    "meeting_time",
    "new_time",
    "dest",
    "start_day",
    "end_day",
    "back_day",
    "holiday",
    "holiday_day",
    "lunch_spot",
    "team",
    "employer",
    "channel",
    "newcomer",
}


@pytest.mark.parametrize("locale", ["en_US", "en_GB", "de_DE"])
def test_bank_is_complete_and_every_slot_resolves(locale):
    b = bank(locale)
    for name, script in b["scripts"].items():
        for step in script["steps"]:
            ((role, intent),) = step.items()
            if role.rstrip("?") == "react":
                assert intent in b["reactions"], (name, intent)
            else:
                assert role.rstrip("?") in ("a", "b", "c") and intent in b["phrases"], (name, intent)
    templates = [
        t for v in b["phrases"].values() for t in (v if isinstance(v, list) else [x for vs in v.values() for x in vs])
    ]
    templates += [t for vals in b["slots"].values() for t in vals]
    for t in templates:
        for slot in re.findall(r"\{([@#\w-]+)\}", t):
            assert slot.startswith("#") or slot in CODE_SLOTS or slot in b["slots"], (locale, t)
    if locale == "de_DE":  # German throughout: every English phrase and slot is given in German
        own = yaml.safe_load((BANKS / "de_DE.yaml").read_text(encoding="utf-8"))
        en = yaml.safe_load((BANKS / "en_US.yaml").read_text(encoding="utf-8"))
        for key in ("phrases", "slots", "artifacts", "channels", "greetings"):
            assert set(en[key]) <= set(own[key]), (key, set(en[key]) - set(own[key]))
        for key in ("weekdays", "months_short", "teams", "project_names"):
            assert key in own


def test_a_team_of_one_colleague_talks_without_a_second_member(persona):
    """One colleague and one office day: on most days nobody but the speaker is in the team channel, and a line
    naming a second member (``{@b}``) names the persona instead of failing (a generated persona found it)."""
    mate = persona.work.colleagues[0]
    one = persona.model_copy(
        update={"work": persona.work.model_copy(update={"colleagues": [mate], "meetings": [], "office_days": ["mon"]})}
    )
    msgs = _msgs(simulate(one, without=("projects",)))
    members = {mate, one.identity.name}
    assert msgs and {m.data["sender"] for m in msgs if m.data["channel"].startswith("team-")} <= members
    for m in msgs:
        assert "{" not in m.data["text"], m.data["text"]
