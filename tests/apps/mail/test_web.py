"""Mailbox: the seeded database, the Maildir in the home folder, the tasks, and the web app end to end.

Expected values come from the *world* (its ``email`` events), never from the database: the e2e
tests (``apps/mail/web/e2e``) run in headless Chromium on the production site and compare what the
pages show with them; afterwards the rows the app wrote are checked here.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
import mailbox
import sqlite3
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from apps.mail.seed import MAILDIR_FOLDERS, credentials, home_files, seed, world_mails
from builder.tasks.collect import tasks_of
from builder.apps import discover
from builder.tasks.grade import grade

from tests.app_e2e import Served, run_e2e

tasks = tasks_of("mail")

HTML_SUBJECT = "<script>window.__pwned=1</script><b>Plans</b> & \"quotes\" 'too'"


def _done(world):
    return [e for e in world.of_kind("email") if e.status == "done"]


def _people_field(people: list[dict]) -> str:
    return ", ".join(f"{p['name']} <{p['email']}>" if p.get("name") else p["email"] for p in people)


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world (and the seed's derived credentials)."""
    p = world.persona
    mails = _done(world)
    own = {p.identity.email.lower(), (p.work.email or "").lower()}
    inbox = [e for e in mails if e.data["folder"] == "inbox"]
    newest = max(inbox, key=lambda e: (e.at, e.id))
    by_thread: dict[str, list] = {}
    for e in mails:
        by_thread.setdefault(e.data["thread_id"], []).append(e)
    # A thread of 4+ messages, the newest such (ties by id).
    long = sorted((t for t in by_thread.values() if len(t) >= 4), key=lambda t: (t[-1].at, t[-1].id))[-1]
    senders = Counter(e.data["from"]["email"] for e in mails)
    sender = sorted(
        (s for s, n in senders.items() if 5 <= n <= 60 and s.lower() not in own), key=lambda s: (-senders[s], s)
    )[0]
    label = "payroll"
    day = world.now.date()
    after, before = (
        (day.replace(day=1) - __import__("datetime").timedelta(days=1)).replace(day=1).isoformat(),
        day.replace(day=1).isoformat(),
    )
    subject_word = "pay statement"
    texts = lambda e: [
        e.data["subject"],
        e.data["body"],
        e.data["from"]["name"],
        e.data["from"]["email"],
        json.dumps([{"name": x["name"], "email": x["email"]} for x in e.data["to"]], ensure_ascii=False),
    ]
    payslip = [e for e in mails if "payroll" in e.data["labels"]][-1]
    invites = [
        e
        for e in mails
        if any(a["content_type"].startswith("text/calendar") for a in e.data["attachments"])
        and e.data["folder"] == "inbox"
        and e.data["from"]["email"].lower() not in own
    ]
    invite = invites[-1]
    ics = next(a["content"] for a in invite.data["attachments"] if a["content_type"].startswith("text/calendar"))
    title = next(line[len("SUMMARY:") :] for line in ics.split("\r\n") if line.startswith("SUMMARY:"))
    contacts = {c.email.lower(): c for c in p.contacts if c.email}
    # Reply: the newest thread whose last message came from a contact, a personal one.
    personal = sorted(
        (
            t
            for t in by_thread.values()
            if t[-1].data["from"]["email"].lower() in contacts and "personal" in t[-1].data["labels"]
        ),
        key=lambda t: (t[-1].at, t[-1].id),
    )[-1]
    last = personal[-1]
    # Reply all: the newest mail with cc from a colleague.
    with_cc = [e for e in mails if e.data["cc"] and e.data["from"]["email"].lower() not in own][-1]
    seen = set()
    rest = []
    for x in [with_cc.data["from"]] + with_cc.data["to"]:
        if x["email"].lower() not in own and x["email"].lower() not in seen:
            seen.add(x["email"].lower())
            rest.append(x)
    cc = [x for x in with_cc.data["cc"] if x["email"].lower() not in own and x["email"].lower() not in seen]
    friend = next(c for c in p.contacts if c.email and c.relationship == "friend")
    seeded_ids = {m.event_id: n for n, m in enumerate(world_mails(world), start=1)}
    creds = credentials(world)
    return {
        "username": creds["username"],
        "password": creds["password"],
        "session_token": creds["session_token"],
        "inbox": {
            "messages": len(inbox),
            "unread": sum(not e.data["read"] for e in inbox),
            "threads": len({e.data["thread_id"] for e in inbox}),
            "unread_threads": len({e.data["thread_id"] for e in inbox if not e.data["read"]}),
            "newest_subject": newest.data["subject"],
        },
        "folders": {
            f: sum(e.data["folder"] == f for e in mails) for f in ("sent", "archive", "drafts", "spam", "trash")
        },
        "thread": {
            "id": long[0].data["thread_id"],
            "subjects": [e.data["subject"] for e in long],
            "senders": [e.data["from"]["name"] or e.data["from"]["email"] for e in long],
        },
        "label": {"name": label, "messages": sum(label in e.data["labels"] for e in mails)},
        "search": {
            "from": sender,
            "from_count": senders[sender],
            "attachments": sum(bool(e.data["attachments"]) for e in mails),
            "subject": subject_word,
            "subject_count": sum(subject_word in e.data["subject"].lower() for e in mails),
            "after": after,
            "before": before,
            "range_count": sum(after <= e.at.date().isoformat() < before for e in mails),
            "percent_count": sum(any("%" in t for t in texts(e)) for e in mails),
        },
        "payslip": {
            "thread": payslip.data["thread_id"],
            "filename": payslip.data["attachments"][0]["filename"],
            "message": seeded_ids[payslip.id],
        },
        "invite": {
            "thread": invite.data["thread_id"],
            "ics": ics,
            "title": title,
            "organizer": invite.data["from"]["email"],
        },
        "reply": {
            "thread": last.data["thread_id"],
            "to_field": _people_field([last.data["from"]]),
            "text": "Thanks, that sounds good to me.",
        },
        "reply_all": {
            "message": seeded_ids[with_cc.id],
            "to_field": _people_field(rest),
            "cc_field": _people_field(cc),
        },
        "contact": {
            "email": friend.email,
            "name": friend.name,
            "subject": "Are you free on Saturday?",
            "body": "Want to get coffee on Saturday morning?",
        },
        "stranger": "olive.grant@example.test",
        "signature": f"{p.identity.name.split()[0]} · sent from Mailbox",
        "html_subject": HTML_SUBJECT,
        "draft": {"subject": "Packing list for the trip", "body": "Passport\nCharger\nRain jacket"},
    }


