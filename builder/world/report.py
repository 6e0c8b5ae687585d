"""Realism measures of a simulated world: how often text repeats, what time people say "good
morning", whether a trip touches daily life, whether money adds up, what loose ends are planted.

Each measure is a plain number so tests can bound it and ``scripts/world-report`` can print it.
The definitions (the tests' bounds rely on them):

* ``chat_repeat_share``: among chat messages of 4+ words, the share whose text (case-folded)
  equals an earlier chat message of the same persona's world; ``work_chat_repeat_share`` the same
  over work chat.
* ``subject_repeat_share``: among mail threads outside an automated series (an email with a
  ``series`` field: statements, pay stubs, newsletters, reminders...), the share whose subject
  (``Re:``/``Fwd:`` stripped, case-folded) equals the subject of an earlier such thread.
* ``thread_self_repeats``: sentences of 4+ words that a sender repeats from their own earlier
  message in the same mail thread (quoted lines excluded).
* ``faker_titles``: web visit and bookmark titles of 3+ words whose words are at least 80% from
  Faker's lorem word lists (English and Latin).
* ``greetings_off_hour``: chat, work chat and mail messages whose greeting does not fit the
  sender's local hour (good morning after noon, good evening before 17:00, ...).
* ``self_named``: chat messages in which a contact names themselves (their own first name as a word).
* ``night_personal_mail``: personal mail (no ``series``, not from a business) sent 00:00-05:59.
* ``night_bookings``: bookings and orders placed 00:00-05:59 local time (a ride's own pickup time abroad;
  airport rides, timed by their flights, are left out).
* ``home_purchases_away``: card purchases at home-city merchants, and deliveries to home, on the
  days strictly between a trip's departure and return.
* ``card_over_limit_days``: days at whose end the credit card owes more than its limit.
* ``carried_months_without_interest``: statement months with a carried card balance and no
  interest charged.
* ``flights_without_checkin_mail``: flight legs departing before ``now`` + 1 day with no check-in mail
  (an email with ``series`` ``checkin`` and that leg's ``flight_id``).
* ``planted``: counts of ``World.planted`` items by kind.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter, defaultdict
from functools import lru_cache
from typing import Any

from .model import World

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?", re.UNICODE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_PREFIX = re.compile(r"^\s*((re|fwd?|aw|wg)\s*:\s*)+", re.IGNORECASE)

# Greeting -> the local hours [lo, hi) it fits (a greeting may also close a message: "good night"); hours past
# 24 are the small hours of the next day (a night owl's "good night" at 01:00).
GREETINGS: dict[str, tuple[int, int]] = {
    "good morning": (4, 12),
    "morning!": (4, 12),
    "guten morgen": (4, 12),
    "moin": (4, 24),
    "good afternoon": (12, 18),  # "Guten Tag" is not counted: written German uses it at any hour
    "good evening": (17, 24),
    "guten abend": (17, 24),
    "good night": (19, 27),
    "gute nacht": (19, 27),
    "night night": (19, 27),
    "sleep well": (20, 27),
    "sleep tight": (20, 27),
    "schlaf gut": (20, 27),
    "schlaf schön": (20, 27),
}
_GREETING_RE = re.compile(r"(?<![\w])(" + "|".join(re.escape(g) for g in GREETINGS) + r")(?![\w])", re.IGNORECASE)
BOOKING_KINDS = (
    "restaurant_booking",
    "food_order",
    "grocery_order",
    "retail_order",
    "flight_booking",
    "hotel_booking",
    "ride",
)


@lru_cache(maxsize=1)
def _lorem_words() -> frozenset[str]:
    from faker.providers.lorem.en_US import Provider as En
    from faker.providers.lorem.la import Provider as La

    return frozenset(w.lower() for w in (*En.word_list, *La.word_list))


def words(text: str) -> list[str]:
    """The words of ``text`` (letters and inner apostrophes), in order."""
    return _WORD.findall(text)


# Words a real headline nearly always has one of and a Faker word salad rarely does.
_FUNCTION_WORDS = frozenset(
    "the a an of to in for and on with how what why when where best your my is are at by "
    "from new vs you i we this that it not or".split()
)


def is_faker_title(title: str) -> bool:
    """True if ``title`` (site suffix after `` - ``, `` | `` or `` : `` dropped) reads as Faker lorem: 3+ words,
    80%+ of them from Faker's lorem lists and none of the function words real headlines are built on."""
    head = re.split(r" [-|:] ", title)[0]
    ws = [w.lower() for w in words(head)]
    if len(ws) < 3 or any(w in _FUNCTION_WORDS for w in ws):
        return False
    lorem = _lorem_words()
    return sum(w in lorem for w in ws) / len(ws) >= 0.8


