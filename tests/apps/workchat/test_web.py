"""Huddle (work chat) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (``builder.world.work_chat``: its channels and
``work_chat_message`` events), never from the database. The browser tests
(``apps/workchat/web/e2e``) read the sidebar, channels, threads, DMs, search and activity and
drive every workflow; afterwards this module checks the rows the app wrote, serves a second fresh
copy to show that the same DM gets the same reply with the same delay, and checks the tasks
(nothing done scores 0; the reference solutions, apps/workchat/oracle.py, run in tests/tasks/test_oracles.py).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import sqlite3
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

from builder.tasks.grade import grade
from builder.world.work_chat import channels

from tests.app_e2e import Served, run_e2e

SCHEDULED_TEXT = "Morning all: the release notes draft is in the shared folder, comments welcome by noon."
DM_TEXT = "Hi! Are you free for a quick sync tomorrow about the icon set?"
HTML_TEXT = "<b>not bold</b> & <script>window.__huddle_xss = 1</script> <img src=x onerror=alert(1)>"


def _handle(name: str) -> str:
    from apps.workchat.seed import handle

    return handle(name)


def world_facts(world) -> dict:
    """Every value the browser tests expect, computed from the world."""
    from apps.workchat.seed import credentials

    p = world.persona
    me = p.identity.name
    chans = channels(world)
    msgs = world.of_kind("work_chat_message")
    by_channel: dict[str, list] = {}
    for e in msgs:
        by_channel.setdefault(e.data["channel"], []).append(e)
    team = next(c["name"] for c in chans if c["name"].startswith("team-"))

    def roots(name):
        return [e for e in by_channel.get(name, []) if not e.data["thread_id"]]

    sidebar = []
    for c in chans:
        unread = [e for e in by_channel.get(c["name"], []) if not e.data["read"] and e.data["sender"] != me]
        mentions = [e for e in unread if me in e.data["mentions"]]
        badge = len(unread) if c["kind"] == "dm" else len(mentions)
        other = next((n for n in c["members"] if n != me), me)
        sidebar.append(
            {
                "name": c["name"],
                "kind": c["kind"],
                "label": other if c["kind"] == "dm" else c["name"],
                "unread": len(unread) > 0,
                "badge": badge,
            }
        )
    general = by_channel["general"]
    last_root = roots("general")[-1]
    # The team channel's latest thread with at least two replies.
    counts = Counter(e.data["thread_id"] for e in by_channel[team] if e.data["thread_id"])
    root = [e for e in roots(team) if counts[e.id] >= 2][-1]
    replies = [e for e in by_channel[team] if e.data["thread_id"] == root.id]
    dm = next(c for c in chans if c["kind"] == "dm")
    dm_other = next(n for n in dm["members"] if n != me)
    dm_last = by_channel[dm["name"]][-1]
    # Search: one colleague's messages in the team channel that contain a word.
    colleague = p.work.colleagues[0]
    word = "review"
    in_team = [e for e in by_channel[team] if e.data["sender"] == colleague]
    with_word = [e for e in in_team if word in e.data["text"].lower()]
    mentions_me = [e for e in msgs if me in e.data["mentions"] and e.data["sender"] != me]
    creds = credentials(world)
    return {
        "username": creds["username"],
        "password": creds["password"],
        "session_token": creds["session_token"],
        "me": me,
        "workspace": msgs[0].data["workspace"],
        "team": team,
        "sidebar": sidebar,
        "mention_total": sum(s["badge"] for s in sidebar),
        "general": {
            "count": len(general),
            "last_text": last_root.data["text"],
            "last_sender": last_root.data["sender"],
            "pinned": sum(1 for e in general if e.data["pinned"]),
        },
        "thread": {
            "channel": team,
            "root_text": root.data["text"],
            "root_sender": root.data["sender"],
            "replies": len(replies),
            "last_reply_text": replies[-1].data["text"],
            "last_reply_sender": replies[-1].data["sender"],
        },
        "dm": {
            "channel": dm["name"],
            "with": dm_other,
            "last_text": dm_last.data["text"],
            "last_sender": dm_last.data["sender"],
            "post": DM_TEXT,
        },
        "search": {
            "q": f"in:#{team} from:@{_handle(colleague)}",
            "count": len(in_team),
            "q_word": f"in:#{team} from:@{_handle(colleague)} {word}",
            "count_word": len(with_word),
            "q_unknown": "in:#no-such-channel lunch",
            "general_word": "office",
            "general_count": sum(1 for e in general if "office" in e.data["text"].lower()),
        },
        "activity": {"latest_mention_text": mentions_me[-1].data["text"] if mentions_me else None},
        "html_text": HTML_TEXT,
        "mention_post": f"@{p.work.colleagues[1]} could you look at the icon set before Thursday?",
        "mention_colleague": p.work.colleagues[1],
        "scheduled": {"first": SCHEDULED_TEXT, "second": "Reminder: demo prep at 2."},
        "notify": {
            "channel": next(c["name"] for c in chans if c["kind"] == "channel" and c["name"] not in ("general", team))
        },
    }


# --- the second run: plain HTTP through the app's own routes ---------------------------------------


class Client:
    """A signed-in HTTP client of one app host on the served site (the session cookie, no redirects)."""

    def __init__(self, served: Served, host: str, cookie: str, token: str):
        self.base = f"http://127.0.0.1:{served.port}"
        self.host = host
        self.cookie = f"{cookie}={token}"

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        self.opener = urllib.request.build_opener(NoRedirect)

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        """POST a form; returns (status, Location)."""
        req = urllib.request.Request(
            self.base + path,
            data=urllib.parse.urlencode(fields).encode(),
            method="POST",
            headers={"Host": self.host, "Cookie": self.cookie, "Content-Type": "application/x-www-form-urlencoded"},
        )
        try:
            with self.opener.open(req, timeout=30) as res:
                return res.status, res.headers.get("Location", "")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers.get("Location", "")


def _client(served: Served, world) -> Client:
    from apps.workchat.seed import credentials

    return Client(served, "huddle.test", "hd_session", credentials(world)["session_token"])


def _reply_to(db: Path, text: str) -> tuple[str, int, str]:
    """(reply text, delay seconds, replier) of the colleague reply to the persona's app-written message ``text``."""
    con = sqlite3.connect(db)
    mine = con.execute(
        "SELECT id, sent_at FROM messages WHERE world_ref IS NULL AND text = ? ORDER BY id", (text,)
    ).fetchall()
    assert len(mine) == 1, mine
    rows = con.execute(
        "SELECT m.text, m.sent_at, m.deliver_at, p.name FROM messages m JOIN people p "
        "ON p.id = m.sender_id WHERE m.reply_to_id = ?",
        (mine[0][0],),
    ).fetchall()
    con.close()
    assert len(rows) == 1, rows
    reply, sent, deliver, who = rows[0]
    assert sent == deliver
    delay = (dt.datetime.fromisoformat(deliver) - dt.datetime.fromisoformat(mine[0][1])).total_seconds()
    return reply, int(delay), who


