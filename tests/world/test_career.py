"""The career world module (builder/world/career.py) and the résumé draft the network seed writes.

Determinism (the same spec gives the same career events), connections include every colleague,
dates agree with the birth date and the world's now, the résumé's one difference from the profile
is recorded in the world and is the only one, and headless LibreOffice converts the résumé.
"""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess

import pytest

from builder.persona import complete, load
from builder.world import simulate

from tests.conftest import DEFAULT_PERSONA

KINDS = ("career_profile", "network_post", "network_invitation", "recruiter_message", "job_posting")


def _career(world):
    return [(e.kind, e.at, e.id, e.data) for e in world.events if e.kind in KINDS]


def _profile(world):
    return next(e for e in world.events if e.kind == "career_profile").data


def test_career_is_deterministic(world):
    again = simulate(complete(load(DEFAULT_PERSONA)))
    assert _career(again) == _career(world)
    assert len(_career(world)) > 50


def test_connections_include_every_colleague(any_world):
    persona, world = any_world
    prof = _profile(world)
    names = {c["name"] for c in prof["connections"]}
    assert set(persona.work.colleagues if persona.work else []) <= names
    employer = prof["experience"][0]["company"]
    for c in prof["connections"]:
        if c["name"] in (persona.work.colleagues if persona.work else []):
            assert c["relation"] == "colleague" and c["company"] == employer
    # No one is both a connection and a second-degree person; every id is unique.
    ids = [x["id"] for x in prof["connections"] + prof["people"]]
    assert len(ids) == len(set(ids))
    assert not names & {x["name"] for x in prof["people"]}


def test_a_parent_is_a_connection_only_when_listed_in_network(persona):
    """Parents and children are not on the professional network unless their ``apps`` list ``network``
    (only the career step runs: the connections come from the spec and the profile)."""
    from builder.world.engine import plan, run_steps
    from builder.world.simulate import begin, finish

    step = [s for s in plan() if s.name == "career.simulate_career"]

    def connections(contacts) -> set[str]:
        sim = begin(persona.model_copy(update={"contacts": contacts}))
        run_steps(sim, step)
        return {c["name"] for c in _profile(finish(sim))["connections"]}

    parents = [c.name for c in persona.contacts if c.relationship == "parent"] or [persona.contacts[0].name]
    as_parent = [c.model_copy(update={"relationship": "parent"}) if c.name in parents else c for c in persona.contacts]
    assert not connections(as_parent) & set(parents)
    listed = [
        c.model_copy(update={"apps": [*(c.apps or []), "network"]}) if c.name in parents else c for c in as_parent
    ]
    assert set(parents) <= connections(listed)


def test_dates_agree_with_the_birth_date_and_now(any_world):
    persona, world = any_world
    prof = _profile(world)
    born = persona.identity.birth_date
    exp = prof["experience"]
    assert exp and exp[0]["end"] is None and all(x["end"] for x in exp[1:])
    as_of = persona.as_of.isoformat()[:7]
    for x in exp:
        assert x["start"] >= f"{born.year + 16:04d}-01", x
        assert x["start"] <= as_of and (x["end"] is None or x["start"] <= x["end"] <= as_of), x
    # Newest first, no overlap: each job ends before the next newer one starts.
    for newer, older in zip(exp, exp[1:]):
        assert older["end"] < newer["start"], (older, newer)
    for ed in prof["education"]:
        assert ed["end_year"] - ed["start_year"] == 4 and ed["end_year"] >= born.year + 18
    for c in prof["connections"]:
        assert c["connected_on"] <= persona.as_of.isoformat()
    conn = {c["name"] for c in prof["connections"]}
    for e in world.of_kind("network_post"):
        assert e.at <= world.now and (e.data["author"] == "me" or e.data["author"] in conn)
        assert all(r["name"] in conn | {"me"} for r in e.data["reactions"])
        assert all(dt.datetime.fromisoformat(c["at"]) <= world.now for c in e.data["comments"])
    assert all(
        e.at <= world.now for e in world.events if e.kind in ("network_invitation", "recruiter_message", "job_posting")
    )


