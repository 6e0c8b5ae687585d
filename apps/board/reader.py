"""Independent readers of Cairn's own answer tasks (:mod:`builder.tasks.reader`): each answer derived again from the
board's pages the persona sees, signed in (the sprint board, the ticket pages, the ticket list) and the meeting notes
in the home folder; never from the world or the database. The page helpers here serve the scenarios homed on Cairn
too (``scenarios/pairs/board.py``)."""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path

from builder.tasks.reader import Reading, See, Unreadable, reader, visible_text

APP = "board"
#: A ticket key as the board writes it (``DES-2900``).
KEY = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d+\b")
#: Where the meeting notes are, under the home folder.
NOTES = "Documents/Work/Meeting notes"


def _selected(page, name: str) -> str | None:
    """The visible label of the chosen option of the form field ``name`` (a ``select``), or None."""
    opts = page.xpath(f'//select[@name="{name}"]/option[@selected]')
    return " ".join(opts[0].text_content().split()) if opts else None


def ticket(see: See, key: str) -> dict:
    """The ticket page ``/t/<key>``: ``{key, title, status (its label, "In review"), assignee (a name or None),
    sprint (the sprint field's label: "Sprint 60 (active)", "Sprint 59 (closed)", "Backlog"), due (ISO day or
    None), activity: [{at (naive local datetime), field, actor, old, new}] newest first}``. Raises
    :class:`Unreadable` when the page names no such ticket."""
    page = see.page(APP, f"/t/{key}")
    box = page.xpath('//*[@data-testid="ticket"]')
    if not box:
        raise Unreadable(f"the board shows no ticket {key}")
    title = visible_text(page.xpath('//*[@data-testid="ticket-title"]')[0])
    assignee = _selected(page, "assignee")
    if assignee is not None:
        assignee = assignee.removesuffix("(me)").strip()
        if assignee == "Unassigned":
            assignee = None
    due = page.xpath('//input[@name="due"]/@value')
    activity = []
    for li in page.xpath('//li[@data-testid="activity"]'):
        when = li.xpath("./time/@datetime")
        actor = li.xpath("./b")
        old, new = li.xpath("./s"), li.xpath("./span")
        activity.append(
            {
                "at": dt.datetime.fromisoformat(when[0]) if when else None,
                "field": li.get("data-field"),
                "actor": visible_text(actor[0]) if actor else "",
                "old": visible_text(old[0]) if old else None,
                "new": visible_text(new[0]) if new else None,
            }
        )
    return {
        "key": key,
        "title": title,
        "status": _selected(page, "status") or "",
        "assignee": assignee,
        "sprint": _selected(page, "sprint") or "",
        "due": due[0] if due and due[0] else None,
        "activity": activity,
    }


def ticket_rows(see: See, params: dict[str, str] | None = None) -> list[dict]:
    """The rows of the ticket list (``/search``, newest first): ``{key, title, project, status, assignee,
    sprint}``. Raises :class:`Unreadable` when the list is cut (more tickets than it shows)."""
    page = see.page(APP, "/search", params or {})
    count = page.xpath('//*[@data-testid="result-count"]')
    if count and "shown" in visible_text(count[0]):
        raise Unreadable(f"the ticket list {params or {}} shows only the newest tickets: {visible_text(count[0])}")
    out = []
    for tr in page.xpath('//tr[@data-testid="row"]'):
        cells = [visible_text(td) for td in tr.xpath("./td")]
        out.append(dict(zip(("key", "title", "project", "status", "assignee", "sprint"), cells)))
    return out


def people(see: See) -> dict[str, str]:
    """The team as the board's filters name them: name -> the filter's value (the persona's own name without
    "(me)")."""
    page = see.page(APP, "/search")
    out = {}
    for o in page.xpath('//select[@name="assignee"]/option'):
        value, name = o.get("value"), " ".join(o.text_content().split())
        if value and value != "none" and name != "Unassigned":
            out[name.removesuffix("(me)").strip()] = value
    return out


def me(see: See) -> str:
    """The persona's name as the board writes it (the filter option marked "(me)")."""
    page = see.page(APP, "/search")
    for o in page.xpath('//select[@name="assignee"]/option'):
        name = " ".join(o.text_content().split())
        if name.endswith("(me)"):
            return name.removesuffix("(me)").strip()
    raise Unreadable("the board marks no one as me")


def sprint_id(see: See, name: str) -> str:
    """The board's id of the sprint called ``name`` ("Sprint 60"), from the sprint picker of ``/board`` or the
    backlog's sections. Raises :class:`Unreadable` when neither lists it."""
    page = see.page(APP, "/board")
    for a in page.xpath('//nav[@aria-label="Sprints"]/a'):
        if visible_text(a) == name:
            return a.get("href").split("sprint=", 1)[1]
    back = see.page(APP, "/backlog")
    for sec in back.xpath('//section[@data-testid="sprint"]'):
        head = sec.xpath("./h2")
        if head and re.match(rf"{re.escape(name)}\b", visible_text(head[0])):
            return sec.get("data-sprint")
    raise Unreadable(f"the board lists no {name}")


