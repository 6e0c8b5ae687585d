"""What other apps' pages show, read as the persona reads them signed in: the readers of the scenarios homed in
Parley, Mailbox and Daybook (``scenarios/*/messaging.py``, ``mail.py``, ``calendar.py``) check their answers in the
bank's ledger, Meridian Air's trips, TableTime's reservations and the other apps' histories through these.

Every function takes a :class:`builder.tasks.reader.See` and reads pages only (never the world or a database);
each raises :class:`builder.tasks.reader.Unreadable` when a page lacks what it looks for. Not a scenario module
(it declares no ``SCENARIOS``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from builder.tasks.reader import See, Unreadable, parse_money, visible_text
from builder.tasks.dates import day_in


def pages(see: See, app: str, path: str, params: dict | None = None, limit: int = 400) -> Iterator:
    """``path``'s page, then each page its ``rel="next"`` link leads to (a list's later pages), at most ``limit``."""
    params = dict(params or {})
    for _ in range(limit):
        page = see.page(app, path, params)
        yield page
        nxt = page.xpath('//a[@rel="next"]/@href')
        if not nxt:
            return
        href = nxt[0]
        path, _, query = href.partition("?")
        params = dict(kv.split("=", 1) for kv in query.split("&") if "=" in kv) if query else {}
        params = {k: requests_unquote(v) for k, v in params.items()}
    raise Unreadable(f"{app}{path}: more than {limit} pages")


def requests_unquote(v: str) -> str:
    """A query value as typed (``+`` a space, ``%xx`` its character)."""
    from urllib.parse import unquote_plus

    return unquote_plus(v)


# --- the bank ----------------------------------------------------------------------------------------------


def bank_accounts(see: See) -> list[dict]:
    """The accounts ``/accounts`` lists: each ``{path, name}`` (``/accounts/<id>``), in the page's order."""
    page = see.page("bank", "/accounts")
    out, seen = [], set()
    for a in page.xpath('//a[starts-with(@href, "/accounts/")]'):
        href = a.get("href")
        if href in seen or not re.fullmatch(r"/accounts/\d+", href):
            continue
        seen.add(href)
        out.append({"path": href, "name": visible_text(a)})
    return out


def bank_rows(see: See, q: str = "", since: dt.date | None = None, until: dt.date | None = None) -> list[dict]:
    """The posted transactions of every account matching the search ``q`` (description, payee or memo) between
    ``since`` and ``until`` (the ledger's own From/To filter), newest first per account: each ``{account, day,
    description, memo, category, cents}`` (``cents`` signed: money in positive)."""
    out = []
    params = {
        k: v for k, v in {"q": q, "from": since and since.isoformat(), "to": until and until.isoformat()}.items() if v
    }
    for acc in bank_accounts(see):
        for page in pages(see, "bank", acc["path"], params):
            for tr in page.xpath('//tr[@data-testid="txn-row"]'):
                cells = tr.xpath("./td")
                desc = tr.xpath('.//div[@class="lb-desc"]')
                subs = [visible_text(s) for s in tr.xpath('.//div[@class="lb-desc-sub"]')]
                memo = next((s.split(":", 1)[1].strip() for s in subs if s.startswith("Memo:")), "")
                out.append(
                    {
                        "account": acc["name"],
                        "day": day_in(visible_text(cells[0])),
                        "description": visible_text(desc[0]) if desc else visible_text(cells[1]),
                        "memo": memo,
                        "category": visible_text(cells[2]) if len(cells) > 2 else "",
                        "cents": int(tr.get("data-amount-cents")),
                    }
                )
    return out


def p2p_with(see: See, name: str) -> list[dict]:
    """The person-to-person payments (category "Person to person") between the persona and ``name``, newest
    first: the bank's rows whose description names them (``ZELLE TO DANA ...``, ``FASTER PAYMENT FROM ...``,
    ``ÜBERWEISUNG AN ...``), each with ``direction`` ``sent`` (money out) or ``received``."""
    rows = [
        r
        for r in bank_rows(see, q=name)
        if r["category"] == "Person to person" and name.upper() in r["description"].upper()
    ]
    for r in rows:
        r["direction"] = "sent" if r["cents"] < 0 else "received"
    return sorted(rows, key=lambda r: r["day"], reverse=True)


# --- Meridian Air ---------------------------------------------------------------------------------------------


def airline_trips(see: See, tab: str = "upcoming") -> list[str]:
    """The confirmation codes My Trips lists under ``tab`` (``upcoming``, ``past``, ``cancelled``)."""
    page = see.page("airline", "/", {"tab": tab})
    return [li.get("data-pnr") for li in page.xpath('//li[@data-testid="trip"]')]