def _repeat_share(texts: list[str], min_words: int = 4) -> tuple[float, int]:
    seen: set[str] = set()
    total = repeats = 0
    for t in texts:
        if len(words(t)) < min_words:
            continue
        key = " ".join(t.casefold().split())
        total += 1
        repeats += key in seen
        seen.add(key)
    return (repeats / total if total else 0.0), total


def _own_lines(body: str) -> list[str]:
    out = []
    for line in body.splitlines():
        s = line.strip()
        if (
            s.startswith(">")
            or (s.startswith("On ") and s.endswith("wrote:"))
            or (s.startswith("Am ") and "schrieb" in s and s.endswith(":"))
        ):
            continue
        out.append(s)
    return out


def sentences(body: str) -> list[str]:
    """Sentences of 4+ words in the unquoted part of a mail ``body``, case-folded."""
    text = "\n".join(_own_lines(body))
    return [" ".join(s.casefold().split()) for s in _SENTENCE.split(text) if len(words(s)) >= 4]


def greeting_off_hour(text: str, hour: int) -> bool:
    """True if ``text`` holds a greeting (see ``GREETINGS``) that does not fit the local ``hour``."""
    for m in _GREETING_RE.finditer(text):
        lo, hi = GREETINGS[m.group(1).lower()]
        if not (lo <= hour < hi or lo <= hour + 24 < hi):
            return True
    return False


def _local_hour(e) -> int:
    """The hour where the event happens: a ride's ``pickup_local`` (abroad, home-zone night may be local morning)."""
    local = e.data.get("pickup_local")
    return dt.datetime.fromisoformat(local).hour if local else e.at.hour


def _trip_interiors(world: World) -> set[dt.date]:
    travel = world.persona.travel
    days: set[dt.date] = set()
    for t in (travel.trips or []) if travel else []:
        d = t.depart + dt.timedelta(days=1)
        while d < t.return_:
            days.add(d)
            d += dt.timedelta(days=1)
    return days


def _card_days(world: World) -> tuple[int, int]:
    """(days over limit, carried statement months without interest) for the credit card; (0, 0) if none."""
    spec = next((a for a in world.persona.accounts if a.kind == "credit_card"), None)
    if spec is None:
        return 0, 0
    limit = int((spec.credit_limit or 0) * 100)
    by_day: dict[dt.date, int] = defaultdict(int)
    for pst in world.postings("credit_card"):
        by_day[pst.at.date()] += pst.amount_cents
    balance = world.opening_balance_cents("credit_card")
    over = 0
    day = world.start.date()
    month_end_balance: dict[tuple[int, int], int] = {}
    while day <= world.now.date():
        balance += by_day.get(day, 0)
        if limit and -balance > limit:
            over += 1
        month_end_balance[(day.year, day.month)] = balance
        day += dt.timedelta(days=1)
    interest_months = {
        (e.at.year, e.at.month)
        for e in world.events
        if e.status == "done"
        for p in e.postings
        if p.account == "credit_card" and p.kind == "interest"
    }
    # A balance carried: still owed after the month's card payment (owed before it minus what was paid).
    payments: dict[tuple[int, int], int] = defaultdict(int)
    for e in world.of_kind("card_payment"):
        if e.status == "done":
            payments[(e.at.year, e.at.month)] += e.data["amount_cents"]
    carried_without = 0
    for e in world.of_kind("card_payment"):
        if e.status != "done":
            continue
        owed = e.data.get("statement_owed_cents", 0)
        nxt = (e.at.year, e.at.month + 1) if e.at.month < 12 else (e.at.year + 1, 1)
        if (
            owed - e.data["amount_cents"] > 0
            and nxt not in interest_months
            and dt.date(*nxt, 1) <= world.now.date().replace(day=1)
        ):
            carried_without += 1
    return over, carried_without