def test_seeding_twice_gives_identical_bytes(world, tmp_path):
    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert hashlib.sha256(a.read_bytes()).digest() == hashlib.sha256(b.read_bytes()).digest()
    con = sqlite3.connect(a)
    assert con.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == len(_done(world))
    assert con.execute("SELECT COUNT(*) FROM messages WHERE world_ref IS NULL").fetchone()[0] == 0
    # Every payslip mail carries a real PDF holding the paycheck's net pay.
    paychecks = {e.id: e for e in world.of_kind("paycheck")}
    rows = con.execute(
        "SELECT m.ref, a.content FROM attachments a JOIN messages m ON m.id = a.message_id "
        "WHERE a.content_type = 'application/pdf'"
    ).fetchall()
    assert len(rows) == sum(
        1 for e in _done(world) for x in e.data["attachments"] if x["content_type"] == "application/pdf"
    )
    ref, pdf = rows[-1]
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    from builder.money import money

    assert money(paychecks[ref].data["net_cents"], world.currency) in text
    assert money(paychecks[ref].data["gross_cents"], world.currency) in text


def test_maildir_parses_back_with_the_worlds_counts(world, tmp_path):
    files = home_files(world, tmp_path)
    assert files == sorted(files)
    md = mailbox.Maildir(tmp_path / "Mail", factory=None, create=False)
    want = Counter(e.data["folder"] for e in _done(world))
    assert len(md) == want["inbox"]
    for folder, sub in MAILDIR_FOLDERS.items():
        if sub:
            assert len(md.get_folder(sub[1:])) == want.get(folder, 0), folder
    sent = md.get_folder("Sent")
    by_id = {e.data["message_id"]: e for e in _done(world)}
    for key in sent.keys()[:50]:
        msg = email.message_from_bytes(sent.get_bytes(key), policy=email.policy.default)
        e = by_id[msg["Message-ID"]]
        assert msg["Subject"] == e.data["subject"]
        assert ("S" in sent.get_message(key).get_flags()) == e.data["read"]
        if e.data["in_reply_to"]:
            assert msg["In-Reply-To"] == e.data["in_reply_to"]
    # Attachments survive: the invitations' ICS bytes exactly.
    ics = [e for e in _done(world) if any(a["content_type"].startswith("text/calendar") for a in e.data["attachments"])]
    found = 0
    for folder in [md] + [md.get_folder(s[1:]) for s in MAILDIR_FOLDERS.values() if s]:
        for key in folder.keys():
            msg = email.message_from_bytes(folder.get_bytes(key), policy=email.policy.default)
            for part in msg.iter_attachments():
                if part.get_content_type() == "text/calendar":
                    want_ics = next(a["content"] for a in by_id[msg["Message-ID"]].data["attachments"])
                    assert part.get_payload(decode=True).decode() == want_ics
                    found += 1
    assert found == len(ics)
    # Deterministic: a second run writes the same names and bytes.
    other = home_files(world, tmp_path / "again")
    assert [f.relative_to(tmp_path / "again") for f in other] == [f.relative_to(tmp_path) for f in files]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(files, other))


