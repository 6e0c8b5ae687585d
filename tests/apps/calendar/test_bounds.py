"""Daybook (calendar) under never-ending series: every export and expansion is bounded (issue 24).

A weekly event with no end, made with the app's own form, and two imported series (DAILY with an UNTIL in the
year 9999, WEEKLY with a COUNT of two billion) are exported as iCalendar files, the whole calendar and each
event: each answers in well under a second with a small file that keeps the RRULE as written (never expanded)
and time-zone rules for the years the events use plus a yearly rule for the rest, and parses with ``icalendar``.
While exports run, another app's sign-in page (one Node process serves every app) answers promptly. The
occurrences route reads a never-ending series a page (at most ten years) at a time and refuses longer or
malformed ranges with a 400 and a message; the range route does the same for its 400 days.
"""

from __future__ import annotations

import datetime as dt
import http.client
import sqlite3
import threading
import time
import urllib.parse
from zoneinfo import ZoneInfo

import icalendar
import pytest

from apps.calendar import seed as cal_seed

from tests.app_e2e import Served, app, site

# Every test here serves the site build (tests/app_e2e.py): out of the fast lane.
pytestmark = pytest.mark.usefixtures("site_build")

HOST = "daybook.test"
MAX_EXPORT_BYTES = 64 * 1024  # one series' file
MAX_GROWTH_BYTES = 16 * 1024  # what the three series add to the whole calendar's file (their VEVENTs and zone rules)
IMPORT = "\r\n".join(
    [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Test//Bounds//EN",
        "BEGIN:VEVENT",
        "UID:daily-until-9999@bounds.test",
        "DTSTAMP:20261101T000000Z",
        "DTSTART;TZID=Europe/Berlin:20261120T083000",
        "DTEND;TZID=Europe/Berlin:20261120T090000",
        "RRULE:FREQ=DAILY;UNTIL=99991231T235959Z",
        "SUMMARY:Daily until 9999",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:weekly-huge-count@bounds.test",
        "DTSTAMP:20261101T000000Z",
        "DTSTART;TZID=America/New_York:20261123T180000",
        "DTEND;TZID=America/New_York:20261123T190000",
        "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=2000000000",
        "SUMMARY:Weekly two billion times",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
    ]
)


def _request(
    port: int, method: str, host: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes, float]:
    """One request, redirects not followed: (status, headers, body, seconds it took)."""
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request(method, path, body=body, headers={"Host": host, **(headers or {})})
        res = conn.getresponse()
        data = res.read()
        return res.status, {k.lower(): v for k, v in res.getheaders()}, data, time.monotonic() - start
    finally:
        conn.close()


def _other_app():
    """Another app of this build and its sign-in page (the bank's when it is built)."""
    names = [a.name for a in site().apps if a.name != "calendar"]
    assert names, "the build serves only the calendar"
    return app("bank" if "bank" in names else names[0])


