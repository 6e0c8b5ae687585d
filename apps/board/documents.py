"""The board's files in the persona's home: project briefs and meeting notes, all from the world's board.

* ``Documents/Work/<project>/<project> - Project brief.docx`` (python-docx) per project: summary (a spec
  project's ``description`` follows it verbatim), goals (the sprint goals that named it), team, timeline (start,
  end or running, its sprints) and the open scope.
* ``Documents/Work/Meeting notes/<date> <meeting>.odt`` (odfpy) for the latest :data:`PLANNINGS` sprint
  plannings: attendees (the calendar event's) and the decisions that the board shows after the meeting (tickets
  committed to the sprint, carried over, created at the meeting).
* ``Documents/Work/Meeting notes/<date> <meeting>.md`` for the latest :data:`STANDUPS` stand-ups after which a
  ticket moved (who starts on what).
* ``Documents/Work/Sprint reviews/<date> <sprint> review.odp`` (odfpy, an Impress deck) for the latest
  :data:`REVIEWS` sprints that have ended: title, the sprint goal, what was done in it and what was carried over
  (the board's transitions and carries), the next sprint's goal.

Words come from ``phrases/<locale>.yaml`` (``notes``). File bytes depend only on the world: every
zip entry carries the file's world time, and each file's mtime is set from the world (meeting end + minutes).
"""

from __future__ import annotations

import datetime as dt
import io
import os
import zipfile
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from builder.files.odf import odf_bytes
from builder.names import ascii_slug
from builder.rng import rng
from builder.world import World, board
from builder.reference.locale import Fmt, read_bank

PLANNINGS = 4
STANDUPS = 5
REVIEWS = 2
WORK = Path("Documents") / "Work"
NOTES = WORK / "Meeting notes"
DECKS = WORK / "Sprint reviews"
#: At most this many tickets on a slide; the rest are counted in one line.
SLIDE_LINES = 6
#: The documents' phrase banks (``<locale>.yaml``; en_US for a locale without one).
PHRASES = Path(__file__).with_name("phrases")


def _safe(name: str) -> str:
    """A file or folder name: the text without path separators or control characters."""
    out = "".join(c for c in name if c.isprintable() and c not in '/\\:*?"<>|').strip(" .")
    return out or ascii_slug(name) or "project"


def _rezip(data: bytes, when: dt.datetime) -> bytes:
    """The same zip with every entry dated ``when`` (entry order kept, so an ODF's ``mimetype`` stays first)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for info in src.infolist():
            z = zipfile.ZipInfo(info.filename, date_time=when.timetuple()[:6])
            z.compress_type = info.compress_type
            z.external_attr = 0o644 << 16
            out.writestr(z, src.read(info.filename))
    return buf.getvalue()


def _write(path: Path, data: bytes, when: dt.datetime, zone: str) -> None:
    """Write ``data`` and set the file's mtime to ``when`` (naive local time in ``zone``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    ts = when.replace(tzinfo=ZoneInfo(zone)).timestamp()
    os.utime(path, (ts, ts))


def note_words(locale: str) -> dict[str, Any]:
    """The words of the meeting notes and project briefs in ``locale`` (``phrases/<locale>.yaml``: ``title``,
    ``attendees``, ``decisions``, the decision lines, ``brief_*``...), read-only."""
    return read_bank(PHRASES, locale)["notes"]


