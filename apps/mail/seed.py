"""World -> rows of the Mailbox database (``mail.sqlite``), and the mailbox as Maildir in the home folder.

Every ``email`` event of the world with status ``done`` becomes one message in its folder
(inbox, sent, archive) with its labels, read flag, thread and attachments. Attachments that
carry their bytes in the world (ICS invitations) are stored as they are; the payroll's
payslip PDFs, which the world only names, are made from the paycheck the mail refers to
(:mod:`apps.mail.payslip`). Stars are the app's own state, drawn per message from the stream
``mail/starred/<event id>``, so mail another module adds never moves another message's star. Contacts get the reply engine's contact card. Rows are written in timeline
order, so ids follow (at, id) of the world's events.
"""

from __future__ import annotations

import datetime as dt
import email.policy
import email.utils
import hashlib
import json
import re
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.message import EmailMessage
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile
from builder.dates import add_months
from builder.rng import rng, stream_seed
from builder.world import World

from . import models as m
from .payslip import payslip_pdf
from .photos import photo_jpeg

# Headers up to RFC 5322's 998-character line limit unfolded: folding encoded words (a German subject) made
# Python's email package double the spaces around them ("ab 30,00  €").
_POLICY = email.policy.default.clone(max_line_length=998)

APP_URL = "http://mailbox.test/"
#: Maildir++ folder of each mail folder under ~/Mail ("" is the inbox itself).
MAILDIR_FOLDERS = {
    "inbox": "",
    "sent": ".Sent",
    "drafts": ".Drafts",
    "archive": ".Archive",
    "spam": ".Spam",
    "trash": ".Trash",
}
#: Label colours, given to labels in name order.
_LABEL_COLORS = [
    "#0f766e",
    "#b45309",
    "#7c3aed",
    "#be123c",
    "#1d4ed8",
    "#15803d",
    "#a16207",
    "#9333ea",
    "#0e7490",
    "#c2410c",
]
#: Chance that a message with one of these labels is starred (everything else: ``_STAR_OTHER``).
_STAR_CHANCE = {"personal": 0.12, "travel": 0.3, "invitations": 0.08, "payroll": 0.05, "reservations": 0.05}
_STAR_OTHER = 0.004


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (derived from the seed, see builder.appkit)."""
    return appkit.credentials(world, "mail")


@dataclass(frozen=True)
class StoredAttachment:
    """An attachment as the mailbox stores it: bytes always present."""

    filename: str
    content_type: str
    content: bytes


@dataclass(frozen=True)
class StoredMail:
    """One world mail as the mailbox holds it (the row, its labels and attachments)."""

    event_id: str
    at: dt.datetime
    data: dict
    starred: bool
    attachments: tuple[StoredAttachment, ...] = field(default=())


def snippet(body: str, length: int = 160) -> str:
    """The list preview of ``body``: its first lines without quoted text, whitespace collapsed, at most ``length`` chars."""
    kept = []
    for line in body.splitlines():
        if line.startswith(">") or re.match(r"^On .+ wrote:$", line.strip()):
            break
        kept.append(line)
    text = " ".join(" ".join(kept).split())
    return text if len(text) <= length else text[: length - 1].rstrip() + "…"


_CACHE: dict[int, tuple[World, tuple[StoredMail, ...]]] = {}


def _project_mails(world: World) -> tuple[StoredMail, ...]:
    paychecks = {e.id: e for e in world.of_kind("paycheck")}
    out = []
    for e in world.of_kind("email"):
        if e.status != "done":
            continue  # scheduled mail has not arrived yet
        d = e.data
        chance = max([_STAR_CHANCE.get(label, _STAR_OTHER) for label in d["labels"]] or [_STAR_OTHER])
        starred = stream_seed(world.seed, f"mail/starred/{e.id}") / 2**64 < chance
        atts = []
        for a in d["attachments"]:
            if a.get("content") is not None:
                body = a["content"].encode() if isinstance(a["content"], str) else bytes(a["content"])
            elif a["content_type"] == "application/pdf" and d.get("ref") in paychecks:
                body = payslip_pdf(world, paychecks[d["ref"]])
            elif a["content_type"] == "image/jpeg":
                body = photo_jpeg(world.seed, a["filename"])
            else:
                continue  # the world names a file the mailbox cannot make: leave it out rather than fake it
            atts.append(StoredAttachment(a["filename"], a["content_type"], body))
        out.append(StoredMail(e.id, e.at, d, starred, tuple(atts)))
    return tuple(out)


def world_mails(world: World) -> tuple[StoredMail, ...]:
    """Every delivered (status ``done``) email of ``world`` as the mailbox stores it, in timeline order."""
    hit = _CACHE.get(id(world))
    if hit is None or hit[0] is not world:
        if len(_CACHE) >= 4:
            _CACHE.pop(next(iter(_CACHE)))
        hit = _CACHE[id(world)] = (world, _project_mails(world))  # the world is kept, so its id stays its own
    return hit[1]


def contact_card(world: World, name: str) -> dict:
    """The reply engine's card for contact ``name``: :func:`builder.world.cards.contact_card` when the
    platform provides it, else the spec's facts (name, email, relationship, style, activities)."""
    try:
        from builder.world import contact_card as platform_card
    except ImportError:
        platform_card = None
    if platform_card is not None:
        return platform_card(world, name)
    c = next(c for c in world.persona.contacts if c.name == name)
    return {
        "name": c.name,
        "email": c.email,
        "relationship": c.relationship,
        "messaging_style": c.messaging_style or "brief",
        "shared_activities": list(c.shared_activities or []),
        "persona": {"name": world.persona.identity.name, "email": world.persona.identity.email},
    }


