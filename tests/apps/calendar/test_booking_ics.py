"""A booking's calendar file, from the confirmation mail into Daybook.

The world attaches ``<PNR>.ics`` to every flight booking confirmation and
``reservation-<confirmation>.ics`` to every hotel booking (METHOD:PUBLISH, one VEVENT per
flight leg or the stay), with the UIDs of the calendar's own entries. "Add to Daybook" in the
mail app sends the file to the calendar over loopback: the entries already there are found by
UID (nothing doubles), one the persona deleted comes back.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import urllib.error
import urllib.parse
import urllib.request
from zoneinfo import ZoneInfo

import icalendar

from tests.app_e2e import Served, app


def _booking_mails(world):
    """Booking confirmations with their calendar (a schedule change's revised itinerary is not one)."""
    return [
        e
        for e in world.of_kind("email")
        if e.status == "done"
        and e.data.get("series") != "schedule_change"
        and any("method=PUBLISH" in a.get("content_type", "") for a in e.data.get("attachments", []))
    ]


def test_every_booking_mail_carries_its_calendar(world):
    mails = _booking_mails(world)
    flights = [b for b in world.of_kind("flight_booking") if b.at <= world.now]
    hotels = [b for b in world.of_kind("hotel_booking") if b.at <= world.now]
    assert len(mails) == len(flights) + len(hotels) > 0
    cal_uids = {c.data["uid"]: c for c in world.of_kind("calendar_event") if c.data.get("uid")}
    for b in flights:
        legs = [f for f in world.of_kind("flight") if f.data["pnr"] == b.data["pnr"]]
        mail = next(m for m in mails if any(a["filename"] == f"{b.data['pnr']}.ics" for a in m.data["attachments"]))
        att = next(a for a in mail.data["attachments"] if a["filename"].endswith(".ics"))
        cal = icalendar.Calendar.from_ical(att["content"])
        events = cal.walk("VEVENT")
        assert str(cal["METHOD"]) == "PUBLISH" and len(events) == len(legs)
        for ev, leg in zip(events, legs):
            assert str(ev["UID"]) in cal_uids and cal_uids[str(ev["UID"])].data["ref"] == leg.id
            assert ev["DTSTART"].dt.isoformat().replace("+00:00", "Z") == leg.data["dep_utc"]
            assert leg.data["flight_number"] in str(ev["SUMMARY"])
        assert all(len(line.encode()) <= 75 for line in att["content"].split("\r\n"))


def _post(served: Served, host: str, path: str, form: dict, cookie: str) -> tuple[int, str]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{served.port}{path}",
        data=urllib.parse.urlencode(form).encode(),
        method="POST",
        headers={"Host": host, "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
    )

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(req, timeout=30) as r:
            return r.status, r.headers.get("Location", "")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Location", "")


def test_add_to_daybook_from_the_confirmation(site_build, world, default_layer, tmp_path):
    from apps.mail.seed import credentials

    mail, cal = app("mail"), app("calendar")
    cookie = f"{mail.session_cookie}={credentials(world)['session_token']}"
    upcoming = next(
        b
        for b in world.of_kind("flight_booking")
        if b.at <= world.now and b.data["itinerary"][0]["dep_local"][:19] > world.now.isoformat()
    )
    pnr = upcoming.data["pnr"]
    legs = [f for f in world.of_kind("flight") if f.data["pnr"] == pnr]
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        with sqlite3.connect(served.database("mail")) as c:
            att_id, thread = c.execute(
                "SELECT a.id, m.thread_id FROM attachments a JOIN messages m ON m.id = a.message_id"
                " WHERE a.filename = ?",
                (f"{pnr}.ics",),
            ).fetchone()
        caldb = served.database("calendar")
        with sqlite3.connect(caldb) as c:
            before = c.execute("SELECT COUNT(*) FROM events").fetchone()[0]
            marks = ",".join("?" * len(legs))
            uids = [
                u
                for (u,) in c.execute(
                    f"SELECT uid FROM events WHERE ref IN ({marks}) ORDER BY start_utc", [leg.id for leg in legs]
                )
            ]
        assert len(uids) == len(legs), "the calendar's flight entries carry ref = the flight event"
        back = f"/t/{thread}"
        status, loc = _post(served, mail.domain, "/api/calendar-add", {"attachment": att_id, "back": back}, cookie)
        assert status == 303 and "notice=" in loc and "Already" in urllib.parse.unquote_plus(loc), loc
        with sqlite3.connect(caldb) as c:
            assert c.execute("SELECT COUNT(*) FROM events").fetchone()[0] == before
            # The persona deleted the return flight; adding the file again brings it back, once.
            c.execute("DELETE FROM attendees WHERE event_id IN (SELECT id FROM events WHERE uid = ?)", (uids[-1],))
            c.execute("DELETE FROM reminders WHERE event_id IN (SELECT id FROM events WHERE uid = ?)", (uids[-1],))
            c.execute("DELETE FROM events WHERE uid = ?", (uids[-1],))
        status, loc = _post(served, mail.domain, "/api/calendar-add", {"attachment": att_id, "back": back}, cookie)
        text = urllib.parse.unquote_plus(loc)
        assert status == 303 and f"Added to Daybook: 1 of {len(legs)} events" in text, text
        with sqlite3.connect(caldb) as c:
            assert c.execute("SELECT COUNT(*) FROM events").fetchone()[0] == before
            assert c.execute(
                "SELECT COUNT(*) FROM events WHERE uid = ? AND source = 'ics'", (uids[-1],)
            ).fetchone() == (1,)
        # Not a calendar file / someone else's id: a clear error, nothing changes.
        status, loc = _post(served, mail.domain, "/api/calendar-add", {"attachment": 99999999, "back": back}, cookie)
        assert status == 303 and "error=" in loc
        assert cal.domain


def test_app_booking_mails_add_to_daybook(site_build, world, default_layer, tmp_path):
    """A flight booked on Meridian Air and a stay booked on Bramblestay mail their own ``.ics``
    (@persona/platform/ics); "Add to Daybook" adds each to the calendar with its UID and times, once."""
    from apps.airline.seed import credentials as air_credentials
    from builder.tasks.collect import tasks_of

    air_tasks = tasks_of("airline")
    from apps.mail.seed import credentials
    from apps.stays.inventory import inventory
    from apps.stays.seed import credentials as stays_credentials

    from tests.apps.stays.test_web import world_facts as stays_facts

    mail, cal, air, stays = app("mail"), app("calendar"), app("airline"), app("stays")
    mail_cookie = f"{mail.session_cookie}={credentials(world)['session_token']}"
    book = next(t for t in air_tasks(world) if t.id.endswith("/book-flight")).expected
    rental = stays_facts(world)["rental"]
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        status, loc = _post(
            served,
            air.domain,
            "/api/bookings",
            {
                "origin": book["origin"],
                "destination": book["destination"],
                "out": book["option"],
                "family": "MAIN",
                "card": "1",
            },
            f"{air.session_cookie}={air_credentials(world)['session_token']}",
        )
        assert status == 303 and "booked=1" in loc, loc
        with sqlite3.connect(served.database("airline")) as c:
            pnr, dep, arr = c.execute(
                "SELECT b.pnr, s.dep_utc, s.arr_utc FROM bookings b JOIN segments s ON s.booking_id = b.id "
                "WHERE b.world_ref IS NULL ORDER BY s.position"
            ).fetchone()
        with sqlite3.connect(served.database("stays")) as c:
            room = c.execute(
                "SELECT r.id FROM rooms r JOIN properties p ON p.id = r.property_id WHERE p.slug = ? ORDER BY r.id",
                (rental["slug"],),
            ).fetchone()[0]
        status, loc = _post(
            served,
            stays.domain,
            "/api/bookings",
            {
                "p": rental["slug"],
                "room": room,
                "plan": rental["plan"],
                "checkin": rental["checkin"],
                "checkout": rental["checkout"],
                "guests": 2,
                "card": 1,
                "request": "",
            },
            f"{stays.session_cookie}={stays_credentials(world)['session_token']}",
        )
        assert status == 303 and "booked=1" in loc, loc
        conf = loc.split("/trips/")[1].split("?")[0]
        zone = next(c["zone"] for c in inventory(world) for p in c["properties"] if p["slug"] == rental["slug"])
        expected = {
            f"{pnr}.ics": (f"{pnr}-1@meridianair.test", dt.datetime.fromisoformat(dep), dt.datetime.fromisoformat(arr)),
            f"reservation-{conf}.ics": (
                f"{conf}@bramblestay.test",
                dt.datetime.combine(dt.date.fromisoformat(rental["checkin"]), dt.time(15), ZoneInfo(zone)),
                dt.datetime.combine(dt.date.fromisoformat(rental["checkout"]), dt.time(11), ZoneInfo(zone)),
            ),
        }
        for filename, (uid, start, end) in expected.items():
            with sqlite3.connect(served.database("mail")) as c:
                att_id, thread = c.execute(
                    "SELECT a.id, m.thread_id FROM attachments a JOIN messages m ON m.id = a.message_id "
                    "WHERE a.filename = ? AND m.world_ref IS NULL",
                    (filename,),
                ).fetchone()
            for attempt in range(2):
                status, loc = _post(
                    served,
                    mail.domain,
                    "/api/calendar-add",
                    {"attachment": att_id, "back": f"/t/{thread}"},
                    mail_cookie,
                )
                text = urllib.parse.unquote_plus(loc)
                assert status == 303 and ("Added to Daybook" if attempt == 0 else "Already") in text, text
            with sqlite3.connect(served.database("calendar")) as c:
                rows = c.execute("SELECT start_utc, end_utc FROM events WHERE uid = ?", (uid,)).fetchall()
            assert len(rows) == 1, (uid, rows)
            got = [dt.datetime.fromisoformat(x) for x in rows[0]]
            assert got == [start, end], (uid, rows)
        assert cal.domain


def test_schedule_change_mail_updates_the_flight_in_daybook(site_build, world, default_layer, tmp_path):
    """The airline's schedule-change mail (the planted ``chain/flight-change``) carries the changed legs at
    SEQUENCE 1 under the calendar's own UIDs: "Add to Daybook" moves the entry (a newer revision), once."""
    from apps.mail.seed import credentials

    item = next(x for x in world.planted if x["id"] == "chain/flight-change")
    new_number = next(s["new_flight"] for s in item["steps"] if s["step"] == "airline_change")
    new_utc = dt.datetime.fromisoformat(item["new_departure"]).astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    mail = app("mail")
    cookie = f"{mail.session_cookie}={credentials(world)['session_token']}"
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        with sqlite3.connect(served.database("mail")) as c:
            att_id, thread = c.execute(
                "SELECT a.id, m.thread_id FROM attachments a JOIN messages m ON m.id = a.message_id"
                " WHERE a.filename = ?",
                (f"{item['pnr']}-changed.ics",),
            ).fetchone()
        caldb = served.database("calendar")
        with sqlite3.connect(caldb) as c:
            before = c.execute("SELECT COUNT(*) FROM events").fetchone()[0]
            uid, start, seq = c.execute(
                "SELECT uid, start_utc, sequence FROM events WHERE ref = ?", (item["flight_id"],)
            ).fetchone()
        assert start != new_utc and seq == 0
        for attempt, want in enumerate(("Updated in Daybook: the event", "Already in Daybook")):
            status, loc = _post(
                served, mail.domain, "/api/calendar-add", {"attachment": att_id, "back": f"/t/{thread}"}, cookie
            )
            assert status == 303 and want in urllib.parse.unquote_plus(loc), (attempt, loc)
        with sqlite3.connect(caldb) as c:
            assert c.execute("SELECT COUNT(*) FROM events").fetchone()[0] == before
            title, start, seq, edited = c.execute(
                "SELECT title, start_utc, sequence, edited_at FROM events WHERE uid = ?", (uid,)
            ).fetchone()
        assert (start, seq) == (new_utc, 1) and new_number in title and edited
