"""World -> rows of Huddle, the work chat (``workchat.sqlite``).

Everything comes from the world's work chat (:mod:`builder.world.work_chat`): the channels of
:func:`builder.world.work_channels` in their order, the workspace members (channel members,
the persona first), and every ``work_chat_message`` event as a message row in (time, id) order with
its thread, mentions, reactions, pin and read flag. Colleagues who are the persona's contacts carry
their contact card (:func:`builder.world.contact_card`) so the app's reply engine can answer
as them. Nothing here reads the wall clock; every draw comes from a ``workchat/...`` stream.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile, yamlfile
from builder.dates import add_months
from builder.names import ascii_slug
from builder.rng import rng, token
from builder.world import World, contact_card, work_channels

from . import models as m

APP = yamlfile.safe_load((Path(__file__).parent / "app.yaml").read_text(encoding="utf-8"))
BASE_URL = f"http://{APP['domain']}"


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (derived from the seed, see builder.appkit)."""
    return appkit.credentials(world, "workchat")


def handle(name: str) -> str:
    """The search handle of a display name: ``Sam Okafor`` -> ``sam.okafor`` (ASCII, dot-separated)."""
    return ascii_slug(name, ".") or token(0, name, length=8)


def messages(world: World) -> list:
    """The world's ``work_chat_message`` events in (time, id) order (the seed's row order)."""
    return world.of_kind("work_chat_message")


