"""What a traveller reads on the desktop besides Meridian Air and Bramblestay, for the independent readers
(:mod:`builder.tasks.reader`) of the scenarios homed in the two travel apps: the bank's card lines, ZipRide's ride
history, Shopwell's deliveries, Daybook's agenda and the mailbox; and how a trip of the airline and a stay of
Bramblestay are matched (the same place, overlapping days). Pages are read signed in, as the persona sees them;
never the world or a database. No ``SCENARIOS`` here: the readers live beside their tasks."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from apps.airline import reader as air
from apps.stays import reader as bs
from builder.tasks.dates import clock_in, day_in
from builder.tasks.reader import See, Unreadable, parse_money, visible_text


def _text(node) -> str:
    return " ".join(node.text_content().split()) if node is not None else ""


def _one(node, xpath: str):
    found = node.xpath(xpath)
    return found[0] if found else None


# --- a trip and its stay ----------------------------------------------------------------------------


def delivered_mail(see: See) -> dict[str, dt.datetime]:
    """Order number -> when Shopwell's "Delivered" ("Zugestellt") mail says the parcel came (the mail's Date, the
    home's wall clock), from the mailbox."""
    out = {}
    for m in see.mailbox():
        subject = str(m["subject"] or "")
        found = _DELIVERED.match(subject)
        if found and "shopwell" in str(m["from"] or "").lower() and m["date"] is not None:
            out[found.group("order")] = m["date"].datetime.replace(tzinfo=None)
    return out


#: The subject of Shopwell's "delivered" mail, in English or German, and the order number it names.
_DELIVERED = re.compile(r"^(?:Delivered|Zugestellt):.*?(?P<order>SW-\d+-\d+)\s*$")


def away(see: See, t: air.Trip) -> tuple[dt.datetime, dt.datetime]:
    """When the persona left home for trip ``t`` and got back (the home's wall clock): the pickup of the trip's ride
    to the airport before the first flight (else that flight's departure) and the drop-off of its ride home after
    the last flight (else the landing)."""
    out_dep, back_arr = t.segments[0].dep, t.segments[-1].arr
    start, end = window(t)
    mine = trip_rides(see, start, end)
    to_airport = [r for r in mine if r.when <= out_dep]
    home = [r for r in mine if r.when >= back_arr]
    left = min((r.when for r in to_airport), default=out_dep)
    back = max((dropoff(see, r) for r in home), default=back_arr)
    return left, back


def window(t: air.Trip) -> tuple[dt.date, dt.date]:
    """The days a trip is away: its first flight's departure day to its last flight's arrival day (local)."""
    return t.segments[0].dep_day, t.segments[-1].arr_day


def stay_of(see: See, t: air.Trip, *tabs: str) -> bs.Stay:
    """The Bramblestay booking of trip ``t``: in the city its last outbound flight lands in (or the city its
    heading names), with nights overlapping the trip's days; of ``tabs`` (all when none), cancelled ones left out.
    Raises :class:`Unreadable` when there is none, or several."""
    start, end = window(t)
    found = [
        s
        for s in bs.stays(see, *(tabs or ("upcoming", "past")))
        if s.city.casefold() in t.names() and s.check_in <= end and s.check_out >= start
    ]
    if len(found) != 1:
        raise Unreadable(f"{len(found)} Bramblestay bookings in {t.arrival.dest_city} from {start} to {end}")
    return found[0]


# --- the bank ---------------------------------------------------------------------------------------


@dataclass
class Line:
    """A line of an account's history: ``day`` (posted), ``description``, ``memo`` (empty when none), ``category``,
    ``cents`` (signed: money out is negative), ``account``."""

    day: dt.date
    description: str
    memo: str
    category: str
    cents: int
    account: str


def accounts(see: See) -> list[tuple[str, str]]:
    """The persona's bank accounts: ``(path, name)`` of each on the overview, in its order."""
    page = see.page("bank", "/accounts")
    out = []
    for a in page.xpath('//a[@data-account-id][starts-with(@href, "/accounts/")]'):
        out.append((a.get("href"), _text(_one(a, './/*[@class="name"]'))))
    if not out:
        raise Unreadable("the bank lists no account")
    return out