def meeting_notes(world: World) -> list[dict[str, Any]]:
    """The meeting notes the home holds, newest last: ``[{kind: planning|standup, event, title, date, attendees,
    decisions: [{key, kind: committed|carried|created|started|review, text}], path, when}]``.

    ``event`` is the calendar event id; ``path`` is relative to the home; ``when`` its mtime (naive local).
    """
    b = board(world)
    if not b["tickets"]:
        return []
    g = note_words(world.persona.bank)
    fmt = Fmt(world.persona)
    by_id = {e.id: e for e in world.of_kind("calendar_event")}
    sprints = {s["number"]: s for s in b["sprints"]}
    refs: dict[str, list[tuple[dict, dict]]] = {}
    for t in b["tickets"]:
        for h in t["history"]:
            if h["meeting"]:
                refs.setdefault(h["meeting"], []).append((t, h))
    r = rng(world.seed, "board/notes")
    out = []

    def entry(kind: str, e, items: list[dict]) -> dict:
        end = e.at + dt.timedelta(minutes=45)
        when = min(end + dt.timedelta(minutes=r.randint(10, 80)), world.now)
        names = [a["name"] for a in e.data.get("attendees", [])]
        ext = "odt" if kind == "planning" else "md"
        return {
            "kind": kind,
            "event": e.id,
            "title": g["title"].format(meeting=e.data["title"], date=fmt.long_date(e.at)),
            "meeting": e.data["title"],
            "date": e.at.date().isoformat(),
            "attendees": names,
            "decisions": items,
            "path": str(NOTES / f"{e.at.date().isoformat()} {_safe(e.data['title'])}.{ext}"),
            "when": when,
        }

    plannings = [
        s
        for s in b["sprints"]
        if s["planning"] in by_id and by_id[s["planning"]].at <= world.now and s["planning"] in refs
    ]
    for s in plannings[-PLANNINGS:]:
        e = by_id[s["planning"]]
        items = []
        for t, h in refs[s["planning"]]:
            who = t["assignee"]
            if h["field"] == "created":
                text = g["created"].format(key=t["key"], title=t["title"], assignee=who)
                items.append({"key": t["key"], "kind": "created", "text": text})
            elif h["field"] == "sprint":
                old = sprints.get(int(h["old"]), {}).get("name", h["old"])
                items.append(
                    {
                        "key": t["key"],
                        "kind": "carried",
                        "text": g["carried"].format(sprint=old, key=t["key"], title=t["title"]),
                    }
                )
            elif h["field"] == "status" and h["new"] == "todo":
                items.append(
                    {
                        "key": t["key"],
                        "kind": "committed",
                        "text": g["committed"].format(sprint=s["name"], key=t["key"], title=t["title"], assignee=who),
                    }
                )
        created = {i["key"] for i in items if i["kind"] == "created"}
        items = [i for i in items if not (i["kind"] == "committed" and i["key"] in created)]
        order = {"carried": 0, "committed": 1, "created": 2}
        items.sort(key=lambda i: (order[i["kind"]], i["key"]))
        n = entry("planning", e, items)
        n["sprint"], n["goal"] = s["name"], s["goal"]
        out.append(n)
    standups = sorted(
        {
            h["meeting"]
            for t in b["tickets"]
            for h in t["history"]
            if h["meeting"]
            and h["meeting"] in by_id
            and by_id[h["meeting"]].data.get("series")
            and not any(s["planning"] == h["meeting"] for s in b["sprints"])
        },
        key=lambda i: (by_id[i].at, i),
    )
    for sid in standups[-STANDUPS:]:
        items = []
        for t, h in refs[sid]:
            kind = "started" if h["new"] == "in_progress" else "review"
            items.append(
                {
                    "key": t["key"],
                    "kind": kind,
                    "text": g[kind].format(key=t["key"], title=t["title"], assignee=t["assignee"]),
                }
            )
        out.append(entry("standup", by_id[sid], sorted(items, key=lambda i: i["key"])))
    return sorted(out, key=lambda n: (n["date"], n["path"]))


def briefs(world: World) -> list[dict[str, Any]]:
    """One brief per project: ``[{project, path, when, open: [ticket keys not done]}]`` (path relative to home)."""
    b = board(world)
    if not b["tickets"]:
        return []
    out = []
    for pr in b["projects"]:
        when = dt.datetime.combine(dt.date.fromisoformat(pr["start"]), dt.time(16, 30))
        when = min(max(when, world.start), world.now)
        folder = WORK / _safe(pr["name"])
        keys = [t["key"] for t in b["tickets"] if t["project"] == pr["name"] and t["status"] != "done"]
        out.append(
            {
                "project": pr["name"],
                "path": str(folder / f"{_safe(pr['name'])} - Project brief.docx"),
                "when": when,
                "open": keys,
            }
        )
    return out


