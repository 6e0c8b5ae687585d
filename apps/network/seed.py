"""World -> rows of Guildline's database (``network.sqlite``) and the résumé draft in the persona's home.

What the seed writes, and the rules it keeps (tests and tasks depend on them):

* **Profile**: the ``career_profile`` event verbatim: headline, about (the ``bio``, then the ``about`` paragraph), pronouns,
  location, experience (newest first; entry 0 the current job with the profile's stale title, ``world_ref`` ``exp-<n>``), education,
  skills (``skill:<name>``).
* **People**: the profile's connections (``connected_on`` set) then its second-degree people
  (``connected_on`` NULL; recruiters among them get ``relation`` recruiter), ``world_ref`` the
  career person id (``p<n>`` / ``s<n>``), in that order (ids follow).
* **Invitations**, **posts** (with reactions and comments), **recruiter threads**, **jobs** and
  **saved jobs**: the world's ``network_invitation``, ``network_post``, ``recruiter_message`` and
  ``job_posting`` events at or before now, ``world_ref`` the event id; posts by time, jobs by posting time.
* **The résumé** (:func:`home_files`): ``~/Documents/Career/<First>_<Last>_Resume.docx`` (python-docx)
  with the profile's content but for the one recorded difference (the current title is the
  spec's role), its mtime the world's ``resume.written_at``; the zip's entries carry a fixed date so
  the bytes depend only on the world.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import zipfile
from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile
from builder.dates import add_months
from builder.reference.locale import read_bank
from builder.world import World

from . import models as m

DOMAIN = "guildline.test"
#: The résumé's phrase banks (``<locale>.yaml``: month names, ``present``, the headings; en_US for a locale
#: without one).
PHRASES = Path(__file__).with_name("phrases")


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (see builder.appkit)."""
    return appkit.credentials(world, "network")


def profile(world: World) -> dict:
    """The ``career_profile`` event's data (see builder.world.career). Raises ``StopIteration`` without one."""
    return next(e for e in world.events if e.kind == "career_profile").data


def recruiter_ids(world: World) -> set[str]:
    """Career person ids of the people who wrote recruiter messages."""
    return {e.data["recruiter"] for e in world.of_kind("recruiter_message")}


