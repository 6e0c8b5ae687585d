"""Mail: the persona's mailbox as ``email`` events, rendered from jinja2 templates (``templates/mail``, a locale's
own ``templates/mail/<locale>/`` first) and phrase banks (``templates/mail/personal/<locale>.yaml``,
``automated.yaml``, ``newsletters.yaml``).

Mail is a channel: :func:`mailbox` is the persona's one mailbox, through which each life domain sends its own
business mail from its own module (travel: booking confirmations, hotel folios, ride receipts and check-ins;
orders: order and table confirmations, shipping notices; finance: statements, payslips and bills; work_mail:
work threads and meeting notes). This module
sends what the mailbox itself holds: personal letters and greetings, invitations,
newsletters, marketing, sign-in codes and Daybook reminders. The rules below hold for the whole mailbox.

Rules (tasks and tests depend on them):

* Every message is at or before ``now``; a thread whose later replies would fall after ``now``
  simply stops there. Message-IDs are ``<hash@sender-domain>`` derived from the seed and the
  message's key; a reply carries ``in_reply_to`` (and ``references``) of the message before it.
* Every automated mail carries ``series`` (``booking_confirmation``, ``hotel_folio``, ``reservation``,
  ``order_confirmation``, ``receipt``, ``shipping``, ``checkin``, ``statement``, ``payslip``, ``newsletter``,
  ``marketing``, ``bill``, ``payment_reminder``, ``signin_code``, ``calendar_reminder``); mail written by a
  person (personal, birthday and holiday greetings, work, invitations) has none.
* Every booking and order of the travel/orders modules (``flight_booking``, ``hotel_booking``,
  ``restaurant_booking``, ``food_order``, ``grocery_order``, ``retail_order``, ``ride``) gets a
  confirmation or receipt a few minutes after it that quotes its facts (PNR, flight numbers,
  local departure times with their zone, confirmation numbers, dates, order id, items, total
  formatted in the persona's locale); ``retail_delivery`` gets shipping/delivery notices.
* Every ``flight`` leg (outbound, return, connections) departing up to a day after ``now`` has a check-in
  mail 24 hours before it departs (minutes after the booking if booked later), with ``flight_id`` = the leg.
* The bank mails "your statement is ready" for each account on the 3rd of every month; the
  employer's payroll mails a pay-stub notice on every payday.
* Work threads and meeting notes live in ``work_mail``; invitations (``invite.ics``) for one-off meetings
  and some series are here.
* Personal threads are plans of what the exchange is about (an upcoming trip, photos from the last one, a
  life event, a visit or shared activity on a given Saturday, a recommendation, a family holiday, news from
  the contact's own life: partner, children, pets, job), each reply answering the message before; no
  sender repeats a sentence within a thread; personal subjects are composed to differ. Personal mail is sent
  07:00-22:00 (contacts of a night owl persona may write until 02:00); greetings fit the hour.
  Birthday greetings, and Christmas/New Year (Thanksgiving in the US) mail from family and close friends.
* The rest of a real mailbox: marketing from the shops the persona buys from, bills from the recurring
  charges' payees (amount, due date = the charge) and payment reminders 3 days before bill-pay charges,
  sign-in codes (one in the last day, unread), Daybook reminders the day before personal appointments.
* Locale: German for ``de_DE`` (du with family and friends, Sie with formal neighbours and acquaintances,
  ``AW:``, ``Am ... schrieb``), British words for ``en_GB``, American for ``en_US``; dates and money via
  :class:`~builder.reference.locale.Fmt`. Parents are named by :func:`parent_name` (chat uses it too).
* Contacts' names and addresses are the spec's, everywhere.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2

from ..dates import birthday_in
from ..persona import Contact
from ..reference import people
from ..reference.services import service
from ..rng import token
from .calendar import first, parse_when, trips, zone
from .context import Sim
from .engine import world_step
from ..reference.locale import Fmt, felt_season
from .locale import phrase_bank as locale_bank
from .model import Event

TEMPLATES = Path(__file__).with_name("templates")
BANK = {"name": service("bank").title, "email": f"noreply@{service('bank').domain}"}


# --- formatting and rendering (shared with chat) --------------------------------------------------


def zone_of(persona):
    from zoneinfo import ZoneInfo

    return ZoneInfo(persona.timezone or "UTC")


@cache
def template_env() -> jinja2.Environment:
    """The jinja2 environment over ``templates/`` (strict undefined, no autoescape; compiled once)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        autoescape=False,
    )
    env.filters.pop("random", None)  # jinja's own random draws from the global generator: use r.choice
    env.filters["random_pick"] = lambda seq, r: list(seq)[r.randrange(len(list(seq)))]
    env.filters["fromiso"] = dt.datetime.fromisoformat
    env.filters["ics"] = _ics_text
    return env


def template_name(name: str, locale: str | None) -> str:
    """``mail/<locale>/<name>.j2`` if that template exists (e.g. ``mail/de_DE/statement.j2``), else ``mail/<name>.j2``."""
    if locale and (TEMPLATES / "mail" / locale / f"{name}.j2").is_file():
        return f"mail/{locale}/{name}.j2"
    return f"mail/{name}.j2"


def render(name: str, **ctx: Any) -> tuple[str, str]:
    """Render ``mail/<name>.j2`` (the locale's own ``mail/<locale>/<name>.j2`` first: the locale is ``ctx["locale"]``
    or ``ctx["fmt"].locale``); its first line is ``Subject: ...``. Returns (subject, body)."""
    locale = ctx.get("locale") or getattr(ctx.get("fmt"), "locale", None)
    text = template_env().get_template(template_name(name, locale)).render(**ctx)
    head, _, body = text.partition("\n")
    if not head.startswith("Subject:"):
        raise ValueError(f"template mail/{name}.j2 must start with a Subject: line")
    body = re.sub(r"[ \t]+\n", "\n", body)
    body = re.sub(r"\n{3,}", "\n\n", body.strip("\n")) + "\n"
    return head[len("Subject:") :].strip(), body


def domain_of(address: str | None) -> str:
    """The domain of an email address (``mail.test`` if none)."""
    return address.split("@", 1)[1] if address and "@" in address else "mail.test"


def slug(text: str) -> str:
    """Lower-case ASCII letters and digits of ``text`` (for made-up sender domains)."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "", plain) or "shop"


def site_domain(url: str | None, name: str | None) -> str:
    """The domain a business mails from: its site's host (without ``www.``), else ``<name>.test``."""
    if url:
        host = urlsplit(url).netloc.split(":")[0]
        if host:
            return host.removeprefix("www.")
    return f"{slug(name or 'shop')}.test"


def contact_dict(c: Contact) -> dict[str, Any]:
    """``{name, email}`` exactly as in the spec."""
    return {"name": c.name, "email": c.email}


def mailbox_words(locale: str) -> dict[str, Any]:
    """The mailbox's own words of ``locale`` (``templates/mail/mailbox/<locale>.yaml``, else en_US): ``reply_prefix``,
    ``quote_head``, ``parents`` (``female``/``male``), ``seasons`` (season -> the word personal mail uses),
    ``christmas_day`` (the December day family Christmas mail is sent), ``formal_you`` (formal contacts are
    addressed with Sie), ``titles`` and ``dear`` (by gender ``m``/``f``: "Frau", "Liebe") and ``season_names``
    (season -> the word greetings compose with: "Frühlings")."""
    return locale_bank("mail/mailbox", locale)


def formal_name(name: str, gender: str, locale: str) -> str:
    """``name`` as a formal letter addresses its bearer: the locale's title by ``gender`` (``"m"``/``"f"``) and the
    surname (``"Frau Petersen"``)."""
    return f"{mailbox_words(locale)['titles'][gender]} {name.split()[-1]}"


def parent_name(c: Contact, locale: str, country: str | None = None) -> str:
    """What the persona calls a parent: Mom/Dad (Mum, Mama/Papa by locale) when the given name tells (:func:`gender_of`;
    ``country``: where the persona lives), else the name."""
    g = gender_of(c.name, locale, country)
    parents = mailbox_words(locale)["parents"]
    return parents["female"] if g == "f" else parents["male"] if g == "m" else c.name.split()[0]


def person_ctx(box: Mailbox, c: Contact) -> dict[str, Any]:
    """Template variables about a contact and the persona."""
    return {
        "c": c,
        "them_first": c.name.split()[0],
        "me_first": box.first,
        "style": c.messaging_style or "brief",
        "rel": c.relationship,
        "activities": list(c.shared_activities or []),
        "parent_name": parent_name(c, box.p.bank, box.sim.country) if c.relationship == "parent" else c.name.split()[0],
    }