def members(world: World) -> list[dict[str, str]]:
    """Workspace members in order (persona, then channel members in channel order): ``[{name, email}]``.

    ``email`` is the one the member sends with in the world (``sender_email``); the persona's is its
    work email, a colleague contact's its contact email, else ``first.last@<work domain>``.
    """
    p = world.persona
    sent = {}
    for e in messages(world):
        sent.setdefault(e.data["sender"], e.data["sender_email"])
    domain = (p.work.email or "").rsplit("@", 1)[-1] if p.work and p.work.email else "example.test"
    contacts = {c.name: c.email for c in p.contacts}
    names = [p.identity.name]
    for ch in work_channels(world):
        for n in ch["members"]:
            if n not in names:
                names.append(n)
    out = []
    for n in names:
        email = (
            sent.get(n)
            or (p.work.email if n == p.identity.name and p.work else None)
            or contacts.get(n)
            or f"{handle(n)}@{domain}"
        )
        out.append({"name": n, "email": email})
    return out


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as the Huddle database for ``world`` and return it.

    A persona without an employer gets an empty workspace (no channels). The file is written in
    journal_mode=DELETE and VACUUMed, so its bytes depend only on the world. Raises
    ``FileExistsError`` if ``path`` exists.
    """
    p = world.persona
    engine = dbfile.create(path, m.Base.metadata)
    creds = credentials(world)
    chans = work_channels(world)
    events = messages(world)
    workspace = events[0].data["workspace"] if events else (p.work.employer if p.work and p.work.employer else "")
    ws_domain = events[0].data["workspace_domain"] if events else ascii_slug(workspace)
    contacts = {c.name for c in p.contacts}
    colleagues = set(p.work.colleagues) if p.work else set()
    with OrmSession(engine) as db:
        ids: dict[str, int] = {}
        for i, person in enumerate(members(world), start=1):
            n = person["name"]
            ids[n] = i
            card = json.dumps(contact_card(world, n), sort_keys=True, ensure_ascii=False) if n in contacts else None
            db.add(
                m.Person(
                    id=i,
                    name=n,
                    handle=handle(n),
                    email=person["email"],
                    title=(p.work.role or "") if n == p.identity.name and p.work else "",
                    is_me=int(n == p.identity.name),
                    colleague=int(n in colleagues),
                    card_json=card,
                )
            )
        db.flush()
        db.add(
            m.User(
                id=1,
                person_id=ids[p.identity.name],
                username=creds["username"],
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, "workchat")),
                status_emoji="",
                status_text="",
                status_expires_at=None,
                status_set_at=None,
            )
        )
        db.add(
            m.Session(
                token=creds["session_token"],
                user_id=1,
                created_at=world.now.isoformat(),
                expires_at=add_months(world.now, 12).isoformat(),
            )
        )
        channel_ids: dict[str, int] = {}
        for pos, ch in enumerate(chans, start=1):
            channel_ids[ch["name"]] = pos
            other = next((n for n in ch["members"] if n != p.identity.name), None) if ch["kind"] == "dm" else None
            db.add(
                m.Channel(
                    id=pos,
                    name=ch["name"],
                    kind=ch["kind"],
                    topic=ch["topic"],
                    purpose=ch["purpose"],
                    created=ch["created"],
                    position=pos,
                    dm_person_id=ids[other] if other else None,
                )
            )
        db.flush()
        for ch in chans:
            for n in sorted(set(ch["members"]), key=lambda n: ids[n]):
                db.add(
                    m.ChannelMember(
                        channel_id=channel_ids[ch["name"]],
                        person_id=ids[n],
                        notify="all" if ch["kind"] == "dm" else "mentions",
                        muted=0,
                    )
                )
        msg_ids: dict[str, int] = {}
        for i, e in enumerate(events, start=1):
            msg_ids[e.id] = i
            d = e.data
            at = e.at.replace(microsecond=0).isoformat()
            db.add(
                m.Message(
                    id=i,
                    channel_id=channel_ids[d["channel"]],
                    thread_root_id=msg_ids[d["thread_id"]] if d["thread_id"] else None,
                    sender_id=ids[d["sender"]],
                    text=d["text"],
                    sent_at=at,
                    deliver_at=at,
                    edited_at=None,
                    deleted=0,
                    is_read=int(bool(d["read"])),
                    pinned=int(bool(d["pinned"])),
                    pinned_at=None,
                    world_ref=e.id,
                    event_ref=d.get("ref"),
                    reply_to_id=None,
                )
            )
        db.flush()
        for i, e in enumerate(events, start=1):
            seen = set()
            for pos, n in enumerate(e.data["mentions"]):
                if n in ids and n not in seen:
                    seen.add(n)
                    db.add(m.Mention(message_id=i, person_id=ids[n], position=pos))
            for r in e.data["reactions"]:
                for n in r["by"]:
                    if n in ids:
                        db.add(m.Reaction(message_id=i, emoji=r["emoji"], person_id=ids[n], added_at=None))
        for key, value in [
            ("as_of", p.as_of.isoformat()),
            ("now", world.now.isoformat()),
            ("timezone", p.timezone),
            ("locale", p.bank.replace("_", "-")),
            ("workspace", workspace),
            ("workspace_domain", ws_domain),
            ("reply_seed", token(world.seed, "workchat/replies", length=16)),
        ]:
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


def bookmarks(world: World) -> list[dict[str, str]]:
    """Huddle in the bookmarks toolbar when the persona has a workspace: ``[{title, url, folder}]``."""
    if not work_channels(world):
        return []
    return [{"title": "Huddle", "url": f"{BASE_URL}/", "folder": "toolbar"}]


def channel_title(name: str, kind: str, workspace: str, people: dict[str, str]) -> str:
    """The page title Huddle shows for a channel: ``#team-design - Acme - Huddle`` (a DM: the colleague's name)."""
    label = people.get(name, name) if kind == "dm" else f"#{name}"
    return f"{label} - {workspace} - {APP['title']}"


def visits(world: World) -> list[dict]:
    """History visits: on each workday the persona posted, Huddle opened a few minutes before its first
    message, on that message's channel. ``[{url, title, at (naive local), transition}]`` in time order;
    minutes drawn from ``workchat/visits``."""
    chans = {c["name"]: c for c in work_channels(world)}
    if not chans:
        return []
    me = world.persona.identity.name
    dm_names = {n: next((x for x in c["members"] if x != me), n) for n, c in chans.items() if c["kind"] == "dm"}
    first: dict[dt.date, object] = {}
    for e in messages(world):
        if e.data["sender"] == me and e.at.weekday() < 5 and e.at.date() not in first:
            first[e.at.date()] = e
    r = rng(world.seed, "workchat/visits")
    out = []
    for day in sorted(first):
        e = first[day]
        ch = chans[e.data["channel"]]
        at = e.at - dt.timedelta(minutes=r.randint(1, 12), seconds=r.randrange(60))
        out.append(
            {
                "url": f"{BASE_URL}/c/{ch['name']}",
                "title": channel_title(ch["name"], ch["kind"], e.data["workspace"], dm_names),
                "at": at.replace(microsecond=0),
                "transition": "link",
            }
        )
    return out