def _card(world: World, person: dict) -> dict:
    """The reply engine's card of a Guildline person: formal, not a colleague, the persona's names."""
    p = world.persona
    return {
        "name": person["name"],
        "first_name": person["name"].split()[0],
        "relationship": "other",
        "style": "formal",
        "colleague": person["relation"] == "colleague",
        "persona": {"name": p.identity.name, "first_name": p.identity.name.split()[0]},
        "locale": p.bank,
        "now": world.now.isoformat(),
        "title": person["title"],
        "company": person["company"],
    }


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as Guildline's database for ``world`` and return it.

    Written through :mod:`builder.dbfile`, so the bytes depend only on the world. Raises
    ``FileExistsError`` if ``path`` exists.
    """
    p = world.persona
    prof = profile(world)
    creds = credentials(world)
    now = world.now
    recruiters = recruiter_ids(world)
    engine = dbfile.create(path, m.Base.metadata)
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=p.identity.name,
                email=p.identity.email or "",
                phone=p.identity.phone or "",
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, "network")),
            )
        )
        db.add(
            m.Session(
                token=creds["session_token"],
                user_id=1,
                created_at=now.isoformat(),
                expires_at=add_months(now, 12).isoformat(),
            )
        )
        # The About opens with the persona's own bio (the spec's, verbatim), then the career paragraph.
        about = "\n\n".join(x for x in (prof.get("bio"), prof["about"]) if x)
        db.add(
            m.Profile(
                id=1,
                headline=prof["headline"],
                about=about,
                location=prof["location"],
                pronouns=prof.get("pronouns") or "",
            )
        )
        for i, x in enumerate(prof["experience"], start=1):
            db.add(
                m.Experience(
                    id=i,
                    title=x["title"],
                    company=x["company"],
                    location=x["location"],
                    start_month=x["start"],
                    end_month=x["end"],
                    description=x["description"],
                    world_ref=x["id"],
                )
            )
        for i, x in enumerate(prof["education"], start=1):
            db.add(
                m.Education(
                    id=i, school=x["school"], degree=x["degree"], start_year=x["start_year"], end_year=x["end_year"]
                )
            )
        for i, s in enumerate(prof["skills"], start=1):
            db.add(m.Skill(id=i, name=s, position=i, world_ref=f"skill:{s}"))
        person_id: dict[str, int] = {}
        by_name: dict[str, int] = {}
        for i, x in enumerate(prof["connections"] + prof["people"], start=1):
            person_id[x["id"]] = i
            by_name.setdefault(x["name"], i)
            prev = x.get("previous") or {}
            db.add(
                m.Person(
                    id=i,
                    name=x["name"],
                    headline=x["headline"],
                    title=x["title"],
                    company=x["company"],
                    location=x["location"],
                    relation="recruiter" if x["id"] in recruiters else x["relation"],
                    connected_on=x["connected_on"],
                    started=x["started"],
                    previous_title=prev.get("title"),
                    previous_company=prev.get("company"),
                    mutual_json=json.dumps(x["mutual"], ensure_ascii=False),
                    card_json=json.dumps(_card(world, x), ensure_ascii=False, sort_keys=True),
                    world_ref=x["id"],
                )
            )
        db.flush()
        past = lambda kind: [e for e in world.of_kind(kind) if e.at <= now]  # noqa: E731
        for i, e in enumerate(past("network_invitation"), start=1):
            db.add(
                m.Invitation(
                    id=i,
                    person_id=person_id[e.data["person"]],
                    direction=e.data["direction"],
                    note=e.data["note"],
                    sent_at=e.at.isoformat(),
                    status="pending",
                    world_ref=e.id,
                )
            )
        reaction_n = comment_n = 0
        posts = sorted(past("network_post"), key=lambda e: (e.at, e.data["post_id"]))
        for i, e in enumerate(posts, start=1):
            d = e.data
            db.add(
                m.Post(
                    id=i,
                    author_id=None if d["author"] == "me" else by_name[d["author"]],
                    kind=d["kind"],
                    body=d["body"],
                    created_at=e.at.isoformat(),
                    world_ref=e.id,
                )
            )
            db.flush()
            for x in d["reactions"]:
                reaction_n += 1
                db.add(
                    m.Reaction(
                        id=reaction_n,
                        post_id=i,
                        person_id=None if x["name"] == "me" else by_name[x["name"]],
                        reaction=x["reaction"],
                        created_at=e.at.isoformat(),
                        world_ref=f"{e.id}/r/{x['name']}",
                    )
                )
            for x in d["comments"]:
                comment_n += 1
                db.add(
                    m.Comment(
                        id=comment_n,
                        post_id=i,
                        person_id=by_name[x["name"]],
                        body=x["body"],
                        created_at=x["at"],
                        world_ref=f"{e.id}/c/{comment_n}",
                    )
                )
        jobs = sorted(past("job_posting"), key=lambda e: (e.at, e.data["job_id"]))
        job_id: dict[str, int] = {}
        for i, e in enumerate(jobs, start=1):
            d = e.data
            job_id[d["job_id"]] = i
            db.add(
                m.Job(
                    id=i,
                    slug=d["job_id"],
                    title=d["title"],
                    company=d["company"],
                    location=d["location"],
                    workplace=d["workplace"],
                    salary_min_cents=d["salary_min_cents"],
                    salary_max_cents=d["salary_max_cents"],
                    currency=d["currency"],
                    summary=d["summary"],
                    skills_json=json.dumps(d["skills"], ensure_ascii=False),
                    posted_at=e.at.isoformat(),
                    world_ref=e.id,
                )
            )
        db.flush()
        for e in jobs:
            if e.data["saved_at"]:
                db.add(m.SavedJob(job_id=job_id[e.data["job_id"]], saved_at=e.data["saved_at"], world_ref=e.id))
        msgs = past("recruiter_message")
        thread_of: dict[str, int] = {}
        for e in sorted(msgs, key=lambda e: (e.at, e.id)):
            t = e.data["thread_id"]
            if t not in thread_of:
                thread_of[t] = len(thread_of) + 1
                db.add(
                    m.Thread(
                        id=thread_of[t],
                        person_id=person_id[e.data["recruiter"]],
                        job_id=job_id.get(e.data["job_id"]),
                        world_ref=t,
                    )
                )
        db.flush()
        last_mine: dict[str, dt.datetime] = {}
        for e in msgs:
            if e.data["sender"] == "me":
                last_mine[e.data["thread_id"]] = e.at
        for i, e in enumerate(sorted(msgs, key=lambda e: (e.at, e.id)), start=1):
            d = e.data
            mine = d["sender"] == "me"
            read = (
                None
                if mine
                else (e.at.isoformat() if e.at <= last_mine.get(d["thread_id"], e.at - dt.timedelta(1)) else None)
            )
            db.add(
                m.Message(
                    id=i,
                    thread_id=thread_of[d["thread_id"]],
                    sender_id=None if mine else person_id[d["recruiter"]],
                    body=d["text"],
                    sent_at=e.at.isoformat(),
                    read_at=read,
                    world_ref=e.id,
                )
            )
        for k, v in appkit.meta_rows(world, seed=str(world.seed), user_name=p.identity.name).items():
            db.add(m.Meta(key=k, value=v))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


# --- the résumé draft -------------------------------------------------------------------------------


def _month(ym: str | None, words: dict) -> str:
    """``2024-03`` as the résumé writes it (``Mar 2024``, ``März 2024``); None: ``Present`` / ``heute``."""
    if not ym:
        return words["present"]
    return f"{words['months'][int(ym[5:7]) - 1]} {ym[:4]}"


def resume_entries(world: World) -> list[dict]:
    """The résumé's experience entries: the profile's, with the recorded difference applied (entry 0's title)."""
    prof = profile(world)
    diff = prof["resume"]["difference"]
    out = [dict(x) for x in prof["experience"]]
    if out:
        out[diff["entry"]][diff["field"]] = diff["resume"]
    return out


def resume_path(world: World, home: Path) -> Path:
    """Where the résumé draft lives under ``home``."""
    r = profile(world)["resume"]
    return home / r["folder"] / r["filename"]


def write_resume(world: World, dest: Path) -> Path:
    """Write the résumé draft (DOCX) to ``dest``: name, contact line, headline, summary, experience,
    education, skills. Deterministic bytes (fixed core properties and zip dates); mtime the world's."""
    from docx import Document
    from docx.shared import Pt

    p = world.persona
    prof = profile(world)
    words = read_bank(PHRASES, p.bank)
    label = words["resume"]
    doc = Document()
    style = doc.styles["Normal"]
    style.font.name = "Liberation Sans"
    style.font.size = Pt(10.5)
    doc.add_heading(p.identity.name, level=0)
    contact = " · ".join(x for x in [prof["location"], p.identity.email or "", p.identity.phone or ""] if x)
    doc.add_paragraph(contact)
    doc.add_heading(label["summary"], level=1)
    doc.add_paragraph(prof["about"])
    doc.add_heading(label["experience"], level=1)
    for x in resume_entries(world):
        para = doc.add_paragraph()
        para.add_run(f"{x['title']}, {x['company']}").bold = True
        para.add_run(f"\n{_month(x['start'], words)} – {_month(x['end'], words)} · {x['location']}")
        if x["description"]:
            doc.add_paragraph(x["description"], style="List Bullet")
    doc.add_heading(label["education"], level=1)
    for x in prof["education"]:
        doc.add_paragraph(f"{x['degree']}, {x['school']}, {x['start_year']}–{x['end_year']}")
    doc.add_heading(label["skills"], level=1)
    doc.add_paragraph(", ".join(prof["skills"]))
    written = dt.datetime.fromisoformat(prof["resume"]["written_at"])
    cp = doc.core_properties
    cp.author = cp.last_modified_by = p.identity.name
    cp.title = f"{label['title']}: {p.identity.name}"
    cp.created = cp.modified = written
    cp.last_printed = dt.datetime(2000, 1, 1)
    cp.revision = 3
    buf = io.BytesIO()
    doc.save(buf)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as out:
        for name in sorted(src.namelist()):
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            out.writestr(info, src.read(name))
    from zoneinfo import ZoneInfo

    ts = written.replace(tzinfo=ZoneInfo(p.timezone)).timestamp()
    os.utime(dest, (ts, ts))
    return dest


def home_files(world: World, home: Path) -> list[Path]:
    """The résumé draft in ``home`` (``Documents/Career/...docx``); returns ``[its path]``."""
    return [write_resume(world, resume_path(world, home))]


# --- layer hooks ------------------------------------------------------------------------------------


def bookmarks(world: World) -> list[dict]:
    """Guildline on the Firefox toolbar: ``[{"title", "url", "folder"}]``."""
    return [{"title": "Guildline", "url": f"http://{DOMAIN}/", "folder": "toolbar"}]
