"""The documents of a working life in the persona's home: business-trip expense reports with their receipts,
and a personal monthly budget.

Everything comes from the world's events and ledger; every draw is from a named stream of
``builder.rng.rng`` (``work_docs/...``); every file is reproducible (spreadsheets through
:mod:`builder.files.sheets`, PDFs in reportlab's invariant mode dated by the document), and every file's
modification time is its world time (``os.utime``, whole seconds, never after the world's now).

* :func:`expense_reports` -> per business trip that ended before the report was due (the first working day
  after the return, 09:30-11:59, stream ``work_docs/expenses/<trip>``, no later than now), a folder
  ``~/Documents/Work/Expenses/<YYYY-MM>_<City>/`` holding ``Expense_Report_<City>_<YYYY-MM>.ods`` and
  ``.xlsx`` (en_GB ``Expense_Claim_``, de_DE ``Reisekostenabrechnung_``) and a receipt PDF per charge that
  has none yet (``Receipt_<date>_<HHMM>_<merchant>.pdf``, de ``Beleg_``). The trip's charges
  (:func:`trip_charges`) are every posted charge of an event of that trip (``data["trip"]``): the fare at
  booking, the hotel at checkout, rides, purchases while away and their foreign-transaction fees; companions'
  paybacks are not charges. The report lists them by category (airfare, lodging, ground transportation,
  meals, other, card fees) with ``SUM`` subtotals, a summary that refers to them and a grand total
  ``SUM`` of the summary: its value equals the trip's charges to the cent. The hotel's receipt is the folio
  Bramblestay's files put in ``~/Downloads`` (found by name, never copied); without one a stay receipt is
  written; a card fee's receipt is the card statement.
* :func:`budget` -> ``~/Documents/Personal/Budget_<YYYY>.ods`` (de ``Haushaltsbuch_``): income and spending
  per category for the last six complete months (``SUM`` totals per month, ``AVERAGE`` per row), a budget
  per spending category (the average of the six months before, rounded up to 25 currency units, 5 under
  100) and ``budget - average`` beside it. Transfers between the persona's own accounts and card payments
  are not spending. Saved the first Sunday evening after the last month closed.

Folders follow the home the image makes (``Documents``, ``Downloads``, as the bank and travel files do for
every locale); file names, headings and labels are in the persona's language (``work_docs.yaml``).
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape
from zoneinfo import ZoneInfo

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import Paragraph

from builder import yamlfile
from builder.files.pdftext import FONT, FONT_BOLD, meta_text, para_text, register
from builder.files.sheets import Cell, Sheet, write_ods, write_xlsx
from builder.names import safe_filename
from builder.rng import rng
from builder.world import World, payment_cards
from builder.reference.locale import Fmt

WORDS_FILE = Path(__file__).with_name("work_docs.yaml")
EXPENSES_DIR = Path("Documents") / "Work" / "Expenses"
PERSONAL_DIR = Path("Documents") / "Personal"
DOWNLOADS_DIR = Path("Downloads")
CATEGORY_ORDER = ("airfare", "lodging", "ground", "meals", "other", "fees")
MEAL_CATEGORIES = frozenset({"restaurants", "coffee", "groceries", "food"})
BUDGET_MONTHS = 6
INK = colors.HexColor("#1d232b")
MUTED = colors.HexColor("#5d6875")


@cache
def _all_words() -> dict:
    return yamlfile.safe_load(WORDS_FILE.read_text(encoding="utf-8"))


def words(world: World) -> dict:
    """The document words of the persona's locale (``work_docs.yaml``; other locales read like en_GB)."""
    table = _all_words()
    return table.get(world.persona.bank, table["en_GB"])


def _units(cents: int) -> Decimal:
    """Integer cents as currency units (``Decimal('12.34')``), what a money cell holds."""
    return Decimal(int(cents)).scaleb(-2)


def _timestamp(world: World, local: dt.datetime) -> int:
    zone = ZoneInfo(world.persona.timezone or "UTC")
    return int(local.replace(tzinfo=zone).timestamp())


def set_mtime(world: World, path: Path, local: dt.datetime) -> None:
    """Set ``path``'s access and modification time to the naive local world time ``local`` (whole seconds)."""
    ts = _timestamp(world, local.replace(microsecond=0))
    os.utime(path, (ts, ts))


