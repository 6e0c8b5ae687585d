"""Independent readers of Parley's own answer tasks (:mod:`builder.tasks.reader`), and the helpers the scenarios
homed in Parley read its pages with: the conversation list and every message of a conversation, as the persona
sees them signed in (``/`` and ``/c/<id>``, each message's ``<time datetime>`` its local delivery time); never
the world or the database."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter

from builder.tasks.reader import Reading, See, Unreadable, reader, visible_text
from builder.tasks.dates import clock_text, clocks

APP = "messaging"


def conversations(see: See) -> list[dict]:
    """The conversation list (the left pane of ``/``), newest first: each ``{id, name, kind ("direct" |
    "group"), unread}``."""
    page = see.page(APP, "/")
    return [
        {
            "id": int(a.get("data-id")),
            "name": a.get("data-name"),
            "kind": a.get("data-kind"),
            "unread": int(a.get("data-unread") or 0),
        }
        for a in page.xpath('//a[@data-testid="conversation"]')
    ]


def direct(see: See, contact: str) -> dict:
    """The one-to-one conversation with ``contact`` (a full name as the list shows it). Raises
    :class:`Unreadable` when Parley has none."""
    for c in conversations(see):
        if c["kind"] == "direct" and c["name"] == contact:
            return c
    raise Unreadable(f"Parley has no one-to-one chat with {contact!r}")


def thread(see: See, conversation: int) -> list[dict]:
    """Every delivered message of a conversation, oldest first, following "Show earlier messages" back to the
    start: each ``{id, mine, sender, at (naive local datetime), text}``; ``sender`` is ``"me"`` for the persona's
    own, the contact's name in a one-to-one chat, the name over the run of messages in a group."""
    conv = next((c for c in conversations(see) if c["id"] == conversation), None)
    if conv is None:
        raise Unreadable(f"no conversation {conversation} in Parley's list")
    chunks: list[list[dict]] = []
    params: dict[str, str] = {}
    seen: set[str] = set()
    while True:
        page = see.page(APP, f"/c/{conversation}", params)
        chunk, last = [], None
        for m in page.xpath('//div[@data-testid="message"]'):
            mine = m.get("data-mine") == "1"
            named = m.xpath('.//span[@class="pl-sender"]')
            if mine:
                sender = "me"
            elif conv["kind"] == "direct":
                sender = conv["name"]
            elif named:
                sender = visible_text(named[0])
            else:
                sender = last
            when = m.xpath(".//time/@datetime")
            body = m.xpath('.//p[@data-testid="message-text"]')
            chunk.append(
                {
                    "id": int(m.get("data-id")),
                    "mine": mine,
                    "sender": sender,
                    "at": dt.datetime.fromisoformat(when[0]) if when else None,
                    "text": visible_text(body[0]) if body else "",
                }
            )
            last = sender
        chunks.append(chunk)
        earlier = page.xpath('//a[@data-testid="load-earlier"]/@href')
        if not earlier:
            break
        before = earlier[0].split("before=", 1)[1]
        if before in seen:
            raise Unreadable(f"conversation {conversation}: 'Show earlier messages' goes round in a circle")
        seen.add(before)
        params = {"before": before}
    return [m for chunk in reversed(chunks) for m in chunk]


def first_name(name: str) -> str:
    """The first word of a name."""
    return name.split()[0]


def mentions(text: str, phrase: str) -> bool:
    """Whether ``text`` names ``phrase`` (case and runs of spaces aside)."""
    norm = lambda s: re.sub(r"\s+", " ", s).strip().lower()  # noqa: E731
    return norm(phrase) in norm(text)


@reader("contact", "restaurant")
def dinner_time(see: See, given: dict) -> Reading:
    who, place = given["contact"], given["restaurant"]
    msgs = thread(see, direct(see, who)["id"])
    told = [m for m in msgs if m["mine"] and mentions(m["text"], place) and clocks(m["text"])]
    if not told:
        raise Unreadable(f"no message of mine to {who} names {place} with a time")
    last = told[-1]
    written, t = clocks(last["text"])[-1]
    return Reading(
        values={"time": clock_text(t)},
        steps=[
            f"chat with {who}: {len(told)} message(s) of mine name {place} with a time",
            f"the latest, {last['at']:%Y-%m-%d %H:%M}: \u201c{last['text']}\u201d -> {written}",
        ],
    )