def lines(see: See, q: str = "", start: dt.date | None = None, end: dt.date | None = None) -> list[Line]:
    """Every history line of every account matching the bank's own search (``q``: description, payee or memo;
    ``start``/``end``: posted days, inclusive), every page of it."""
    out = []
    for path, name in accounts(see):
        params = {k: v for k, v in (("q", q), ("from", start), ("to", end)) if v}
        params = {k: str(v) for k, v in params.items()}
        page_no = 1
        while True:
            page = see.page("bank", path, {**params, **({"page": str(page_no)} if page_no > 1 else {})})
            for tr in page.xpath('//tr[@data-testid="txn-row"]'):
                cells = tr.xpath("./td")
                memo = _text(_one(tr, './/*[@class="lb-desc-sub"]'))
                out.append(
                    Line(
                        day=day_in(_text(cells[0])),
                        description=_text(_one(tr, './/*[@class="lb-desc"]')),
                        memo=re.sub(r"^Memo:\s*", "", memo),
                        category=_text(_one(tr, './/*[@class="lb-cat"]')),
                        cents=int(tr.get("data-amount-cents")),
                        account=name,
                    )
                )
            label = _text(_one(page, '//*[@class="pui-pagination-label"]'))
            m = re.search(r"(\d+)\D+(\d+)", label)
            if not m or int(m.group(1)) >= int(m.group(2)):
                break
            page_no += 1
    return out


def _plain(s: str) -> str:
    return re.sub(r"[^0-9a-z]+", " ", s.casefold()).strip()


def hotel_charge(see: See, s: bs.Stay) -> Line:
    """The card's charge of stay ``s``: the line naming its property (or its confirmation number) posted from its
    check-in to three days after its check-out. Raises :class:`Unreadable` when there is none or several."""
    found = [
        x
        for x in lines(see, "", s.check_in, s.check_out + dt.timedelta(days=3))
        if x.cents < 0
        and x.category != "Fees"
        and (_plain(s.property) in _plain(x.description) or s.confirmation in x.description)
    ]
    if len(found) != 1:
        raise Unreadable(f"{len(found)} card lines for {s.property} from {s.check_in} to {s.check_out}")
    return found[0]


# --- ZipRide ----------------------------------------------------------------------------------------


@dataclass
class Ride:
    """A ride of ZipRide's Activity: ``to`` (drop-off), ``when`` (pickup, local), ``source`` (pickup),
    ``purpose``, ``cents``."""

    to: str
    when: dt.datetime
    source: str
    purpose: str
    cents: int
    href: str = ""


def dropoff(see: See, ride: Ride) -> dt.datetime:
    """When ``ride`` dropped the persona off: its receipt's pickup clock plus the minutes it shows (local)."""
    page = see.page("rides", ride.href)
    minutes = int(_text(_one(page, '//*[@data-testid="duration"]')))
    return ride.when + dt.timedelta(minutes=minutes)


def rides(see: See) -> list[Ride]:
    """Every ride of ZipRide's Activity (all months, all purposes), newest first."""
    page = see.page("rides", "/activity")
    out = []
    for li in page.xpath('//li[@data-testid="ride-row"]'):
        meta = _text(_one(li, './/*[@class="zr-muted"]'))
        parts = [p.strip() for p in meta.split(" · ")]
        when = parts[0]
        out.append(
            Ride(
                to=_text(_one(li, ".//strong")),
                when=dt.datetime.combine(day_in(when), clock_in(when.split(",")[-1])),
                source=parts[1].removeprefix("from ").strip() if len(parts) > 1 else "",
                purpose=parts[2] if len(parts) > 2 else "",
                cents=int(_one(li, './/*[@class="zr-price"]').get("data-cents")),
                href=(li.xpath(".//a/@href") or [""])[0],
            )
        )
    return out


def trip_rides(see: See, start: dt.date, end: dt.date) -> list[Ride]:
    """The rides ZipRide files under ``Trip`` of a trip away from ``start`` to ``end`` (days): picked up from
    ``start`` to the morning after ``end`` (the ride home from a late landing starts after midnight), oldest
    first."""
    last = dt.datetime.combine(end + dt.timedelta(days=1), dt.time(12))
    return sorted(
        (r for r in rides(see) if r.purpose == "Trip" and start <= r.when.date() and r.when < last),
        key=lambda r: r.when,
    )