def has_app(c: Contact, app: str) -> bool:
    """Whether the contact appears in ``app`` (a completed contact always lists its apps)."""
    return app in (c.apps or [])


# --- the mailbox -----------------------------------------------------------------------------------


def header_text(text: str) -> str:
    """One header line: every run of whitespace (CR and LF included) becomes one space, so no text
    can start a header of its own (``Bcc:`` injection, RFC 5322 section 2.2)."""
    return " ".join(text.split())


def _mailbox(who: dict) -> dict:
    return {**who, **({"name": header_text(who["name"])} if who.get("name") else {})}


class Mailbox:
    """Appends ``email`` events to the sim; knows the persona's addresses and the inbox habits."""

    def __init__(self, sim: Sim):
        self.sim = sim
        p = sim.persona
        self.p = p
        self.fmt = Fmt(p)
        self.me = {"name": p.identity.name, "email": p.identity.email}
        self.me_work = {"name": p.identity.name, "email": p.work.email if p.work and p.work.email else p.identity.email}
        self.first = p.identity.name.split()[0]
        # How a business addresses the persona: "Frau Petersen" (a German business says Sie).
        self.formal = formal_name(p.identity.name, "m" if p.identity.gender == "male" else "f", p.bank)
        self.ids: set[str] = set()
        self.subjects: set[str] = set()  # subjects of personal threads so far (composed to differ)
        self.words = mailbox_words(p.bank)
        self.re = self.words["reply_prefix"]

    def message_id(self, sender_email: str | None, *parts: object) -> str:
        mid = f"<{token(self.sim.seed, 'mail', *parts, length=24)}@{domain_of(sender_email)}>"
        if mid in self.ids:
            raise ValueError(f"duplicate Message-ID {mid}")
        self.ids.add(mid)
        return mid

    def state(
        self, r: random.Random, at: dt.datetime, outgoing: bool, read_p: float = 0.97, archive_p: float = 0.25
    ) -> tuple[str, bool]:
        """(folder, read) of a message: old mail is mostly read and partly archived, recent mail less so."""
        if outgoing:
            return "sent", True
        age = (self.sim.now - at).days
        read = r.random() < (read_p if age > 2 else read_p * 0.5)
        folder = "archive" if age > 30 and read and r.random() < archive_p else "inbox"
        return folder, read

    def thread(
        self,
        key: object,
        subject: str,
        messages: list[dict[str, Any]],
        *,
        labels: list[str],
        ref: str | None = None,
        r: random.Random,
        read_p: float = 0.97,
        archive_p: float = 0.25,
        reply_prefix: bool = True,
        series: str | None = None,
        extra: dict[str, Any] | None = None,
        read: bool | None = None,
    ) -> list[Event]:
        """Post ``messages`` (dicts with at, sender, to, [cc], body, [attachments], [subject]) as one thread.

        ``series`` names the automated series the mail belongs to (``statement``, ``checkin``, ``marketing``...;
        absent on personal and work mail); ``extra`` adds data fields (e.g. ``flight_id``); ``read`` forces the
        read flag of incoming mail. Messages after ``now`` are dropped (with everything after them). Returns the
        events.
        """
        out: list[Event] = []
        tid = token(self.sim.seed, "mail/thread", key, length=20)
        refs: list[str] = []
        for n, m in enumerate(messages):
            at = m["at"]
            if at > self.sim.now or (out and at < out[-1].at):
                break
            sender = m["sender"]
            outgoing = sender["email"] in (self.me["email"], self.me_work["email"])
            mid = self.message_id(sender["email"], key, n)
            folder, is_read = self.state(r, at, outgoing, read_p, archive_p)
            if read is not None and not outgoing:
                is_read = read
                folder = folder if read else "inbox"
            subj = m.get("subject") or (subject if n == 0 or not reply_prefix else f"{self.re} {subject}")
            data = {
                "message_id": mid,
                "thread_id": tid,
                "in_reply_to": refs[-1] if refs else None,
                "references": list(refs),
                "folder": folder,
                "from": _mailbox(sender),
                "to": [_mailbox(x) for x in m["to"]],
                "cc": [_mailbox(x) for x in m.get("cc", [])],
                "subject": header_text(subj),
                "body": m["body"],
                "attachments": list(m.get("attachments", [])),
                "read": is_read,
                "labels": list(labels),
                "ref": m.get("ref", ref),
            }
            if series:
                data["series"] = series
            if extra:
                data.update(extra)
            out.append(self.sim.event("email", at, data, key=mid))
            refs.append(mid)
        return out

    def single(
        self,
        key: object,
        at: dt.datetime,
        sender: dict,
        subject: str,
        body: str,
        *,
        labels: list[str],
        ref: str | None = None,
        r: random.Random,
        to: list[dict] | None = None,
        attachments=(),
        read_p: float = 0.97,
        archive_p: float = 0.25,
        series: str | None = None,
        extra: dict[str, Any] | None = None,
        read: bool | None = None,
    ) -> Event | None:
        """Post one message (to the persona's personal address unless ``to`` says otherwise); ``series``,
        ``extra`` and ``read`` as in :meth:`thread`."""
        at = min(at, self.sim.now)
        ev = self.thread(
            key,
            subject,
            [{"at": at, "sender": sender, "to": to or [self.me], "body": body, "attachments": list(attachments)}],
            labels=labels,
            ref=ref,
            r=r,
            read_p=read_p,
            archive_p=archive_p,
            series=series,
            extra=extra,
            read=read,
        )
        return ev[0] if ev else None

    def quote(self, sender: dict, at: dt.datetime, body: str, lines: int = 6) -> str:
        """The quoted tail of a reply: ``On <date>, <name> wrote:`` and the first lines with ``> ``."""
        kept = [ln for ln in body.strip().splitlines()][:lines]
        head = self.words["quote_head"].format(
            date=self.fmt.date(at),
            numeric_date=self.fmt.numeric_date(at),
            time=self.fmt.time(at),
            name=sender["name"],
            email=sender["email"],
        )
        return head + "\n" + "\n".join(f"> {ln}" if ln else ">" for ln in kept)


def mailbox(sim: Sim) -> Mailbox:
    """The persona's one mailbox in ``sim``: the channel every world module mails through (made on first use, so
    Message-IDs stay unique across modules)."""
    box = sim.channels.get("mail")
    if box is None:
        box = sim.channels["mail"] = Mailbox(sim)
    return box


def quoting(box: Mailbox, e: Event) -> tuple[random.Random, dict[str, Any]]:
    """The stream (``mail/confirm/<event id>``) and template variables of a business mail quoting event ``e``:
    ``fmt``, ``me``, ``first``, ``d`` (its data), ``r``, ``total`` (formatted money or None) and ``items``."""
    r = box.sim.rng(f"mail/confirm/{e.id}")
    total = total_cents(e.data)
    return r, {
        "fmt": box.fmt,
        "me": box.me,
        "first": box.first,
        "d": e.data,
        "r": r,
        "total": box.fmt.money(total) if total is not None else None,
        "items": order_lines(e.data),
    }


@world_step(
    rank=72,
    reads=(
        # the shops that send marketing and sign-in codes: every provider the persona has an account with
        "card_purchase",
        "flight_booking",
        "hotel_booking",
        "restaurant_booking",
        "food_order",
        "grocery_order",
        "retail_order",
        "ride",
        "merchants",
        "calendar_event",  # invitations, meeting notes, Daybook reminders
    ),
    writes=("email",),
)
def simulate_mail(sim: Sim) -> None:
    """Append the mailbox's own ``email`` events: invitations, personal letters and greetings, newsletters,
    marketing, sign-in codes and Daybook reminders. The businesses of the other domains mail through
    :func:`mailbox` from their own modules (travel: bookings and check-ins; orders: confirmations and shipping;
    finance: statements, payslips and bills; work_mail: work threads and meeting notes)."""
    box = mailbox(sim)
    _invitations(box)
    _personal(box)
    _birthdays(box)
    _holiday_greetings(box)
    _newsletters(box)
    _marketing(box)
    _signin_codes(box)
    _calendar_reminders(box)


# --- businesses ------------------------------------------------------------------------------------


def sent_after(box: Mailbox, e: Event, r: random.Random, lo: int = 20, hi: int = 240) -> dt.datetime:
    """When a business mails about ``e``: ``lo``-``hi`` seconds after it, never after now."""
    return min(e.at + dt.timedelta(seconds=r.randint(lo, hi)), box.sim.now)