@reader("contact", "month")
def messages_last_month(see: See, given: dict) -> Reading:
    who, month = given["contact"], given["month"]
    msgs = thread(see, direct(see, who)["id"])
    inside = [m for m in msgs if m["at"] and m["at"].strftime("%Y-%m") == month]
    mine = sum(m["mine"] for m in inside)
    return Reading(
        values={"count": str(len(inside))},
        steps=[
            f"one-to-one chat with {who}: {len(msgs)} messages in all",
            f"{len(inside)} delivered in {month} ({mine} mine, {len(inside) - mine} theirs)",
        ],
    )


@reader("plan", "relay")
def plan_times(see: See, given: dict) -> Reading:
    """The relay's message says what the organizer said; the organizer's own message says the time. Rule: the
    organizer's own word beats a time passed on by someone else."""
    plan, relay = given["plan"], given["relay"]
    said = [m for m in thread(see, direct(see, relay)["id"]) if not m["mine"] and mentions(m["text"], plan)]
    said = [m for m in said if clocks(m["text"])]
    if not said:
        raise Unreadable(f"{relay} names no time for \u201c{plan}\u201d in our chat")
    relayed = said[-1]
    people = [c["name"] for c in conversations(see) if c["kind"] == "direct" and c["name"] != relay]
    # whom the message names: by the whole name (two friends share a first name), else by the first name
    others = [n for n in people if mentions(relayed["text"], n)] or [
        n for n in people if re.search(rf"\b{re.escape(first_name(n))}\b", relayed["text"])
    ]
    if len(others) != 1:
        raise Unreadable(f"{relay}'s message \u201c{relayed['text']}\u201d names {len(others)} other contacts")
    organizer = others[0]
    own = [m for m in thread(see, direct(see, organizer)["id"]) if not m["mine"] and mentions(m["text"], plan)]
    own = [m for m in own if clocks(m["text"])]
    if not own:
        raise Unreadable(f"{organizer} names no time for \u201c{plan}\u201d in our chat")
    set_by = own[-1]
    right, stale = clocks(set_by["text"])[-1][1], clocks(relayed["text"])[-1][1]
    if right == stale:
        raise Unreadable(f"{organizer} and {relay} give the same time {clock_text(right)}")
    return Reading(
        values={
            "right": clock_text(right),
            "stale": clock_text(stale),
            "order": [clock_text(right), clock_text(stale)],
        },
        steps=[
            f"{relay}, {relayed['at']:%Y-%m-%d %H:%M}: \u201c{relayed['text']}\u201d (passing on what {organizer} said)",
            f"{organizer} (who set the plan), {set_by['at']:%Y-%m-%d %H:%M}: \u201c{set_by['text']}\u201d",
            f"the organizer's own word wins: {clock_text(right)} is right, {clock_text(stale)} the mix-up",
        ],
    )


@reader("since", unique=True)
def pref_closest(see: See, given: dict) -> Reading:
    since = dt.date.fromisoformat(given["since"])
    counts: Counter = Counter()
    for c in conversations(see):
        if c["kind"] != "direct":
            continue
        n = sum(1 for m in thread(see, c["id"]) if m["at"] and since <= m["at"].date() and m["at"] <= see.now)
        if n:
            counts[c["name"]] = n
    ranked = counts.most_common()
    if len(ranked) < 3:
        raise Unreadable(f"only {len(ranked)} one-to-one chats with messages since {since}")
    top = [n for n, _ in ranked[:3]]
    gaps = [ranked[i][1] - ranked[i + 1][1] for i in range(min(3, len(ranked) - 1))]
    return Reading(
        values={"top": [top[0]], "ranking": top},
        steps=[f"one-to-one messages since {since}: " + ", ".join(f"{n} {k}" for n, k in ranked[:5])],
        margin=min(gaps),
    )


READERS = {
    "dinner-time": dinner_time,
    "messages-last-month": messages_last_month,
    "cx-plan-times": plan_times,
    "pref-closest": pref_closest,
}
