"""Independent readers of Guildline's own answer tasks (:mod:`builder.tasks.reader`): each answer derived again from
Guildline's pages the persona sees, signed in (the profile, My Network, Messaging) and the résumé draft in the home
folder; never from the world or the database. The page helpers here serve the scenarios homed on Guildline and the
ones that read Guildline beside their home app (``scenarios/recaps/workchat.py``)."""

from __future__ import annotations

import re

from builder.tasks.matching import amounts
from builder.tasks.reader import Reading, See, Unreadable, reader, visible_text

APP = "network"
#: The word between a title and the company in a headline ("Recruiter at Cascadia", "Product Owner bei Hafenkante").
_AT = re.compile(r"\s(?:at|bei)\s")


def split_headline(headline: str) -> tuple[str, str]:
    """``(title, company)`` of a headline "<title> at <company>" (or "bei"); a tagline after " | " left out. Raises
    :class:`Unreadable` when it names no company."""
    head = headline.split(" | ", 1)[0].strip()
    parts = _AT.split(head, maxsplit=1)
    if len(parts) != 2:
        raise Unreadable(f"the headline {headline!r} names no company")
    return parts[0].strip(), parts[1].strip()


def connections(see: See) -> list[dict]:
    """My Network's connections as listed: ``{name, href, headline, title, company, connected_on (ISO day)}``."""
    page = see.page(APP, "/network")
    out = []
    for li in page.xpath('//li[@data-testid="connection"]'):
        link = li.xpath('.//a[starts-with(@href, "/in/")]')[0]
        small = [visible_text(d) for d in li.xpath('.//div[contains(@class, "gl-small")]')]
        headline = small[0] if small else ""
        since = next((m.group(1) for s in small if (m := re.search(r"(\d{4}-\d{2}-\d{2})", s))), None)
        try:
            title, company = split_headline(headline)
        except Unreadable:
            title, company = headline, ""
        out.append(
            {
                "name": visible_text(link),
                "href": link.get("href"),
                "headline": headline,
                "title": title,
                "company": company,
                "connected_on": since,
            }
        )
    return out


def my_experience(see: See) -> list[dict]:
    """The Experience section of the persona's profile (``/in/me``), newest first: ``{title, company, start, end}``
    (``end`` empty for the current position)."""
    page = see.page(APP, "/in/me")
    out = []
    for li in page.xpath('//li[@data-testid="experience"]'):
        strong = li.xpath('.//div[contains(@class, "gl-strong")]')
        out.append(
            {
                "title": visible_text(strong[0]) if strong else li.get("data-title"),
                "company": li.get("data-company"),
                "start": li.get("data-start"),
                "end": li.get("data-end") or "",
            }
        )
    return out


def current_position(see: See) -> dict:
    """The persona's current position on Guildline (the first Experience entry with no end). Raises
    :class:`Unreadable` when there is none or more than one."""
    now = [x for x in my_experience(see) if not x["end"]]
    if len(now) != 1:
        raise Unreadable(f"the Guildline profile shows {len(now)} current positions")
    return now[0]


def threads(see: See) -> list[dict]:
    """Every Messaging thread: ``{id, name, head (the headline line: "<headline> · about: <job>"), messages:
    [{mine, sender, at ("YYYY-MM-DD HH:MM"), text}]}``, in the list's order."""
    listing = see.page(APP, "/messaging")
    out = []
    for a in listing.xpath('//a[@data-testid="thread"]'):
        tid = a.get("data-id")
        page = see.page(APP, f"/messaging/{tid}")
        name = page.xpath('//*[@data-testid="thread-name"]')
        head = page.xpath('//header[contains(@class, "gl-thread-head")]/div')
        msgs = []
        for li in page.xpath('//li[@data-testid="message"]'):
            spans = li.xpath("./span")
            text = li.xpath('./*[@data-testid="message-text"]')
            msgs.append(
                {
                    "mine": li.get("data-mine") == "1",
                    "sender": visible_text(spans[0]) if spans else "",
                    "at": visible_text(spans[1]) if len(spans) > 1 else "",
                    "text": visible_text(text[0]) if text else "",
                }
            )
        out.append(
            {
                "id": tid,
                "name": visible_text(name[0]) if name else a.get("data-name"),
                "head": visible_text(head[0]) if head else "",
                "messages": msgs,
            }
        )
    return out