def airline_trip(see: See, pnr: str) -> dict:
    """A trip's page: ``{pnr, title, status, travellers, journeys: {"outbound"|"return": [segment]}, total}``, each
    segment ``{flight, origin, destination, dep_day, dep_time, arr_day, arr_time}`` as the page shows them (local
    to each airport: the day a date, the time its text such as ``3:55 PM PST``)."""
    page = see.page("airline", f"/trips/{pnr}")
    title = page.xpath("//main//h1") or page.xpath("//h1")
    status = page.xpath('//*[@data-testid="status"]')
    journeys: dict[str, list[dict]] = {}
    for sec in page.xpath('//section[starts-with(@data-testid, "journey-")]'):
        direction = sec.get("data-testid").removeprefix("journey-")
        segs = []
        for seg in sec.xpath('.//div[@data-testid="segment"]'):
            ends = seg.xpath('./div[@class="ma-flight-end"]')
            if len(ends) != 2:
                raise Unreadable(f"trip {pnr}: a flight without both ends")

            def end(node) -> tuple[str, dt.date, str]:
                code = visible_text(node.xpath('./span[@class="ma-code"]')[0])
                time = visible_text(node.xpath('./span[@class="ma-time"]')[0])
                day = day_in(visible_text(node.xpath('./span[@class="ma-muted"]')[0]))
                return code, day, time

            (o, od, ot), (d, ad, at) = end(ends[0]), end(ends[1])
            segs.append(
                {
                    "flight": seg.get("data-flight"),
                    "origin": o,
                    "destination": d,
                    "dep_day": od,
                    "dep_time": ot,
                    "arr_day": ad,
                    "arr_time": at,
                }
            )
        journeys[direction] = segs
    total = page.xpath('//*[@data-testid="total"]')
    return {
        "pnr": pnr,
        "title": visible_text(title[0]) if title else "",
        "status": visible_text(status[0]) if status else "",
        "travellers": [visible_text(tr.xpath("./td")[0]) for tr in page.xpath('//tr[@data-testid="passenger"]')],
        "journeys": journeys,
        "total": parse_money(visible_text(total[0])) if total else None,
        "notices": [visible_text(n) for n in page.xpath('//*[@data-testid="schedule-change"]')],
    }


# --- TableTime ------------------------------------------------------------------------------------------------


def dining_reservations(see: See, tab: str = "upcoming") -> list[dict]:
    """The reservations of one tab of TableTime's ``/reservations`` (``upcoming``, ``past``, ``cancelled``), as
    listed: each ``{confirmation, day (date), time (time), party, name}``."""
    page = see.page("dining", "/reservations", {} if tab == "upcoming" else {"tab": tab})
    out = []
    for li in page.xpath('//li[@data-testid="reservation"]'):
        name = li.xpath(".//strong")
        out.append(
            {
                "confirmation": li.get("data-confirmation"),
                "day": dt.date.fromisoformat(li.get("data-day")),
                "time": dt.time.fromisoformat(li.get("data-time")),
                "party": int(li.get("data-party")),
                "name": visible_text(name[0]) if name else "",
            }
        )
    return out


# --- Huddle ---------------------------------------------------------------------------------------------------


def huddle_sidebar(see: See) -> list[dict]:
    """Huddle's channels and direct messages as the sidebar lists them: each ``{name (the path's), label, dm,
    unread (bold), badge (the number on it, 0 without)}``."""
    page = see.page("workchat", "/c/general")
    out = []
    for group, dm in (("channel-list", False), ("dm-list", True)):
        for a in page.xpath(f'//*[@data-testid="{group}"]//a[starts-with(@data-testid, "channel-")]'):
            badge = a.xpath('.//*[@data-testid="badge"]')
            label = a.xpath('.//span[@class="hd-side-label"]')
            out.append(
                {
                    "name": a.get("href").rsplit("/c/", 1)[1],
                    "label": visible_text(label[0]) if label else "",
                    "dm": dm,
                    "unread": a.get("data-unread") == "true",
                    "badge": int(visible_text(badge[0])) if badge else 0,
                }
            )
    return out


def _huddle_items(nodes) -> list[dict]:
    """Messages of a Huddle page, in order: ``{id, sender, at}`` (a message shown without its date, continuing the
    one before, takes that one's day and its own clock)."""
    from builder.tasks.dates import clocks

    out, last = [], None
    for m in nodes:
        when = m.xpath(".//time/@datetime")
        if when:
            at = dt.datetime.fromisoformat(when[0])
        else:
            hover = m.xpath('.//span[@class="hd-msg-hover-time"]')
            cl = clocks(visible_text(hover[0])) if hover else []
            day = m.xpath("ancestor::section[@data-day]/@data-day")
            base = dt.date.fromisoformat(day[0]) if day else (last.date() if last else None)
            at = dt.datetime.combine(base, cl[0][1]) if base and cl else last
        out.append({"id": m.get("data-id"), "sender": m.get("data-sender"), "at": at})
        last = at
    return out