def _epoch(world: World, local: dt.datetime) -> None:
    """reportlab reads SOURCE_DATE_EPOCH for a PDF's dates: the document's own time."""
    rl_config.invariant = 1
    os.environ["SOURCE_DATE_EPOCH"] = str(_timestamp(world, local))


def _wall(iso: str | None) -> dt.datetime | None:
    """The wall time of an aware ISO 8601 string at its own place (``2025-09-18T09:41:00-05:00`` -> 09:41)."""
    if not iso:
        return None
    return dt.datetime.fromisoformat(iso).replace(tzinfo=None)


# ------------------------------------------------------------------------------------------ business trips


@dataclass(frozen=True)
class Charge:
    """One charge of a trip as the report lists it: ``cents`` > 0 a cost in the persona's currency (the
    event's postings, negated), ``when`` the wall time where it happened, ``category`` one of
    :data:`CATEGORY_ORDER`, ``foreign`` the amount in the place's currency abroad (``7,510 JPY``) or None."""

    event_id: str
    kind: str
    when: dt.datetime
    description: str
    merchant: str
    category: str
    city: str
    cents: int
    account: str
    foreign: str | None
    data: dict


@dataclass(frozen=True)
class BusinessTrip:
    """A past business trip: its index in ``persona.travel.trips``, destination, dates and charges."""

    index: int
    destination: str
    depart: dt.date
    return_: dt.date
    charges: tuple[Charge, ...]

    @property
    def total_cents(self) -> int:
        """The sum of the trip's charges (cents, persona's currency)."""
        return sum(c.cents for c in self.charges)


def _category(kind: str, data: dict, posting_category: str) -> str:
    if kind == "flight_booking":
        return "airfare"
    if kind in ("hotel_checkout", "hotel_booking"):
        return "lodging"
    if kind == "ride" or data.get("category") == "transport" or posting_category == "transport":
        return "ground"
    if kind == "card_fee" or posting_category == "fees":
        return "fees"
    if data.get("category") in MEAL_CATEGORIES or posting_category in MEAL_CATEGORIES:
        return "meals"
    return "other"


def _short_place(text: str) -> str:
    return (text or "").split(",")[0].strip()


def trip_charges(world: World, index: int) -> list[Charge]:
    """Every posted charge of trip ``index``'s events, in timeline order (see the module rules).

    Each event with postings on the persona's accounts and ``data["trip"] == index`` gives one
    :class:`Charge` of minus the sum of its postings; received payments (``p2p_payment``) are left out."""
    w = words(world)
    by_id = {e.id: e for e in world.events}
    accounts = set(world.account_kinds())
    out = []
    for e in world.events:
        if e.status != "done" or not isinstance(e.data, dict) or e.data.get("trip") != index:
            continue
        if e.kind == "p2p_payment" or not e.postings:
            continue
        posts = [p for p in e.postings if p.account in accounts]
        cents = -sum(p.amount_cents for p in posts)
        if not posts or cents == 0:
            continue
        d = e.data
        when = e.at
        city = d.get("city") or ""
        foreign = None
        if e.kind == "flight_booking":
            legs = d.get("itinerary") or []
            route = "–".join([legs[0]["from"], *[x["to"] for x in legs]]) if legs else ""
            merchant = d.get("airline") or posts[0].counterparty or ""
            description = " · ".join(x for x in (merchant, d.get("pnr"), route) if x)
        elif e.kind == "hotel_checkout":
            when = _wall(d.get("check_out_local")) or when
            merchant = d.get("hotel") or ""
            from builder.files.travel_docs import room_label

            nights = w["nights"].format(n=d.get("nights", ""), room=room_label(world, d.get("room") or ""))
            description = f"{merchant} · {nights}"
        elif e.kind == "ride":
            when = _wall(d.get("pickup_local")) or when
            merchant = d.get("provider") or posts[0].counterparty or ""
            description = f"{merchant} · {_short_place(d.get('pickup'))} → {_short_place(d.get('dropoff'))}"
        elif e.kind == "card_fee":
            purchase = by_id.get(d.get("purchase"))
            merchant = posts[0].description.title()
            description = w["categories"]["fees"]
            if purchase is not None:
                description += f" · {purchase.data.get('merchant', '')}"
                when = _wall(purchase.data.get("local_time")) or when
                city = purchase.data.get("city") or city
        else:
            when = _wall(d.get("local_time")) or when
            merchant = d.get("merchant") or posts[0].counterparty or posts[0].description
            description = merchant
            if d.get("foreign_currency"):
                foreign = f"{d.get('foreign_amount')} {d['foreign_currency']}"
        out.append(
            Charge(
                event_id=e.id,
                kind=e.kind,
                when=when,
                description=description,
                merchant=merchant,
                category=_category(e.kind, d, posts[0].category),
                city=city,
                cents=cents,
                account=posts[0].account,
                foreign=foreign,
                data=d,
            )
        )
    return out


