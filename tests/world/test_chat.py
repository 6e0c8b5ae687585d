"""Personal chat v2 (builder/world/chat.py): dialogue plans, names, hours, seasons, trips, locales."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict

import pytest

from builder.world import simulate
from builder.world.chat import bank
from builder.world.mail import parent_name
from builder.world.report import _repeat_share, greeting_off_hour

from tests.conftest import _world

WEEKEND = re.compile(r"\b(weekend|wochenende|how was your week|how's your week)\b", re.IGNORECASE)


def _chat(world):
    """The chat module's own messages (every one carries a ``topic``; other modules post without)."""
    return [e for e in world.of_kind("chat_message") if e.data.get("topic")]


def test_chat_text_rarely_repeats(any_world):
    _, world = any_world
    share, counted = _repeat_share([e.data["text"] for e in world.of_kind("chat_message")])
    assert counted > 1000
    assert share <= 0.15, share


def test_contacts_never_name_themselves_and_greetings_fit_the_hour(any_world):
    _, world = any_world
    for e in world.of_kind("chat_message"):
        sender = e.data["sender"]
        if sender != "me":
            first = sender.split()[0]
            assert not re.search(rf"(?<!\w){re.escape(first)}(?!\w)", e.data["text"]), e.data
        assert not greeting_off_hour(e.data["text"], e.at.hour), (e.at, e.data["text"])


def test_no_session_at_night_unless_night_owl(any_world):
    persona, world = any_world
    if persona.routines and persona.routines.night_owl:
        pytest.skip("night owl")
    late = [(e.at, e.data["text"]) for e in _chat(world) if e.at.hour < 7]
    assert not late, late[:5]


def test_companions_travel_together_and_make_no_weekend_plans(any_world):
    persona, world = any_world
    together = 0
    for t in persona.travel.trips:
        for e in _chat(world):
            if e.data["contact"] not in t.companions or not t.depart <= e.at.date() <= t.return_:
                continue
            assert e.data["topic"] not in ("plan", "smalltalk", "question", "news"), e.data
            if e.data["topic"] in ("together", "trip"):
                assert not WEEKEND.search(e.data["text"]), e.data
            together += e.data["topic"] == "together"
    if any(t.companions and t.depart < world.now.date() for t in persona.travel.trips):
        assert together > 0


def test_plans_are_for_days_the_persona_is_home_and_free(any_world):
    persona, world = any_world
    away = {
        t.depart + dt.timedelta(days=i) for t in persona.travel.trips for i in range((t.return_ - t.depart).days + 1)
    }
    plans = [e for e in _chat(world) if e.data["topic"] == "plan"]
    assert plans
    for e in plans:
        day = dt.date.fromisoformat(e.data["plan_on"])
        assert day > e.at.date() and day not in away and e.at.date() not in away, e.data


def test_parents_are_called_by_their_family_word(any_world):
    persona, world = any_world
    words = bank(persona.bank)["words"]
    for c in persona.contacts:
        if c.relationship != "parent" or "chat" not in (c.apps or []):
            continue
        given = c.name.split()[0]
        mine = [e.data["text"] for e in _chat(world) if e.data["contact"] == c.name and e.data["sender"] == "me"]
        assert not any(re.search(rf"\b{re.escape(given)}\b", t) for t in mine), given
        word = parent_name(c, persona.bank)
        if word != given:
            assert word in (words["mom"], words["dad"])
            assert any(re.search(rf"\b{word}\b", t) for t in mine), word


def test_recommendations_are_made_once_and_followed_up_later(any_world):
    persona, world = any_world
    b = bank(persona.bank)
    elsewhere = repr(b["qa"]) + repr(b["say"])  # a title also named in other lines (a film tip) is not tracked
    titles = [i["title"] for k in ("shows", "books", "podcasts") for i in b[k] if i["title"] not in elsewhere]
    sessions: dict[tuple, list] = defaultdict(list)
    for e in _chat(world):
        sessions[(e.data["contact"], e.at.date(), e.data["topic"])].append(e.data["text"])
    for title in titles:
        for c in persona.contacts:
            hits = sorted(
                (day, topic)
                for (name, day, topic), texts in sessions.items()
                if name == c.name and any(title in t for t in texts)
            )
            if not hits:
                continue
            assert hits[0][1] == "recommend", (c.name, title, hits)
            assert sum(topic == "recommend" for _, topic in hits) == 1, (c.name, title, hits)
            assert all(day > hits[0][0] for day, topic in hits[1:]), (c.name, title, hits)


