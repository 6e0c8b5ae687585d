"""Independent readers of Mailbox's own answer tasks (:mod:`builder.tasks.reader`), and the helpers the scenarios
homed in Mailbox read the mail with: the messages as the desktop keeps them in ``~/Mail`` (opening one in Mailbox
marks it read, so the readers read the files: what one reader opens must not change what the next one sees) and
Mailbox's own search counts (``/search?q=``, a list page); never the world or the database."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import email.utils
import re

from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text
from builder.tasks.dates import clocks, day_in, first_day

APP = "mail"


def counts(see: See, q: str) -> dict:
    """What Mailbox's search ``q`` finds, as its list header says: ``{threads, messages, unread}`` (a list page,
    which marks nothing read)."""
    page = see.page(APP, "/search", {"q": q})
    head = page.xpath('//*[@data-testid="list-count"]')
    if not head:
        raise Unreadable(f"the search {q!r} shows no result count")
    return {k: int(head[0].get(f"data-{k}")) for k in ("threads", "messages", "unread")}


#: Maildir++ folder names (``~/Mail/.<Name>``) as the mailbox names them; the top folder is the inbox.
_FOLDERS = {
    "": "inbox",
    ".Archive": "archive",
    ".Sent": "sent",
    ".Drafts": "drafts",
    ".Spam": "spam",
    ".Trash": "trash",
}
_MAILDIRS: dict[str, list[dict]] = {}


def mailbox(see: See) -> list[dict]:
    """Every message of ``~/Mail`` (the mailbox as the desktop keeps it: Maildir++, one file a message), oldest
    first: each ``{folder, seen, from_name, from_email, to, at (naive local datetime, the Date header's own clock),
    subject, body (the plain text), labels}``. Read from the files, so reading a message marks nothing read (opening
    it in Mailbox would)."""
    paths = [p for p in see.files("Mail/**/*") if p.parent.name in ("cur", "new")]
    key = "\n".join([str(see.home), *(str(p) for p in paths)])  # the files' names carry their flags
    if key not in _MAILDIRS:
        out = []
        for path in paths:
            folder = path.parent.parent.name if path.parent.parent.name != "Mail" else ""
            msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            flags = path.name.rsplit(":2,", 1)[1] if ":2," in path.name else ""
            body = msg.get_body(preferencelist=("plain",))
            frm = email.utils.parseaddr(str(msg.get("From", "")))
            date = email.utils.parsedate_to_datetime(msg["Date"]) if msg.get("Date") else None
            out.append(
                {
                    "folder": _FOLDERS.get(folder, folder.lstrip(".").lower()),
                    "seen": "S" in flags,
                    "from_name": frm[0],
                    "from_email": frm[1],
                    "to": str(msg.get("To", "")),
                    "at": date.replace(tzinfo=None) if date else None,
                    "subject": str(msg.get("Subject", "")),
                    "body": body.get_content() if body is not None else "",
                    "labels": [w.strip() for w in str(msg.get("Keywords", "")).split(",") if w.strip()],
                }
            )
        out.sort(key=lambda m: (m["at"] or dt.datetime.min, m["subject"]))
        _MAILDIRS[key] = out
    see.trail.append(f"read ~/Mail: {len(_MAILDIRS[key])} message(s)")
    return _MAILDIRS[key]


def found_messages(
    see: See,
    *words: str,
    sender: str | None = None,
    since: dt.date | None = None,
    before: dt.date | None = None,
    folders: tuple[str, ...] = ("inbox", "archive", "sent"),
) -> list[dict]:
    """The messages of :func:`mailbox` in ``folders`` (Spam, Trash and Drafts aside, as Mailbox's search leaves them
    out) whose subject, body or sender holds every one of ``words`` (case aside), from ``sender`` (a name or an
    address, exactly), sent on or after ``since`` and before ``before``; oldest first."""
    out = []
    for m in mailbox(see):
        if m["folder"] not in folders or m["at"] is None:
            continue
        if sender is not None and sender.lower() not in (m["from_name"].lower(), m["from_email"].lower()):
            continue
        if since is not None and m["at"].date() < since or before is not None and m["at"].date() >= before:
            continue
        hay = f"{m['subject']}\n{m['body']}\n{m['from_name']} {m['from_email']}".lower()
        if all(w.lower() in hay for w in words):
            out.append(m)
    return out


_PNR = re.compile(r"\((?:PNR)\):\s*([A-Z0-9]{6})")
_SEG = re.compile(r"^\s*(?P<flight>[A-Z]{2}\s?\d{1,4})\s+(?P<o>[A-Z]{3})\s*\u2192\s*(?P<d>[A-Z]{3})\s*$")
_DEP = re.compile(r"^\s*(Departs|Abflug)\s+(?P<rest>.+)$")
_ARR = re.compile(r"^\s*(Arrives|Ankunft)\s+(?P<rest>.+)$")


def flight_bookings(see: See) -> list[dict]:
    """Every airline booking confirmation in the mailbox (a mail with ``Confirmation code (PNR): XXXXXX`` and its
    itinerary), oldest first: ``{pnr, at, subject, travellers, segments, total, changes}``; each segment ``{flight,
    origin, destination, dep_day, dep_time, arr_day, arr_time}`` (the day a date, the time as written, local to the
    airport); ``total`` the cents charged; ``changes`` the airline's later mails naming the PNR (schedule changes),
    oldest first, each ``{at, subject, body}``."""
    out = []
    for m in found_messages(see, "PNR", folders=("inbox", "archive", "trash")):
        pnr = _PNR.search(m["body"])
        if not pnr:
            continue
        segs, cur = [], None
        for line in m["body"].splitlines():
            s = _SEG.match(line)
            if s:
                cur = {"flight": s.group("flight"), "origin": s.group("o"), "destination": s.group("d")}
                segs.append(cur)
                continue
            for rx, key in ((_DEP, "dep"), (_ARR, "arr")):
                x = rx.match(line)
                if x and cur is not None:
                    rest = x.group("rest")
                    cur[f"{key}_day"] = day_in(rest)
                    cl = clocks(rest)
                    cur[f"{key}_time"] = cl[-1][1] if cl else None
        travellers = re.search(r"^(?:Passengers?|Reisende):\s*(.+)$", m["body"], re.M)
        total = re.search(r"^(?:Total charged|Gesamtbetrag):\s*(.+)$", m["body"], re.M)
        out.append(
            {
                "pnr": pnr.group(1),
                "at": m["at"],
                "subject": m["subject"],
                "from": m["from_name"],
                "travellers": [t.strip() for t in travellers.group(1).split(",")] if travellers else [],
                "segments": segs,
                "total": parse_money(total.group(1)) if total else None,
            }
        )
    for b in out:
        later = [
            m
            for m in found_messages(see, b["pnr"], folders=("inbox", "archive", "trash"))
            if m["from_name"] == b["from"] and m["at"] and m["at"] > b["at"] and not _PNR.search(m["body"])
        ]
        b["changes"] = [{"at": m["at"], "subject": m["subject"], "body": m["body"]} for m in later]
    return out


def rebooked(change: dict, booking: dict) -> tuple[str, dt.date, dt.time] | None:
    """What an airline's schedule-change mail about ``booking`` rebooks onto: ``(flight, day, departure time)``
    (the first flight it names that the booking did not have, then the first day and time after it; the day read
    without its year near the booking's first flight), or ``None`` when the mail rebooks nothing."""
    body = re.sub(r"\s+", " ", change["body"])
    had = {s["flight"].replace(" ", "") for s in booking["segments"]}
    for f in re.finditer(r"\b([A-Z]{2})\s?(\d{1,4})\b", body):
        if f.group(1) + f.group(2) in had:
            continue
        tail = body[f.end() :]
        day = first_day(tail, booking["segments"][0]["dep_day"])
        cl = clocks(tail)
        if day and cl:
            return f"{f.group(1)} {f.group(2)}", day, cl[0][1]
    return None


def booking_to(see: See, destination: str) -> dict:
    """The booking confirmation whose subject names ``destination`` (``Booking confirmed: PDX to Austin``); of
    several, the one still ahead (its first flight after today). Raises :class:`Unreadable` when there is none, or
    several and not exactly one ahead."""
    mine = [b for b in flight_bookings(see) if destination.lower() in b["subject"].lower()]
    if len(mine) > 1:
        mine = [b for b in mine if b["segments"] and b["segments"][0]["dep_day"] > see.now.date()]
    if len(mine) != 1:
        raise Unreadable(f"{len(mine)} booking confirmations for a flight to {destination} in the mail")
    return mine[0]


@reader("sender_name", "month")
def newsletter_count(see: See, given: dict) -> Reading:
    name, month = given["sender_name"], given["month"]
    first = dt.date.fromisoformat(f"{month}-01")
    nxt = (first + dt.timedelta(days=32)).replace(day=1)
    found = found_messages(see, sender=name, since=first, before=nxt, folders=("inbox", "archive", "trash", "spam"))
    found = [m for m in found if m["from_name"] == name]
    n = len(found)
    return Reading(
        values={"count": n},
        steps=[
            f"~/Mail, from {name}, {first}..{nxt - dt.timedelta(days=1)} (any folder): {n} message(s)",
            *(f"{m['at']:%Y-%m-%d}: {m['subject']}" for m in found[:8]),
        ],
    )


def my_name(see: See) -> str:
    """The persona's own name, as the Mailbox header shows the account."""
    node = see.page(APP, "/search", {"q": "in:sent"}).xpath('//*[@class="mb-account-name"]')
    if not node:
        raise Unreadable("Mailbox shows no account name")
    return visible_text(node[0])


def moved_by_mail(see: See, title: str, near: dt.date) -> tuple[dict, dt.datetime]:
    """The newest mail saying ``title`` moves "from ... to ..." (``von ... auf ...``), and the new start it names:
    the first day and time after "to"/"auf" (the day read without its year near ``near``; the same day as ``near``
    when the mail names no day). Raises :class:`Unreadable` when no mail moves it."""
    found = []
    for m in found_messages(see, title):
        body = re.sub(r"\s+", " ", m["body"])
        at = body.find(title)
        move = re.search(r"\b(?:from|von)\b.*?\b(?:to|auf)\b\s+(?P<tail>.*)", body[at:] if at >= 0 else "")
        if not move:
            continue
        tail = move.group("tail")
        cl = clocks(tail)
        if not cl:
            continue
        day = first_day(tail.split(cl[0][0])[0], near) or near
        found.append((m, dt.datetime.combine(day, cl[0][1])))
    if not found:
        raise Unreadable(f"no mail moves {title!r}")
    return max(found, key=lambda f: f[0]["at"])


READERS = {"newsletter-count": newsletter_count}
