"""Guildline (network) end to end: the production site on copies of the seeded databases.

Expected values come from the *world* (the ``career_profile`` event and the network events), never
from the database: the profile, the newest post, the connection count, the pending invitations, a
job search's counts, the recruiter thread. Also: what the browser did is what the app wrote (the
accepted invitation made a connection, the post, reaction, comment, saved job and message rows);
the seed is byte-identical twice; the tasks hold their contract (doing nothing scores 0 on every
action; the reference solutions, apps/network/oracle.py, run in tests/tasks/test_oracles.py).
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from builder.tasks.grade import grade

from tests.app_e2e import Served, run_e2e

HOST = "guildline.test"
POST = "Wrapped a week of field tests: thanks, team! <b>not bold</b> & <script>alert(1)</script>"
COMMENT = "Proud of this one."
REPLY = "Thanks! Tuesday 10:00 or Wednesday 14:00 would work for a call."
APPLY_YEARS = 7
NOTE = "Great to meet you at the meetup <3 - I'd like to stay in touch & swap notes."


def facts_accept(prof: dict) -> str:
    """The incoming invitation the e2e accepts: the meetup attendee's."""
    return prof["meetup"]["attendee"]


def _profile(world) -> dict:
    return next(e for e in world.events if e.kind == "career_profile").data


def _like(needle: str, *hay: str) -> bool:
    """SQLite LIKE '%needle%' (ASCII case-insensitive) on any of ``hay``."""
    return any(needle.lower() in h.lower() for h in hay)


def world_facts(world) -> dict:
    """Every value the browser tests expect, from the world (and the seed's derived credentials)."""
    from apps.network.seed import credentials

    prof = _profile(world)
    now = world.now
    posts = sorted((e for e in world.of_kind("network_post") if e.at <= now), key=lambda e: (e.at, e.data["post_id"]))
    latest = posts[-1]
    invs = [e.data for e in world.of_kind("network_invitation")]
    jobs = [e.data for e in world.of_kind("job_posting")]
    role_word = prof["experience"][0]["title"].split()[-1]
    match = [j for j in jobs if _like(role_word, j["title"], j["company"], j["summary"], " ".join(j["skills"]))]
    home = prof["location"]
    here = [j for j in match if _like(home, j["location"], j["workplace"])]
    unsaved = next(j for j in match if not j["saved_at"])
    msgs = [e for e in world.of_kind("recruiter_message") if e.at <= now]
    last = msgs[-1].data["thread_id"]
    thread = [e for e in msgs if e.data["thread_id"] == last]
    last_mine = max((i for i, e in enumerate(thread) if e.data["sender"] == "me"), default=-1)
    unread = sum(1 for e in thread[last_mine + 1 :] if e.data["sender"] != "me")
    organizer = prof["people"][1]  # the meetup's organizer: second-degree, no invitation either way
    word = organizer["name"].split()[-1]
    everyone = prof["connections"] + prof["people"]
    found = [x for x in everyone if _like(word, x["name"], x["headline"], x["title"], x["company"], x["location"])]
    return {
        "session_token": credentials(world)["session_token"],
        "name": world.persona.identity.name,
        "profile": {
            "headline": prof["headline"],
            "about": f"{world.persona.identity.bio}\n\n{prof['about']}",
            "location": prof["location"],
            "pronouns": world.persona.identity.pronouns,
            "experience": [
                {"title": x["title"], "company": x["company"], "start": x["start"], "end": x["end"]}
                for x in prof["experience"]
            ],
            "skills": prof["skills"],
            "education_count": len(prof["education"]),
        },
        "latest_post": {
            "author": world.persona.identity.name if latest.data["author"] == "me" else latest.data["author"],
            "body": latest.data["body"],
            "reactions": len(latest.data["reactions"]),
        },
        "connections": len(prof["connections"]),
        "incoming": [i["name"] for i in invs if i["direction"] == "incoming"],
        "sent": [i["name"] for i in invs if i["direction"] == "sent"],
        "accept": facts_accept(prof),
        "accept_id": int(prof["meetup"]["invitation_id"].split("-")[1]),
        "post": POST,
        "comment": COMMENT,
        "edit": {"id": 1, "title": prof["resume"]["difference"]["resume"]},
        "jobs": {
            "q": role_word,
            "count": len(match),
            "location": home,
            "count_here": len(here),
            "saved": sum(1 for j in jobs if j["saved_at"]),
            "save": unsaved["job_id"],
            "save_title": unsaved["title"],
        },
        "connect": {
            "q": word,
            "count": len(found),
            "name": organizer["name"],
            "note": NOTE,
            "connected": prof["connections"][0]["name"],
            "invited_by": next(
                i["name"] for i in invs if i["direction"] == "incoming" and i["name"] != facts_accept(prof)
            ),
        },
        "apply": {
            "job": unsaved["job_id"],
            "phone": world.persona.identity.phone,
            "email": world.persona.identity.email,
        },
        "thread": {
            "name": msgs[-1].data["name"],
            "unread": unread,
            "texts": [e.data["text"] for e in thread],
            "reply": REPLY,
        },
    }


def test_network_web_end_to_end(site_build, world, default_layer, tmp_path):
    from apps.network.seed import write_resume

    facts = world_facts(world)
    (tmp_path / "files").mkdir()
    resume = write_resume(world, tmp_path / "files" / _profile(world)["resume"]["filename"])
    facts["apply"].update(resume=str(resume), years=APPLY_YEARS)
    with Served(default_layer, tmp_path) as served:
        print(run_e2e("network", facts, served, tmp_path)[-6000:])
        _check_writes(served.database("network"), world, facts)
        _check_applied(served, facts, resume)