# --- tests ------------------------------------------------------------------------------------------


def test_seed_is_byte_identical(world, tmp_path):
    from apps.workchat.seed import seed

    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()
    con = sqlite3.connect(a)
    assert con.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == len(world.of_kind("work_chat_message"))
    assert [r[0] for r in con.execute("SELECT name FROM channels ORDER BY position")] == [
        c["name"] for c in channels(world)
    ]
    con.close()


def test_hooks(world):
    from apps.workchat.seed import bookmarks, visits

    assert bookmarks(world) == [{"title": "Huddle", "url": "http://huddle.test/", "folder": "toolbar"}]
    v = visits(world)
    assert v and all(x["at"].weekday() < 5 and x["at"] <= world.now for x in v)
    assert all(x["url"].startswith("http://huddle.test/c/") for x in v)
    assert v == visits(world)


def test_tasks_shape(world, tmp_path):
    from apps.workchat.seed import seed
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("workchat")

    ts = tasks(world)
    assert len(ts) >= 8
    assert sum(t.kind == "action" for t in ts) >= 3
    assert sum(len(t.apps_involved) >= 2 for t in ts) >= 4
    db = seed(world, tmp_path / "w.sqlite")
    for t in ts:
        if t.kind == "action":
            assert grade(t, {"workchat": db}, answer="Done.")[0] == 0, t.id


def test_workchat_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path / "run1") as served:
        print(run_e2e("workchat", facts, served, tmp_path)[-6000:])
        db = served.database("workchat")
        _check_written(db, world, facts)
        first = _reply_to(db, DM_TEXT)
    assert first[2] == facts["dm"]["with"] and first[1] > 0

    # A second, fresh copy: the same message in the same conversation gets the same reply and delay.
    with Served(default_layer, tmp_path / "run2") as served:
        status, where = _client(served, world).post(
            "/api/messages",
            {"channel": facts["dm"]["channel"], "text": DM_TEXT, "back": f"/c/{facts['dm']['channel']}"},
        )
        assert status == 303 and "error=" not in where, where
        second = _reply_to(served.database("workchat"), DM_TEXT)
        assert second == first
        # Not delivered yet: the conversation does not show it (the delay is at least 30 seconds).
        req = urllib.request.Request(
            f"http://127.0.0.1:{served.port}/c/{facts['dm']['channel']}",
            headers={"Host": "huddle.test", "Cookie": f"hd_session={facts['session_token']}"},
        )
        page = urllib.request.urlopen(req, timeout=30).read().decode()
        assert html.escape(DM_TEXT) in page
        assert html.escape(second[0]) not in page and second[0] not in page