def order_lines(d: dict[str, Any]) -> list[dict[str, Any]]:
    """Order lines as ``{name, qty, cents}`` dicts from whatever shape the order has."""
    out = []
    for it in d.get("items") or []:
        if isinstance(it, str):
            out.append({"name": it, "qty": 1, "cents": None})
        elif isinstance(it, dict):
            qty = first(it, "qty", "quantity", default=1)
            cents = first(it, "total_cents", "line_cents", "price_cents", "unit_cents", "amount_cents")
            if (
                cents is not None
                and "total_cents" not in it
                and "line_cents" not in it
                and qty
                and qty != 1
                and ("unit_cents" in it or "price_cents" in it)
            ):
                cents = cents * qty
            out.append({"name": first(it, "name", "title", "item", default="Item"), "qty": qty, "cents": cents})
    return out


def total_cents(d: dict[str, Any]) -> int | None:
    """The amount an event's data quotes (total, amount, fare or price, in cents), None if it has none."""
    return first(d, "total_cents", "amount_cents", "fare_cents", "price_cents")


def business_sender(d: dict[str, Any], name_keys: tuple[str, ...], fallback: str, local: str) -> dict[str, str]:
    """``{name, email}`` of the business behind event data ``d``: the first of ``name_keys`` it has (else
    ``fallback``), mailing as ``local@`` its site's domain."""
    name = first(d, *name_keys, default=fallback)
    return {"name": name, "email": f"{local}@{site_domain(d.get('site_url'), name)}"}


def _ics_text(value: str) -> str:
    """An iCalendar TEXT value (RFC 5545 3.3.11): backslash, semicolon, comma and newline escaped."""
    return (
        str(value)
        .replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\n")
        .replace("\n", "\\n")
    )


def _fold(line: str, limit: int = 75) -> str:
    """Fold a content line at ``limit`` octets, continuation lines starting with a space (RFC 5545 3.1)."""
    out, cur = [], b""
    for ch in line:
        b = ch.encode()
        if len(cur) + len(b) > (limit if not out else limit - 1):
            out.append(cur.decode())
            cur = b""
        cur += b
    out.append(cur.decode())
    return "\r\n ".join(out)


def _utc_stamp(aware_iso: str) -> str:
    return dt.datetime.fromisoformat(aware_iso).astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def booking_ics(box: Mailbox, source: str, refs: set[str], sent: dt.datetime, filename: str) -> list[dict]:
    """The ``.ics`` a booking confirmation carries (METHOD:PUBLISH, times in UTC): the calendar's own entries
    for the booked flight legs or stay (``source`` flight|hotel, ``ref`` in ``refs``), with their UIDs, so
    adding the file to the calendar finds what is already there. ``[]`` when the calendar has none."""
    events = [
        c.data
        for c in box.sim.of_kind("calendar_event")
        if c.data.get("source") == source and c.data.get("ref") in refs and c.data.get("uid")
    ]
    return publish_ics(box.sim, events, sent, filename)


def publish_ics(sim: Sim, events: list[dict], sent: dt.datetime, filename: str) -> list[dict]:
    """A mail attachment (``[{"filename", "content_type", "size", "content"}]``, ``[]`` for no events) holding
    ``events`` as one METHOD:PUBLISH calendar (RFC 5545: CRLF, folded at 75 octets, TEXT escaped, times in UTC).

    ``events`` are calendar-event data dicts (``uid``, ``start``/``end`` aware ISO 8601, ``title``, optional
    ``location``, ``description`` and ``sequence``: a revision's SEQUENCE, which makes a calendar that holds the
    UID take the new times); ``sent`` is the mail's naive local time (the DTSTAMP)."""
    if not events:
        return []
    content = (
        template_env()
        .get_template("mail/booking.ics.j2")
        .render(
            stamp=_utc_stamp(sent.replace(tzinfo=zone(sim)).isoformat()),
            events=[
                {
                    "uid": c["uid"],
                    "start": _utc_stamp(c["start"]),
                    "end": _utc_stamp(c["end"]),
                    "title": c["title"],
                    "location": c.get("location") or "",
                    "description": c.get("description") or "",
                    "sequence": c.get("sequence"),
                }
                for c in sorted(events, key=lambda c: (c["start"], c["uid"]))
            ],
        )
    )
    content = "".join(_fold(line) + "\r\n" for line in content.replace("\r\n", "\n").split("\n") if line)
    return [
        {
            "filename": filename,
            "content_type": "text/calendar; method=PUBLISH",
            "size": len(content.encode()),
            "content": content,
        }
    ]


# --- work ------------------------------------------------------------------------------------------


def ics(sim: Sim, event: Event, sent: dt.datetime, method: str = "REQUEST", rrule: str | None = None) -> str:
    """An iCalendar (RFC 5545) invitation for a ``calendar_event`` (CRLF line ends, fixed DTSTAMP)."""
    d = event.data
    uid = f"{d['series'] or event.id}@{domain_of((d['organizer'] or {}).get('email'))}"
    return (
        template_env()
        .get_template("mail/invite.ics.j2")
        .render(
            d=d,
            uid=uid,
            method=method,
            rrule=rrule,
            tzid=sim.persona.timezone or "UTC",
            start=dt.datetime.fromisoformat(d["start"]),
            end=dt.datetime.fromisoformat(d["end"]),
            stamp=sent.replace(tzinfo=zone(sim)).astimezone(dt.UTC),
        )
        .replace("\r\n", "\n")
        .replace("\n", "\r\n")
    )


def _invitations(box: Mailbox) -> None:
    sim, p = box.sim, box.p
    r = sim.rng("mail/invitations")
    seen_series: set[str] = set()
    meetings = {m.title: m for m in (p.work.meetings or [])} if p.work else {}
    for e in sim.of_kind("calendar_event"):
        d = e.data
        if d["source"] not in ("meeting", "life_event") or not d["attendees"] or not d["organizer"]:
            continue
        org = d["organizer"]
        if not org.get("email"):
            continue
        if d["series"]:
            if d["series"] in seen_series:
                continue
            seen_series.add(d["series"])
            # One updated invitation per series, sent some weeks into the history.
            at = sim.start + dt.timedelta(days=r.randint(5, 70), hours=r.randint(9, 16), minutes=r.randint(0, 59))
            m = meetings.get(d["title"])
            rrule = None
            if m:
                rrule = f"FREQ=WEEKLY;INTERVAL={m.every_weeks};BYDAY=" + ",".join(x[:2].upper() for x in m.days)
            kind = "updated"
        else:
            lead = r.randint(2, 10) if d["source"] == "meeting" else r.randint(14, 24)
            at = dt.datetime.combine(e.at.date() - dt.timedelta(days=lead), dt.time(r.randint(9, 17), r.randint(0, 59)))
            rrule, kind = None, "new"
        if at > sim.now or at < sim.start:
            continue
        content = ics(sim, e, at, rrule=rrule)
        att = [
            {
                "filename": "invite.ics",
                "content_type": "text/calendar; method=REQUEST",
                "size": len(content.encode()),
                "content": content,
            }
        ]
        outgoing = org["email"] in (box.me["email"], box.me_work["email"])
        to = [a for a in d["attendees"] if a.get("email") and a["email"] != org["email"]]
        if not outgoing:
            to = [box.me_work if d["calendar"] == "work" else box.me]
        subject, body = render(
            "invitation",
            fmt=box.fmt,
            r=r,
            d=d,
            e=e,
            kind=kind,
            org=org,
            rrule=rrule,
            start=e.at,
            end=parse_when(sim, d["end"]),
            first=box.first,
        )
        box.thread(
            ("invite", e.id),
            subject,
            [{"at": at, "sender": org, "to": to, "body": body, "attachments": att}],
            labels=["invitations"] + (["work"] if d["calendar"] == "work" else []),
            ref=e.id,
            r=r,
        )


# --- personal --------------------------------------------------------------------------------------
# Personal threads are plans (what the exchange is about: a trip, a visit, news from the contact's own
# life, a question and its answer) composed from the phrase banks in templates/mail/personal/<locale>.yaml.
# Each message is built sentence by sentence; a sender never writes a sentence twice in one thread.

_LETTERS_PER_MONTH = {
    "parent": 0.9,
    "sibling": 0.6,
    "partner": 0.2,
    "spouse": 0.2,
    "child": 0.6,
    "friend": 0.25,
    "roommate": 0.15,
    "neighbor": 0.08,
    "other": 0.1,
}
_FAMILY = ("parent", "sibling", "child", "partner", "spouse")
_SLOT = re.compile(r"\{(\w+)\}")