def business_trips(world: World) -> list[BusinessTrip]:
    """The persona's business trips that returned before the world's now, with their charges."""
    travel = world.persona.travel
    if not travel or not travel.trips:
        return []
    out = []
    for i, trip in enumerate(travel.trips):
        if trip.purpose != "business" or trip.return_ >= world.now.date():
            continue
        charges = trip_charges(world, i)
        if charges:
            out.append(BusinessTrip(i, trip.destination, trip.depart, trip.return_, tuple(charges)))
    return out


def report_time(world: World, trip: BusinessTrip) -> dt.datetime:
    """When the report was written: the first working day after the return, 09:30-11:59 (stream
    ``work_docs/expenses/<trip>``)."""
    r = rng(world.seed, f"work_docs/expenses/{trip.index}")
    day = trip.return_ + dt.timedelta(days=1)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return dt.datetime.combine(day, dt.time(9, 30)) + dt.timedelta(minutes=r.randint(0, 149))


def trip_folder(world: World, trip: BusinessTrip) -> Path:
    """``Documents/Work/Expenses/2025-09_Chicago`` (relative to the home)."""
    return EXPENSES_DIR / safe_filename(f"{trip.depart:%Y-%m}_{trip.destination}", fallback=f"{trip.depart:%Y-%m}")


def report_stem(world: World, trip: BusinessTrip) -> str:
    """``Expense_Report_Chicago_2025-09`` (the report's file name without suffix)."""
    return safe_filename(
        words(world)["report_file"].format(city=trip.destination, month=f"{trip.depart:%Y-%m}"), fallback="Expenses"
    )


def folio_for(world: World, home: Path, charge: Charge) -> Path | None:
    """The hotel folio already in ``home/Downloads`` for a ``hotel_checkout`` charge, or None."""
    if charge.kind != "hotel_checkout":
        return None
    from builder.files.travel_docs import folio_filename

    try:
        path = Path(home) / DOWNLOADS_DIR / folio_filename(world, charge.data)
    except KeyError:
        return None
    return path if path.is_file() else None


def _card(world: World, account: str) -> dict | None:
    cards = payment_cards(world)
    return next((c for c in cards if c["account"] == account), cards[0] if cards else None)


def receipt_name(world: World, charge: Charge) -> str:
    """``Receipt_2025-09-18_0941_Chicago-Coffee-Exchange.pdf`` (de ``Beleg_...``)."""
    stem = words(world)["receipt_file"].format(
        date=f"{charge.when:%Y-%m-%d}", time=f"{charge.when:%H%M}", merchant=charge.merchant
    )
    return safe_filename(stem, fallback="Receipt") + ".pdf"