def _brief_docx(world: World, b: dict, pr: dict, info: dict) -> bytes:
    from docx import Document

    g = note_words(world.persona.bank)
    fmt = Fmt(world.persona)
    h = g["brief_headings"]
    doc = Document()
    cp = doc.core_properties
    cp.author = world.persona.identity.name
    cp.title = g["brief_title"].format(project=pr["name"])
    cp.created = cp.modified = info["when"]
    cp.last_modified_by = world.persona.identity.name
    cp.revision = 1
    doc.add_heading(g["brief_title"].format(project=pr["name"]), 0)
    start = dt.date.fromisoformat(pr["start"])
    state = (
        g["brief_ended"].format(end=fmt.long_date(dt.date.fromisoformat(pr["end"])))
        if pr["end"]
        else g["brief_running"]
    )
    doc.add_heading(h["summary"], 1)
    doc.add_paragraph(
        g["brief_summary"].format(
            project=pr["name"], team=b["team"], employer=b["workspace"], start=fmt.long_date(start), state=state
        )
    )
    if pr.get("description"):  # the spec's words, verbatim (python-docx keeps line breaks as breaks)
        doc.add_paragraph(pr["description"])
    doc.add_heading(h["goals"], 1)
    goals = list(dict.fromkeys(s["goal"] for s in b["sprints"] if pr["name"] in s["goal"]))
    for goal in goals[:6] or [pr["name"]]:
        doc.add_paragraph(goal, style="List Bullet")
    doc.add_heading(h["team"], 1)
    for i, p in enumerate(b["people"]):
        doc.add_paragraph(
            f"{p['name']} ({g['role_owner'] if p['is_me'] else g['role_member']}), {p['email']}", style="List Bullet"
        )
    doc.add_heading(h["timeline"], 1)
    doc.add_paragraph(
        f"{fmt.long_date(start)} – {fmt.long_date(dt.date.fromisoformat(pr['end'])) if pr['end'] else '…'}"
    )
    doc.add_heading(h["scope"], 1)
    tickets = [t for t in b["tickets"] if t["project"] == pr["name"] and t["created_at"] <= info["when"].isoformat()]
    scope = tickets[:8] or [t for t in b["tickets"] if t["project"] == pr["name"]][:8]
    for t in scope:
        doc.add_paragraph(f"{t['key']}: {t['title']}", style="List Bullet")
    doc.add_heading(h["risks"], 1)
    for risk in g["brief_risks"]:
        doc.add_paragraph(risk, style="List Bullet")
    buf = io.BytesIO()
    doc.save(buf)
    return _rezip(buf.getvalue(), info["when"])


def _notes_odt(world: World, n: dict) -> bytes:
    return _with_meta(odf_bytes(lambda: _notes_document(world, n)), n["when"])


