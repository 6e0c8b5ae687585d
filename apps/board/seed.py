"""World -> rows of Cairn, the project board (``board.sqlite``), plus the project files in the home.

Everything comes from :func:`builder.world.projects.board` (the world's ``sprint`` and ``ticket_*`` events
replayed to ``now``): people (the persona first), projects, sprints, tickets in creation order (``rank`` by
creation inside a column), labels, sub-tasks, comments and one ``activity`` row per change in the history. A
persona without a job gets an empty board (the app shows its empty state). ``home_files`` writes a project brief
per project and the meeting notes of recent sprint plannings and stand-ups (:mod:`apps.board.documents`).
Nothing here reads the wall clock.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile, yamlfile
from builder.world import World, board

from . import models as m

APP = yamlfile.safe_load((Path(__file__).parent / "app.yaml").read_text(encoding="utf-8"))
BASE_URL = f"http://{APP['domain']}"


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (see builder.appkit)."""
    return appkit.credentials(world, "board")


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as Cairn's database for ``world`` and return it.

    Written in journal_mode=DELETE and VACUUMed, so its bytes depend only on the world. Raises
    ``FileExistsError`` if ``path`` exists.
    """
    p = world.persona
    b = board(world)
    engine = dbfile.create(path, m.Base.metadata)
    creds = credentials(world)
    people = b["people"] or [
        {
            "name": p.identity.name,
            "email": (p.work.email if p.work and p.work.email else p.identity.email) or "",
            "is_me": True,
        }
    ]
    with OrmSession(engine) as db:
        ids: dict[str, int] = {}
        for i, person in enumerate(people, start=1):
            ids[person["name"]] = i
            db.add(m.Person(id=i, name=person["name"], email=person["email"] or "", is_me=int(person["is_me"])))
        db.flush()
        me = people[0]
        db.add(
            m.User(
                id=1,
                person_id=1,
                username=creds["username"],
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, "board")),
                full_name=me["name"],
                email=me["email"] or "",
            )
        )
        db.add(
            m.Session(
                token=creds["session_token"],
                user_id=1,
                created_at=world.now.isoformat(),
                expires_at=appkit.session_expiry(world),
            )
        )
        project_ids = {}
        for i, pr in enumerate(b["projects"], start=1):
            project_ids[pr["name"]] = i
            db.add(m.Project(id=i, name=pr["name"], slug=pr["slug"], start=pr["start"], end=pr["end"]))
        for s in b["sprints"]:
            db.add(
                m.Sprint(
                    id=s["number"],
                    name=s["name"],
                    start=s["start"],
                    end=s["end"],
                    opens=s["opens"],
                    closes=s["closes"],
                    goal=s["goal"],
                    world_ref=s["id"],
                )
            )
        db.flush()
        names = {s["number"]: s["name"] for s in b["sprints"]}
        ranks: dict[tuple, int] = {}
        comment_id = subtask_id = activity_id = 0
        for i, t in enumerate(b["tickets"], start=1):
            column = (t["sprint"], t["status"])
            ranks[column] = ranks.get(column, 0) + 1
            db.add(
                m.Ticket(
                    id=i,
                    key=t["key"],
                    number=t["number"],
                    project_id=project_ids[t["project"]],
                    type=t["type"],
                    title=t["title"],
                    description=t["description"],
                    status=t["status"],
                    priority=t["priority"],
                    points=t["points"],
                    due=t["due"],
                    reporter_id=ids[t["reporter"]],
                    assignee_id=ids[t["assignee"]],
                    sprint_id=t["sprint"],
                    rank=ranks[column],
                    created_at=t["created_at"],
                    updated_at=t["updated_at"],
                    world_ref=t["id"],
                )
            )
            db.flush()
            for label in t["labels"]:
                db.add(m.TicketLabel(ticket_id=i, label=label))
            for pos, st in enumerate(t["subtasks"], start=1):
                subtask_id += 1
                db.add(
                    m.Subtask(
                        id=subtask_id,
                        ticket_id=i,
                        position=pos,
                        title=st["title"],
                        done=int(st["done"]),
                        world_ref=t["id"],
                    )
                )
            for c in t["comments"]:
                comment_id += 1
                db.add(
                    m.Comment(
                        id=comment_id,
                        ticket_id=i,
                        author_id=ids[c["author"]],
                        body=c["text"],
                        created_at=c["at"],
                        world_ref=c["ref"],
                    )
                )
            for h in t["history"]:
                activity_id += 1
                old, new = h["old"], h["new"]
                if h["field"] == "sprint":  # shown as the app shows its own moves: by sprint name
                    old, new = names.get(int(old), old), names.get(int(new), new)
                db.add(
                    m.Activity(
                        id=activity_id,
                        ticket_id=i,
                        at=h["at"],
                        actor_id=ids[h["by"]],
                        field=h["field"],
                        old=old,
                        new=new,
                        meeting=h["meeting"],
                        world_ref=h["ref"],
                    )
                )
        extra = {}
        if any(pr["key"] != b["prefix"] for pr in b["projects"]):  # spec projects with their own ticket prefix
            extra["project_keys"] = json.dumps({pr["slug"]: pr["key"] for pr in b["projects"]}, ensure_ascii=False)
        meta = appkit.meta_rows(world, workspace=b["workspace"], team=b["team"], prefix=b["prefix"], **extra)
        for key, value in meta.items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


def home_files(world: World, home: Path) -> None:
    """Write the project briefs (DOCX) and meeting notes (ODT, Markdown) under ``home/Documents/Work``."""
    from .documents import write_documents

    write_documents(world, home)


def bookmarks(world: World) -> list[dict[str, str]]:
    """Cairn in the bookmarks toolbar when the persona has a board: ``[{title, url, folder}]``."""
    if not board(world)["tickets"]:
        return []
    return [{"title": APP["title"], "url": f"{BASE_URL}/board", "folder": "toolbar"}]


def visits(world: World) -> list[dict]:
    """History visits: the persona opened a ticket's page a few minutes before each change it made to it in the
    last 60 days (``[{url, title, at (naive local), transition}]`` in time order; minutes from ``board/visits``)."""
    import datetime as dt

    from builder.rng import rng

    me = world.persona.identity.name
    since = (world.now - dt.timedelta(days=60)).isoformat()
    r = rng(world.seed, "board/visits")
    out = []
    for t in board(world)["tickets"]:
        for h in t["history"]:
            if h["by"] == me and h["at"] >= since:
                at = dt.datetime.fromisoformat(h["at"]) - dt.timedelta(minutes=r.randint(1, 6), seconds=r.randrange(60))
                out.append(
                    {
                        "url": f"{BASE_URL}/t/{t['key']}",
                        "title": f"{t['key']}: {t['title']} | {APP['title']}",
                        "at": at,
                        "transition": "link",
                    }
                )
    return sorted(out, key=lambda v: (v["at"], v["url"]))