def phrase_bank(locale: str) -> dict[str, Any]:
    """The personal-mail phrase bank of ``locale`` (``templates/mail/personal/<locale>.yaml``, else en_US)."""
    return locale_bank("mail/personal", locale)


def gender_of(name: str, locale: str, country: str | None = None) -> str | None:
    """``"f"``/``"m"`` when the given name of ``name`` tells (Faker's name lists: en_US's and the locale's, and for
    a persona living in a ``country`` outside the locale's that country's and every locale's:
    :func:`builder.reference.people.gender_of`), else None."""
    return {"female": "f", "male": "m"}.get(people.gender_of(name, locale, country))


def uses_sie(c: Contact, locale: str) -> bool:
    """German only: formal neighbours and acquaintances are addressed with Sie (family, friends, partners: du)."""
    return (
        mailbox_words(locale)["formal_you"]
        and c.relationship in ("neighbor", "other")
        and c.messaging_style == "formal"
    )


def _pet(c: Contact) -> tuple[str | None, str | None]:
    """(name, kind) of the contact's first pet (``"a dog called Biscuit"`` -> ``("Biscuit", "dog")``)."""
    if not c.pets:
        return None, None
    text = c.pets[0]
    m = re.search(r"(?:called|named|namens|heißt)\s+(\w+)", text)
    caps = [w for w in re.findall(r"\w+", text) if w[:1].isupper()]
    name = m.group(1) if m else (caps[-1] if caps else None)
    kinds = [
        w
        for w in re.findall(r"\w+", text.lower())
        if w
        in (
            "dog",
            "cat",
            "rabbit",
            "parrot",
            "hamster",
            "tortoise",
            "hund",
            "katze",
            "kater",
            "kaninchen",
            "wellensittich",
        )
    ]
    return name, (kinds[0] if kinds else None)


class _Composer:
    """Fills bank alternatives for one thread; remembers every sentence each sender wrote in it."""

    def __init__(self, box: Mailbox, r: random.Random, slots: dict[str, Any], bank: dict[str, Any]):
        self.box, self.r, self.slots, self.bank = box, r, slots, bank
        self.used: dict[str, set[str]] = {}
        self.last: int | None = None

    def fill(self, text: str, extra: dict[str, Any] | None = None) -> str | None:
        slots = {**self.slots, **(extra or {})}
        if any(slots.get(k) in (None, "") for k in _SLOT.findall(text)):
            return None
        return _SLOT.sub(lambda m: str(slots[m.group(1)]), text)

    def pick(
        self,
        options: list[str] | None,
        who: str | None = None,
        extra: dict[str, Any] | None = None,
        index: int | None = None,
    ) -> str | None:
        """One alternative with all its slots filled that ``who`` has not written in this thread (None if none);
        ``index`` takes that alternative (the answer paired with a question). ``self.last`` is the index taken."""
        used = self.used.setdefault(who, set()) if who else set()
        cands = [
            (k, t)
            for k, t in ((k, self.fill(o, extra)) for k, o in enumerate(options or []))
            if t is not None and t.casefold() not in used and (index is None or k == index)
        ]
        if not cands:
            return None
        self.last, out = cands[self.r.randrange(len(cands))]
        for sentence in re.split(r"(?<=[.!?])\s+", out):
            used.add(sentence.casefold())
        used.add(out.casefold())
        return out


def _part(bank: dict[str, Any], sie: bool, *keys: str) -> Any:
    """``bank[keys...]``, from the ``sie`` overrides first when the contact is addressed with Sie."""
    for src in (bank.get("sie") or {}, bank) if sie else (bank,):
        node: Any = src
        for k in keys:
            node = node.get(k) if isinstance(node, dict) else None
        if node is not None:
            return node
    return None


def _daypart(hour: int) -> str:
    return "morning" if hour < 12 else "afternoon" if hour < 17 else "evening"


def _waking(at: dt.datetime, r: random.Random, night_owl: bool) -> dt.datetime:
    """``at`` moved into waking hours (07:00-22:00; ``night_owl``: the persona may write until 02:00)."""
    if night_owl and (at.hour >= 22 or at.hour < 2):
        return at
    if at.hour < 7:
        return at.replace(hour=r.randint(7, 9), minute=r.randint(0, 59))
    if at.hour >= 22:
        return (at + dt.timedelta(days=1)).replace(hour=r.randint(7, 10), minute=r.randint(0, 59))
    return at


def _next_saturday(day: dt.date, weeks: int) -> dt.date:
    return day + dt.timedelta(days=(5 - day.weekday()) % 7 + 7 * weeks)


def _holiday_near(box: Mailbox, day: dt.date) -> tuple[str | None, dt.date | None]:
    """(bank key, date) of a family holiday 5-30 days after ``day`` (Christmas; Thanksgiving in the US; Easter)."""
    from .calendar import holidays_of

    for d, name in sorted(holidays_of(box.p, day.year).items()):
        key = (
            "christmas"
            if "Christmas" in name or "Weihnacht" in name
            else "thanksgiving"
            if "Thanksgiving" in name
            else "easter"
            if name in ("Easter Monday", "Ostermontag")
            else None
        )
        if key and 5 <= (d - day).days <= 30:
            return key, d
    return None, None


def _slots(box: Mailbox, c: Contact, day: dt.date, r: random.Random) -> dict[str, Any]:
    """Everything a personal mail about ``day`` may mention (None where the world has nothing)."""
    p, fmt = box.p, box.fmt
    bank = phrase_bank(p.bank)
    out: dict[str, Any] = dict((bank.get("vocab") or {}).get(p.bank) or (bank.get("vocab") or {}).get("en_US") or {})
    upcoming = next((t for t in trips(box.sim) if 0 < (t.depart - day).days <= 45), None)
    recent = next((t for t in trips(box.sim) if 0 <= (day - t.return_).days <= 21), None)
    events = [le for le in p.life_events if 0 < (le.date - day).days <= 30]
    pet, pet_kind = _pet(c)
    sat, sat2 = _next_saturday(day, r.randint(1, 2)), _next_saturday(day, 3)
    acts = list(c.shared_activities or [])
    hol, hol_day = _holiday_near(box, day)
    rec_kinds = sorted((bank.get("rec") or {}).keys())
    rec_kind = rec_kinds[r.randrange(len(rec_kinds))] if rec_kinds else None
    g = gender_of(c.name, p.bank, box.sim.country)
    # A parent's children are the persona and its siblings: only other people's children are news.
    known = {box.first} | {o.name.split()[0] for o in p.contacts}
    kids = [k for k in (c.children or []) if k.split()[0] not in known] if c.relationship != "parent" else []
    other = next(
        (
            o
            for o in p.contacts
            if c.relationship == "parent" and c.partner and o.name == c.partner and o.relationship == "parent"
        ),
        None,
    )
    # A parent's partner who is the persona's other parent is "Dad"/"Mum" in mail, and not news of its own.
    partner = None if other or c.partner == p.identity.name else (c.partner.split()[0] if c.partner else None)
    retired = bool(c.job) and any(w in c.job.lower() for w in ("retired", "ruhestand", "rente"))
    job = None if retired or not c.job else c.job
    out.update(
        {
            # "them" is the contact as the persona says it: Mom/Mum/Mama for a parent, else the first name.
            "me": box.first,
            "them": parent_name(c, p.bank, box.sim.country) if c.relationship == "parent" else c.name.split()[0],
            "nick": parent_name(c, p.bank, box.sim.country) if c.relationship == "parent" else c.name.split()[0],
            "dest": upcoming.destination if upcoming else None,
            "depart": fmt.long_date(upcoming.depart) if upcoming else None,
            "ret": fmt.long_date(upcoming.return_) if upcoming else None,
            "month": fmt.month(upcoming.depart if upcoming else day).split()[0],
            "event": events[0].title if events else None,
            "event_date": fmt.long_date(events[0].date) if events else None,
            "event_day": fmt.day(events[0].date) if events else None,
            "pet": pet,
            "pet_kind": pet_kind,
            "child": kids[0] if kids else None,
            "job": job,
            "partner": partner,
            "job_a": (("an " if job[:1].lower() in "aeiou" else "a ") + job) if job else None,
            "their_place": c.city or (c.address.city if c.address else None),
            "sat": fmt.long_date(sat),
            "sat2": fmt.long_date(sat2),
            "sat_day": fmt.day(sat),
            "sat_nth": fmt.day(sat),
            "act": acts[r.randrange(len(acts))] if acts else None,
            "holiday": (bank.get("holidays") or {}).get(hol) if hol else None,
            "hol_eve": fmt.day(hol_day - dt.timedelta(days=1)) if hol_day else None,
            "rec_kind": rec_kind,
            "rec_kind_cap": rec_kind[:1].upper() + rec_kind[1:] if rec_kind else None,
            "rec": r.choice(bank["rec"][rec_kind]) if rec_kind else None,
            "season": fmt.season(day),
            "season_de": mailbox_words(p.bank)["season_names"][fmt.season(day)],
            "weekday": fmt.weekday(day),
            "year": day.year,
            "liebe": mailbox_words(p.bank)["dear"]["m" if g == "m" else "f"],
            "sie_name": formal_name(c.name, g, p.bank) if g else c.name,
        }
    )
    out["act_cap"] = out["act"][:1].upper() + out["act"][1:] if out["act"] else None
    # A parent mentions the persona's other parent only when that parent is a contact named as their partner.
    out["other_parent"] = parent_name(other, p.bank, box.sim.country) if other else None
    out["season"] = mailbox_words(p.bank)["seasons"].get(out["season"], out["season"])
    out["_trip_back"] = recent.destination if recent else None
    out["_trip_back_days"] = (recent.depart, recent.return_) if recent else None
    return out