def _addr_json(people: list[dict]) -> str:
    return json.dumps(
        [{"name": x.get("name") or "", "email": x.get("email") or ""} for x in people], ensure_ascii=False
    )


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as the mail database for ``world`` and return it.

    The file is written in journal_mode=DELETE and VACUUMed so its bytes depend only on the world.
    Raises ``FileExistsError`` if ``path`` exists.
    """
    p = world.persona
    ident = p.identity
    creds = credentials(world)
    engine = dbfile.create(path, m.Base.metadata)
    mails = world_mails(world)
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                email=ident.email,
                work_email=p.work.email if p.work and p.work.email else None,
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, "mail")),
                signature=f"{ident.name.split()[0]}",
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
        names = sorted({label for mail in mails for label in mail.data["labels"]})
        label_ids = {name: i for i, name in enumerate(names, start=1)}
        for name, i in label_ids.items():
            db.add(m.Label(id=i, name=name, color=_LABEL_COLORS[(i - 1) % len(_LABEL_COLORS)]))
        att_id = 0
        for n, mail in enumerate(mails, start=1):
            d = mail.data
            at = mail.at.isoformat()
            db.add(
                m.Message(
                    id=n,
                    message_id=d["message_id"],
                    thread_id=d["thread_id"],
                    in_reply_to=d["in_reply_to"],
                    references_json=json.dumps(list(d["references"])),
                    folder=d["folder"],
                    prev_folder=None,
                    from_name=d["from"].get("name") or "",
                    from_email=d["from"].get("email") or "",
                    to_json=_addr_json(d["to"]),
                    cc_json=_addr_json(d.get("cc") or []),
                    subject=d["subject"],
                    body=d["body"],
                    snippet=snippet(d["body"]),
                    sent_at=at,
                    deliver_at=at,
                    is_read=int(bool(d["read"])),
                    is_starred=int(mail.starred),
                    has_attachments=int(bool(mail.attachments)),
                    origin="world",
                    world_ref=mail.event_id,
                    ref=d.get("ref"),
                )
            )
            for a in mail.attachments:
                att_id += 1
                db.add(
                    m.Attachment(
                        id=att_id,
                        message_id=n,
                        filename=a.filename,
                        content_type=a.content_type,
                        size=len(a.content),
                        content=a.content,
                    )
                )
            for label in sorted(set(d["labels"])):
                db.add(m.MessageLabel(message_id=n, label_id=label_ids[label]))
        for i, c in enumerate((c for c in p.contacts if c.email), start=1):
            db.add(
                m.Contact(
                    id=i,
                    name=c.name,
                    email=c.email,
                    relationship=c.relationship,
                    card_json=json.dumps(contact_card(world, c.name), ensure_ascii=False, sort_keys=True, default=str),
                )
            )
        for key, value in [
            ("as_of", p.as_of.isoformat()),
            ("now", world.now.isoformat()),
            ("timezone", p.timezone),
            ("locale", p.bank.replace("_", "-")),
            ("seed", str(world.seed)),
        ]:
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


# --- Maildir ---------------------------------------------------------------------------------------


def _address(who: dict) -> Address:
    local, _, domain = (who.get("email") or "unknown@mail.test").partition("@")
    return Address(display_name=who.get("name") or "", username=local, domain=domain or "mail.test")


def rfc5322(world: World, mail: StoredMail) -> bytes:
    """The RFC 5322 bytes of ``mail`` (LF line ends): its Message-ID, Date in the persona's zone,
    In-Reply-To, References, labels as ``Keywords`` and its attachments; MIME boundaries derived
    from the Message-ID, so the bytes depend only on the world."""
    d = mail.data
    msg = EmailMessage(policy=email.policy.default)
    msg["Message-ID"] = d["message_id"]
    when = mail.at.replace(tzinfo=ZoneInfo(world.persona.timezone or "UTC"))
    msg["Date"] = email.utils.format_datetime(when)
    msg["From"] = _address(d["from"])
    msg["To"] = [_address(x) for x in d["to"]]
    if d.get("cc"):
        msg["Cc"] = [_address(x) for x in d["cc"]]
    msg["Subject"] = d["subject"]
    if d.get("in_reply_to"):
        msg["In-Reply-To"] = d["in_reply_to"]
    if d.get("references"):
        msg["References"] = " ".join(d["references"])
    if d["labels"]:
        msg["Keywords"] = ", ".join(d["labels"])
    msg.set_content(d["body"])
    for a in mail.attachments:
        main, _, rest = a.content_type.partition("/")
        sub, *params = [x.strip() for x in rest.split(";")]
        extra = dict(x.split("=", 1) for x in params if "=" in x)
        # As bytes (base64), so the attachment's bytes survive exactly (an ICS keeps its CRLF line ends).
        msg.add_attachment(a.content, maintype=main, subtype=sub, filename=a.filename, params=extra)
    if msg.is_multipart():
        msg.set_boundary("=_" + hashlib.sha256(d["message_id"].encode()).hexdigest()[:32])
    return msg.as_bytes(policy=_POLICY)


def maildir_name(world: World, mail: StoredMail) -> str:
    """``<epoch>.<hash>.persona-desktop:2,<flags>``: flags ``F`` (starred) and ``S`` (read), in ASCII order."""
    when = mail.at.replace(tzinfo=ZoneInfo(world.persona.timezone or "UTC"))
    digest = hashlib.sha256(mail.data["message_id"].encode()).hexdigest()[:16]
    flags = ("F" if mail.starred else "") + ("S" if mail.data["read"] else "")
    return f"{int(when.timestamp())}.{digest}.persona-desktop:2,{flags}"


def home_files(world: World, home: Path) -> list[Path]:
    """Write the mailbox as Maildir++ under ``home/"Mail"`` (one folder per mail folder, see
    :data:`MAILDIR_FOLDERS`; messages in ``cur``); return the message files in order."""
    root = home / "Mail"
    for sub in MAILDIR_FOLDERS.values():
        for part in ("cur", "new", "tmp"):
            (root / sub / part).mkdir(parents=True, exist_ok=True)
        if sub:
            (root / sub / "maildirfolder").write_bytes(b"")
    written = []
    for mail in world_mails(world):
        dest = root / MAILDIR_FOLDERS[mail.data["folder"]] / "cur" / maildir_name(world, mail)
        dest.write_bytes(rfc5322(world, mail))
        written.append(dest)
    return sorted(written)


# --- Firefox ---------------------------------------------------------------------------------------


def bookmarks(world: World) -> list[dict]:
    """The Mailbox on the bookmarks toolbar."""
    return [{"title": "Mailbox", "url": APP_URL, "folder": "toolbar"}]


_NOTABLE = {"invitations", "travel", "payroll", "personal", "bank"}


def visits(world: World) -> list[dict]:
    """History visits: the inbox most mornings of the last 90 days, and the thread of some notable
    mails (invitations, travel, pay, personal, bank) shortly after they arrived (stream ``mail/visits``).

    Each is ``{"url", "title", "at": naive local datetime, "transition"}``, at or before ``world.now``.
    """
    r = rng(world.seed, "mail/visits")
    out = []
    first_day = max(world.start.date(), world.now.date() - dt.timedelta(days=90))
    day = first_day
    while day <= world.now.date():
        if r.random() < 0.85:
            at = dt.datetime.combine(day, dt.time(r.randint(6, 9), r.randint(0, 59), r.randint(0, 59)))
            if at <= world.now:
                out.append(
                    {
                        "url": APP_URL,
                        "title": "Inbox - Mailbox",
                        "at": at,
                        "transition": "bookmark" if r.random() < 0.6 else "typed",
                    }
                )
        day += dt.timedelta(days=1)
    for mail in world_mails(world):
        d = mail.data
        if mail.at.date() < first_day or d["folder"] == "sent" or not (_NOTABLE & set(d["labels"])):
            continue
        if r.random() < 0.45:
            at = mail.at + dt.timedelta(minutes=r.randint(3, 180))
            if at <= world.now:
                out.append(
                    {
                        "url": f"{APP_URL}t/{d['thread_id']}",
                        "title": f"{d['subject']} - Mailbox",
                        "at": at,
                        "transition": "link",
                    }
                )
    out.sort(key=lambda v: (v["at"], v["url"]))
    return out