def test_never_ending_series_export_and_expand_within_bounds(world, default_layer, tmp_path):
    cookie = f"{app('calendar').session_cookie}={cal_seed.credentials(world)['session_token']}"
    now = world.now
    with Served(default_layer, tmp_path, now=now.isoformat()[:19]) as served:
        port = served.port

        def get(path: str, host: str = HOST):
            return _request(port, "GET", host, path, headers={"Cookie": cookie})

        status, _, seeded, _ = get("/calendar.ics")
        assert status == 200
        # A weekly event with no end, through the app's own form route.
        day = (now.date() + dt.timedelta(days=2)).isoformat()
        form = {
            "title": "Weekly forever",
            "date": day,
            "start_time": "10:00",
            "end_date": day,
            "end_time": "11:00",
            "calendar": "personal",
            "repeat": "weekly",
            "reminder": "",
        }
        status, hdrs, _, _ = _request(
            port,
            "POST",
            HOST,
            "/api/events",
            urllib.parse.urlencode(form).encode(),
            {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
        )
        assert status == 303 and "notice=created" in hdrs["location"], (status, hdrs)
        weekly = hdrs["location"].split("?")[0].rsplit("/", 1)[-1]
        # DAILY until the year 9999 and WEEKLY with COUNT=2000000000, through the app's import form.
        boundary = "----daybook-bounds"
        body = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="series.ics"\r\n'
            f"Content-Type: text/calendar\r\n\r\n{IMPORT}\r\n--{boundary}--\r\n"
        ).encode()
        status, hdrs, _, _ = _request(
            port,
            "POST",
            HOST,
            "/api/import",
            body,
            {"Cookie": cookie, "Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        assert status == 303 and "notice=imported" in hdrs["location"], (status, hdrs)
        con = sqlite3.connect(served.database("calendar"))
        rows = {
            uid: (eid, rrule, last)
            for uid, eid, rrule, last in con.execute(
                "SELECT uid, id, rrule, last_utc FROM events WHERE uid LIKE '%@bounds.test' OR id = ?", (weekly,)
            )
        }
        con.close()
        daily, _, _ = rows["daily-until-9999@bounds.test"]
        counted, _, _ = rows["weekly-huge-count@bounds.test"]
        wd = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][dt.date.fromisoformat(day).weekday()]
        series = {
            weekly: f"FREQ=WEEKLY;BYDAY={wd}",
            daily: "FREQ=DAILY;UNTIL=99991231T235959Z",
            counted: "FREQ=WEEKLY;BYDAY=MO;COUNT=2000000000",
        }
        assert {eid: rrule for eid, rrule, _ in rows.values()} == series
        assert all(last.startswith("9999-") for _, _, last in rows.values()), "none of the three ends within reach"

        # Exports: the whole calendar and each series, each while another app's sign-in page is asked for.
        other = _other_app()
        for path, wanted in [("/calendar.ics", set(series)), *((f"/events/{eid}/ics", {eid}) for eid in series)]:
            got: dict = {}
            thread = threading.Thread(target=lambda p=path: got.update(answer=get(p)))
            thread.start()
            status, _, page, secs = _request(port, "GET", other.domain, "/login")
            thread.join(60)
            assert status == 200 and b"<html" in page.lower(), f"{other.name} /login answered {status}"
            assert secs < 2, f"{other.name} /login waited {secs:.2f}s while {path} was exported"
            status, hdrs, raw, secs = got["answer"]
            assert status == 200 and hdrs["content-type"].startswith("text/calendar"), (path, status)
            assert secs < 1, f"{path} took {secs:.2f}s"
            if path == "/calendar.ics":
                assert len(raw) - len(seeded) < MAX_GROWTH_BYTES, f"{path} grew by {len(raw) - len(seeded)} bytes"
            else:
                assert len(raw) < MAX_EXPORT_BYTES, f"{path} is {len(raw)} bytes"
            cal = icalendar.Calendar.from_ical(raw)
            masters = {str(e["UID"]): e for e in cal.walk("VEVENT") if "RECURRENCE-ID" not in e}
            con = sqlite3.connect(served.database("calendar"))
            uids = dict(con.execute("SELECT id, uid FROM events"))
            con.close()
            for eid in wanted:
                ev = masters[uids[eid]]
                assert ev["RRULE"] == icalendar.vRecur.from_ical(series[eid]), "the RRULE stays the rule"
                assert f"RRULE:{series[eid]}".encode() in raw
            assert sum(1 for e in cal.walk("VEVENT") if uids[daily] == str(e["UID"])) <= 1, "never expanded"
            # The time-zone rules: right for the years the events use and, through the yearly rules, long after.
            zones = {str(z["TZID"]): z.to_tz(lookup_tzid=False) for z in cal.walk("VTIMEZONE")}  # from the file's rules
            for eid in wanted:
                tzid = masters[uids[eid]]["DTSTART"].params["TZID"]
                real = ZoneInfo(tzid)
                for year in (now.year, now.year + 5, now.year + 25, now.year + 60):
                    for month in (1, 7):
                        when = dt.datetime(year, month, 15, 12)
                        assert zones[tzid].utcoffset(when) == when.replace(tzinfo=real).utcoffset(), (path, tzid, when)
            if path == "/calendar.ics":
                assert len(masters) >= 100, "the seeded events are exported too"

        # Occurrences: a page of at most ten years, the next page named; longer or malformed ranges refused.
        status, _, raw, secs = get(f"/api/events/{daily}/occurrences")
        assert status == 200 and secs < 1, (status, secs)
        page = _json(raw)
        first, until = dt.date(2026, 11, 20), dt.date(2026, 11, 20) + dt.timedelta(days=3652)
        assert [o["start"] for o in page["occurrences"]] == [
            f"{first + dt.timedelta(days=i)}T08:30:00" for i in range((until - first).days + 1)
        ]
        assert (page["from"], page["until"]) == (str(first), str(until))
        assert page["next_from"] == str(until + dt.timedelta(days=1))
        status, _, raw, secs = get(f"/api/events/{counted}/occurrences?from=2190-01-01&until=2190-12-31")
        assert status == 200 and secs < 1
        mondays = [d for d in (dt.date(2190, 1, 1) + dt.timedelta(days=i) for i in range(365)) if d.weekday() == 0]
        assert [o["start"] for o in _json(raw)["occurrences"]] == [f"{d}T18:00:00" for d in mondays]
        for query, field in [
            ("from=1900-01-01&until=2199-12-31", "until"),
            ("until=9999-12-31", "until"),
            ("from=0001-01-01", "from"),
            ("from=tomorrow", "from"),
            ("from=2030-01-01&until=2029-12-31", "until"),
        ]:
            status, _, raw, secs = get(f"/api/events/{weekly}/occurrences?{query}")
            answer = _json(raw)
            assert status == 400 and answer["field"] == field and answer["error"], (query, status, answer)
            assert secs < 1, (query, secs)
        # The range route: far from the series' start the occurrences are still there; a long range is refused.
        status, _, raw, secs = get("/api/events?from=2199-12-20&to=2199-12-27")
        assert status == 200 and secs < 1
        found = [o["start"][:10] for o in _json(raw)["occurrences"] if o["eventId"] == daily]
        assert found == [f"2199-12-{d}" for d in range(20, 27)], found
        for query in ["from=1900-01-01&to=2199-12-31", "from=2026-01-01&to=9999-12-31", "from=x&to=y"]:
            status, _, raw, secs = get(f"/api/events?{query}")
            assert status == 400 and _json(raw)["error"] and secs < 1, (query, status)
        # The pages of a series far out still render promptly.
        for path in ["/week?date=2199-12-20", f"/events/{daily}", f"/events/{counted}?occ={mondays[0]}T18:00:00"]:
            status, _, _, secs = get(path)
            assert status == 200 and secs < 2, (path, status, secs)


def _json(raw: bytes):
    import json

    return json.loads(raw)