def _topic_choices(slots: dict[str, Any], c: Contact, sie: bool, bank: dict[str, Any]) -> list[tuple[str, float]]:
    """(topic, weight) pairs the world supports on that day."""
    if sie:
        return [("catch_up", 1.0)] + ([("trip_ahead", 2.0)] if slots["dest"] else [])
    out = [("catch_up", 0.6)]
    family = c.relationship in _FAMILY
    if slots["dest"]:
        out.append(("trip_ahead", 2.5))
    if slots["_trip_back"]:
        out.append(("trip_back", 3.0))
    if slots["event"]:
        out.append(("event", 1.5))
    for topic, key, weight in (
        ("pet", "pet", 1.2),
        ("kids", "child", 1.2),
        ("job", "job", 0.6),
        ("partner", "partner", 0.6),
    ):
        if slots[key]:
            out.append((topic, weight))
    if slots["holiday"] and family:
        out.append(("holiday", 3.0))
    if slots["act"]:
        out.append(("activity", 1.0))
    out.append(("visit", 0.8 if family else 0.4))
    out.append(("recommend", 0.5))
    return [(t, w) for t, w in out if t in (bank.get("topics") or {})]


def _weighted(r: random.Random, pairs: list[tuple[str, float]]) -> str:
    total = sum(w for _, w in pairs)
    x = r.random() * total
    for t, w in pairs:
        x -= w
        if x <= 0:
            return t
    return pairs[-1][0]


def unique_subject(box: Mailbox, comp: _Composer, options: list[str] | None, fallback: str) -> str:
    """A subject from ``options`` no earlier personal thread used (the first filled one if all are taken)."""
    filled = [t for t in (comp.fill(o) for o in options or []) if t]
    comp.r.shuffle(filled)
    fresh = [t for t in filled if t.casefold() not in box.subjects]
    subject = (fresh or filled or [fallback])[0]
    box.subjects.add(subject.casefold())
    return subject


def _addressee(box: Mailbox, comp: _Composer, mine: bool, sie: bool) -> dict[str, str]:
    """How a mail's greeting names its reader: ``name`` (first name or, with Sie, "Frau/Herr <surname>"),
    ``sie_name`` and ``liebe`` ("Liebe"/"Lieber" by the reader's gender). The persona writes to the contact
    (``mine``) or the contact to the persona: the slots are always the reader's, never the writer's."""
    if mine:
        return {
            "name": comp.slots["sie_name"] if sie else comp.slots["nick"],
            "sie_name": comp.slots["sie_name"],
            "liebe": comp.slots.get("liebe", "Liebe"),
        }
    ident = box.p.identity
    g = "m" if ident.gender == "male" else "f"
    sie_name = formal_name(ident.name, g, box.p.bank)
    return {"name": sie_name if sie else box.first, "sie_name": sie_name, "liebe": box.words["dear"][g]}


def _letter(
    box: Mailbox,
    comp: _Composer,
    c: Contact,
    *,
    mine: bool,
    at: dt.datetime,
    lines: list[str | None],
    first_msg: bool,
    sie: bool,
    late: bool = False,
) -> str:
    """One personal mail: a greeting fitting the hour, the lines, a sign-off in the sender's voice."""
    bank = comp.bank
    family = c.relationship in _FAMILY
    style = c.messaging_style or "brief"
    who = "me" if mine else c.name
    to = _addressee(box, comp, mine, sie)
    name = to["name"]
    if mine:
        gstyle = "formal" if sie else ("chatty" if style != "brief" else "brief")
    else:
        gstyle = style
    greet = comp.pick(_part(bank, sie, "greet", gstyle, _daypart(at.hour)), who, to) or name + ","
    heads = _part(bank, sie, "opener" if first_msg else "thanks", "mine" if mine else style) or []
    if not late:  # "sorry for the slow reply" only after a day or more
        heads = [h for h in heads if not re.search(r"slow reply|späte Antwort", h)]
    head = comp.pick(heads, who)
    body = [x for x in [head, *lines] if x]
    key = (
        "mine_family"
        if mine and family
        else "mine"
        if mine
        else "formal_family"
        if style == "formal" and family
        else style
    )
    sign = comp.pick(_part(bank, sie, "signoff", key), None) or ""
    me_name = (
        box.first
        if mine
        else (parent_name(c, box.p.bank, box.sim.country) if c.relationship == "parent" else c.name.split()[0])
    )
    if sie:  # a letter in the Sie form is signed with the full name
        me_name = box.p.identity.name if mine else c.name
    paragraphs = [greet, " ".join(body[:2]), *body[2:]]
    return "\n\n".join(x for x in paragraphs if x) + "\n\n" + (f"{sign}\n{me_name}" if sign else me_name) + "\n"


def _plan_thread(box: Mailbox, c: Contact, day: dt.date, r: random.Random) -> tuple[str, list[dict[str, Any]]] | None:
    """(subject, [{mine, lines, photos}]) of one personal exchange with ``c`` around ``day``."""
    p = box.p
    bank = phrase_bank(p.bank)
    sie = uses_sie(c, p.bank)
    slots = _slots(box, c, day, r)
    comp = _Composer(box, r, slots, bank)
    topic = _weighted(r, _topic_choices(slots, c, sie, bank))
    if topic == "trip_back":
        slots["dest"] = slots["_trip_back"]
    t = _part(bank, sie, "topics", topic)
    if topic == "catch_up":
        week = [x for x in (comp.fill(w) for w in _part(bank, sie, "their_week") or []) if x]
        slots["their_week"] = week[r.randrange(len(week))] if week else None
    owner = t.get("owner", "them")
    if owner == "opener":
        mine_first = r.random() < 0.45
        owner_mine = mine_first
    else:
        owner_mine = owner == "me"
        mine_first = r.random() < 0.5
    opener_is_owner = mine_first == owner_mine
    if not t.get("tell") or not opener_is_owner and not t.get("ask"):
        opener_is_owner = not t.get("tell") and False
    if owner == "opener":
        opener_is_owner = False  # the opener proposes (asks); the other answers
    length = 2 + (r.random() < 0.6) + (r.random() < 0.3)
    style = c.messaging_style or "brief"
    if style == "brief":
        length = min(length, 3)
    subject = unique_subject(box, comp, t.get("subjects"), slots["them"])
    seq = (
        ["tell", "react+followq", "followa", "close"]
        if opener_is_owner and t.get("tell")
        else ["ask", "answer", "react+followq", "followa+close"]
    )
    seasonkey = slots["season"] if slots["season"] != "fall" else "autumn"
    msgs = []
    asked: int | None = None
    for i, roles in enumerate(seq[:length]):
        mine = (i % 2 == 0) == mine_first
        who = "me" if mine else c.name
        lines: list[str | None] = []
        if roles in ("react+followq",) and i == len(seq[:length]) - 1:
            roles = "react+close" if owner == "opener" or mine != owner_mine else "react"
        for role in roles.split("+"):
            if role == "followa":  # answers the question asked in the message before
                lines.append(comp.pick(t.get(role), who, index=asked) if asked is not None else None)
                continue
            lines.append(comp.pick(t.get(role), who))
            if role == "followq":
                asked = comp.last if lines[-1] else None
        if i == 0 and style in ("formal", "chatty") and not mine:
            lines.insert(0, comp.pick(_part(bank, sie, "season", seasonkey), who))
            if style == "formal" and not sie:  # formal letter writers write long letters
                week = [x for x in (comp.fill(w) for w in bank.get("their_week") or []) if x]
                lines.insert(1, comp.pick(week, who))
                lines.append(comp.pick(bank.get("care"), who))
        elif i == 0 and mine and r.random() < 0.5:
            lines.insert(0, comp.pick(_part(bank, sie, "season", f"mine_{seasonkey}"), who))
        # Closing lines ("send me a postcard") are the listener's; the owner of the news does not add one.
        if i == len(seq[:length]) - 1 and "close" not in roles and (owner == "opener" or mine != owner_mine):
            lines.append(comp.pick(t.get("close"), who))
        photos = bool(t.get("photos")) and mine and owner_mine and roles.split("+")[0] in ("tell", "answer")
        msgs.append({"mine": mine, "lines": lines, "photos": photos, "first": i == 0})
    return subject, msgs, comp, sie