def _check_writes(db: Path, world, facts: dict) -> None:
    """What the browser did is what the app wrote."""
    con = sqlite3.connect(db)
    q = lambda sql, *a: con.execute(sql, a).fetchall()
    assert q(
        "SELECT i.status, p.connected_on IS NOT NULL FROM invitations i JOIN people p ON p.id = i.person_id "
        "WHERE p.name = ?",
        facts["accept"],
    ) == [("accepted", 1)]
    assert q("SELECT COUNT(*) FROM people WHERE connected_on IS NOT NULL") == [(facts["connections"] + 1,)]
    assert q("SELECT COUNT(*) FROM invitations WHERE status != 'pending'") == [(1,)]
    # The one invitation sent: to the meetup's organizer, the note verbatim.
    assert q(
        "SELECT p.name, i.note, i.status FROM invitations i JOIN people p ON p.id = i.person_id "
        "WHERE i.world_ref IS NULL"
    ) == [(facts["connect"]["name"], NOTE, "pending")]
    assert q("SELECT body, created_at >= ? FROM posts WHERE world_ref IS NULL", world.now.isoformat()) == [(POST, 1)]
    assert q(
        "SELECT r.reaction FROM reactions r JOIN posts p ON p.id = r.post_id WHERE p.world_ref IS NULL "
        "AND r.person_id IS NULL"
    ) == [("celebrate",)]
    assert q("SELECT body FROM comments WHERE world_ref IS NULL") == [(COMMENT,)]
    assert q("SELECT title FROM experience WHERE id = 1 AND updated_at IS NOT NULL") == [(facts["edit"]["title"],)]
    assert q("SELECT j.slug FROM saved_jobs s JOIN jobs j ON j.id = s.job_id WHERE s.world_ref IS NULL") == [
        (facts["jobs"]["save"],)
    ]
    mine = q("SELECT body FROM messages WHERE world_ref IS NULL AND sender_id IS NULL")
    assert mine == [(REPLY,)]
    # The recruiter's answer is stored at once, to arrive after its delay.
    assert (
        len(q("SELECT id FROM messages WHERE world_ref IS NULL AND sender_id IS NOT NULL AND reply_to_id IS NOT NULL"))
        == 1
    )
    # Refused input wrote nothing: no empty or oversize rows, no extra experience or skill.
    assert q("SELECT COUNT(*) FROM posts WHERE trim(body) = '' OR length(body) > 3000") == [(0,)]
    assert q("SELECT COUNT(*) FROM experience WHERE world_ref IS NULL") == [(0,)]
    assert q("SELECT COUNT(*) FROM skills WHERE world_ref IS NULL") == [(0,)]
    assert q("SELECT length(headline) <= 220 AND headline != '' FROM profile") == [(1,)]
    con.close()


def _check_applied(served: Served, facts: dict, resume: Path) -> None:
    """The one application: the job, the persona's contact, the résumé's bytes; and Guildline's mail about it."""
    con = sqlite3.connect(served.database("network"))
    rows = con.execute(
        "SELECT j.slug, a.email, a.phone, a.resume_name, a.resume, a.resume_sha256, a.years FROM applications a "
        "JOIN jobs j ON j.id = a.job_id"
    ).fetchall()
    con.close()
    assert rows == [
        (
            facts["apply"]["job"],
            facts["apply"]["email"],
            facts["apply"]["phone"],
            resume.name,
            resume.read_bytes(),
            hashlib.sha256(resume.read_bytes()).hexdigest(),
            APPLY_YEARS,
        )
    ]
    mail = sqlite3.connect(served.database("mail"))
    got = mail.execute(
        "SELECT from_email, folder FROM messages WHERE world_ref IS NULL AND instr(subject, 'your application was sent') > 0"
    ).fetchall()
    mail.close()
    assert got == [("jobs-noreply@guildline.test", "inbox")]


def test_seed_is_byte_identical_and_projects_the_world(world, tmp_path):
    from apps.network.seed import seed

    a, b = seed(world, tmp_path / "a.sqlite"), seed(world, tmp_path / "b.sqlite")
    assert a.read_bytes() == b.read_bytes()
    prof = _profile(world)
    con = sqlite3.connect(a)
    assert con.execute("SELECT COUNT(*) FROM posts").fetchone()[0] == len(world.of_kind("network_post"))
    assert con.execute("SELECT COUNT(*) FROM people").fetchone()[0] == len(prof["connections"]) + len(prof["people"])
    assert con.execute("SELECT COUNT(*) FROM jobs").fetchone()[0] == len(world.of_kind("job_posting"))
    # The About opens with the spec's bio, verbatim.
    about = f"{world.persona.identity.bio}\n\n{prof['about']}"
    assert prof["bio"] == world.persona.identity.bio
    assert con.execute("SELECT headline, about FROM profile").fetchone() == (prof["headline"], about)
    assert con.execute("SELECT COUNT(*) FROM posts WHERE world_ref IS NULL").fetchone()[0] == 0
    con.close()


def test_tasks_contract(world, default_layer):
    """≥ 8 tasks, ≥ 3 actions, ≥ 4 spanning two apps; doing nothing scores 0 on every action (the reference
    solutions, apps/network/oracle.py, score in full in tests/tasks/test_oracles.py)."""
    from builder.tasks.collect import tasks_of

    tasks = tasks_of("network")

    ts = {t.id.split("/")[-1]: t for t in tasks(world)}
    actions = [t for t in ts.values() if t.kind == "action"]
    assert len(ts) >= 8 and len(actions) >= 3 and sum(len(t.apps_involved) > 1 for t in ts.values()) >= 4
    seeded = {"network": default_layer / "var/lib/persona-desktop/apps/network/network.sqlite"}
    for t in actions:
        assert grade(t, seeded, initial=seeded)[0] == 0, t.id