# --- Shopwell ---------------------------------------------------------------------------------------


def deliveries(see: See) -> list[tuple[str, dt.date, str]]:
    """Shopwell's delivered orders: ``(order number, delivery day, ship-to name)``, every page of Your orders. The
    list gives the delivery day without its year: the order's year, or the next when the month comes before the
    order's."""
    out = []
    page_no = 1
    while True:
        page = see.page("shop", "/orders", {"page": str(page_no)} if page_no > 1 else {})
        for art in page.xpath('//article[@data-testid="order"][@data-state="delivered"]'):
            heads = art.xpath('.//div[@class="sw-order-head"]/div')
            placed = day_in(_text(_one(heads[0], "./b")))
            ship_to = _text(_one(heads[2], "./b")) if len(heads) > 2 else ""
            status = _text(_one(art, './/p[contains(@class, "sw-status")]'))
            day = day_in(status, after=placed)
            out.append((art.get("data-order"), day, ship_to))
        if not page.xpath('//*[@data-testid="next-page"]'):
            break
        page_no += 1
    return out


# --- Daybook ----------------------------------------------------------------------------------------


@dataclass
class Entry:
    """An entry of Daybook's agenda on one day: ``day``, ``title``, ``when`` (``All day``, ``3:55 PM – 7:55 PM``,
    ``From 9:10 PM``), ``href`` (its page)."""

    day: dt.date
    title: str
    when: str
    href: str


def agenda(see: See, start: dt.date, end: dt.date) -> list[Entry]:
    """Daybook's agenda entries from ``start`` to ``end`` (days, inclusive), day by day (two weeks a page)."""
    out = []
    day = start
    while day <= end:
        page = see.page("calendar", "/agenda", {"date": day.isoformat()})
        for sec in page.xpath("//section[@data-date]"):
            d = dt.date.fromisoformat(sec.get("data-date"))
            if not start <= d <= end or d < day:
                continue
            for li in sec.xpath('.//li[@data-testid="agenda-item"]'):
                link = _one(li, './/a[@class="what"]')
                out.append(
                    Entry(
                        day=d,
                        title=li.get("data-title"),
                        when=_text(_one(li, './/*[@class="when"]')),
                        href=link.get("href") if link is not None else "",
                    )
                )
        day += dt.timedelta(days=14)
    return out


def entry_facts(see: See, e: Entry) -> str:
    """The visible text of an entry's own page (its calendar, how it repeats, …)."""
    path, _, query = e.href.partition("?")
    params = dict(p.split("=", 1) for p in query.split("&") if "=" in p) if query else {}
    from urllib.parse import unquote

    page = see.page("calendar", path, {k: unquote(v) for k, v in params.items()})
    return visible_text(_one(page, "//main") if page.xpath("//main") else page)


# --- Mailbox ----------------------------------------------------------------------------------------


def mails(see: See, subject: str) -> list:
    """The messages whose subject holds ``subject`` (case-insensitive), oldest first by their Date."""
    import email.utils

    found = [m for m in see.mailbox() if subject.casefold() in str(m["Subject"] or "").casefold()]

    def when(m) -> dt.datetime:
        d = email.utils.parsedate_to_datetime(str(m["Date"]))
        return d.astimezone(dt.UTC).replace(tzinfo=None)

    return sorted(found, key=when)


def body(m) -> str:
    """A message's plain text (its HTML part's text when it has no plain one)."""
    part = m.get_body(("plain", "html"))
    if part is None:
        return ""
    text = part.get_content()
    if part.get_content_type() == "text/html":
        import lxml.html

        text = lxml.html.fromstring(text).text_content()
    return text


def money_line(text: str, label: str) -> int:
    """The amount after ``label`` on a line of ``text``. Raises :class:`Unreadable` without one."""
    m = re.search(rf"^\s*{re.escape(label)}\s*:?\s*(.+)$", text, re.M)
    if not m:
        raise Unreadable(f"no {label!r} line")
    return parse_money(m.group(1))