def _photos(r: random.Random, dest: str | None, span: tuple[dt.date, dt.date]) -> list[dict[str, Any]]:
    """2-5 JPEG attachments named ``IMG_<day taken>_<place>_<n>.jpg``, each day within ``span`` (first, last)."""
    n = r.randint(2, 5)
    base = slug(dest or "trip")
    first_day, last_day = span
    days = sorted(first_day + dt.timedelta(days=r.randint(0, max(0, (last_day - first_day).days))) for _ in range(n))
    return [
        {"filename": f"IMG_{taken:%Y%m%d}_{base}_{k + 1:02d}.jpg", "content_type": "image/jpeg"}
        for k, taken in enumerate(days)
    ]


def _personal(box: Mailbox) -> None:
    sim, p = box.sim, box.p
    night_owl = bool(p.routines.night_owl) if p.routines else False
    home = p.identity.address
    for c in p.contacts:
        if c.relationship == "colleague" or not has_app(c, "mail") or not c.email:
            continue
        # People who live with the persona talk at home; they write no letters.
        if home and c.address and (c.address.street, c.address.city) == (home.street, home.city):
            continue
        r = sim.rng(f"mail/personal/{c.name}")
        rate = _LETTERS_PER_MONTH.get(c.relationship, 0.1) * (2.2 if c.messaging_style == "formal" else 1.0)
        rate *= 0.6 + 0.1 * (c.closeness or 1)
        them = contact_dict(c)
        for day in sim.past_days():
            if r.random() >= rate / 30.4:
                continue
            subject, plan, comp, sie = _plan_thread(box, c, day, r)
            at = dt.datetime.combine(day, dt.time(r.randint(7, 21), r.randint(0, 59), r.randint(0, 59)))
            if night_owl and plan[0]["mine"] and r.random() < 0.35:  # the persona writes late at night
                at = dt.datetime.combine(day, dt.time(23, 0)) + dt.timedelta(minutes=r.randint(0, 150))
            msgs: list[dict[str, Any]] = []
            for n, step in enumerate(plan):
                mine = step["mine"]
                if n:
                    at = _waking(at, r, night_owl and mine)
                late = bool(msgs) and at - msgs[-1]["at"] > dt.timedelta(hours=20)
                body = _letter(
                    box, comp, c, mine=mine, at=at, lines=step["lines"], first_msg=step["first"], sie=sie, late=late
                )
                if msgs:
                    body = body + "\n" + box.quote(msgs[-1]["sender"], msgs[-1]["at"], msgs[-1]["body"], 10)
                # Photos are named by the days they were taken (the trip's), not the day they are mailed.
                span = comp.slots.get("_trip_back_days") or (day, day)
                att = _photos(r, comp.slots["dest"], span) if step["photos"] else []
                msgs.append(
                    {
                        "at": at,
                        "sender": box.me if mine else them,
                        "to": [them] if mine else [box.me],
                        "body": body,
                        "attachments": att,
                    }
                )
                at += dt.timedelta(minutes=r.randint(40, 60 * 30))
            box.thread(("personal", c.name, day), subject, msgs, labels=["personal"], r=r, archive_p=0.15)


def _short_mail(
    box: Mailbox, comp: _Composer, c: Contact, *, mine: bool, at: dt.datetime, lines: list[str | None], sie: bool
) -> str:
    bank = comp.bank
    family = c.relationship in _FAMILY
    style = c.messaging_style or "brief"
    to = _addressee(box, comp, mine, sie)
    name = to["name"]
    gstyle = ("formal" if sie else "chatty") if mine else style
    greet = comp.pick(_part(bank, sie, "greet", gstyle, _daypart(at.hour)), "me" if mine else c.name, to) or name + ","
    key = (
        "mine_family"
        if mine and family
        else "mine"
        if mine
        else "formal_family"
        if style == "formal" and family
        else style
        if style != "brief"
        else "chatty"
    )
    sign = comp.pick(_part(bank, sie, "signoff", key), None) or ""
    me_name = box.first if mine else comp.slots["nick"]
    if sie:  # a letter in the Sie form is signed with the full name
        me_name = box.p.identity.name if mine else c.name
    text = " ".join(x for x in lines if x)
    return f"{greet}\n\n{text}\n\n" + (f"{sign}\n{me_name}" if sign else me_name) + "\n"


def _greeting_thread(
    box: Mailbox,
    key: object,
    c: Contact,
    *,
    mine_first: bool,
    at: dt.datetime,
    subjects: list[str],
    first_lines: list[list[str]],
    reply_lines: list[list[str]],
    r: random.Random,
    extra_slots: dict[str, Any],
    to_work: bool = False,
) -> None:
    """A two-message greeting exchange (birthday, holiday) with ``c``: a wish and a thank-you that answers it."""
    p = box.p
    bank = phrase_bank(p.bank)
    sie = uses_sie(c, p.bank)
    slots = {**_slots(box, c, at.date(), r), **extra_slots}
    comp = _Composer(box, r, slots, bank)
    me = box.me_work if to_work else box.me
    them = contact_dict(c)
    subject = unique_subject(box, comp, subjects, slots["them"])
    s1, s2 = ("me", c.name) if mine_first else (c.name, "me")
    body1 = _short_mail(
        box, comp, c, mine=mine_first, at=at, sie=sie, lines=[comp.pick(opts, s1) for opts in first_lines]
    )
    at2 = _waking(at + dt.timedelta(minutes=r.randint(30, 400)), r, False)
    body2 = _short_mail(
        box, comp, c, mine=not mine_first, at=at2, sie=sie, lines=[comp.pick(opts, s2) for opts in reply_lines]
    )
    a, b = (me, them) if mine_first else (them, me)
    box.thread(
        key,
        subject,
        [
            {"at": at, "sender": a, "to": [b], "body": body1},
            {"at": at2, "sender": b, "to": [a], "body": body2 + "\n" + box.quote(a, at, body1)},
        ],
        labels=["personal"],
        r=r,
    )


def _age_slots(age: int) -> dict[str, Any]:
    """``{age, age_th}``: 31 and ``31st``."""
    suffix = "th" if 10 <= age % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(age % 10, "th")
    return {"age": age, "age_th": f"{age}{suffix}"}


def _birthdays(box: Mailbox) -> None:
    sim, p = box.sim, box.p
    born = p.identity.birth_date
    # Greetings to the persona on its birthday.
    if born:
        for year in range(sim.start.year, sim.now.year + 1):
            day = birthday_in(born, year)
            if not sim.start.date() <= day <= sim.now.date():
                continue
            for c in p.contacts:
                if not has_app(c, "mail") or not c.email:
                    continue
                r = sim.rng(f"mail/birthday/me/{year}/{c.name}")
                if c.relationship not in ("parent", "colleague") and r.random() > 0.25:
                    continue
                at = dt.datetime.combine(day, dt.time(r.randint(7, 12), r.randint(0, 59)))
                b = _part(phrase_bank(p.bank), uses_sie(c, p.bank), "birthday")
                wish = (
                    b["from_parent"]
                    if c.relationship == "parent"
                    else b["from_colleague"]
                    if c.relationship == "colleague"
                    else b["from_friend"]
                )
                # The wish first, then one or two of the other lines.
                lines = [[wish[0]], wish[1:]] + ([wish[1:]] if c.relationship == "parent" else [])
                _greeting_thread(
                    box,
                    ("bday-me", year, c.name),
                    c,
                    mine_first=False,
                    at=at,
                    r=r,
                    subjects=b["subjects_from"],
                    first_lines=lines,
                    reply_lines=[b["thanks"]],
                    extra_slots=_age_slots(year - born.year),
                    to_work=c.relationship == "colleague",
                )
    # Greetings from the persona to contacts who read mail more than chat (parents, colleagues).
    for c in p.contacts:
        if not c.birthday or not has_app(c, "mail") or not c.email:
            continue
        if c.relationship not in ("parent", "colleague") and has_app(c, "chat"):
            continue
        for year in range(sim.start.year, sim.now.year + 1):
            day = birthday_in(c.birthday, year)
            if not sim.start.date() <= day <= sim.now.date():
                continue
            r = sim.rng(f"mail/birthday/{c.name}/{year}")
            at = dt.datetime.combine(day, dt.time(r.randint(7, 10), r.randint(0, 59)))
            b = _part(phrase_bank(p.bank), uses_sie(c, p.bank), "birthday")
            _greeting_thread(
                box,
                ("bday", c.name, year),
                c,
                mine_first=True,
                at=at,
                r=r,
                subjects=b["subjects_to"],
                first_lines=[b["to"], b["to"]],
                reply_lines=[b["to_reply"]],
                extra_slots=_age_slots(year - c.birthday.year),
                to_work=c.relationship == "colleague",
            )