def resume_title(see: See, path: str, company: str) -> str:
    """The title the résumé draft ``path`` (a ``.docx`` under the home) gives the position at ``company``: the first
    experience line "<title>, <company>" (the newest). Raises :class:`Unreadable` when the file or line is missing."""
    import docx

    found = see.files(path)
    if not found:
        raise Unreadable(f"no résumé at ~/{path}")
    for p in docx.Document(str(found[0])).paragraphs:
        first = p.text.split("\n", 1)[0].strip()
        if first.endswith(f", {company}"):
            return first[: -len(f", {company}")].strip()
    raise Unreadable(f"~/{path} lists no position at {company}")


def _title_difference(see: See, path: str) -> tuple[str, str, str, list[str]]:
    """``(résumé title, profile title, company, steps)`` of the current position."""
    cur = current_position(see)
    res = resume_title(see, path, cur["company"])
    steps = [
        f"/in/me: the current position is {cur['title']!r} at {cur['company']} (since {cur['start']})",
        f"~/{path}: {res!r}, {cur['company']}",
    ]
    if res == cur["title"]:
        raise Unreadable(f"the résumé and the profile agree on {res!r}")
    return res, cur["title"], cur["company"], steps


@reader("resume")
def resume_title_fix(see: See, given: dict) -> Reading:
    res, prof, _, steps = _title_difference(see, given["resume"])
    return Reading(values={"says": f"“{prof}”"}, steps=[*steps, "the profile said the other title"])


@reader("resume")
def cx_resume_title(see: See, given: dict) -> Reading:
    res, prof, _, steps = _title_difference(see, given["resume"])
    stale = f"“{prof}”"
    return Reading(
        values={"right": res, "stale": stale, "order": [res, stale]},
        steps=[*steps, "rule: the résumé draft the persona keeps current beats the lagging profile"],
    )


@reader("company", "month")
def recruiter_salary(see: See, given: dict) -> Reading:
    company, month = given["company"], given["month"]
    hits = []
    for t in threads(see):
        if not t["messages"] or t["messages"][0]["mine"]:
            continue
        first = t["messages"][0]
        if first["at"][:7] == month and company in (t["head"] + " " + first["text"]):
            hits.append((t, first))
    if len(hits) != 1:
        raise Unreadable(f"{len(hits)} recruiter threads from {company} opened in {month}")
    t, first = hits[0]
    # The amounts of money the message states, in any currency's writing: "$121,000", "84.000 €", "PKR 6,286,000",
    # "1,336,000 MXN", "R$ 170.000"; a range is two of them, its bottom the smaller.
    quoted = sorted(amounts(first["text"]))
    if len(quoted) != 2:
        raise Unreadable(f"{t['name']}'s message quotes {quoted!r}, not a range")
    low, high = quoted
    return Reading(
        values={"min": low, "max": high},
        steps=[f"Messaging: {t['name']} ({t['head']}) wrote on {first['at']}: {first['text']!r}"],
    )


@reader("company")
def colleague_count(see: See, given: dict) -> Reading:
    company = given["company"]
    conns = connections(see)
    same = sorted(c["name"] for c in conns if c["company"] == company)
    values: dict = {"count": len(same) if same else "none"}
    values.update({f"name-{i}": n for i, n in enumerate(same)})
    return Reading(
        values=values,
        steps=[f"My Network: {len(conns)} connections; headlines at {company}: {', '.join(same) or 'none'}"],
    )


@reader()
def unanswered_recruiter(see: See, given: dict) -> Reading:
    ts = threads(see)
    recruiters = [t for t in ts if " · about: " in t["head"]]
    silent = [t for t in recruiters if not any(m["mine"] for m in t["messages"])]
    if len(silent) != 1:
        raise Unreadable(f"{len(silent)} recruiter threads without a reply of mine")
    t = silent[0]
    _, company = split_headline(t["head"].split(" · about: ", 1)[0])
    return Reading(
        values={"name": t["name"], "company": company},
        steps=[
            f"Messaging: {len(recruiters)} recruiter threads; only {t['name']}'s has no message of mine",
            f"{t['name']}: {t['head']}",
        ],
    )


READERS = {
    "resume-title": resume_title_fix,
    "recruiter-salary": recruiter_salary,
    "colleague-count": colleague_count,
    "unanswered-recruiter": unanswered_recruiter,
    "cx-resume-title": cx_resume_title,
}