def _check_written(db: Path, world, facts: dict) -> None:
    """What the browser run wrote, read back from the database (app-written rows only)."""
    con = sqlite3.connect(db)
    me = con.execute("SELECT id FROM people WHERE is_me = 1").fetchone()[0]
    made = con.execute(
        "SELECT c.name, m.thread_root_id IS NOT NULL, m.text, m.deleted, m.edited_at IS NOT NULL "
        "FROM messages m JOIN channels c ON c.id = m.channel_id "
        "WHERE m.world_ref IS NULL AND m.sender_id = ? ORDER BY m.id",
        (me,),
    ).fetchall()
    texts = [m[2] for m in made]
    assert facts["html_text"] in texts, "HTML stored verbatim"
    assert DM_TEXT in texts
    assert any(ch == facts["thread"]["channel"] and in_thread for ch, in_thread, *_ in made), "thread reply"
    assert any(m[3] == 1 for m in made), "a deleted message keeps its row"
    assert any(m[4] for m in made), "an edited message"
    assert not any(t.strip() == "" or len(t) > 4000 for t in texts), "bad input changed nothing"
    # The mentioned colleague answers in the thread of the mention.
    row = con.execute(
        "SELECT m.id FROM messages m WHERE m.world_ref IS NULL AND m.text = ?", (facts["mention_post"],)
    ).fetchone()
    assert row, "the mention post"
    answer = con.execute(
        "SELECT p.name, m.thread_root_id FROM messages m JOIN people p ON p.id = m.sender_id WHERE m.reply_to_id = ?",
        (row[0],),
    ).fetchall()
    assert answer == [(facts["mention_colleague"], row[0])]
    mentions = con.execute(
        "SELECT p.name FROM mentions x JOIN people p ON p.id = x.person_id WHERE x.message_id = ?", (row[0],)
    ).fetchall()
    assert mentions == [(facts["mention_colleague"],)]
    assert (
        con.execute("SELECT COUNT(*) FROM reactions WHERE added_at IS NOT NULL AND person_id = ?", (me,)).fetchone()[0]
        == 1
    )
    assert con.execute("SELECT COUNT(*) FROM saved_items").fetchone()[0] == 1
    assert con.execute("SELECT COUNT(*) FROM messages WHERE pinned_at IS NOT NULL AND pinned = 1").fetchone()[0] == 1
    status = con.execute("SELECT status_emoji, status_text, status_expires_at FROM users").fetchone()
    assert status[:2] == (":palm_tree:", "On vacation") and status[2].endswith("T23:59:59")
    # The seeded rows are untouched, except read flags (opened conversations) and the one added reaction.
    seeded = con.execute("SELECT COUNT(*) FROM messages WHERE world_ref IS NOT NULL").fetchone()[0]
    assert seeded == len(world.of_kind("work_chat_message"))
    assert (
        con.execute(
            "SELECT COUNT(*) FROM messages WHERE world_ref IS NOT NULL AND (edited_at IS NOT NULL OR deleted = 1)"
        ).fetchone()[0]
        == 0
    )
    # The schedule: one message scheduled, rescheduled and sent now (delivered when it was sent), one deleted.
    sched = con.execute(
        "SELECT m.text, m.deleted, m.sent_at = m.deliver_at AND m.deliver_at >= m.scheduled_at FROM messages m "
        "WHERE m.scheduled_at IS NOT NULL ORDER BY m.id"
    ).fetchall()
    assert sched == [(SCHEDULED_TEXT, 0, 1), (facts["scheduled"]["second"], 1, 1)]
    assert con.execute(
        "SELECT cm.notify, cm.muted, cm.prefs_set_at IS NOT NULL FROM channel_members cm JOIN channels c "
        "ON c.id = cm.channel_id WHERE cm.person_id = ? AND cm.prefs_set_at IS NOT NULL",
        (me,),
    ).fetchall() == [("nothing", 1, 1)]
    con.close()