def _holiday_greetings(box: Mailbox) -> None:
    """Family and close friends write on Christmas, New Year (and Thanksgiving in the US); the persona thanks them."""
    from .calendar import holidays_of

    sim, p = box.sim, box.p
    greetings = phrase_bank(p.bank).get("holiday_greeting") or {}
    for year in range(sim.start.year, sim.now.year + 1):
        days: list[tuple[str, dt.date]] = [
            ("christmas", dt.date(year, 12, mailbox_words(p.bank)["christmas_day"])),
            ("new_year", dt.date(year, 1, 1)),
        ]
        days += [("thanksgiving", d) for d, n in holidays_of(p, year).items() if n == "Thanksgiving Day"]
        for key, day in days:
            if key not in greetings or not sim.start.date() <= day <= sim.now.date():
                continue
            g = greetings[key]
            for c in p.contacts:
                if not has_app(c, "mail") or not c.email or c.relationship == "colleague":
                    continue
                r = sim.rng(f"mail/holiday/{key}/{year}/{c.name}")
                if r.random() > (0.85 if c.relationship in _FAMILY else 0.2 * (c.closeness or 1) / 5):
                    continue
                at = dt.datetime.combine(day, dt.time(r.randint(8, 18), r.randint(0, 59)))
                _greeting_thread(
                    box,
                    ("holiday", key, year, c.name),
                    c,
                    mine_first=False,
                    at=at,
                    r=r,
                    subjects=g["subjects"],
                    first_lines=[g["from"]],
                    reply_lines=[g["reply"]],
                    extra_slots={"year": year},
                )


# --- the rest of a real mailbox: marketing, bills, reminders, sign-in codes -----------------------


@cache
def automated_bank(locale: str) -> dict[str, Any]:
    """The automated-mail phrase bank (``templates/mail/automated.yaml``) of ``locale``'s language."""
    from builder import yamlfile

    data = yamlfile.safe_load((TEMPLATES / "mail" / "automated.yaml").read_text(encoding="utf-8"))
    return data.get(locale.split("_")[0]) or data["en"]


def fill_slots(text: str, slots: dict[str, Any]) -> str:
    """``text`` with its ``{slot}`` names replaced from ``slots``."""
    return _SLOT.sub(lambda m: str(slots.get(m.group(1), m.group(0))), text)


def _vocab(box: Mailbox) -> dict[str, str]:
    bank = phrase_bank(box.p.bank)
    v = dict((bank.get("vocab") or {}).get(box.p.bank) or (bank.get("vocab") or {}).get("en_US") or {})
    for k in ("v_autumn", "v_cosy"):
        if k in v:
            v[k + "_cap"] = v[k][:1].upper() + v[k][1:]
    return v


_ORDER_CATEGORY = {
    "food_order": "food",
    "grocery_order": "groceries",
    "retail_order": "retail",
    "ride": "transport",
    "restaurant_booking": "restaurants",
    "flight_booking": "airline",
    "hotel_booking": "hotel",
}


def _shops(box: Mailbox) -> list[dict[str, Any]]:
    """The businesses the persona buys from: order/booking providers (with their sites) and card merchants bought
    from at least 6 times (recurring-charge payees excluded: they send bills). Sorted by name."""
    sim = box.sim
    found: dict[str, dict[str, Any]] = {}
    for e in sim.of_kind(*_ORDER_CATEGORY):
        if e.at > sim.now:
            continue
        d = e.data
        name = (
            first(d, "airline", "chain", "provider", "merchant", "site_title")
            if e.kind in ("flight_booking", "hotel_booking")
            else first(d, "provider", "merchant", "site_title")
        )
        if not name:
            continue
        shop = found.setdefault(
            name,
            {
                "name": name,
                "category": _ORDER_CATEGORY[e.kind],
                "n": 0,
                "domain": site_domain(d.get("site_url"), name),
                "cities": set(),
            },
        )
        shop["n"] += 1
        if d.get("destination"):
            shop["cities"].add(d["destination"])
    payees = {c.payee for c in (box.p.recurring_charges or [])}
    category = {m.name: m.category for m in sim.merchants}
    counts: dict[str, int] = {}
    for e in sim.of_kind("card_purchase"):
        name = e.data.get("merchant")
        if e.at <= sim.now and name and not e.data.get("recurring") and name not in payees:
            counts[name] = counts.get(name, 0) + 1
    for name, n in counts.items():
        if n >= 6 and name not in found and category.get(name) not in (None, "transport"):
            found[name] = {
                "name": name,
                "category": category[name],
                "n": n,
                "domain": site_domain(None, name),
                "cities": set(),
            }
    return [found[k] for k in sorted(found)]


def _occasion(day: dt.date, fmt: Fmt) -> str:
    from .calendar import _nth_weekday

    thanks = _nth_weekday(day.year, 11, 3, 4)
    if thanks <= day <= thanks + dt.timedelta(days=4):
        return "black_friday"
    if day.month == 12 and day.day <= 20 or (day.month == 11 and day.day >= 20):
        return "christmas"
    return fmt.season(day)


def _marketing(box: Mailbox) -> None:
    """Offers from the shops the persona buys from (0.8-3 a month each, more from the ones used most), ``series``
    ``marketing``, mostly unread, subjects composed from offer x thing x occasion."""
    sim, fmt = box.sim, box.fmt
    bank = automated_bank(box.p.bank)["marketing"]
    vocab = _vocab(box)
    # Every provider the persona has an account with (orders, bookings) and the three card merchants used most.
    shops = _shops(box)
    online = [s for s in shops if s["category"] in _ORDER_CATEGORY.values()]
    local = sorted((s for s in shops if s not in online), key=lambda s: (-s["n"], s["name"]))[:3]
    for shop in sorted(online + local, key=lambda s: s["name"]):
        r = sim.rng(f"mail/marketing/{shop['name']}")
        per_month = min(3.0, 0.8 + shop["n"] / 40) if shop in online else 0.8
        sender = {"name": shop["name"], "email": f"{r.choice(['news', 'hello', 'offers'])}@{shop['domain']}"}
        url = f"http://{shop['domain']}"
        hour = r.randint(6, 19)
        things = bank["things"].get(shop["category"]) or bank["things"]["shopping"]
        cities = sorted(shop["cities"]) or [box.p.identity.address.city if box.p.identity.address else "town"]
        for day in sim.past_days():
            if r.random() >= per_month / 30.4:
                continue
            at = dt.datetime.combine(day, dt.time(hour, r.randint(0, 59)))
            occ = _occasion(day, fmt)
            slots = {
                **vocab,
                "pct": r.choice([10, 15, 20, 25, 30, 40, 50]),
                "weekday": fmt.weekday(day),
                "min": fmt.money(r.choice([1500, 2000, 2500, 3000])),
                "city": r.choice(cities),
                "first": box.first,
                "code": f"{slug(shop['name'])[:4].upper()}{r.randint(10, 99)}",
                "ends": fmt.long_date(day + dt.timedelta(days=r.randint(2, 9))),
                "url": url,
                "sender": shop["name"],
                "email": box.me["email"],
            }
            slots["thing"] = fill_slots(r.choice(things), slots)
            service = shop["category"] in ("restaurants", "transport", "airline", "hotel", "health", "entertainment")
            offer = fill_slots(r.choice(bank["offers_services" if service else "offers"]), slots)
            offer = offer[:1].upper() + offer[1:]
            occasions = bank["occasions"].get(occ) or []
            subject = (
                f"{fill_slots(r.choice(occasions), slots)}: {offer}"
                if occasions and ":" not in offer and r.random() < 0.5
                else offer
            )
            lines = r.sample(bank["body_lines"], 2)
            body = (
                "\n\n".join(
                    [
                        fill_slots(r.choice(bank["body_open"]), slots),
                        offer + ".",
                        " ".join(fill_slots(x, slots) for x in lines),
                        fill_slots(
                            r.choice(
                                bank[
                                    "cta_book"
                                    if shop["category"] in ("restaurants", "airline", "hotel", "health")
                                    else "cta"
                                ]
                            ),
                            slots,
                        ),
                        "--\n" + fill_slots(bank["footer"], slots),
                    ]
                )
                + "\n"
            )
            box.single(
                ("marketing", shop["name"], day),
                at,
                sender,
                subject,
                body,
                labels=["promotions"],
                r=r,
                read_p=0.3,
                archive_p=0.05,
                series="marketing",
            )