def sprint_cards(see: See, name: str) -> list[dict]:
    """The cards of the sprint board of ``name``: ``{key, title, status (the column's status), points (int or
    None), assignee initials}``."""
    page = see.page(APP, "/board", {"sprint": sprint_id(see, name)})
    shown = page.xpath('//*[@data-testid="sprint-name"]')
    if not shown or visible_text(shown[0]) != name:
        raise Unreadable(f"the board did not open {name}")
    out = []
    for card in page.xpath('//article[@data-testid="card"]'):
        pts = card.xpath('.//*[contains(@class, "cn-points")]')
        m = re.match(r"(\d+)", visible_text(pts[0])) if pts else None
        column = card.xpath('ancestor::section[@data-testid="column"]')
        out.append(
            {
                "key": card.get("data-key"),
                "title": visible_text(card.xpath('.//*[contains(@class, "cn-card-title")]')[0]),
                "status": column[0].get("data-status") if column else card.get("data-status"),
                "points": int(m.group(1)) if m else None,
            }
        )
    return out


# --- the meeting notes in the home folder ------------------------------------------------------------------------


def _odt_lines(path: Path) -> list[str]:
    """The paragraphs and list items of an OpenDocument text, in order, as plain text."""
    import lxml.etree

    root = lxml.etree.fromstring(zipfile.ZipFile(path).read("content.xml"))
    ns = {"text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0"}
    out = []
    for node in root.iterfind(".//text:p", ns):
        line = " ".join("".join(node.itertext()).split())
        if line:
            out.append(line)
    for node in root.iterfind(".//text:h", ns):
        line = " ".join("".join(node.itertext()).split())
        if line:
            out.append(line)
    return out


def note_lines(path: Path) -> list[str]:
    """The text lines of one meeting note (Markdown or OpenDocument), blank lines left out."""
    if path.suffix == ".odt":
        return _odt_lines(path)
    return [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]


def notes_of(see: See, day: str, ext: str) -> list[Path]:
    """The meeting notes of ``day`` (ISO) with the extension ``ext`` (``odt``: sprint plannings, ``md``:
    stand-ups), by name."""
    return [p for p in see.files(f"{NOTES}/*.{ext}") if p.name.startswith(day)]


@reader("key", "date")
def planning_decision(see: See, given: dict) -> Reading:
    key, day = given["key"], given["date"]
    notes = notes_of(see, day, "odt")
    if len(notes) != 1:
        raise Unreadable(f"{len(notes)} sprint planning notes of {day} in ~/{NOTES}")
    lines = note_lines(notes[0])
    head = next((m.group(1) for ln in lines if (m := re.match(r"(Sprint \d+)\.", ln))), None)
    said = [ln for ln in lines if re.search(rf"\b{re.escape(key)}\b", ln)]
    if head is None or not said:
        raise Unreadable(f"{notes[0].name} names no sprint or no line on {key}")
    t = ticket(see, key)
    if not t["sprint"].startswith(head):
        raise Unreadable(f"the notes put {key} in {head}, the board in {t['sprint']!r}")
    if not t["assignee"]:
        raise Unreadable(f"{key} is unassigned on the board")
    return Reading(
        values={"sprint": head, "owner": t["assignee"]},
        steps=[
            f"{notes[0].name}: the planning of {head}; on {key}: {said[0]!r}",
            f"/t/{key}: sprint {t['sprint']!r}, assignee {t['assignee']}",
        ],
    )


@reader("sprint")
def open_points(see: See, given: dict) -> Reading:
    name = f"Sprint {given['sprint']}"
    cards = sprint_cards(see, name)
    left = [c for c in cards if c["status"] != "done"]
    points = sum(c["points"] or 0 for c in left)
    return Reading(
        values={"points": f"{points} points"},
        steps=[
            f"/board of {name}: {len(cards)} cards, {len(left)} not in Done",
            "open: " + ", ".join(f"{c['key']} {c['points'] or 0} pt" for c in left) + f" = {points}",
        ],
    )


@reader("date", "who")
def standup_pickup(see: See, given: dict) -> Reading:
    day, who = given["date"], given["who"]
    notes = notes_of(see, day, "md")
    if len(notes) != 1:
        raise Unreadable(f"{len(notes)} stand-up notes of {day} in ~/{NOTES}")
    lines = [ln.lstrip("-* ").strip() for ln in note_lines(notes[0])]
    hits = [ln for ln in lines if re.match(rf"{re.escape(who)}\b", ln) and KEY.search(ln)]
    keys = sorted({KEY.search(ln).group(0) for ln in hits})
    if len(keys) != 1:
        raise Unreadable(f"{notes[0].name}: {who} picked up {keys or 'no ticket'}")
    t = ticket(see, keys[0])
    return Reading(
        values={"key": t["key"], "title": t["title"]},
        steps=[f"{notes[0].name}: {hits[0]!r}", f"/t/{t['key']}: {t['title']!r}, assigned to {t['assignee']}"],
    )


READERS = {
    "planning-decision": planning_decision,
    "open-points": open_points,
    "standup-pickup": standup_pickup,
}