def test_sessions_are_minutes_long(world):
    by: dict[tuple, list] = defaultdict(list)
    for e in _chat(world):
        by[(e.data["thread_id"], e.at.date(), e.data["topic"])].append(e.at)
    gaps = [(b - a).total_seconds() for ts in by.values() for a, b in zip(ts, ts[1:])]
    assert sum(g <= 900 for g in gaps) > 0.9 * len(gaps)
    assert len(_chat(world)) >= 2600


def test_chat_is_deterministic(persona, world):
    again = simulate(persona)
    a = [(e.id, e.at, e.data) for e in world.of_kind("chat_message")]
    b = [(e.id, e.at, e.data) for e in again.of_kind("chat_message")]
    assert a == b


def test_seasonal_talk_follows_the_season(world, persona):
    b = bank(persona.bank)["slots"]
    from builder.reference.locale import season

    for e in _chat(world):
        if e.data["topic"] != "smalltalk":
            continue
        s = season(e.at.date(), persona.identity.address.country)
        for other in {"winter", "spring", "summer", "autumn"} - {s}:
            for line in b.get(f"weather_now@{other}", []):
                if line not in b.get(f"weather_now@{s}", []):
                    assert line not in e.data["text"], (e.at, e.data["text"])


@pytest.fixture(scope="module")
def german():
    """A completed shipped persona moved to Hamburg in de_DE, simulated; a colleague made a neighbour."""
    persona, _ = _world("callum-brierley")
    addr = persona.identity.address.model_copy(update={"city": "Hamburg", "country": "DE"})
    contacts = [
        c.model_copy(update={"relationship": "neighbor"})
        if c.relationship == "colleague" and c.messaging_style == "brief"
        else c
        for c in persona.contacts
    ]
    p = persona.model_copy(
        update={
            "locale": "de_DE",
            "language": "de",  # model_copy runs no validator: the language goes with the locale
            "timezone": "Europe/Berlin",
            "identity": persona.identity.model_copy(update={"address": addr}),
            "contacts": contacts,
        }
    )
    return p, simulate(p)


GERMAN = re.compile(
    r"\b(ich|du|und|nicht|ist|wir|schon|noch|auch|mal|danke|gut|heute|morgen|bei|mit|für|Sie|Ihnen|"
    r"das|der|die|den|dem|es|so|ja|nee|hab|habe|war|gibt|geht|auf|im|in|ein|eine|einen|zu|wie|was|"
    r"mein|dein|dich|dir|mir|uns|euch|bin|bist|sind|kann|kannst|soll|wann|wo|oder|aber)\b",
    re.IGNORECASE,
)
ENGLISH = re.compile(r"\b(the|and|you|what|are|is|this|with|have|want|sounds)\b", re.IGNORECASE)


def test_german_persona_chats_in_german_with_du_and_sie(german):
    p, world = german
    msgs = _chat(world)
    long = [e.data["text"] for e in msgs if len(e.data["text"].split()) >= 4]
    assert len(long) > 500
    german_share = sum(bool(GERMAN.search(t)) for t in long) / len(long)
    english = [t for t in long if len(ENGLISH.findall(t)) >= 2]
    assert german_share > 0.9, german_share
    assert len(english) <= 0.02 * len(long), english[:10]
    neighbours = {c.name for c in p.contacts if c.relationship == "neighbor"}
    sie = [e.data["text"] for e in msgs if e.data["contact"] in neighbours]
    assert sie
    assert not any(re.search(r"\b(du|dich|dir|dein\w*|hast|kannst|bist)\b", t) for t in sie), sie[:10]
    family = [
        e.data["text"]
        for e in msgs
        if e.data["contact"] in {c.name for c in p.contacts if c.relationship in ("parent", "sibling")}
    ]
    assert not any(re.search(r"\b(Ihnen|Ihr)\b", t) for t in family)
    assert _repeat_share(long)[0] <= 0.15
    for c in p.contacts:
        if c.relationship == "parent":
            mine = [e.data["text"] for e in msgs if e.data["contact"] == c.name and e.data["sender"] == "me"]
            assert not any(re.search(r"\b(Mom|Mum)\b", t) for t in mine)