def test_meetup_is_in_the_calendar_with_the_inviter(world):
    prof = _profile(world)
    meet = prof["meetup"]
    ev = next(e for e in world.of_kind("calendar_event") if e.id == meet["event_id"])
    assert ev.data["title"] == meet["title"] and ev.at.date().isoformat() == meet["date"]
    assert meet["attendee"] in [a["name"] for a in ev.data["attendees"]]
    inv = next(e for e in world.of_kind("network_invitation") if e.data["invitation_id"] == meet["invitation_id"])
    assert inv.data["name"] == meet["attendee"] and inv.data["direction"] == "incoming" and inv.at > ev.at


def test_latest_recruiter_thread_asks_for_next_week(world):
    msgs = world.of_kind("recruiter_message")
    assert len({m.data["thread_id"] for m in msgs}) == 3
    last = msgs[-1]
    assert last.data["sender"] == "recruiter" and "next week" in last.data["text"]


def _docx_text(path) -> str:
    from docx import Document

    return "\n".join(p.text for p in Document(str(path)).paragraphs)


def test_resume_differs_from_the_profile_exactly_as_recorded(world, tmp_path):
    from apps.network.seed import home_files

    prof = _profile(world)
    diff = prof["resume"]["difference"]
    assert diff["field"] == "title" and diff["profile"] != diff["resume"]
    assert diff["resume"] == world.persona.work.role and prof["experience"][0]["title"] == diff["profile"]
    (a,) = home_files(world, tmp_path / "a")
    (b,) = home_files(world, tmp_path / "b")
    assert a.read_bytes() == b.read_bytes()
    assert a.relative_to(tmp_path / "a").as_posix() == f"{prof['resume']['folder']}/{prof['resume']['filename']}"
    written = dt.datetime.fromisoformat(prof["resume"]["written_at"])
    from zoneinfo import ZoneInfo

    assert a.stat().st_mtime == written.replace(tzinfo=ZoneInfo(world.persona.timezone)).timestamp()
    text = _docx_text(a)
    company = prof["experience"][0]["company"]
    assert f"{diff['resume']}, {company}" in text and f"\n{diff['profile']}, {company}" not in f"\n{text}"
    # Everything else on the profile is on the résumé as it is.
    for x in prof["experience"][1:]:
        assert f"{x['title']}, {x['company']}" in text
    for s in prof["skills"]:
        assert s in text
    assert prof["about"] in text and prof["education"][0]["school"] in text


@pytest.mark.skipif(not shutil.which("soffice"), reason="LibreOffice is not installed")
def test_libreoffice_converts_the_resume(world, tmp_path):
    from apps.network.seed import home_files

    (docx,) = home_files(world, tmp_path / "home")
    out = tmp_path / "pdf"
    run = subprocess.run(
        [
            "soffice",
            "--headless",
            f"-env:UserInstallation=file://{tmp_path}/lo",
            "--convert-to",
            "pdf",
            "--outdir",
            str(out),
            str(docx),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    pdf = out / (docx.stem + ".pdf")
    assert run.returncode == 0 and pdf.exists(), run.stdout + run.stderr
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 5000


def test_german_persona_gets_german_career_text(any_world, tmp_path):
    """A de_DE persona's profile, recruiter messages and résumé headings are German (templates/career/de_DE.yaml)."""
    persona, world = any_world
    if persona.bank != "de_DE":
        pytest.skip("not a German persona")
    from apps.network.seed import home_files

    prof = _profile(world)
    assert " bei " in prof["headline"] and " at " not in prof["headline"]
    assert all(" bei " in c["headline"] for c in prof["connections"])
    texts = [e.data["text"] for e in world.of_kind("recruiter_message")]
    assert any("nächste Woche" in t for t in texts)
    (docx,) = home_files(world, tmp_path)
    text = _docx_text(docx)
    assert "Berufserfahrung" in text and "Kenntnisse" in text and "Experience" not in text
