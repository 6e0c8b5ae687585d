"""Parley (messaging) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (the ``chat_message`` events, the contacts, the restaurant
bookings), never from the database: the conversation order and unread counts, a chosen
conversation's last message and count, the read receipt, a search count, the groups the world
implies. Also: the reply to a sent text is the same on two fresh copies of the database and
arrives only after its delay; the app's writes are what the browser did; the seed is
byte-identical twice; the tasks hold their contract (doing nothing scores 0 on every action; the
reference solutions, apps/messaging/oracle.py, run in tests/tasks/test_oracles.py).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import sqlite3
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path
from zoneinfo import ZoneInfo

from builder.tasks.grade import grade

from tests.app_e2e import Served, run_e2e

HOST = "parley.test"
SEND_TEXT = "are you free on Saturday?"
HTML = '<script>alert("x")</script><b>bold</b> & <img src=x onerror=alert(1)>'
QUOTE_TEXT = "Yes! Saturday brunch at Lulu's?"
EDITED_TEXT = "Yes! Sunday brunch at Lulu's instead?"
FAMILY = {"parent", "sibling", "child", "spouse", "partner"}


def _chat_contacts(world):
    return [c for c in world.persona.contacts if "chat" in (c.apps or []) and c.phone]


def _messages(world):
    names = {c.name for c in _chat_contacts(world)}
    return [
        e
        for e in world.of_kind("chat_message")
        if e.status == "done" and e.at <= world.now and e.data["contact"] in names
    ]


def _clock(t: dt.datetime) -> str:
    return f"{(t.hour - 1) % 12 + 1}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def _receipt(read_at: dt.datetime, today: dt.date) -> str:
    """Parley's receipt wording (en-US): ``Read 9:14 AM`` today, ``Read yesterday at ...``, ``Read Nov 3 at ...``."""
    days = (today - read_at.date()).days
    if days <= 0:
        return f"Read {_clock(read_at)}"
    if days == 1:
        return f"Read yesterday at {_clock(read_at)}"
    return f"Read {read_at:%b} {read_at.day} at {_clock(read_at)}"


def app_today(world) -> dt.date:
    """The app's today, as ``appNow`` makes it: the wall clock in the persona's zone, never before the world's now."""
    wall = dt.datetime.now(ZoneInfo(world.persona.timezone)).replace(tzinfo=None)
    return max(world.now, wall).date()