def _signin_codes(box: Mailbox) -> None:
    """Verification codes from the bank, the shops and the persona's sites: 2-4 a month, and one in the last
    day before ``now``, unread (series ``signin_code``)."""
    sim, fmt = box.sim, box.fmt
    bank = automated_bank(box.p.bank)["signin_code"]
    r = sim.rng("mail/signin")
    services = [{"name": BANK["name"], "email": f"security@{service('bank').domain}"}] + [
        {"name": s["name"], "email": f"no-reply@{s['domain']}"}
        for s in _shops(box)
        if s["category"] in ("retail", "food", "groceries", "airline", "transport")
    ]
    services += [
        {"name": site.title, "email": f"no-reply@{urlsplit(site.url).netloc.removeprefix('www.')}"}
        for site in box.p.browsing or []
        if not urlsplit(site.url).netloc.endswith(".test")
    ][:4]
    times: list[dt.datetime] = []
    for day in sim.past_days():
        if r.random() < 3 / 30.4:
            times.append(dt.datetime.combine(day, dt.time(r.randint(7, 22), r.randint(0, 59), r.randint(0, 59))))
    times.append(sim.now - dt.timedelta(minutes=r.randint(15, 600)))
    for k, at in enumerate(times):
        if at > sim.now:
            continue
        svc = services[r.randrange(len(services))]
        slots = {
            "first": box.first,
            "formal": box.formal,
            "sender": svc["name"],
            "code": f"{r.randint(0, 999_999):06d}",
            "time": fmt.time(at),
        }
        slots["device"] = fill_slots(r.choice(bank["devices"]), slots)
        last = k == len(times) - 1
        box.single(
            ("signin", k, at),
            at,
            svc,
            fill_slots(r.choice(bank["subjects"]), slots),
            fill_slots(bank["body"], slots),
            labels=["security"],
            r=r,
            series="signin_code",
            read=False if last else None,
            read_p=0.9,
            archive_p=0.0,
        )


def _calendar_reminders(box: Mailbox) -> None:
    """Daybook (the calendar app) mails a reminder the day before each personal appointment, restaurant table and
    party (series ``calendar_reminder``); those of the coming day are unread."""
    sim, fmt = box.sim, box.fmt
    bank = automated_bank(box.p.bank)["calendar_reminder"]
    sender = {"name": service("calendar").title, "email": f"reminders@{service('calendar').domain}"}
    for e in sim.of_kind("calendar_event"):
        d = e.data
        if (
            d["calendar"] != "personal"
            or d["source"] not in ("appointment", "restaurant", "life_event")
            or d["all_day"]
        ):
            continue
        at = e.at - dt.timedelta(days=1)
        if at.hour < 7:
            at = at.replace(hour=7)
        if not sim.start <= at <= sim.now:
            continue
        r = sim.rng(f"mail/daybook/{e.id}")
        end = parse_when(sim, d["end"])
        slots = {
            "title": d["title"],
            "time": fmt.time(e.at),
            "day": fmt.day(e.at),
            "iso": e.at.date().isoformat(),
            "when": f"{fmt.date(e.at)}, {fmt.time(e.at)}" + (f" - {fmt.time(end)}" if end else ""),
            "where": d.get("location") or "",
            "calendar": (bank.get("calendar_names") or {}).get(d["calendar"], d["calendar"]),
        }
        box.single(
            ("daybook", e.id),
            at,
            sender,
            fill_slots(r.choice(bank["subjects"]), slots),
            fill_slots(bank["body"], slots),
            labels=["reminders"],
            ref=e.id,
            r=r,
            read_p=0.75,
            archive_p=0.3,
            series="calendar_reminder",
            read=False if e.at > sim.now else None,
        )


# --- newsletters -----------------------------------------------------------------------------------


@cache
def headlines(locale: str) -> dict[str, Any]:
    """Newsletter headlines by site kind (``templates/mail/newsletters.yaml``; ``weather`` keyed by season)."""
    from builder import yamlfile

    data = yamlfile.safe_load((TEMPLATES / "mail" / "newsletters.yaml").read_text(encoding="utf-8"))
    return data.get(locale.split("_")[0]) or data["en"]


# Highs and lows (degrees C) a weather newsletter quotes, by season (``mild``: a warm home's winter,
# builder.reference.locale.felt_season).
_TEMPS = {
    "mild": ((16, 25), (8, 16)),
    "winter": ((-2, 8), (-9, 2)),
    "spring": ((9, 19), (1, 8)),
    "summer": ((20, 32), (11, 18)),
    "autumn": ((8, 18), (2, 10)),
}


def slug_path(text: str) -> str:
    """A URL path segment for a headline: ASCII lower-case words joined by hyphens (umlauts spelled out)."""
    import unicodedata

    text = text.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")


def _site_kind(host: str) -> str:
    for key, kind in (
        ("weather", "weather"),
        ("metoffice", "weather"),
        ("dwd", "weather"),
        ("recipe", "recipes"),
        ("goodfood", "recipes"),
        ("chefkoch", "recipes"),
        ("reddit", "community"),
        ("youtube", "video"),
        ("wikipedia", "wiki"),
        ("github", "code"),
        ("espn", "sports"),
        ("kicker", "sports"),
        ("rail", "rail"),
        ("bahn", "rail"),
    ):
        if key in host:
            return kind
    return "news"


def _newsletters(box: Mailbox) -> None:
    sim, p = box.sim, box.p
    for site in p.browsing or []:
        host = urlsplit(site.url).netloc
        if host.endswith(".test"):
            continue  # our own apps mail through their own modules (the bank's statements)
        r = sim.rng(f"mail/newsletter/{host}")
        weekday = r.randrange(7)
        hour = r.randint(5, 9)
        domain = host.removeprefix("www.")
        sender = {"name": site.title, "email": f"newsletter@{domain}"}
        kind = _site_kind(host)
        day = sim.start.date()
        day += dt.timedelta(days=(weekday - day.weekday()) % 7)
        issue = 1
        base = f"{urlsplit(site.url).scheme}://{host}"
        bank = headlines(p.bank)
        while day <= sim.now.date():
            if r.random() < 0.85:
                at = dt.datetime.combine(day, dt.time(hour, r.randint(0, 59)))
                felt = felt_season(day, box.fmt.country, box.fmt.city)
                pool = bank[kind][felt] if kind == "weather" else bank[kind]
                stories = [(h, f"{base}/{day:%Y/%m/%d}/{slug_path(h)}") for h in r.sample(pool, min(4, len(pool)))]
                (hi_lo, lo_lo) = _TEMPS[felt]
                high, low = r.randint(*hi_lo), r.randint(*lo_lo)
                if box.fmt.us:
                    high, low = round(high * 9 / 5 + 32), round(low * 9 / 5 + 32)
                subject, body = render(
                    "newsletter",
                    fmt=box.fmt,
                    site=site,
                    kind=kind,
                    day=day,
                    issue=issue,
                    city=p.identity.address.city if p.identity.address else "",
                    base=base,
                    me=box.me,
                    stories=stories,
                    high=high,
                    low=low,
                )
                box.single(
                    ("newsletter", host, day),
                    at,
                    sender,
                    subject,
                    body,
                    labels=["newsletters"],
                    r=r,
                    read_p=0.35,
                    archive_p=0.1,
                    series="newsletter",
                )
                issue += 1
            day += dt.timedelta(days=7)