def measure(world: World) -> dict[str, Any]:
    """The measures named in the module docstring, as a flat dict (floats are shares in 0..1)."""
    p = world.persona
    done = [e for e in world.events if e.status == "done"]
    chat = [e for e in done if e.kind == "chat_message"]
    work = [e for e in done if e.kind == "work_chat_message"]
    mail = [e for e in done if e.kind == "email"]
    out: dict[str, Any] = {}

    out["chat_messages"] = len(chat)
    out["chat_repeat_share"], out["chat_counted"] = _repeat_share([e.data["text"] for e in chat])
    out["work_chat_repeat_share"], _ = _repeat_share([e.data["text"] for e in work])

    threads: dict[str, list] = defaultdict(list)
    for e in mail:
        threads[e.data["thread_id"]].append(e)
    seen: set[str] = set()
    counted = repeated = 0
    self_repeats = 0
    for tid, msgs in sorted(threads.items(), key=lambda kv: (kv[1][0].at, kv[0])):
        root = msgs[0]
        if not root.data.get("series"):
            subj = _PREFIX.sub("", root.data["subject"]).casefold().strip()
            counted += 1
            repeated += subj in seen
            seen.add(subj)
        said: dict[str, set[str]] = defaultdict(set)
        for m in msgs:
            who = m.data["from"]["email"]
            mine = sentences(m.data["body"])
            self_repeats += sum(1 for s in set(mine) if s in said[who])
            said[who].update(mine)
    out["mail_threads"] = counted
    out["subject_repeat_share"] = repeated / counted if counted else 0.0
    out["thread_self_repeats"] = self_repeats

    titles = [e.data.get("title") or "" for e in world.events if e.kind in ("web_visit", "bookmark")]
    out["web_titles"] = len(titles)
    out["faker_titles"] = sum(is_faker_title(t) for t in titles)

    off = 0
    for e in chat + work:
        off += greeting_off_hour(e.data["text"], e.at.hour)
    for e in mail:
        first = "\n".join(_own_lines(e.data["body"])[:3])
        off += greeting_off_hour(first, e.at.hour)
    out["greetings_off_hour"] = off

    self_named = 0
    for e in chat:
        sender = e.data["sender"]
        if sender != "me":
            first_name = sender.split()[0]
            if re.search(rf"(?<!\w){re.escape(first_name)}(?!\w)", e.data["text"]):
                self_named += 1
    out["self_named"] = self_named

    me = {p.identity.email, p.work.email if p.work else None}
    contacts = {c.email for c in p.contacts if c.email} | me
    out["night_personal_mail"] = sum(
        1 for e in mail if not e.data.get("series") and e.data["from"]["email"] in contacts and e.at.hour < 6
    )
    # Airport rides (``trip`` set) follow their flight's hour: a 04:00 ride to a 06:00 departure is no night booking.
    out["night_bookings"] = sum(
        1
        for e in done
        if e.kind in BOOKING_KINDS and _local_hour(e) < 6 and not (e.kind == "ride" and e.data.get("trip") is not None)
    )

    interiors = _trip_interiors(world)
    home = p.identity.address.city if p.identity.address else None
    city_of = {m.id: m.city for m in world.merchants}
    away = 0
    for e in done:
        if e.at.date() not in interiors:
            continue
        if e.kind == "card_purchase" and city_of.get(e.data.get("merchant_id"), e.data.get("city")) == home:
            away += 1
        elif e.kind in ("food_order", "grocery_order"):
            away += 1
    out["home_purchases_away"] = away

    out["card_over_limit_days"], out["carried_months_without_interest"] = _card_days(world)

    checkins = {e.data.get("flight_id") for e in mail if e.data.get("series") == "checkin"}
    horizon = world.now + dt.timedelta(days=1)
    legs = [e for e in world.of_kind("flight") if e.at <= horizon]
    out["flight_legs"] = len(legs)
    out["flights_without_checkin_mail"] = sum(1 for e in legs if e.id not in checkins)

    out["planted"] = dict(sorted(Counter(item["kind"] for item in getattr(world, "planted", [])).items()))
    return out