def expected_groups(world) -> list[dict]:
    """The groups the world implies: the family, the usual dinner companions, friends sharing a pastime."""
    contacts = _chat_contacts(world)
    names = [c.name for c in contacts]
    out, seen = [], set()
    family = [c.name for c in contacts if c.relationship in FAMILY]
    if len(family) >= 2:
        out.append({"title": f"{world.persona.identity.name.split()[-1]} family", "members": family})
        seen.add(frozenset(family))
    counts = Counter(
        tuple(sorted(set(b.data.get("companions") or []) & set(names)))
        for b in world.of_kind("restaurant_booking")
        if b.status == "done"
    )
    best = sorted((k for k, n in counts.items() if len(k) >= 2 and n >= 2), key=lambda k: (-counts[k], k))
    if best and frozenset(best[0]) not in seen:
        out.append({"title": "Dinner crew", "members": list(best[0])})
        seen.add(frozenset(best[0]))
    acts: dict[str, list[str]] = {}
    for c in contacts:
        if c.relationship not in ("colleague", "parent"):
            for a in c.shared_activities or []:
                acts.setdefault(a, []).append(c.name)
    ranked = sorted((a for a, ms in acts.items() if len(ms) >= 2), key=lambda a: (-len(acts[a]), a))
    if ranked and frozenset(acts[ranked[0]]) not in seen:
        out.append({"title": f"{ranked[0].capitalize()} crew", "members": acts[ranked[0]]})
    return out


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world (and the seed's derived credentials)."""
    from apps.messaging.seed import credentials

    msgs = _messages(world)
    by = {}
    for e in msgs:
        by.setdefault(e.data["contact"], []).append(e)
    order = sorted(by, key=lambda n: by[n][-1].at, reverse=True)
    unread = {n: sum(1 for e in by[n] if e.data["sender"] != "me" and not e.data["read"]) for n in by}
    contacts = {c.name: c for c in _chat_contacts(world)}
    groups = expected_groups(world)
    # The chosen conversation: the closest contact's, whose last message of mine has a later reply.
    chosen = sorted(by, key=lambda n: (-(contacts[n].closeness or 0), n))[0]
    thread = by[chosen]
    last_mine = max(i for i, e in enumerate(thread) if e.data["sender"] == "me")
    later = [e for e in thread[last_mine + 1 :] if e.data["sender"] != "me"]
    receipt = _receipt(later[0].at, app_today(world)) if later else "Delivered"
    c = contacts[chosen]
    react_target = [e for e in thread if e.data["sender"] != "me"][-1]
    # Search: a show title from the world's small talk (never in Parley's own phrase bank).
    q = "Severance"
    search_count = sum(q.lower() in e.data["text"].lower() for e in msgs)
    wildcard = sum("%_%" in e.data["text"] for e in msgs)
    # Send to the second-closest contact; bad input goes to the third.
    ranked = sorted(by, key=lambda n: (-(contacts[n].closeness or 0), n))
    # Reply quoting the fourth-closest contact's latest longer message (unique in the chat), then edit and delete it.
    quoting = by[ranked[3]]
    texts = Counter(e.data["text"] for e in quoting)
    quoted = [
        e
        for e in quoting[-40:]
        if e.data["sender"] != "me" and len(e.data["text"]) >= 12 and texts[e.data["text"]] == 1
    ][-1]
    old_mine = [e for e in quoting if e.data["sender"] == "me"][-1]
    creds = credentials(world)
    return {
        "session_token": creds["session_token"],
        "direct_order": order,
        "unread": unread,
        "groups": groups,
        "chosen": {
            "name": chosen,
            "last_text": thread[-1].data["text"],
            "last_mine": thread[-1].data["sender"] == "me",
            "count": len(thread),
            "receipt": receipt,
            "phone": c.phone,
            "email": c.email,
            "relationship": c.relationship,
            "groups": [g["title"] for g in groups if chosen in g["members"]],
        },
        "react": {"world_ref": react_target.id},
        "search": {"q": q, "count": search_count, "wildcard_count": wildcard},
        "send": {"name": ranked[1], "text": SEND_TEXT},
        "bad": {"name": ranked[2], "html": HTML},
        "new_group": {"title": "Saturday hike <3", "members": [ranked[1], ranked[2]]},
        "quote": {
            "name": ranked[3],
            "world_ref": quoted.id,
            "sender": ranked[3],
            "first_line": quoted.data["text"].split("\n")[0],
            "old_mine_world_ref": old_mine.id,
            "text": QUOTE_TEXT,
            "edited": EDITED_TEXT,
        },
    }


def _message_id(db: Path, world_ref: str) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id FROM messages WHERE world_ref = ?", (world_ref,)).fetchone()[0]
    finally:
        con.close()


def _post(served: Served, host: str, path: str, fields: list[tuple[str, str]], cookie: str) -> tuple[int, str]:
    """POST a form to ``host`` on the test server without following redirects: (status, Location)."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    req = urllib.request.Request(
        f"http://127.0.0.1:{served.port}{path}",
        data=urllib.parse.urlencode(fields).encode(),
        headers={"Host": host, "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
        method="POST",
    )
    try:
        with urllib.request.build_opener(NoRedirect).open(req, timeout=30) as res:
            return res.status, res.headers.get("Location", "")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Location", "")


def _conversation(db: Path, name: str) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute(
            "SELECT c.id FROM conversations c JOIN contacts k ON k.id = c.contact_id WHERE k.name = ?", (name,)
        ).fetchone()[0]
    finally:
        con.close()


def test_messaging_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    db_layer = default_layer / "var/lib/persona-desktop/apps/messaging/messaging.sqlite"
    facts["react"]["message_id"] = _message_id(db_layer, facts["react"]["world_ref"])
    facts["quote"]["message_id"] = _message_id(db_layer, facts["quote"]["world_ref"])
    facts["quote"]["old_mine_id"] = _message_id(db_layer, facts["quote"]["old_mine_world_ref"])
    with Served(default_layer, tmp_path) as served:
        print(run_e2e("messaging", facts, served, tmp_path)[-6000:])
        _check_writes(served.database("messaging"), world, facts)


def _check_writes(db: Path, world, facts: dict) -> None:
    """What the browser did is what the app wrote: the text and its reply, the tapback, the HTML, the group, the
    quoting reply edited then deleted (its old texts in message_edits); the refusals wrote nothing."""
    con = sqlite3.connect(db)
    sent = con.execute("""SELECT m.body, m.sent_at, k.name FROM messages m JOIN conversations c ON c.id = m.conversation_id
                          JOIN contacts k ON k.id = c.contact_id
                          WHERE m.world_ref IS NULL AND m.sender_id IS NULL ORDER BY m.id""").fetchall()
    q = facts["quote"]
    assert [(b, n) for b, _, n in sent] == [
        (SEND_TEXT, facts["send"]["name"]),
        (HTML, facts["bad"]["name"]),
        ("", q["name"]),
    ]
    assert all(at >= world.now.isoformat() for _, at, _ in sent)
    replies = con.execute(
        "SELECT r.body, r.sent_at, r.deliver_at, m.sent_at FROM messages r JOIN messages m "
        "ON m.id = r.reply_to_id WHERE r.world_ref IS NULL ORDER BY r.id"
    ).fetchall()
    assert len(replies) == 3 and all(body for body, *_ in replies)
    for _, _, deliver, asked in replies:
        delay = (dt.datetime.fromisoformat(deliver) - dt.datetime.fromisoformat(asked)).total_seconds()
        assert 5 <= delay <= 200, delay
    assert con.execute(
        "SELECT m.world_ref, r.emoji FROM reactions r JOIN messages m ON m.id = r.message_id WHERE r.world_ref IS NULL"
    ).fetchall() == [(facts["react"]["world_ref"], "👍")]
    groups = con.execute("SELECT id, title FROM conversations WHERE world_ref IS NULL").fetchall()
    assert [t for _, t in groups] == [facts["new_group"]["title"]]
    members = sorted(
        n
        for (n,) in con.execute(
            "SELECT k.name FROM members b JOIN contacts k ON k.id = b.contact_id WHERE b.conversation_id = ?",
            (groups[0][0],),
        )
    )
    assert members == sorted(facts["new_group"]["members"])
    assert con.execute(
        "SELECT COUNT(*) FROM messages WHERE deleted_at IS NULL AND (length(body) > 4000 OR trim(body) = '')"
    ).fetchone() == (0,)
    gone = con.execute(
        "SELECT m.id, m.body, q.world_ref, m.edited_at IS NOT NULL, m.deleted_at IS NOT NULL FROM messages m "
        "JOIN messages q ON q.id = m.quote_id WHERE m.world_ref IS NULL"
    ).fetchall()
    assert [g[1:] for g in gone] == [("", q["world_ref"], 1, 1)]
    assert con.execute("SELECT message_id, action, body FROM message_edits ORDER BY id").fetchall() == [
        (gone[0][0], "edit", q["text"]),
        (gone[0][0], "delete", q["edited"]),
    ]
    assert con.execute(
        "SELECT COUNT(*) FROM messages WHERE edited_at IS NOT NULL OR deleted_at IS NOT NULL OR quote_id IS NOT NULL"
    ).fetchone() == (1,)
    con.close()


def test_reply_is_deterministic_across_fresh_databases(site_build, world, default_layer, tmp_path):
    """The same text sent on two fresh copies of the databases gets the same reply, delivered after its delay."""
    from apps.messaging.seed import credentials

    cookie = f"pl_session={credentials(world)['session_token']}"
    name = world_facts(world)["send"]["name"]
    got = []
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        with Served(default_layer, tmp_path / run) as served:
            db = served.database("messaging")
            conv = _conversation(db, name)
            status, location = _post(
                served, HOST, "/api/messages", [("conversation", str(conv)), ("body", SEND_TEXT)], cookie
            )
            assert (status, location) == (303, f"/c/{conv}")
            con = sqlite3.connect(db)
            rows = con.execute(
                "SELECT sender_id IS NULL, body, sent_at, deliver_at FROM messages WHERE world_ref IS NULL ORDER BY id"
            ).fetchall()
            con.close()
            assert len(rows) == 2 and rows[0][:2] == (1, SEND_TEXT) and rows[1][0] == 0
            delay = (dt.datetime.fromisoformat(rows[1][3]) - dt.datetime.fromisoformat(rows[0][2])).total_seconds()
            assert delay >= 5
            got.append((rows[1][1], delay))
    assert got[0][0] == got[1][0] and got[0][0].strip()


def test_seed_is_byte_identical(world, tmp_path):
    from apps.messaging.seed import seed

    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()
    con = sqlite3.connect(a)
    # Every world chat message is projected, verbatim.
    assert con.execute("SELECT COUNT(*) FROM messages WHERE world_ref NOT LIKE 'seed:%'").fetchone()[0] == len(
        _messages(world)
    )
    assert con.execute("SELECT COUNT(*) FROM messages WHERE world_ref IS NULL").fetchone()[0] == 0
    # Seeded messages quote nothing and are neither edited nor deleted.
    assert con.execute(
        "SELECT COUNT(*) FROM messages WHERE quote_id IS NOT NULL OR edited_at IS NOT NULL OR deleted_at IS NOT NULL"
    ).fetchone() == (0,)
    assert con.execute("SELECT COUNT(*) FROM message_edits").fetchone() == (0,)
    assert con.execute("SELECT MAX(deliver_at) FROM messages").fetchone()[0] <= world.now.isoformat()
    con.close()


def test_tasks_contract(world, default_layer):
    """≥ 8 tasks, ≥ 3 actions, ≥ 4 spanning two apps; doing nothing scores 0 on every action (the reference
    solutions, apps/messaging/oracle.py, score in full in tests/tasks/test_oracles.py)."""
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("messaging")

    ts = {t.id.split("/")[-1]: t for t in tasks(world)}
    actions = [t for t in ts.values() if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts.values()) >= 4
    layer_apps = default_layer / "var/lib/persona-desktop/apps"
    dbs = {"messaging": layer_apps / "messaging/messaging.sqlite", "bank": layer_apps / "bank/bank.sqlite"}
    for t in actions:
        assert grade(t, dbs, initial=dbs)[0] == 0, t.id