def test_holidays_bring_holiday_talk(any_world):
    persona, world = any_world
    days = {e.at.date() for e in _chat(world) if e.data["topic"] == "holiday"}
    for year in range(world.start.year, world.now.year + 1):
        xmas = dt.date(year, 12, 25)
        if world.start.date() <= xmas <= world.now.date():
            assert xmas in days


def test_scripted_conversations_are_sent_verbatim_in_order_and_refused_off_the_history(tmp_path):
    import json
    from pathlib import Path

    from builder.persona import SpecError, complete, load
    from builder.persona.model import Persona

    spec = json.loads((Path(__file__).parents[2] / "personas" / "jordan-lee.json").read_text())
    spec["contacts"] = [
        {
            "name": "Priya Raman",
            "relationship": "friend",
            "closeness": 5,
            "conversations": [
                {
                    "at": "2026-03-07T23:55",
                    "messages": [
                        {"from": "them", "text": "Still up? <b>The ferry</b> leaves at 7 & I can't find my pass"},
                        {"from": "me", "text": "Check the drawer by the door.\nIt's always there"},
                        {"from": "them", "text": "Found it!! good morning 🙃"},
                    ],
                }
            ],
        }
    ]
    p = complete(Persona.model_validate(spec))
    world = simulate(p)
    mine = [e for e in world.of_kind("chat_message") if e.data["contact"] == "Priya Raman"]
    scripted = [e for e in mine if e.data.get("topic") == "scripted"]
    assert [(e.data["sender"], e.data["text"]) for e in scripted] == [
        ("Priya Raman", "Still up? <b>The ferry</b> leaves at 7 & I can't find my pass"),
        ("me", "Check the drawer by the door.\nIt's always there"),
        ("Priya Raman", "Found it!! good morning 🙃"),  # past midnight and a greeting off its hour: kept as written
    ]
    assert scripted[0].at == dt.datetime(2026, 3, 7, 23, 55) and scripted[0].at < scripted[1].at < scripted[2].at
    # No everyday session of the builder's own with her that day.
    day = dt.date(2026, 3, 7)
    assert [e for e in mine if e.at.date() == day and e.data.get("topic") not in ("scripted", None)] == []
    # Refused, one line each: a day after the history, two the same day, a contact outside the messaging app.
    talk = spec["contacts"][0]["conversations"][0]
    for conversations, apps, message in [
        ([{**talk, "at": f"{p.as_of}T08:00"}], None, "conversations[0].at: must be on a day of the history"),
        ([talk, {**talk, "at": "2026-03-07T09:00"}], None, "one conversation a day with a contact"),
        ([talk], ["mail"], "a contact with conversations is in the messaging app: add chat"),
    ]:
        bad = json.loads(json.dumps(spec))
        bad["contacts"][0]["conversations"] = conversations
        if apps:
            bad["contacts"][0]["apps"] = apps
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(bad))
        with pytest.raises(SpecError) as err:
            load(path)
        assert any(message in line for line in err.value.lines), err.value.lines


def test_a_contact_who_writes_in_another_language_chats_in_it_and_everyone_else_in_the_personas():
    """``contacts[].language``: Jana (German) and her partner write English to each other, in the messaging
    app's one-to-one chat (the builder's own lines, money requests and planted loose ends alike), while her
    parents' threads stay German."""
    import json
    import re
    from pathlib import Path

    from builder.persona import complete
    from builder.persona.model import Persona

    spec = json.loads((Path(__file__).parents[2] / "personas" / "jana-petersen.json").read_text())
    spec["contacts"][0]["language"] = "en"
    world = simulate(complete(Persona.model_validate(spec)))
    german = re.compile(r"\b(ich|du|nicht|und|ist|hab|bin|wir|mir|dir|schon|auch|gerade|danke)\b")
    english = re.compile(r"\b(I|you|the|and|is|not|we|me|thanks|just|too)\b", re.I)

    def thread(name):
        return [e.data["text"] for e in world.of_kind("chat_message") if e.data["contact"] == name]

    partner, mother = thread(spec["contacts"][0]["name"]), thread(spec["contacts"][1]["name"])
    assert len(partner) > 500 and len(mother) > 300
    assert sum(bool(german.search(t)) for t in partner) <= len(partner) // 200
    assert sum(bool(english.search(t)) for t in partner) >= len(partner) // 4
    assert sum(bool(german.search(t)) for t in mother) >= len(mother) // 4
    assert sum(bool(english.search(t)) for t in mother) <= len(mother) // 200