def huddle_recent(see: See, channel: str, since: dt.datetime) -> list[dict]:
    """The messages of a Huddle channel delivered since ``since``, thread replies included (each thread whose
    summary shows a reply since then is opened): ``{id, sender, at, thread}``."""
    page = see.page("workchat", f"/c/{channel}")
    roots = page.xpath('//*[@data-testid="messages"]//*[@data-testid="message"]')
    out = [{**m, "thread": None} for m in _huddle_items(roots) if m["at"] and m["at"] >= since]
    for node in roots:
        summary = node.xpath('.//*[@data-testid="thread-summary"]')
        if not summary:
            continue
        href = summary[0].get("href") or ""
        root = re.search(r"thread=(\d+)", href)
        if not root:
            continue
        panel = see.page("workchat", f"/c/{channel}", {"thread": root.group(1)})
        replies = panel.xpath('//*[@data-testid="thread-panel"]//*[@data-testid="message"]')[1:]
        out += [{**m, "thread": root.group(1)} for m in _huddle_items(replies) if m["at"] and m["at"] >= since]
    return out


# --- the order and trip histories (Shopwell, Basketful, DashBite, ZipRide, Bramblestay) ---------------------------


def shop_orders(see: See) -> list[dict]:
    """Shopwell's orders (every page of ``/orders``): each ``{order, placed (date), state, status}`` (``state`` the
    tracking state the row carries: ordered, shipped, delivered...; ``status`` its words, "Arriving Thu, Nov 19")."""
    out = []
    for page in pages(see, "shop", "/orders"):
        for a in page.xpath('//article[@data-testid="order"]'):
            head = a.xpath('.//div[@class="sw-order-head"]/div[1]/b')
            status = a.xpath('.//p[contains(@class, "sw-status")]')
            out.append(
                {
                    "order": a.get("data-order"),
                    "placed": day_in(visible_text(head[0])) if head else None,
                    "state": a.get("data-state"),
                    "status": visible_text(status[0]) if status else "",
                }
            )
        if not page.xpath('//a[@data-testid="next-page"]'):
            break
    return out


def shop_orders_in(see: See, year: int) -> int:
    """How many Shopwell orders its year tab says were placed in ``year``."""
    page = see.page("shop", "/orders", {"year": str(year)})
    n = page.xpath('//*[@data-testid="order-count"]/@data-count')
    return int(n[0]) if n else 0


def grocery_orders(see: See) -> list[dict]:
    """Basketful's orders (``/orders``): each ``{order, placed (date), status}``."""
    page = see.page("grocery", "/orders")
    out = []
    for li in page.xpath('//li[@data-testid="order"]'):
        text = visible_text(li)
        placed = re.search(r"(?:placed|bestellt am)\s+([^·]+)", text, re.I)
        status = li.xpath('.//span[starts-with(@class, "bf-status")]')
        out.append(
            {
                "order": li.get("data-id"),
                "placed": day_in(placed.group(1)) if placed else None,
                "status": visible_text(status[0]) if status else "",
            }
        )
    return out


def delivery_orders(see: See) -> list[dict]:
    """DashBite's orders (``/orders``, all months): each ``{order, placed (date), cents}``."""
    page = see.page("delivery", "/orders")
    out = []
    for row in page.xpath('//*[@data-testid="order-row"]'):
        spans = [visible_text(x) for x in row.xpath("./span")]
        placed = next((day_in(t) for t in spans if re.search(r"\d{4}", t)), None)
        cents = row.xpath(".//span[@data-cents]/@data-cents")
        out.append({"order": row.get("data-order-id"), "placed": placed, "cents": int(cents[0]) if cents else None})
    return out


def rides_taken(see: See) -> list[dict]:
    """ZipRide's Activity (every ride taken): each ``{ride, day}``."""
    page = see.page("rides", "/activity")
    out = []
    for li in page.xpath('//li[@data-testid="ride-row"]'):
        out.append({"ride": li.get("data-ride-id"), "day": day_in(visible_text(li))})
    return out


def rides_scheduled(see: See) -> list[dict]:
    """ZipRide's scheduled rides: each ``{ride, text}`` (the row's words, its pickup day and time among them)."""
    page = see.page("rides", "/scheduled")
    return [
        {"ride": li.get("data-testid").removeprefix("scheduled-"), "text": visible_text(li)}
        for li in page.xpath('//li[starts-with(@data-testid, "scheduled-")]')
    ]


def stays(see: See, tab: str) -> list[dict]:
    """Bramblestay's trips under ``tab`` (upcoming, past, cancelled...): each ``{confirmation, city, check_in,
    check_out}`` (dates)."""
    page = see.page("stays", "/trips", {"tab": tab})
    return [
        {
            "confirmation": a.get("data-confirmation"),
            "city": a.get("data-city"),
            "check_in": dt.date.fromisoformat(a.get("data-check-in")),
            "check_out": dt.date.fromisoformat(a.get("data-check-out")),
        }
        for a in page.xpath('//a[@data-testid="trip"]')
    ]