def chat_sessions(world: World, gap_minutes: int = 30) -> list[list]:
    """Chat messages grouped into sessions: runs in one thread with less than ``gap_minutes`` between messages."""
    by_thread: dict[str, list] = defaultdict(list)
    for e in world.events:
        if e.kind == "chat_message" and e.status == "done":
            by_thread[e.data["thread_id"]].append(e)
    sessions = []
    for tid in sorted(by_thread):
        run: list = []
        for e in by_thread[tid]:
            if run and (e.at - run[-1].at) > dt.timedelta(minutes=gap_minutes):
                sessions.append(run)
                run = []
            run.append(e)
        if run:
            sessions.append(run)
    return sorted(sessions, key=lambda s: (s[0].at, s[0].id))


def samples(world: World, chats: int = 20, threads: int = 10, seed: int = 0) -> str:
    """``chats`` random chat sessions and ``threads`` random personal/work mail threads (no automated series) as
    plain text, drawn from stream ``report/samples`` of ``seed``: the reading the issue asks for."""
    from ..rng import rng

    r = rng(seed, "report/samples")
    out = []
    sessions = chat_sessions(world)
    for s in sorted(r.sample(sessions, min(chats, len(sessions))), key=lambda s: s[0].at):
        out.append(f"--- chat with {s[0].data['contact']}, {s[0].at:%a %Y-%m-%d %H:%M}")
        out += [
            f"  {e.at:%H:%M} {'me' if e.data['sender'] == 'me' else e.data['sender'].split()[0]}: {e.data['text']}"
            for e in s
        ]
    by_thread: dict[str, list] = defaultdict(list)
    for e in world.events:
        if e.kind == "email" and e.status == "done":
            by_thread[e.data["thread_id"]].append(e)
    human = sorted(tid for tid, ms in by_thread.items() if not ms[0].data.get("series"))
    for tid in sorted(r.sample(human, min(threads, len(human))), key=lambda t: by_thread[t][0].at):
        ms = by_thread[tid]
        out.append(f"=== mail thread: {ms[0].data['subject']}")
        for e in ms:
            out.append(
                f"  [{e.at:%a %Y-%m-%d %H:%M}] {e.data['from']['name']} -> "
                f"{', '.join(x['name'] for x in e.data['to'])}: {e.data['subject']}"
            )
            out += [f"    {line}" for line in _own_lines(e.data["body"]) if line]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    """Print the measures of each persona file in ``argv`` (default: every persona in ``personas/``) as a table;
    with ``--samples`` print the first persona's sample chat sessions and mail threads instead."""
    import sys
    from pathlib import Path

    from rich.console import Console
    from rich.table import Table

    from ..persona import complete, load
    from .simulate import simulate

    args = sys.argv[1:] if argv is None else argv
    if "--samples" in args:
        args = [a for a in args if a != "--samples"]
        path = Path(args[0]) if args else Path("personas/dana-whitfield.json")
        print(samples(simulate(complete(load(path)))))
        return
    paths = [Path(a) for a in args] or sorted(
        p for p in Path("personas").glob("*.json") if p.name != "persona.schema.json"
    )
    rows = {}
    for path in paths:
        rows[path.stem] = measure(simulate(complete(load(path))))
    table = Table(title="World realism (builder/world/report.py)")
    table.add_column("measure")
    for name in rows:
        table.add_column(name, justify="right")
    for key in next(iter(rows.values()), {}):
        cells = []
        for m in rows.values():
            v = m[key]
            cells.append(
                f"{v:.1%}"
                if isinstance(v, float)
                else (", ".join(f"{k} {n}" for k, n in v.items()) or "-")
                if isinstance(v, dict)
                else str(v)
            )
        table.add_row(key, *cells)
    # Wide enough for every persona's full name, whatever the terminal (or a pipe) says.
    Console(width=max(100, 36 + 20 * len(rows))).print(table)


if __name__ == "__main__":
    main()