def _with_meta(data: bytes, when: dt.datetime) -> bytes:
    """The ODF zip ``data`` with odfpy's ``meta.xml`` (wall clock) replaced by one dated ``when`` and every entry
    dated ``when``."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "meta.xml":
                body = _fixed_meta(when)
            zi = zipfile.ZipInfo(info.filename, date_time=when.timetuple()[:6])
            zi.compress_type = info.compress_type
            zi.external_attr = 0o644 << 16
            z.writestr(zi, body)
    return out.getvalue()


def _notes_document(world: World, n: dict):
    """The meeting note ``n`` as an odfpy ``OpenDocumentText``."""
    from odf.opendocument import OpenDocumentText
    from odf.style import Style, TextProperties
    from odf.text import H, List, ListItem, P

    g = note_words(world.persona.bank)
    doc = OpenDocumentText()
    bold = Style(name="Heading", family="paragraph")
    bold.addElement(TextProperties(fontweight="bold", fontsize="14pt"))
    doc.styles.addElement(bold)
    doc.text.addElement(H(outlinelevel=1, stylename=bold, text=n["title"]))
    if n.get("sprint"):
        doc.text.addElement(P(text=f"{n['sprint']}. {g['goal']}: {n['goal']}"))
    doc.text.addElement(H(outlinelevel=2, stylename=bold, text=g["attendees"]))
    doc.text.addElement(P(text=", ".join(n["attendees"])))
    doc.text.addElement(H(outlinelevel=2, stylename=bold, text=g["decisions"]))
    lst = List()
    for d in n["decisions"] or [{"text": g["nothing"]}]:
        item = ListItem()
        item.addElement(P(text=d["text"]))
        lst.addElement(item)
    doc.text.addElement(lst)
    return doc


def _sprint_at(t: dict, when: str) -> int | None:
    """The sprint ticket ``t`` was in at local ISO time ``when`` (its carries replayed)."""
    moves = [h for h in t["history"] if h["field"] == "sprint"]
    cur = int(moves[0]["old"]) if moves and moves[0]["old"] not in (None, "None") else t["sprint"]
    for h in moves:
        if h["at"] > when:
            break
        cur = int(h["new"]) if h["new"] not in (None, "None") else None
    return cur


def sprint_reviews(world: World) -> list[dict[str, Any]]:
    """The sprint review decks the home holds, oldest first: ``[{sprint, number, title, subtitle, goal, done:
    [ticket line], carried: [ticket line], next: {name, goal} | None, path, when}]`` for the latest :data:`REVIEWS`
    sprints closed by ``now``. ``done``: the sprint's tickets moved to done while it ran; ``carried``: the ones it
    handed to the next sprint. ``path`` is relative to the home; ``when`` its mtime (naive local: the afternoon of
    the sprint's last workday)."""
    b = board(world)
    if not b["tickets"]:
        return []
    g = note_words(world.persona.bank)
    fmt = Fmt(world.persona)
    sprints = sorted(b["sprints"], key=lambda s: s["number"])
    r = rng(world.seed, "board/reviews")
    out = []
    for s in [s for s in sprints if s["state"] == "past"][-REVIEWS:]:

        def line(t: dict) -> str:
            return f"{t['key']} {t['title']} ({t['assignee']})"

        done = [
            t
            for t in b["tickets"]
            for h in t["history"]
            if h["field"] == "status"
            and h["new"] == "done"
            and s["opens"] <= h["at"] <= s["closes"]
            and _sprint_at(t, h["at"]) == s["number"]
        ]
        carried = [
            t
            for t in b["tickets"]
            if any(h["field"] == "sprint" and h["old"] == str(s["number"]) for h in t["history"])
        ]
        nxt = next((x for x in sprints if x["number"] == s["number"] + 1), None)
        start, end = dt.date.fromisoformat(s["start"]), dt.date.fromisoformat(s["end"])
        # Written for the review on the sprint's last workday, that afternoon.
        last = end - dt.timedelta(days=max(0, end.weekday() - 4))
        when = dt.datetime.combine(last, dt.time(14, 10 + r.randrange(40)))
        when = max(min(when, world.now), dt.datetime.fromisoformat(s["opens"]))
        out.append(
            {
                "sprint": s["name"],
                "number": s["number"],
                "title": g["review_title"].format(sprint=s["name"]),
                "subtitle": f"{s['team']} · {fmt.day(start)} – {fmt.day(end)}",
                "goal": s["goal"],
                "done": [line(t) for t in done],
                "carried": [line(t) for t in carried],
                "next": {"name": nxt["name"], "goal": nxt["goal"]} if nxt else None,
                "path": str(DECKS / f"{end.isoformat()} {_safe(g['review_file'].format(sprint=s['name']))}.odp"),
                "when": when,
            }
        )
    return out


def _deck_slides(world: World, r: dict) -> list[tuple[str, list[str]]]:
    """The slides of review ``r`` after its title slide: ``[(heading, lines)]``."""
    g = note_words(world.persona.bank)

    def capped(lines: list[str]) -> list[str]:
        if len(lines) <= SLIDE_LINES:
            return lines
        return lines[: SLIDE_LINES - 1] + [g["review_more"].format(n=len(lines) - SLIDE_LINES + 1)]

    slides = [(g["review_goal"], [r["goal"]])]
    slides.append((g["review_done"].format(n=len(r["done"])), capped(r["done"]) or ["–"]))
    slides.append((g["review_carried"].format(n=len(r["carried"])), capped(r["carried"]) or [g["review_none"]]))
    if r["next"]:
        slides.append((g["review_next"].format(sprint=r["next"]["name"]), [r["next"]["goal"]]))
    return slides


def _deck_document(world: World, r: dict):
    """Review ``r`` as an odfpy ``OpenDocumentPresentation``: 16:9 slides, a title slide then one per
    :func:`_deck_slides` entry, each with a title frame and a text frame over a thin accent bar."""
    from odf.draw import Frame, Page, Rect, TextBox
    from odf.namespaces import PRESENTATIONNS
    from odf.opendocument import OpenDocumentPresentation
    from odf.style import (
        DrawingPageProperties,
        GraphicProperties,
        MasterPage,
        PageLayout,
        PageLayoutProperties,
        ParagraphProperties,
        Style,
        TextProperties,
    )
    from odf.text import P

    doc = OpenDocumentPresentation()
    layout = PageLayout(name="PM1")
    layout.addElement(
        PageLayoutProperties(
            margintop="0cm",
            marginbottom="0cm",
            marginleft="0cm",
            marginright="0cm",
            pagewidth="28cm",
            pageheight="15.75cm",
            printorientation="landscape",
        )
    )
    doc.automaticstyles.addElement(layout)
    background = Style(name="dp1", family="drawing-page")
    background.addElement(DrawingPageProperties(fill="solid", fillcolor="#ffffff"))
    doc.automaticstyles.addElement(background)
    master = MasterPage(name="Default", pagelayoutname=layout)
    doc.masterstyles.addElement(master)

    box_style = Style(name="pr1", family="presentation")
    box_style.addElement(
        GraphicProperties(
            fill="none", stroke="none", textareaverticalalign="top", shrinktofit="false", fittosize="false"
        )
    )
    doc.automaticstyles.addElement(box_style)

    def text_style(name: str, size: str, bold: bool, colour: str, align: str = "start") -> Style:
        st = Style(name=name, family="paragraph")
        st.addElement(ParagraphProperties(textalign=align, margintop="0.1cm", marginbottom="0.35cm"))
        st.addElement(
            TextProperties(
                fontsize=size, fontfamily="Liberation Sans", color=colour, **({"fontweight": "bold"} if bold else {})
            )
        )
        doc.automaticstyles.addElement(st)
        return st

    cover = text_style("P1", "36pt", True, "#1f2a44", "center")
    cover_sub = text_style("P2", "18pt", False, "#55607a", "center")
    heading = text_style("P3", "32pt", True, "#1f2a44")
    body = text_style("P4", "22pt", False, "#1f2a44")
    bar = Style(name="gr1", family="graphic")
    bar.addElement(GraphicProperties(fill="solid", fillcolor="#3a6fd8", stroke="none"))
    doc.automaticstyles.addElement(bar)

    def page(n: int) -> Page:
        p = Page(name=f"page{n}", stylename=background, masterpagename=master)
        p.addElement(Rect(stylename=bar, x="0cm", y="0cm", width="28cm", height="0.5cm"))
        doc.presentation.addElement(p)
        return p

    def frame(p: Page, style: Style, kind: str, y: str, height: str, lines: list[str]) -> None:
        f = Frame(stylename=box_style, x="1.8cm", y=y, width="24.4cm", height=height)
        f.setAttrNS(PRESENTATIONNS, "class", kind)
        box = TextBox()
        for text in lines:
            box.addElement(P(stylename=style, text=text))
        f.addElement(box)
        p.addElement(f)

    first = page(1)
    frame(first, cover, "title", "5cm", "2.6cm", [r["title"]])
    frame(first, cover_sub, "subtitle", "8cm", "1.6cm", [r["subtitle"]])
    for n, (title, lines) in enumerate(_deck_slides(world, r), start=2):
        p = page(n)
        frame(p, heading, "title", "1.2cm", "2cm", [title])
        frame(p, body, "outline", "3.6cm", "11cm", [f"• {x}" for x in lines])
    return doc


def _deck_odp(world: World, r: dict) -> bytes:
    data = odf_bytes(lambda: _deck_document(world, r))
    return _with_meta(data, r["when"])


def _fixed_meta(when: dt.datetime) -> bytes:
    stamp = when.replace(microsecond=0).isoformat()
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta xmlns:office="urn:oasis:names:tc:'
        'opendocument:xmlns:office:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
        'office:version="1.2"><office:meta><meta:generator>Cairn</meta:generator>'
        f"<meta:creation-date>{stamp}</meta:creation-date></office:meta></office:document-meta>"
    ).encode()


def _notes_md(world: World, n: dict) -> bytes:
    g = note_words(world.persona.bank)
    lines = [
        f"# {n['title']}",
        "",
        f"**{g['attendees']}:** {', '.join(n['attendees'])}",
        "",
        f"## {g['decisions']}",
        "",
    ]
    lines += [f"- {d['text']}" for d in n["decisions"]] or [f"- {g['nothing']}"]
    return ("\n".join(lines) + "\n").encode()


def write_documents(world: World, home: Path) -> None:
    """Write every brief, meeting note and sprint review deck under ``home`` (see module docstring); nothing without
    a board."""
    b = board(world)
    if not b["tickets"]:
        return
    for pr, info in zip(b["projects"], briefs(world)):
        _write(home / info["path"], _brief_docx(world, b, pr, info), info["when"], world.persona.timezone)
    for n in meeting_notes(world):
        data = _notes_odt(world, n) if n["path"].endswith(".odt") else _notes_md(world, n)
        _write(home / n["path"], data, n["when"], world.persona.timezone)
    for r in sprint_reviews(world):
        _write(home / r["path"], _deck_odp(world, r), r["when"], world.persona.timezone)
