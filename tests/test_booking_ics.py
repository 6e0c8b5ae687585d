"""A booking's calendar file, from the confirmation mail into Daybook.

The world attaches ``<PNR>.ics`` to every flight booking confirmation and
``reservation-<confirmation>.ics`` to every hotel booking (METHOD:PUBLISH, one VEVENT per
flight leg or the stay), with the UIDs of the calendar's own entries. "Add to Daybook" in the
mail app sends the file to the calendar over loopback: the entries already there are found by
UID (nothing doubles), one the persona deleted comes back.
"""

from __future__ import annotations

import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import icalendar

from .app_e2e import Served, app


def _booking_mails(world):
    return [e for e in world.of_kind("email") if e.status == "done"
            and any("method=PUBLISH" in a.get("content_type", "") for a in e.data.get("attachments", []))]


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
    req = urllib.request.Request(f"http://127.0.0.1:{served.port}{path}", data=urllib.parse.urlencode(form).encode(),
                                 method="POST", headers={"Host": host, "Cookie": cookie,
                                                         "Content-Type": "application/x-www-form-urlencoded"})

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):
            return None

    try:
        with urllib.request.build_opener(NoRedirect).open(req, timeout=30) as r:
            return r.status, r.headers.get("Location", "")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Location", "")


def test_add_to_daybook_from_the_confirmation(world, default_layer, tmp_path):
    from apps.mail.seed import credentials

    mail, cal = app("mail"), app("calendar")
    cookie = f"{mail.session_cookie}={credentials(world)['session_token']}"
    upcoming = next(b for b in world.of_kind("flight_booking") if b.at <= world.now
                    and b.data["itinerary"][0]["dep_local"][:19] > world.now.isoformat())
    pnr = upcoming.data["pnr"]
    legs = [f for f in world.of_kind("flight") if f.data["pnr"] == pnr]
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        with sqlite3.connect(served.database("mail")) as c:
            att_id, thread = c.execute("SELECT a.id, m.thread_id FROM attachments a JOIN messages m ON m.id = a.message_id"
                                       " WHERE a.filename = ?", (f"{pnr}.ics",)).fetchone()
        caldb = served.database("calendar")
        with sqlite3.connect(caldb) as c:
            before = c.execute("SELECT COUNT(*) FROM events").fetchone()[0]
            uids = [u for (u,) in c.execute("SELECT uid FROM events WHERE ref IN (%s) ORDER BY start_utc"
                                            % ",".join("?" * len(legs)), [leg.id for leg in legs])]
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
            assert c.execute("SELECT COUNT(*) FROM events WHERE uid = ? AND source = 'ics'", (uids[-1],)).fetchone() == (1,)
        # Not a calendar file / someone else's id: a clear error, nothing changes.
        status, loc = _post(served, mail.domain, "/api/calendar-add", {"attachment": 99999999, "back": back}, cookie)
        assert status == 303 and "error=" in loc
        assert cal.domain
