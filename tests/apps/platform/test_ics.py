"""@persona/platform/ics (apps/_platform/src/ics.ts) from node, read back with Python ``icalendar``.

The TypeScript module is transpiled with the checkout's own ``typescript`` (apps/node_modules) into a
temporary ES module, called from a small node script with a long German/emoji summary, commas,
semicolons, backslashes and line breaks, and the result is parsed by an independent reader. The world's
booking ``.ics`` (builder/world/mail.py) is the model: same header lines, UTC times, 75-octet folding.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import icalendar
import pytest

ROOT = Path(__file__).resolve().parents[3]
ICS_TS = ROOT / "apps/_platform/src/ics.ts"
TYPESCRIPT = ROOT / "apps/node_modules/typescript"

SUMMARY = (
    "Übernachtung im Gästehaus „Zur schönen Aussicht“ 🏨🌄, Zimmer 3; Frühstück inklusive \\ "
    "Anreise ab 15:00 – Straße der Pariser Kommune 12, Berlin-Friedrichshain 👩‍👩‍👧 ✈️"
)
DESCRIPTION = "Buchungscode BR12345678\nStornierung: kostenlos bis 13.12.2026, 15:00;\nDanach keine Erstattung, sorry!"


def _run_node(tmp_path: Path, script: str) -> str:
    if shutil.which("node") is None or not TYPESCRIPT.exists():
        pytest.skip("node or apps/node_modules/typescript missing (run scripts/setup-deps.sh)")
    mod = tmp_path / "ics.mjs"
    transpile = (
        f"const ts = require({json.dumps(str(TYPESCRIPT))});"
        f"const src = require('fs').readFileSync({json.dumps(str(ICS_TS))}, 'utf8');"
        "const out = ts.transpileModule(src, {compilerOptions: {module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022}});"
        f"require('fs').writeFileSync({json.dumps(str(mod))}, out.outputText);"
    )
    subprocess.run(["node", "-e", transpile], check=True, timeout=60)
    (tmp_path / "run.mjs").write_text(f"import * as ics from {json.dumps(mod.as_uri())};\n{script}", encoding="utf-8")
    return subprocess.run(
        ["node", str(tmp_path / "run.mjs")], check=True, capture_output=True, timeout=60
    ).stdout.decode()


def test_ics_writer_round_trips_through_icalendar(tmp_path):
    args = json.dumps({"summary": SUMMARY, "description": DESCRIPTION})
    out = _run_node(
        tmp_path,
        f"""
const a = {args};
process.stdout.write(JSON.stringify({{
  cal: ics.icsCalendar({{ prodid: "-//Bramblestay//Trips//EN", stamp: "2026-11-16T18:05:09.123Z", events: [
    {{ uid: ics.icsUid("BR12345678", "http://bramblestay.test/"), start: "2026-12-15T15:00:00+01:00", end: "2026-12-18T11:00:00+01:00",
      summary: a.summary, location: "Straße der Pariser Kommune 12, 10243 Berlin; Hinterhaus", description: a.description }},
    {{ uid: "day-1@bramblestay.test", start: "2026-12-15", end: "2026-12-18", summary: "Reise nach Berlin", allDay: true, sequence: 2 }},
  ] }}),
  text: ics.icsText("a,b;c\\\\d\\ne"),
  naive: (() => {{ try {{ ics.icsUtc("2026-12-15T15:00:00"); return "accepted"; }} catch (e) {{ return e.constructor.name; }} }})(),
}}));
""",
    )
    got = json.loads(out)
    raw: str = got["cal"]
    assert got["text"] == "a\\,b\\;c\\\\d\\ne"
    assert got["naive"] == "IcsError", "a time without a zone is refused"
    # CRLF everywhere, no line over 75 octets, continuation lines start with one space, no character split.
    assert raw.endswith("\r\n") and "\n" not in raw.replace("\r\n", "")
    lines = raw.split("\r\n")[:-1]
    assert all(len(line.encode("utf-8")) <= 75 for line in lines)
    assert any(line.startswith(" ") for line in lines), "the long summary was folded"
    for line in lines:
        line.encode("utf-8").decode("utf-8")  # each physical line is whole UTF-8
    assert lines[:5] == [
        "BEGIN:VCALENDAR",
        "PRODID:-//Bramblestay//Trips//EN",
        "VERSION:2.0",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
    ]
    cal = icalendar.Calendar.from_ical(raw)
    assert str(cal["METHOD"]) == "PUBLISH"
    timed, allday = cal.walk("VEVENT")
    assert str(timed["UID"]) == "BR12345678@bramblestay.test"
    assert str(timed["SUMMARY"]) == SUMMARY
    assert str(timed["DESCRIPTION"]) == DESCRIPTION
    assert str(timed["LOCATION"]) == "Straße der Pariser Kommune 12, 10243 Berlin; Hinterhaus"
    assert timed["DTSTART"].dt.isoformat() == "2026-12-15T14:00:00+00:00"
    assert timed["DTEND"].dt.isoformat() == "2026-12-18T10:00:00+00:00"
    assert timed["DTSTAMP"].dt.isoformat() == "2026-11-16T18:05:09+00:00"
    assert "DTSTART:20261215T140000Z" in lines
    assert allday["DTSTART"].dt.isoformat() == "2026-12-15" and allday["DTEND"].dt.isoformat() == "2026-12-18"
    assert int(allday["SEQUENCE"]) == 2


def test_ics_writer_matches_the_worlds_booking_ics(world, tmp_path):
    """The app writer and the world's template give the same text for the same event (header, properties,
    order, escaping, folding): a calendar file from an app and from the world look alike."""
    att = next(
        (
            a
            for e in world.of_kind("email")
            if e.status == "done"
            for a in e.data.get("attachments", [])
            if "method=PUBLISH" in a.get("content_type", "")
        ),
        None,
    )
    if att is None:
        pytest.skip("the world mailed no booking .ics")
    cal = icalendar.Calendar.from_ical(att["content"])
    ev = cal.walk("VEVENT")[0]
    event = {
        "uid": str(ev["UID"]),
        "start": ev["DTSTART"].dt.isoformat(),
        "end": ev["DTEND"].dt.isoformat(),
        "summary": str(ev["SUMMARY"]),
        "location": str(ev.get("LOCATION", "")),
        "description": str(ev.get("DESCRIPTION", "")),
    }
    stamp = ev["DTSTAMP"].dt.isoformat()
    out = _run_node(
        tmp_path,
        f"process.stdout.write(ics.icsCalendar({{ prodid: {json.dumps(str(cal['PRODID']))}, "
        f"stamp: {json.dumps(stamp)}, events: [{json.dumps(event)}] }}));",
    )
    world_lines = att["content"].split("\r\n")
    first_event = world_lines[: world_lines.index("END:VEVENT") + 1]
    assert out.split("\r\n")[: len(first_event)] == first_event