# --- Tasks -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seeded_db(world, tmp_path_factory):
    return seed(world, tmp_path_factory.mktemp("mail") / "mail.sqlite")


def test_tasks_shape(world):
    ts = tasks(world)
    assert len(ts) >= 8
    assert sum(t.kind == "action" for t in ts) >= 3
    assert sum(len(t.apps_involved) >= 2 for t in ts) >= 4
    assert len({t.id for t in ts}) == len(ts)


def test_doing_nothing_scores_zero(world, seeded_db):
    """An untouched mailbox scores 0 on every action task (the oracles' 100 is tests/tasks/test_oracles.py)."""
    for t in (t for t in tasks(world) if t.kind == "action"):
        score, results = grade(t, {"mail": seeded_db}, answer="Done.", initial={"mail": seeded_db})
        assert score == 0, (t.id, results)


# --- The web app -----------------------------------------------------------------------------------


def test_mail_web_end_to_end(site_build, world, default_layer, tmp_path):
    facts = world_facts(world)
    with Served(default_layer, tmp_path) as served:
        print(run_e2e("mail", facts, served, tmp_path)[-6000:])
        _check_rows(
            served.database("mail"),
            world,
            facts,
            served.database("calendar") if any(a.name == "calendar" for a in discover()) else None,
        )


def _check_rows(db: Path, world, facts: dict, calendar_db: Path | None = None) -> None:
    """What the app wrote: sent mail in its threads, the contact's stored answers, the RSVP and its REPLY."""
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    made = con.execute("SELECT * FROM messages WHERE world_ref IS NULL ORDER BY id").fetchall()
    sent = [r for r in made if r["origin"] == "app"]
    assert all(r["folder"] == "sent" for r in sent), [dict(r) for r in sent if r["folder"] != "sent"]
    # Nothing from the refused forms: no 100 kB subject, no message without recipients.
    assert all(len(r["subject"]) < 1000 and json.loads(r["to_json"]) for r in sent)
    html = [r for r in sent if r["subject"] == HTML_SUBJECT]
    assert len(html) == 1 and html[0]["body"].endswith(f"-- \n{facts['signature']}\n")
    reply = next(r for r in sent if r["thread_id"] == facts["reply"]["thread"])
    last_world = max(
        (e for e in _done(world) if e.data["thread_id"] == facts["reply"]["thread"]), key=lambda e: (e.at, e.id)
    )
    assert reply["in_reply_to"] == last_world.data["message_id"]
    # The contact answered each of the two identical mails with the same text, arriving later.
    answers = [r for r in made if r["origin"] == "reply" and r["from_email"] == facts["contact"]["email"]]
    assert len(answers) == 2
    first_lines = [a["body"].split("\n\nOn ")[0] for a in answers]
    assert first_lines[0] == first_lines[1] and first_lines[0].strip()
    for a in answers:
        parent = con.execute("SELECT sent_at FROM messages WHERE message_id = ?", (a["in_reply_to"],)).fetchone()
        assert a["deliver_at"] > parent["sent_at"] and a["folder"] == "inbox" and a["is_read"] == 0
    # The RSVP: recorded, and the REPLY mail to the organizer with METHOD:REPLY attached.
    (uid, partstat, status, reply_id) = con.execute(
        "SELECT uid, partstat, calendar_status, reply_message_id FROM rsvps"
    ).fetchone()
    assert partstat == "ACCEPTED" and status == ("notified" if calendar_db else "pending")
    assert uid in facts["invite"]["ics"]
    if calendar_db:
        # Daybook took the answer over its internal route: the persona's RSVP of that event, in its own database.
        cal = sqlite3.connect(calendar_db)
        got = cal.execute(
            "SELECT a.partstat, a.responded_at FROM attendees a JOIN events e ON e.id = a.event_id "
            "WHERE e.uid = ? AND a.is_self = 1",
            (uid,),
        ).fetchall()
        cal.close()
        assert len(got) == 1 and got[0][0] == "ACCEPTED" and got[0][1], got
    row = con.execute("SELECT to_json, subject FROM messages WHERE id = ?", (reply_id,)).fetchone()
    assert json.loads(row["to_json"])[0]["email"] == facts["invite"]["organizer"]
    ics = con.execute("SELECT content FROM attachments WHERE message_id = ?", (reply_id,)).fetchone()[0].decode()
    assert "METHOD:REPLY" in ics and "PARTSTAT=ACCEPTED" in ics and f"UID:{uid}" in ics
    con.close()
