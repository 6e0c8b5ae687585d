"""Independent readers of Huddle's own answer tasks (:mod:`builder.tasks.reader`): each answer derived again from
Huddle's pages the persona sees, signed in (message search, channels, the profile); never from the world or the
database. The page helpers here serve the scenarios homed on Huddle and the ones that read Huddle beside their home
app (``scenarios/pairs/board.py``)."""

from __future__ import annotations

import datetime as dt
import re

from builder.tasks.reader import Reading, See, Unreadable, reader, visible_text

APP = "workchat"
#: A ticket key as people write it in chat (``DES-2902``).
TICKET = re.compile(r"\b[A-Z]{2,5}-\d{2,5}\b")
#: The most results one search page shows (newest first).
PAGE = 50


def _message(node) -> dict:
    """One message of a search result: ``{id, sender, at (naive local datetime), text, channel (the conversation's
    name in its link: ``team-design``, ``dm-...``), thread (whether it is a reply in a thread)}``."""
    when = node.xpath('.//time[contains(@class, "hd-msg-time")]/@datetime')
    where = node.xpath('.//div[contains(@class, "hd-msg-where")]/a/@href')
    text = node.xpath('.//*[@data-testid="text"]')
    sender = node.xpath('.//*[@data-testid="sender"]')
    return {
        "id": node.get("data-id"),
        "sender": visible_text(sender[0]) if sender else node.get("data-sender"),
        "at": dt.datetime.fromisoformat(when[0]) if when else None,
        "text": visible_text(text[0]) if text else "",
        "channel": where[0].split("?")[0].split("#")[0].removeprefix("/c/") if where else None,
        "thread": bool(node.xpath('.//div[contains(@class, "hd-msg-where")]//span[contains(., "in a thread")]')),
    }


def search(see: See, q: str) -> tuple[int, list[dict]]:
    """Huddle's message search (``/search?q=``, modifiers ``in:``, ``from:``, ``on:``, ``before:``, ``after:``):
    ``(total, messages)``, the messages newest first (at most :data:`PAGE`). Raises :class:`Unreadable` when a
    modifier names no channel or person."""
    page = see.page(APP, "/search", {"q": q})
    unknown = page.xpath('//*[@data-testid="search-unknown"]')
    if unknown:
        raise Unreadable(f"Huddle search {q!r}: {visible_text(unknown[0])}")
    count = page.xpath('//*[@data-testid="result-count"]/@data-total')
    total = int(count[0]) if count else 0
    found = [_message(n) for n in page.xpath('//*[@data-testid="search-result"]//div[@data-testid="message"]')]
    return total, found


def search_all(see: See, q: str, first: dt.date, last: dt.date) -> list[dict]:
    """Every message of the search ``q`` sent from ``first`` to ``last`` (days, both included), newest first: one
    search a day, so no day's results are cut. Raises :class:`Unreadable` when one day holds more than a page."""
    out: list[dict] = []
    day = last
    while day >= first:
        total, found = search(see, f"{q} on:{day.isoformat()}".strip())
        if total > len(found):
            raise Unreadable(f"Huddle search {q!r} on {day}: {total} results, {len(found)} shown")
        out += found
        day -= dt.timedelta(days=1)
    return out


def handles(see: See) -> list[str]:
    """The workspace's people as the search help lists them (``@dana.whitfield``...), in its order."""
    page = see.page(APP, "/search")
    help_ = page.xpath('//p[contains(@class, "hd-search-help")]')
    text = visible_text(help_[0]) if help_ else ""
    people = text.split("People:", 1)[1] if "People:" in text else ""
    return re.findall(r"@[\w.\-]+", people)


def my_profile(see: See) -> dict:
    """The persona's Huddle profile (``/status``): ``{name, title}``."""
    page = see.page(APP, "/status")
    card = page.xpath('//section[contains(@class, "hd-profile")]')
    if not card:
        raise Unreadable("Huddle's profile page shows no profile card")
    name = card[0].xpath(".//h2")
    title = card[0].xpath('./div/div[contains(@class, "muted")]')
    return {"name": visible_text(name[0]) if name else "", "title": visible_text(title[0]) if title else ""}


def pinned(see: See, channel: str) -> list[dict]:
    """The pinned messages of ``#channel`` (its details panel, "Pinned" tab): ``{id, sender, at, text}``."""
    page = see.page(APP, f"/c/{channel}", {"details": "pinned"})
    out = []
    for n in page.xpath('//aside[@data-testid="details-panel"]//div[@data-testid="message"]'):
        m = _message(n)
        m["channel"] = channel
        out.append(m)
    return out


def lead(see: See, ranked: list[dt.datetime]) -> float:
    """The newest of ``ranked`` (newest first) leads the next by this many seconds; with no next, by its age (the
    lead over nothing). 0: a tie."""
    if not ranked:
        return 0.0
    if len(ranked) == 1:
        return max((see.now.replace(tzinfo=None) - ranked[0]).total_seconds(), 1.0)
    return (ranked[0] - ranked[1]).total_seconds()


def short_day(day: dt.date) -> str:
    """A day as an answer writes it: ``November 13``."""
    return f"{day:%B} {day.day}"


@reader("channel", "sender", unique=True)
def colleague_ticket(see: See, given: dict) -> Reading:
    channel, sender = given["channel"], given["sender"]
    total, found = search(see, f'in:#{channel} from:"{sender}"')
    raised = [m for m in found if TICKET.search(m["text"])]
    if not raised:
        raise Unreadable(f"no message of {sender} in #{channel} names a ticket ({total} messages)")
    m = raised[0]
    return Reading(
        margin=lead(see, [x["at"] for x in raised]),
        values={"ticket": TICKET.search(m["text"]).group(0)},
        steps=[
            f"search in:#{channel} from {sender}: {total} messages, newest first",
            f"the newest naming a ticket: {m['at']} {m['text']!r}",
        ],
    )


@reader("them", unique=True)
def dm_last_message(see: See, given: dict) -> Reading:
    them = given["them"]
    total, found = search(see, f'in:"{them}" from:"{them}"')
    dm = [m for m in found if (m["channel"] or "").startswith("dm-")]
    if not dm:
        raise Unreadable(f"no direct message from {them} on Huddle")
    m = dm[0]
    return Reading(
        margin=lead(see, [x["at"] for x in dm]),
        values={"text": m["text"], "date": short_day(m["at"].date())},
        steps=[f"search of the DM with {them}, from {them}: {total} messages; the newest {m['at']}: {m['text']!r}"],
    )


@reader("channel", "from", "to")
def team_messages_last_week(see: See, given: dict) -> Reading:
    channel = given["channel"]
    first, last = dt.date.fromisoformat(given["from"]), dt.date.fromisoformat(given["to"])
    before, after = last + dt.timedelta(days=1), first - dt.timedelta(days=1)
    total, found = search(see, f"in:#{channel} after:{after.isoformat()} before:{before.isoformat()}")
    replies = sum(1 for m in found if m["thread"])
    return Reading(
        values={"count": f"{total} messages"},
        steps=[
            f"search in:#{channel} after:{after} before:{before}: {total} results (thread replies included; "
            f"{replies} of the {len(found)} shown are replies in threads)"
        ],
    )


READERS = {
    "colleague-ticket": colleague_ticket,
    "dm-last-message": dm_last_message,
    "team-messages-last-week": team_messages_last_week,
}
