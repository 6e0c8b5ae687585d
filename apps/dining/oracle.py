"""Reference solutions of TableTime's action tasks, through its HTTP routes (see builder.tasks.oracle)."""

from __future__ import annotations

from apps.calendar import steps as daybook
from apps.dining import steps as tabletime
from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "dining"


def _expect(location: str, marker: str) -> None:
    if marker not in location:
        raise OracleError(f"TableTime did not confirm ({marker!r} not in {location!r})")


def cancel_upcoming(task: Task, web: Web) -> str:
    conf = task.expected["confirmation"]
    _, location = web.post_form(APP, "/api/reservations/cancel", [("confirmation", conf), ("confirm", "yes")])
    _expect(location, "done=cancelled")
    return f"Cancelled reservation {conf}."


def bigger_party(task: Task, web: Web) -> str:
    exp = task.expected
    fields = [
        ("confirmation", exp["confirmation"]),
        ("date", exp["day"]),
        ("time", exp["time"]),
        ("party", str(exp["party"])),
    ]
    _, location = web.post_form(APP, "/api/reservations/modify", fields)
    _expect(location, "done=modified")
    return f"The reservation is now for {exp['party']} at {exp['time']}."


def book(task: Task, web: Web) -> str:
    exp = task.expected
    fields = [
        ("r", exp["slug"]),
        ("date", exp["day"]),
        ("time", exp["time"]),
        ("party", str(exp["party"])),
        ("request", ""),
    ]
    _, location = web.post_form(APP, "/api/reservations", fields)
    _expect(location, "done=booked")
    return f"Booked {exp['restaurant']} for {exp['party']} on {exp['day']} at {exp['time']}."


def review_last(task: Task, web: Web) -> str:
    exp = task.expected
    fields = [
        ("confirmation", exp["confirmation"]),
        ("rating", str(exp["rating"])),
        ("body", "Lovely evening: great food and friendly service."),
    ]
    _, location = web.post_form(APP, "/api/reviews", fields)
    _expect(location, "done=reviewed")
    return "Review posted."


def save_top_spend(task: Task, web: Web) -> str:
    exp = task.expected
    _, location = web.post_form(APP, "/api/favorites", [("slug", exp["slug"]), ("on", "1")])
    _expect(location, "saved=1")
    return f"Saved {exp['restaurant']} ({exp['spend_cents'] / 100:,.2f} this year) to your favourites."


def split_the_bill(task: Task, web: Web) -> str:
    exp = task.expected
    share = f"{exp['share_cents'] // 100}.{exp['share_cents'] % 100:02d}"
    for name in exp["companions"]:
        conv = web.one(
            "messaging",
            "SELECT c.id FROM conversations c JOIN contacts k ON k.id = c.contact_id "
            "WHERE c.kind = 'direct' AND k.name = ?",
            (name,),
        )
        text = f"Dinner came to {exp['charged_cents'] / 100:.2f} for the {exp['party']} of us, so {share} each. Thanks!"
        web.post_form("messaging", "/api/messages", [("conversation", str(conv)), ("body", text)], expect=(303,))
    return (
        f"{exp['charged_cents'] / 100:.2f} split {exp['party']} ways is {share} each; asked "
        f"{', '.join(exp['companions'])}."
    )


SOLVERS = {
    "cancel-upcoming": cancel_upcoming,
    "bigger-party": bigger_party,
    "book-table": book,
    "book-friends": book,
    "review-last": review_last,
    "save-top-spend": save_top_spend,
    "split-the-bill": split_the_bill,
}


def friends_dinner(task: Task, web: Web) -> str:
    """Book, into Daybook from the confirmation mail, the group in Parley, the ride there."""

    exp = task.expected
    conf = tabletime.book(web, exp["slug"], exp["day"], exp["time"], exp["party"])
    mailbox.add_to_calendar(web, conf)
    parley.group_send(
        web,
        exp["title"],
        exp["crew"],
        f"Dinner at {exp['restaurant']}, {exp['day']} at {exp['time']}! I booked a table for us.",
    )
    zipride.schedule(web, "Home", exp["address"], exp["ride_at"])
    return f"Booked {exp['restaurant']} ({conf}), added it to the calendar, told the group and booked the ride."


SOLVERS.update({"friends-dinner": friends_dinner})


def team_dinner(task: Task, web: Web) -> str:
    """Book, the work calendar, the team channel, the lead's mail, the ride home."""
    from apps.workchat import steps as huddle

    exp = task.expected
    conf = tabletime.book(web, exp["slug"], exp["day"], exp["time"], exp["party"])
    daybook.create(
        web,
        title=f"Team dinner at {exp['restaurant']}",
        date=exp["day"],
        start_time=exp["time"],
        end_time="22:00",
        calendar="work",
        location=exp["address"],
    )
    text = f"Team dinner at {exp['restaurant']} on {exp['day']} at 7:30 pm: table booked for {exp['party']} ({conf})."
    huddle.post(web, exp["channel"], text)
    mailbox.send(web, exp["lead_email"], "Team dinner", f"Hi {exp['lead'].split()[0]},\n\n{text}\n")
    zipride.schedule(web, exp["address"], "Home", exp["ride_at"])
    return f"Booked {exp['restaurant']} ({conf}), blocked the work calendar, posted, mailed, booked the ride home."


SOLVERS.update({"team-dinner": team_dinner})


def trip_dinner(task: Task, web: Web) -> str:
    """Book the best-rated place of the destination, the calendar entry, the text with place, time and hotel."""
    exp = task.expected
    conf = tabletime.book(web, exp["slug"], exp["day"], exp["time"], exp["party"])
    daybook.create(
        web, title=f"Dinner at {exp['restaurant']}", date=exp["day"], start_time=exp["time"], end_time="21:30"
    )
    parley.send(
        web,
        exp["contact"],
        f"Dinner at {exp['restaurant']} on {exp['day']} at 7:30 pm (I booked it). Our hotel is {exp['hotel']}.",
    )
    return f"Booked {exp['restaurant']} in {exp['city']} ({conf}) for {exp['day']} 19:30, calendar, texted."


SOLVERS.update({"trip-dinner": trip_dinner})


def dinner_time_mixup(task: Task, web: Web) -> str:
    """The booked time to the friend, the ride there, the reminder in Daybook."""
    import datetime as dt

    exp = task.expected
    at = dt.datetime.fromisoformat(exp["time"])
    parley.send(web, exp["friend"], f"Checked TableTime: our table at {exp['restaurant']} is at {at:%H:%M}, not later!")
    zipride.schedule(web, "Home", exp["address"], exp["ride_at"])
    rem = dt.datetime.fromisoformat(exp["reminder"])
    daybook.create(
        web,
        title="Leave for dinner",
        date=f"{rem:%Y-%m-%d}",
        start_time=f"{rem:%H:%M}",
        end_date=f"{rem:%Y-%m-%d}",
        end_time=f"{rem + dt.timedelta(minutes=15):%H:%M}",
    )
    return f"The table is at {at:%H:%M}; told {exp['friend']}, booked the ride and added the reminder."


SOLVERS.update({"dinner-time-mixup": dinner_time_mixup})