def _receipt_lines(world: World, charge: Charge, fmt: Fmt, w: dict) -> tuple[str, list[tuple[str, str]]]:
    """The receipt's title and its (label, amount or text) lines."""
    d = charge.data
    if charge.kind == "ride":
        fare, tip = int(d.get("fare_cents", charge.cents)), int(d.get("tip_cents", 0))
        miles = d.get("distance_miles") or 0
        dist = w["distance"].format(
            miles=miles, km=f"{float(miles) * 1.609344:.1f}".replace(".", ","), minutes=d.get("duration_minutes", "")
        )
        lines = [
            (w["pickup"], _short_place(d.get("pickup"))),
            (w["dropoff"], _short_place(d.get("dropoff"))),
            ("", dist),
            (w["driver"], f"{d.get('driver', '')} · {d.get('vehicle', '')}"),
            (w["ride_fare"], fmt.money(fare)),
        ]
        if tip:
            lines.append((w["ride_tip"], fmt.money(tip)))
        return w["ride_receipt"], lines
    if charge.kind == "flight_booking":
        fare = int(d.get("fare_per_passenger_cents", 0))
        lines = [(w["booking"], d.get("pnr", "")), (w["flights"], ", ".join(d.get("flights", [])))]
        tickets = d.get("ticket_numbers") or []
        for n, name in enumerate(d.get("passengers") or []):
            lines.append((f"{w['passenger']} {n + 1}", name))
            if n < len(tickets):
                lines.append((w["ticket"], tickets[n]))
            lines.append((w["fare"].format(fare_class=d.get("fare_class", "")), fmt.money(fare)))
        return w["ticket_receipt"], lines
    if charge.kind == "hotel_checkout":
        from builder.files.travel_docs import room_label

        lines = [
            ("", w["nights"].format(n=d.get("nights", ""), room=room_label(world, d.get("room") or ""))),
            (f"{d.get('check_in', '')} – {d.get('check_out', '')}", ""),
        ]
        return w["hotel_receipt"], lines
    lines = [(w["sale"], fmt.money(charge.cents))]
    if charge.foreign:
        lines = [
            (w["sale"], charge.foreign),
            (
                "",
                w["foreign"].format(
                    amount=charge.foreign.split()[0], currency=charge.foreign.split()[-1], rate=d.get("fx_rate", "")
                ),
            ),
        ]
    return w["receipt_title"], lines


def _winansi(text: str) -> bool:
    """Whether the PDF base fonts (WinAnsi encoding) can set ``text`` (no controls, every character cp1252)."""
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return all(ch >= " " for ch in text)


def write_receipt(world: World, charge: Charge, dest: Path) -> Path:
    """Write a card receipt (a slip 80 mm wide) for ``charge`` to ``dest``: the merchant, where and when (the
    place's wall time), the lines of the sale, the total in the persona's currency, the card (masked) and an
    approval code (stream ``work_docs/receipt/<event id>``)."""
    register()
    fmt = Fmt(world.persona)
    w = words(world)
    _epoch(world, charge.when)
    title, lines = _receipt_lines(world, charge, fmt, w)
    card = _card(world, charge.account)
    r = rng(world.seed, f"work_docs/receipt/{charge.event_id}")
    auth = "".join(r.choice("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(6))
    terminal = f"{r.randint(10000000, 99999999)}"
    place = charge.city or ""
    if charge.kind == "hotel_checkout":
        place = charge.data.get("address") or place
    texts = [
        charge.merchant,
        place,
        title,
        w["total_line"],
        w["card"],
        w["auth"],
        w["approved"],
        w["thanks"],
        fmt.money(charge.cents),
        fmt.numeric_date(charge.when),
        fmt.time(charge.when),
        card["label"] if card else "",
        *[x for line in lines for x in line],
    ]
    # The PDF base fonts (not embedded) when they can set every text, else DejaVu embedded (pdftext).
    base = all(_winansi(t) for t in texts)
    regular, bold_face = ("Helvetica", "Helvetica-Bold") if base else (FONT, FONT_BOLD)
    width = 80 * mm
    height = (78 + 7 * len(lines)) * mm
    c = pdfcanvas.Canvas(str(dest), pagesize=(width, height), invariant=1, initialFontName=regular)
    c.setTitle(meta_text(f"{title} {charge.merchant}"))
    c.setAuthor(meta_text(charge.merchant))
    c.setCreator(meta_text(charge.merchant))

    def text(x, y, s, size=8, bold=False, color=INK, align=0, w_=width - 12 * mm):
        style = ParagraphStyle(
            "p",
            fontName=bold_face if bold else regular,
            fontSize=size,
            leading=size * 1.25,
            textColor=color,
            alignment=align,
        )
        p = Paragraph(xml_escape(s) if base else para_text(s, bold=bold), style)
        _, h = p.wrap(w_, 200)
        left = x if align == 0 else x - w_ / 2 if align == 1 else x - w_
        p.drawOn(c, left, y - h)
        return h

    y = height - 8 * mm
    y -= text(width / 2, y, charge.merchant, 11, True, align=1) + 1.5 * mm
    if place:
        y -= text(width / 2, y, place, 7.5, color=MUTED, align=1) + 1 * mm
    y -= (
        text(width / 2, y, f"{fmt.numeric_date(charge.when)} {fmt.time(charge.when)}", 7.5, color=MUTED, align=1)
        + 3 * mm
    )
    y -= text(width / 2, y, title.upper(), 8.5, True, align=1) + 2.5 * mm
    c.setStrokeColor(MUTED)
    c.setDash(1, 2)
    c.line(6 * mm, y, width - 6 * mm, y)
    y -= 3 * mm
    for label, value in lines:
        h1 = text(6 * mm, y, label, 7.5, w_=width * 0.45) if label else 0
        if label:
            h2 = text(width - 6 * mm, y, value, 7.5, align=2, w_=width * 0.5) if value else 0
        else:
            h2 = text(6 * mm, y, value, 7, color=MUTED) if value else 0
        y -= max(h1, h2, 3 * mm) + 1.5 * mm
    c.line(6 * mm, y, width - 6 * mm, y)
    y -= 3 * mm
    text(6 * mm, y, w["total_line"].upper(), 9.5, True, w_=width * 0.45)
    y -= text(width - 6 * mm, y, fmt.money(charge.cents), 9.5, True, align=2, w_=width * 0.5) + 3 * mm
    if card:
        y -= text(6 * mm, y, f"{w['card']}: {card['label']}", 7.5) + 1 * mm
    y -= text(6 * mm, y, f"{w['auth']}: {auth} · TID {terminal} · {w['approved'].upper()}", 7, color=MUTED) + 4 * mm
    text(width / 2, y, w["thanks"], 7.5, color=MUTED, align=1)
    c.showPage()
    c.save()
    return dest


def expense_sheet(world: World, trip: BusinessTrip, receipts: dict[str, str], when: dt.datetime) -> Sheet:
    """The report of ``trip`` as a :class:`Sheet`: header, summary by category (each a reference to its
    subtotal), the grand total (``SUM`` of the summary) and the itemised charges by category with ``SUM``
    subtotals. ``receipts`` maps a charge's event id to the receipt the row names."""
    fmt = Fmt(world.persona)
    w = words(world)
    p = world.persona
    sheet = Sheet(
        name=w["report_sheet"],
        title=w["report_title"].format(city=trip.destination),
        author=p.identity.name,
        currency=fmt.currency,
        locale=p.bank,
        timezone=p.timezone or "UTC",
        widths=[16, 62, 24, 14, 18, 14, 52],
    )
    card = _card(world, trip.charges[0].account)
    sheet.add(Cell(w["report_title"].format(city=trip.destination), style="title"))
    sheet.add()
    sheet.add(Cell(w["employee"], style="bold"), Cell(p.identity.name))
    if p.work and p.work.employer:
        sheet.add(Cell(w["employer"], style="bold"), Cell(p.work.employer))
    if p.work and p.work.role:
        sheet.add(Cell(w["role"], style="bold"), Cell(p.work.role))
    sheet.add(Cell(w["purpose"], style="bold"), Cell(w["purpose_text"].format(city=trip.destination)))
    dates = f"{fmt.numeric_date(trip.depart)} – {fmt.numeric_date(trip.return_)}"
    sheet.add(Cell(w["dates"], style="bold"), Cell(dates))
    if card:
        sheet.add(Cell(w["paid_with"], style="bold"), Cell(card["label"]))
    sheet.add(Cell(w["currency"], style="bold"), Cell(fmt.currency))
    sheet.add(Cell(w["prepared"], style="bold"), Cell(when.date(), style="date"))
    sheet.add()
    by_cat = {k: [c for c in trip.charges if c.category == k] for k in CATEGORY_ORDER}
    cats = [k for k in CATEGORY_ORDER if by_cat[k]]
    sheet.add(None, Cell(w["summary"], style="head"), Cell(w["amount"], style="head"))
    summary_rows = {}
    for k in cats:
        summary_rows[k] = sheet.add(None, Cell(w["categories"][k]), None)  # the reference is filled in below
    total = trip.total_cents
    total_row = sheet.add(
        None,
        Cell(w["total"], style="bold"),
        Cell(_units(total), f"=SUM(C{summary_rows[cats[0]]}:C{summary_rows[cats[-1]]})", "money_bold"),
    )
    sheet.add()
    sheet.add(
        *(
            Cell(h, style="head")
            for h in (w["date"], w["description"], w["category"], w["city"], w["original"], w["amount"], w["receipt"])
        )
    )
    for k in cats:
        first = len(sheet.rows) + 1
        for ch in by_cat[k]:
            sheet.add(
                Cell(ch.when.date(), style="date"),
                Cell(ch.description),
                Cell(w["categories"][k]),
                Cell(ch.city or None),
                Cell(ch.foreign),
                Cell(_units(ch.cents), style="money"),
                Cell(receipts.get(ch.event_id) or w["card_statement"]),
            )
        last = len(sheet.rows)
        sub = sum(ch.cents for ch in by_cat[k])
        row = sheet.add(
            None,
            Cell(w["subtotal"].format(category=w["categories"][k]), style="bold"),
            None,
            None,
            None,
            Cell(_units(sub), f"=SUM(F{first}:F{last})", "money_bold"),
        )
        sheet.rows[summary_rows[k] - 1][2] = Cell(_units(sub), f"=F{row}", "money")
    sheet.add()
    sheet.add(
        None, Cell(w["total"], style="bold"), None, None, None, Cell(_units(total), f"=C{total_row}", "money_bold")
    )
    return sheet


def expense_reports(world: World, home: Path) -> list[Path]:
    """Write every past business trip's report (ODS and XLSX) and missing receipts under
    ``home/Documents/Work/Expenses`` (see the module rules); return the files written, in trip order."""
    written = []
    for trip in business_trips(world):
        when = report_time(world, trip)
        if when > world.now:
            continue
        folder = Path(home) / trip_folder(world, trip)
        folder.mkdir(parents=True, exist_ok=True)
        receipts: dict[str, str] = {}
        todo = []
        for ch in trip.charges:
            if ch.kind == "card_fee":
                continue
            folio = folio_for(world, home, ch)
            if folio is not None:
                receipts[ch.event_id] = f"~/{DOWNLOADS_DIR / folio.name}"
                continue
            name = receipt_name(world, ch)
            receipts[ch.event_id] = name
            todo.append((ch, folder / name))
        for n, (ch, dest) in enumerate(todo):
            write_receipt(world, ch, dest)
            # Saved while putting the report together, a minute or two apart, before the report.
            set_mtime(world, dest, when - dt.timedelta(minutes=2 * (len(todo) - n) + 5))
            written.append(dest)
        sheet = expense_sheet(world, trip, receipts, when)
        stem = report_stem(world, trip)
        ods = write_ods(sheet, folder / f"{stem}.ods", when)
        set_mtime(world, ods, when)
        xlsx_at = when + dt.timedelta(minutes=3)
        xlsx = write_xlsx(sheet, folder / f"{stem}.xlsx", xlsx_at)
        set_mtime(world, xlsx, xlsx_at)
        written += [ods, xlsx]
    return written


# ------------------------------------------------------------------------------------------ the budget

INCOME_KINDS = {"paycheck": "income", "interest": "interest", "p2p_received": "p2p_in"}


def _month_start(d: dt.date) -> dt.date:
    return d.replace(day=1)


def _next_month(d: dt.date) -> dt.date:
    return (d.replace(day=28) + dt.timedelta(days=4)).replace(day=1)


def budget_months(world: World) -> tuple[list[dt.date], list[dt.date]]:
    """(shown, base): the first days of the last :data:`BUDGET_MONTHS` complete months before now's month
    that lie wholly in the history, and of up to as many months before them (the budget's base; the shown
    months themselves when the history has none)."""
    first = _month_start(world.start.date())
    if world.start.date() != first or world.start.time() != dt.time(0):
        first = _next_month(first)
    months = []
    m = first
    while _next_month(m) <= world.now.date().replace(day=1):
        months.append(m)
        m = _next_month(m)
    shown = months[-BUDGET_MONTHS:]
    base = months[-2 * BUDGET_MONTHS : -BUDGET_MONTHS] if len(months) > BUDGET_MONTHS else list(shown)
    return shown, base


def monthly_flows(world: World) -> tuple[dict[str, dict[dt.date, int]], dict[str, dict[dt.date, int]]]:
    """(income, spending): cents per row key per month start from the posted ledger. Income rows: salary
    (``paycheck``), ``interest``, money received from friends (``p2p_in``) and any other category whose
    ledger total is positive; spending rows: every other category, refunds netted. Own transfers and card
    payments (category ``transfer``) are neither."""
    totals: dict[str, int] = {}
    for p in world.postings():
        if p.category != "transfer" and p.kind not in INCOME_KINDS:
            totals[p.category] = totals.get(p.category, 0) + p.amount_cents
    income: dict[str, dict[dt.date, int]] = {}
    spending: dict[str, dict[dt.date, int]] = {}
    for p in world.postings():
        if p.category == "transfer" or p.amount_cents == 0:
            continue
        month = _month_start(p.at.date())
        key = INCOME_KINDS.get(p.kind)
        if key is None and p.category in ("income", "interest"):
            key = p.category
        if key is None and totals.get(p.category, 0) > 0:
            key = p.category
        if key is not None:
            row = income.setdefault(key, {})
            row[month] = row.get(month, 0) + p.amount_cents
        else:
            row = spending.setdefault(p.category, {})
            row[month] = row.get(month, 0) - p.amount_cents
    return income, spending


def budget_amount(avg_cents: int) -> int:
    """A budget a person would set from an average: rounded up to 25 currency units (5 below 100), in cents."""
    step = 2500 if avg_cents >= 10000 else 500
    return max(0, -(-avg_cents // step) * step)


def _label(table: dict, key: str) -> str:
    return table.get(key) or key.replace("_", " ").capitalize()


def budget_sheet(world: World, when: dt.datetime) -> Sheet | None:
    """The budget as a :class:`Sheet` (None without a complete month of history)."""
    shown, base = budget_months(world)
    if not shown:
        return None
    fmt = Fmt(world.persona)
    w = words(world)
    p = world.persona
    income, spending = monthly_flows(world)
    title = w["budget_title"].format(first=fmt.month(shown[0]), last=fmt.month(shown[-1]))
    n = len(shown)
    sheet = Sheet(
        name=w["budget_sheet"],
        title=title,
        author=p.identity.name,
        currency=fmt.currency,
        locale=p.bank,
        timezone=p.timezone or "UTC",
        widths=[26] + [18] * n + [22, 14, 18],
    )
    avg_col, bud_col = n + 2, n + 3
    from builder.files.sheets import col

    first_c, last_c = col(2), col(n + 1)
    sheet.add(Cell(title, style="title"))
    sheet.add(Cell(w["budget_note"].format(first=fmt.month(base[0]), last=fmt.month(base[-1])), style="note"))
    sheet.add()
    month_names = [fmt.month(m) for m in shown]

    def rows(section: str, table: dict, keys: list[str], with_budget: bool) -> tuple[int, int, list[int]]:
        heads = [w[section]] + month_names + [w["average"]] + ([w["budget"], w["vs_budget"]] if with_budget else [])
        sheet.add(*(Cell(h, style="head") for h in heads))
        start = len(sheet.rows) + 1
        sums = [0] * n
        avgs = []
        for key in keys:
            vals = [table[key].get(m, 0) for m in shown]
            sums = [a + b for a, b in zip(sums, vals)]
            r = len(sheet.rows) + 1
            avg = Decimal(sum(vals)) / n / 100
            cells = [Cell(_label(w["income_rows" if section == "income" else "spending_rows"], key))]
            cells += [Cell(_units(v), style="money") for v in vals]
            cells.append(Cell(avg.quantize(Decimal("0.01")), f"=AVERAGE({first_c}{r}:{last_c}{r})", "money"))
            if with_budget:
                base_avg = sum(table[key].get(m, 0) for m in base) // len(base)
                bud = budget_amount(base_avg)
                cells.append(Cell(_units(bud), style="money"))
                cells.append(
                    Cell(
                        (_units(bud) - avg).quantize(Decimal("0.01")), f"={col(bud_col)}{r}-{col(avg_col)}{r}", "money"
                    )
                )
            sheet.add(*cells)
            avgs.append(r)
        end = len(sheet.rows)
        return start, end, sums

    def present(table):
        return [k for k in table if any(table[k].get(m, 0) for m in shown + base)]

    inc_keys = sorted(
        present(income), key=lambda k: (list(w["income_rows"]).index(k) if k in w["income_rows"] else 99, k)
    )
    sp_keys = sorted(
        present(spending), key=lambda k: (list(w["spending_rows"]).index(k) if k in w["spending_rows"] else 99, k)
    )
    i0, i1, inc_sums = rows("income", income, inc_keys, False)
    inc_total = len(sheet.rows) + 1
    if inc_keys:
        inc_avg = sum((sheet.rows[r - 1][avg_col - 1].value for r in range(i0, i1 + 1)), Decimal(0))
        sheet.add(
            Cell(w["total_income"], style="bold"),
            *(
                Cell(_units(s), f"=SUM({col(c + 2)}{i0}:{col(c + 2)}{i1})", "money_bold")
                for c, s in enumerate(inc_sums)
            ),
            Cell(inc_avg, f"=SUM({col(avg_col)}{i0}:{col(avg_col)}{i1})", "money_bold"),
        )
    else:
        sheet.add(Cell(w["total_income"], style="bold"), *(Cell(_units(0), style="money_bold") for _ in shown))
    sheet.add()
    s0, s1, sp_sums = rows("spending", spending, sp_keys, True)
    sp_total = len(sheet.rows) + 1
    if sp_keys:
        cells = [
            Cell(_units(s), f"=SUM({col(c + 2)}{s0}:{col(c + 2)}{s1})", "money_bold") for c, s in enumerate(sp_sums)
        ]
        avg_sum = sum((sheet.rows[r - 1][avg_col - 1].value for r in range(s0, s1 + 1)), Decimal(0))
        bud_sum = sum((sheet.rows[r - 1][bud_col - 1].value for r in range(s0, s1 + 1)), Decimal(0))
        cells += [
            Cell(avg_sum, f"=SUM({col(avg_col)}{s0}:{col(avg_col)}{s1})", "money_bold"),
            Cell(bud_sum, f"=SUM({col(bud_col)}{s0}:{col(bud_col)}{s1})", "money_bold"),
            Cell(bud_sum - avg_sum, f"={col(bud_col)}{sp_total}-{col(avg_col)}{sp_total}", "money_bold"),
        ]
        sheet.add(Cell(w["total_spending"], style="bold"), *cells)
    else:
        sheet.add(Cell(w["total_spending"], style="bold"), *(Cell(_units(0), style="money_bold") for _ in shown))
    sheet.add()
    sheet.add(
        Cell(w["net"], style="bold"),
        *(
            Cell(_units(a - b), f"={col(c + 2)}{inc_total}-{col(c + 2)}{sp_total}", "money_bold")
            for c, (a, b) in enumerate(zip(inc_sums, sp_sums))
        ),
    )
    return sheet


def budget_time(world: World) -> dt.datetime:
    """When the budget was last saved: the first Sunday after the last shown month closed, 19:00-21:59
    (stream ``work_docs/budget``), never after now."""
    shown, _ = budget_months(world)
    day = _next_month(shown[-1]) if shown else world.now.date()
    while day.weekday() != 6:
        day += dt.timedelta(days=1)
    r = rng(world.seed, "work_docs/budget")
    at = dt.datetime.combine(day, dt.time(19, 0)) + dt.timedelta(minutes=r.randint(0, 179))
    return min(at, world.now - dt.timedelta(hours=1))


def budget(world: World, home: Path) -> list[Path]:
    """Write ``home/Documents/Personal/Budget_<YYYY>.ods`` (see the module rules); return ``[path]`` or
    ``[]`` when the history holds no complete month."""
    when = budget_time(world)
    sheet = budget_sheet(world, when)
    if sheet is None:
        return []
    shown, _ = budget_months(world)
    folder = Path(home) / PERSONAL_DIR
    folder.mkdir(parents=True, exist_ok=True)
    name = safe_filename(words(world)["budget_file"].format(year=shown[-1].year), fallback="Budget") + ".ods"
    path = write_ods(sheet, folder / name, when)
    set_mtime(world, path, when)
    return [path]


def work_docs(world: World, home: Path) -> list[Path]:
    """Write the expense reports with their receipts and the budget into ``home``; return the files, sorted."""
    return sorted([*expense_reports(world, home), *budget(world, home)])
