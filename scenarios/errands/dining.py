"""TableTime's (the restaurant app's) errands across apps: the same group again, the restaurant with the biggest card
spend saved, the bill split in Parley (each among TableTime's own tasks), and after them dinner with friends, a
dinner time a friend mixed up, the team dinner, a dinner on a trip; each with its reference solution."""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict

from apps.calendar import steps as daybook
from apps.dining import steps as tabletime
from apps.dining.seed import OCCUPANCY_DAYS, listed, reservations
from apps.dining.tasks import APP, HOLDS, KIT, MAX_PARTY, day_text, history, in_use
from apps.mail import steps as mailbox
from apps.messaging import steps as parley
from apps.rides import steps as zipride
from builder.money import money
from builder.tasks import answers, effects, kit
from builder.tasks.collect import Scenario
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.oracle import OracleError, Web
from builder.world import World
from scenarios import ERRANDS


def long_tasks(world: World) -> list[Task]:
    """TableTime's long-horizon chain: dinner with the friends the persona eats out with most."""
    from zoneinfo import ZoneInfo

    from builder.tasks.phrasing import day_phrase

    p = world.persona
    friends = Counter(
        n for e in world.of_kind("restaurant_booking") if e.at <= world.now for n in e.data.get("companions") or ()
    )
    chatting = {c.name for c in p.contacts if "chat" in (c.apps or []) and c.phone}
    crew = sorted((n for n in friends if n in chatting), key=lambda n: (-friends[n], n))[:2]
    if len(crew) < 2:
        return []
    places = tabletime.restaurants_by_visits(world, set(crew))
    if not places:
        return []
    place = places[0]
    day = world.now.date() + dt.timedelta(days=14)
    while day.weekday() != 4:  # a Friday, at least two weeks out
        day += dt.timedelta(days=1)
    time = "19:00"
    at = dt.datetime.combine(day, dt.time(19, 0))
    zone = ZoneInfo(p.timezone)
    lo, hi = (at - dt.timedelta(minutes=45)).replace(tzinfo=zone), (at - dt.timedelta(minutes=15)).replace(tzinfo=zone)
    party = 1 + len(crew)
    firsts = " and ".join(n.split()[0] for n in crew)
    title = "Dinner crew"
    task = Task(
        id=f"{p.id}/{APP}/friends-dinner",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=[APP, "mail", "calendar", "messaging", "rides"],
        difficulty="hard",
        time_limit_seconds=1500,
        instruction=f"Plan a dinner with the two friends I eat out with most, at the restaurant we've booked together "
        f"most: book a table for the three of us {day_phrase(day, world.now.date())} at 7 pm on TableTime; "
        f'add it to my calendar from the confirmation email; start a Parley group called "{title}" with '
        "them and post where and when; and schedule a ZipRide from home to the restaurant that picks me "
        "up 15 to 45 minutes before.",
        expected={
            "slug": place["slug"],
            "restaurant": place["name"],
            "address": place["address"],
            "day": day.isoformat(),
            "time": time,
            "party": party,
            "crew": crew,
            "title": title,
            "ride_at": (at - dt.timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M"),
        },
        rubric=[
            RubricItem(
                id="booked",
                weight=25,
                requirement=f"{place['name']} booked for {party} on {day} at {time}",
                check=tabletime.booked(place["slug"], day.isoformat(), time, party),
            ),
            RubricItem(
                id="calendar",
                weight=15,
                requirement=f"Daybook has the dinner at {place['name']} on {day} at {time}",
                check=daybook.created(f"{day}T{time}", [[place["name"]]]),
            ),
            RubricItem(
                id="group",
                weight=20,
                requirement=f"A Parley group with {firsts} names {place['name']}",
                check=parley.sent_group(crew, [[place["name"]]]),
            ),
            RubricItem(
                id="group-says", weight=5, requirement="The group message gives the day and time (judge: read it)"
            ),
            RubricItem(
                id="ride",
                weight=20,
                requirement=f"A ZipRide Home -> {place['name']} picks me up between {lo:%H:%M} and {hi:%H:%M} on {day}",
                check=zipride.booked("Home", place["address"], lo.isoformat(), hi.isoformat()),
            ),
            RubricItem(
                id="only",
                weight=15,
                requirement="Nothing else changed at TableTime: only the new reservation",
                check=tabletime.only_booking(),
            ),
        ],
    )
    return [
        effects.acting(
            task,
            ("calendar", "the dinner added", daybook.new_events(1)),
            ("messaging", f'the group "{title}" and its message (and the replies)', parley.texts(1, 4, groups=1)),
            ("rides", "the ride to the restaurant", zipride.new_rides(1)),
        )
    ]


def team_dinner_task(world: World) -> list[Task]:
    """A team dinner (five apps): book the persona's most-booked restaurant for them and their colleagues on a Friday
    three weeks out, the work calendar, the team's Huddle channel, a mail to the lead, a ZipRide home afterwards."""
    from zoneinfo import ZoneInfo

    from apps.mail import steps as mailbox
    from apps.workchat import steps as huddle
    from builder.tasks import steps as S
    from builder.tasks.phrasing import day_phrase

    p = world.persona
    colleagues = list(p.work.colleagues) if p.work else []
    lead_of, team = S.work_lead(world), S.team_channel(world)
    places = tabletime.restaurants_by_visits(world)
    if not colleagues or lead_of is None or team is None or not places:
        return []
    lead, lead_email = lead_of
    crew = colleagues[:4]
    place = places[0]
    day = world.now.date() + dt.timedelta(days=21)
    while day.weekday() != 4:  # a Friday three weeks out or later (ZipRide schedules up to 30 days ahead)
        day += dt.timedelta(days=1)
    time, party = "19:30", 1 + len(crew)
    zone = ZoneInfo(p.timezone)
    home_at = dt.datetime.combine(day, dt.time(22, 30)).replace(tzinfo=zone)
    lo, hi = home_at - dt.timedelta(minutes=15), home_at + dt.timedelta(minutes=15)
    names = (
        ", ".join(n.split()[0] for n in crew[:-1]) + f" and {crew[-1].split()[0]}"
        if len(crew) > 1
        else crew[0].split()[0]
    )
    task = Task(
        id=f"{p.id}/{APP}/team-dinner",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=[APP, "calendar", "workchat", "mail", "rides"],
        difficulty="hard",
        time_limit_seconds=1500,
        instruction=f"Organise a team dinner with {names}: book a table for the {party} of us at {place['name']} "
        f"{day_phrase(day, world.now.date())} at 7:30 pm on TableTime; put it in my work calendar; post "
        f"the restaurant and time in #{team} on Huddle; email {lead.split()[0]} the same; and schedule a "
        "ZipRide home from the restaurant for 10:30 pm that night.",
        expected={
            "slug": place["slug"],
            "restaurant": place["name"],
            "address": place["address"],
            "day": day.isoformat(),
            "time": time,
            "party": party,
            "crew": crew,
            "channel": team,
            "lead": lead,
            "lead_email": lead_email,
            "ride_at": home_at.strftime("%Y-%m-%dT%H:%M"),
        },
        rubric=[
            RubricItem(
                id="booked",
                weight=25,
                requirement=f"{place['name']} booked for {party} on {day} at {time}",
                check=tabletime.booked(place["slug"], day.isoformat(), time, party),
            ),
            RubricItem(
                id="calendar",
                weight=15,
                requirement=f"The work calendar has the dinner on {day} at {time}",
                check=daybook.created(f"{day}T{time}", [], calendar="work"),
            ),
            RubricItem(
                id="post",
                weight=15,
                requirement=f"A post in #{team} names {place['name']} and 7:30",
                check=huddle.posted(team, [[place["name"]], ["7:30", "19:30"]]),
            ),
            RubricItem(
                id="mail",
                weight=10,
                requirement=f"A mail to {lead} ({lead_email}) names {place['name']}",
                check=mailbox.sent(lead_email, [[place["name"]]]),
            ),
            RubricItem(
                id="ride",
                weight=20,
                requirement=f"A ZipRide {place['name']} -> Home picks me up between {lo:%H:%M} and {hi:%H:%M} on {day}",
                check=zipride.booked(place["address"], "Home", lo.isoformat(), hi.isoformat()),
            ),
            RubricItem(
                id="only",
                weight=15,
                requirement="Nothing else changed at TableTime: only the new reservation",
                check=tabletime.only_booking(),
            ),
        ],
    )
    return [
        effects.acting(
            task,
            ("calendar", "the dinner added", daybook.new_events(1)),
            ("workchat", f"the post in #{team}", huddle.new_posts(1, 2)),
            ("mail", f"the mail to {lead} (and the answer it draws)", mailbox.new_mail(1)),
            ("rides", "the ride home", zipride.new_rides(1)),
        )
    ]


def trip_dinner_task(world: World) -> list[Task]:
    """Dinner on the next trip (five apps): the best-rated TableTime restaurant in the destination, the evening after
    the outbound flight lands (as the airline has it now), for the persona and their companions; the calendar; a
    text to the companion (or the closest contact) with the place, the time and the trip's hotel."""
    from apps.airline.tasks import CITY
    from apps.messaging.steps import closest_contact
    from builder.tasks.phrasing import day_phrase
    from builder.world.planted import airline_flights

    p = world.persona
    moved = airline_flights(world)
    legs = sorted(
        ({**f.data, **moved.get(f.id, {})} for f in world.of_kind("flight") if f.status == "scheduled"),
        key=lambda d: d["dep_utc"],
    )
    if not legs:
        return []
    trip = legs[0]["trip"]
    outbound = [d for d in legs if d["trip"] == trip and d["direction"] == "outbound"]
    hotel = next((e.data for e in world.of_kind("hotel_booking") if e.data.get("trip") == trip), None)
    if not outbound or hotel is None:
        return []
    going = p.travel.trips[trip] if p.travel and 0 <= trip < len(p.travel.trips or []) else None
    city = CITY.get(outbound[-1]["to"]) or (going.destination if going else None)
    places = sorted(
        (x for x in listed(world) if x["city"] == city), key=lambda x: (-x["rating_x10"], -x["review_count"], x["name"])
    )
    if not places or (
        len(places) > 1
        and (places[0]["rating_x10"], places[0]["review_count"]) == (places[1]["rating_x10"], places[1]["review_count"])
    ):
        return []
    place = places[0]
    companions = [n for n in outbound[0].get("passengers", [])[1:]]
    closest = closest_contact(world)
    who = companions[0] if companions else (closest.name if closest else None)
    if who is None:
        return []
    day = dt.date.fromisoformat(outbound[-1]["arr_local"][:10]) + dt.timedelta(days=1)
    time, party = "19:30", 1 + len(companions)
    us = "me" if not companions else ("the two of us" if party == 2 else f"the {party} of us")
    task = Task(
        id=f"{p.id}/{APP}/trip-dinner",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=[APP, "airline", "stays", "calendar", "messaging"],
        difficulty="hard",
        time_limit_seconds=1500,
        instruction=f"On my trip to {city}, book a table for {us} at the best-rated restaurant TableTime lists in "
        f"{city}, at 7:30 pm on the evening after my flight there lands; put the dinner in my calendar "
        f"with the restaurant's name in the title; and text {who.split()[0]} the restaurant, the time "
        "and the name of the hotel we're staying at."
        if companions
        else f"On my trip to {city}, book a table for one at the best-rated restaurant TableTime lists in "
        f"{city}, at 7:30 pm on the evening after my flight there lands; put the dinner in my calendar "
        f"with the restaurant's name in the title; and text {who.split()[0]} the restaurant, the time "
        "and the name of the hotel I'm staying at.",
        expected={
            "slug": place["slug"],
            "restaurant": place["name"],
            "city": city,
            "day": day.isoformat(),
            "day_phrase": day_phrase(day, world.now.date()),
            "time": time,
            "party": party,
            "contact": who,
            "hotel": hotel["hotel"],
        },
        rubric=[
            RubricItem(
                id="booked",
                weight=30,
                requirement=f"{place['name']} ({city}, rated "
                f"{place['rating_x10'] / 10:.1f}) booked for {party} on "
                f"{day} at {time}",
                check=tabletime.booked(place["slug"], day.isoformat(), time, party),
            ),
            RubricItem(
                id="calendar",
                weight=15,
                requirement=f"A calendar entry on {day} naming {place['name']}",
                check=daybook.created(day.isoformat(), [[place["name"]]]),
            ),
            RubricItem(
                id="text-place",
                weight=15,
                requirement=f"A text to {who} names {place['name']} and 7:30",
                check=parley.sent_direct(who, [[place["name"]], ["7:30", "19:30", "19.30"]]),
            ),
            RubricItem(
                id="text-hotel",
                weight=15,
                requirement=f"A text to {who} names the hotel, {hotel['hotel']}",
                check=parley.sent_direct(who, [[hotel["hotel"]]]),
            ),
            RubricItem(
                id="only-texts",
                weight=10,
                requirement="Parley changed only by the texts sent",
                check=parley.only_texts(1, 4),
            ),
            RubricItem(
                id="only",
                weight=15,
                requirement="Nothing else changed at TableTime: only the new reservation",
                check=tabletime.only_booking(),
            ),
        ],
    )
    return [effects.acting(task, ("calendar", "the dinner added", daybook.new_events(1)))]


def time_mixup_task(world: World) -> list[Task]:
    """A friend has the wrong time for a booked dinner (``contradiction/restaurant-time``): check the booking, set the
    friend straight, get there on time, and put a reminder in the calendar."""
    from zoneinfo import ZoneInfo

    from builder.tasks.phrasing import day_phrase

    p = world.persona
    item = answers.planted(world, "contradiction/restaurant-time")
    if not item:
        return []
    # By name and address: chains and namesakes exist in several cities (Bar Pintxo: Manchester and Barcelona).
    booking = next(
        (e for e in world.of_kind("restaurant_booking") if e.data.get("booking_id") == item["booking_id"]), None
    )
    place = next(
        (
            x
            for x in listed(world)
            if x["name"] == item["restaurant"] and (booking is None or x["address"] == booking.data["address"])
        ),
        None,
    )
    if not place:
        return []
    at = dt.datetime.fromisoformat(item["booked_time"])
    zone = ZoneInfo(p.timezone)
    lo, hi = (at - dt.timedelta(minutes=40)).replace(tzinfo=zone), (at - dt.timedelta(minutes=20)).replace(tzinfo=zone)
    wrong = dt.datetime.fromisoformat(item["friend_time"])
    friend = item["friend"]
    h12 = f"{(at.hour - 1) % 12 + 1}:{at.minute:02d}"
    rem = at - dt.timedelta(hours=1)
    task = Task(
        id=f"{p.id}/{APP}/dinner-time-mixup",
        persona=p.id,
        kind="action",
        category="long_horizon",
        apps_involved=[APP, "messaging", "rides", "calendar"],
        difficulty="medium",
        time_limit_seconds=900,
        planted=[item["id"]],
        instruction=f"{friend.split()[0]} and I have different times for our dinner at {item['restaurant']} "
        f"{day_phrase(at.date(), world.now.date())}. Check the reservation on TableTime and text "
        f"{friend.split()[0]} the right time in Parley; schedule a ZipRide from home there that picks me up "
        '20 to 40 minutes before the table; and put a "Leave for dinner" reminder in my calendar an hour '
        "before the table.",
        expected={
            "restaurant": item["restaurant"],
            "address": place["address"],
            "time": at.isoformat(),
            "friend": friend,
            "ride_at": (at - dt.timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M"),
            "reminder": rem.isoformat(),
        },
        rubric=[
            RubricItem(
                id="told",
                weight=30,
                requirement=f"{friend} got a text with the booked time {at:%H:%M} (not {wrong:%H:%M})",
                check=parley.sent_direct(friend, [[f"{at:%H:%M}", h12, f"{at.hour}:{at.minute:02d}"]]),
            ),
            RubricItem(
                id="ride",
                weight=30,
                requirement=f"A ZipRide Home -> {item['restaurant']} picks me up between {lo:%H:%M} and {hi:%H:%M}",
                check=zipride.booked("Home", place["address"], lo.isoformat(), hi.isoformat()),
            ),
            RubricItem(
                id="reminder",
                weight=20,
                requirement=f'Daybook has "Leave for dinner" at {rem:%H:%M}',
                check=daybook.created(rem.strftime("%Y-%m-%dT%H:%M"), [["leave"]]),
            ),
            RubricItem(
                id="only",
                weight=20,
                requirement="Nothing else changed in Parley: only my text (and the reply it got)",
                check=parley.only_texts(1),
            ),
        ],
    )
    return [
        effects.acting(
            task,
            ("rides", "the ride to the restaurant", zipride.new_rides(1)),
            ("calendar", 'the "Leave for dinner" reminder', daybook.new_events(1)),
        )
    ]


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


def book_friends_tasks(world: World) -> list[Task]:
    """The latest dinner with company booked again, for everyone who came (the companions are in the reservation and
    in Parley), five weeks out (dining + messaging)."""
    out: list[Task] = []
    loc = world.persona.bank
    past, _ = history(world)
    company = [b for b in past if b["companions"]]
    if company:
        b = company[-1]
        slug = {(x["name"], x["address"]): x["slug"] for x in listed(world)}[(b["restaurant"], b["address"])]
        day2 = world.now.date() + dt.timedelta(days=OCCUPANCY_DAYS + 8)
        party = 1 + len(b["companions"])
        KIT.adder(world, out)(
            "book-friends",
            [APP, "messaging"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=540,
            instruction=f"That dinner at {b['restaurant']} on {day_text(b['at'].date(), loc)} was great. Book the same "
            f"place again for me and everyone who came that night, on {day_text(day2, loc)} at 7 pm.",
            expected={
                "slug": slug,
                "restaurant": b["restaurant"],
                "day": day2.isoformat(),
                "time": "19:00",
                "party": party,
                "companions": b["companions"],
            },
            rubric=[
                RubricItem(
                    id="booked",
                    weight=55,
                    requirement=f"A reservation at {b['restaurant']} on {day2} 19:00",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id "
                        "WHERE v.world_ref IS NULL AND v.status = 'booked' AND r.slug = ? AND v.day = ? "
                        "AND v.time = ?",
                        [slug, day2.isoformat(), "19:00"],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="party",
                    weight=30,
                    requirement=f"For {party} people",
                    check=KIT.sql(
                        "SELECT v.party_size FROM reservations v JOIN restaurants r ON r.id = "
                        "v.restaurant_id WHERE v.world_ref IS NULL AND r.slug = ? AND v.day = ?",
                        [slug, day2.isoformat()],
                        [[party]],
                    ),
                ),
                KIT.only(
                    "Nothing else changed at TableTime: only the new reservation",
                    Change(table="reservations", op="insert", min=1, max=1),
                    *HOLDS,
                ),
            ],
        )
    return out


def book_friends(task: Task, web: Web) -> str:
    """Book the same restaurant again for the whole group."""
    exp = task.expected
    tabletime.book(web, exp["slug"], exp["day"], exp["time"], exp["party"])
    return f"Booked {exp['restaurant']} for {exp['party']} on {exp['day']} at {exp['time']}."


def large_party_tasks(world: World) -> list[Task]:
    """A table for 12 asked of the persona's most-visited restaurant as a large party's request (more than
    MAX_PARTY: no table is held, the restaurant answers), marked a business meal, and TableTime's mail about it
    forwarded to the persona's lead (dining + mail)."""
    from builder.tasks import steps as S

    out: list[Task] = []
    loc = world.persona.bank
    past, _ = history(world)
    lead_of = S.work_lead(world)
    places = tabletime.restaurants_by_visits(world)
    if not past or lead_of is None or not places:
        return out
    lead, lead_email = lead_of
    place, party = places[0], MAX_PARTY + 4
    day = world.now.date() + dt.timedelta(days=OCCUPANCY_DAYS + 14)
    subject = f"Your request to {place['name']} has been sent"
    KIT.adder(world, out)(
        "large-party-request",
        [APP, "mail"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=600,
        instruction=f"Ask {place['name']} through TableTime for a table for {party} on {day_text(day, loc)} at "
        f"7:30 pm; it's a team dinner, so mark it as a business meal. Then forward TableTime's email about the "
        f"request to {lead.split()[0]} ({lead_email}).",
        expected={
            "slug": place["slug"],
            "restaurant": place["name"],
            "day": day.isoformat(),
            "time": "19:30",
            "party": party,
            "occasion": "business",
            "lead": lead,
            "lead_email": lead_email,
            "mail_subject": subject,
        },
        rubric=[
            RubricItem(
                id="requested",
                weight=55,
                requirement=f"A large-party request for {party} at {place['name']}, {day} 19:30",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id "
                    "WHERE v.world_ref IS NULL AND v.status = 'requested' AND r.slug = ? AND v.day = ? "
                    "AND v.time = ? AND v.party_size = ?",
                    [place["slug"], day.isoformat(), "19:30", party],
                    [[1]],
                ),
            ),
            RubricItem(
                id="occasion",
                weight=10,
                requirement="The request's occasion is Business meal (or its special request says so)",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id "
                    "WHERE v.world_ref IS NULL AND v.status = 'requested' AND r.slug = ? AND v.day = ? "
                    "AND (v.occasion = 'business' OR lower(COALESCE(v.special_request, '')) LIKE '%business%')",
                    [place["slug"], day.isoformat()],
                    [[1]],
                ),
            ),
            RubricItem(
                id="forwarded",
                weight=20,
                requirement=f"TableTime's mail about the request forwarded to {lead} ({lead_email})",
                check=mailbox.sent(lead_email, [[subject]]),
            ),
            KIT.only(
                "Nothing else changed at TableTime: only the request",
                Change(table="reservations", op="insert", min=1, max=1),
            ),
        ],
    )
    out[-1] = effects.acting(out[-1], ("mail", f"the mail forwarded to {lead}", mailbox.new_mail(1)))
    return out


def large_party(task: Task, web: Web) -> str:
    """Send the request (occasion: business meal), then forward TableTime's mail about it to the lead."""
    exp = task.expected
    tabletime.book(web, exp["slug"], exp["day"], exp["time"], exp["party"], occasion=exp["occasion"], done="requested")
    message = web.one(
        "mail",
        "SELECT id FROM messages WHERE world_ref IS NULL AND subject = ? ORDER BY id DESC LIMIT 1",
        (exp["mail_subject"],),
    )
    mailbox.forward(
        web,
        message,
        exp["lead_email"],
        f"Fwd: {exp['mail_subject']}",
        f"Hi {exp['lead'].split()[0]}, the team dinner request is in.",
    )
    return f"Asked {exp['restaurant']} for a table for {exp['party']} on {exp['day']} at {exp['time']} and forwarded the mail."


def save_top_spend_tasks(world: World) -> list[Task]:
    """Save to the favourites the restaurant with the biggest card spend this year that is not saved yet (the seed
    saves the three booked most) (dining + bank)."""
    out: list[Task] = []
    p, cur = world.persona, world.currency
    past, _ = history(world)
    restaurants = listed(world)
    slugs = {(x["name"], x["address"]): x["slug"] for x in restaurants}
    order = {(x["name"], x["address"]): i for i, x in enumerate(restaurants)}
    booked = Counter((b["restaurant"], b["address"]) for b in reservations(world))
    favourites = {slugs[k] for k, _ in sorted(booked.items(), key=lambda kv: (-kv[1], order[kv[0]]))[:3]}  # the seed's
    paid = [b for b in past if b["paid"] is not None and b["paid"].status == "done"]
    spend: dict[tuple[str, str], int] = defaultdict(int)
    for b in paid:
        if b["paid"].at.year == p.as_of.year:
            spend[(b["restaurant"], b["address"])] += b["paid"].data["amount_cents"]
    ranked = sorted(spend.items(), key=lambda kv: (-kv[1], order[kv[0]]))
    pick = next(((k, v) for k, v in ranked if slugs[k] not in favourites), None)
    if pick:
        (rn, ra), cents = pick
        rank = [k for k, _ in ranked].index((rn, ra)) + 1
        which = "the most" if rank == 1 else f"the {['', '', 'second', 'third', 'fourth', 'fifth'][min(rank, 5)]} most"
        KIT.adder(world, out)(
            "save-top-spend",
            [APP, "bank"],
            kind="action",
            difficulty="hard",
            time_limit_seconds=540,
            instruction=f"Of the restaurants I booked through TableTime, save the one where I've spent {which} on my card "
            f"in {p.as_of.year} to my favourites.",
            expected={"slug": slugs[(rn, ra)], "restaurant": rn, "spend_cents": cents},
            rubric=[
                RubricItem(
                    id="saved",
                    weight=85,
                    requirement=f"{rn} ({money(cents, cur)}) is saved",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM favourites f JOIN restaurants r ON r.id = f.restaurant_id "
                        "WHERE r.slug = ? AND f.world_ref IS NULL",
                        [slugs[(rn, ra)]],
                        [[1]],
                    ),
                ),
                KIT.only(
                    f"Nothing else changed at TableTime: only {rn} saved to the favourites",
                    Change(table="favourites", op="insert", min=1, max=1),
                ),
            ],
        )
    return out


def save_top_spend(task: Task, web: Web) -> str:
    """Save the restaurant to the favourites."""
    exp = task.expected
    _, location = web.post_form(APP, "/api/favorites", [("slug", exp["slug"]), ("on", "1")])
    if "saved=1" not in location:
        raise OracleError(f"TableTime did not confirm ('saved=1' not in {location!r})")
    return f"Saved {exp['restaurant']} ({web.money(exp['spend_cents'])} this year) to your favourites."


def split_the_bill_tasks(world: World) -> list[Task]:
    """Split the last dinner the persona paid for the whole table (the card line holds the food and the tip) evenly,
    and ask each friend who came for their share in Parley (dining + bank + messaging)."""
    out: list[Task] = []
    loc, cur = world.persona.bank, world.currency
    past, _ = history(world)
    paid = {
        e.data["restaurant_booking"]: e
        for e in world.of_kind("card_purchase")
        if e.status == "done" and e.data.get("paid_for") == "table" and e.data.get("restaurant_booking")
    }
    split = [b for b in past if b["confirmation"] in paid and b["companions"]]
    if split:
        b = split[-1]
        charge = paid[b["confirmation"]].data
        party = len(b["companions"]) + 1
        share_lo, share_hi = charge["amount_cents"] // party, -(-charge["amount_cents"] // party)

        def forms(cents: int) -> list[str]:
            return [f"{cents // 100}.{cents % 100:02d}", f"{cents // 100},{cents % 100:02d}"]

        shares = sorted(set(forms(share_lo) + forms(share_hi)))
        who = b["companions"]
        weights = [85 // len(who) + (85 % len(who) if i == 0 else 0) for i in range(len(who))]
        marks = " OR ".join("instr(m.body, ?) > 0" for _ in shares)
        KIT.adder(world, out)(
            "split-the-bill",
            [APP, "bank", "messaging"],
            kind="action",
            category="long_horizon",
            difficulty="hard",
            time_limit_seconds=600,
            instruction=f"I paid for everyone at {b['restaurant']} on {day_text(b['at'].date(), loc)}. Split what my "
            "card was charged (tip included) evenly between everyone who came, and ask each of my friends for "
            "their share in Parley.",
            expected={
                "confirmation": b["confirmation"],
                "charged_cents": charge["amount_cents"],
                "party": party,
                "share_cents": share_hi,
                "companions": who,
            },
            rubric=[
                RubricItem(
                    id=f"asked-{i}",
                    weight=w,
                    requirement=f"{n} is asked in Parley for {money(share_hi, cur)}",
                    check=Check(
                        type="sql",
                        app="messaging",
                        query=" ".join(
                            f"""SELECT COUNT(*) > 0 FROM messages m JOIN conversations c
                                                ON c.id = m.conversation_id WHERE c.kind = 'direct' AND c.contact_id =
                                                (SELECT id FROM contacts WHERE name = ?) AND m.sender_id IS NULL
                                                AND m.world_ref IS NULL AND ({marks})""".split()
                        ),
                        params=[n, *shares],
                        expected=[[1]],
                    ),
                )
                for i, (n, w) in enumerate(zip(who, weights))
            ]
            + [
                kit.only(
                    "messaging",
                    "Nothing else changed in Parley: only the texts asking for the shares (and the friends' replies)",
                    Change(table="messages", op="insert", min=len(who), max=2 * len(who)),
                )
            ],
        )
    return out


def split_the_bill(task: Task, web: Web) -> str:
    """Text each friend who came their share of the card charge."""
    exp = task.expected
    share = f"{exp['share_cents'] // 100}.{exp['share_cents'] % 100:02d}"
    for name in exp["companions"]:
        text = f"Dinner came to {exp['charged_cents'] / 100:.2f} for the {exp['party']} of us, so {share} each. Thanks!"
        parley.send(web, name, text)
    return (
        f"{exp['charged_cents'] / 100:.2f} split {exp['party']} ways is {share} each; asked "
        f"{', '.join(exp['companions'])}."
    )


def errands(world: World) -> list[Task]:
    """TableTime's long-horizon errands, in their order."""
    return long_tasks(world) + time_mixup_task(world) + team_dinner_task(world) + trip_dinner_task(world)


SCENARIOS = [
    Scenario(
        home=APP,
        apps=(APP, "messaging"),
        tasks=book_friends_tasks,
        solvers={"book-friends": book_friends},
        after="book-table",
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "mail"),
        tasks=large_party_tasks,
        solvers={"large-party-request": large_party},
        after="book-table",
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "bank"),
        tasks=save_top_spend_tasks,
        solvers={"save-top-spend": save_top_spend},
        after="review-last",
        when=in_use,
    ),
    Scenario(
        home=APP,
        apps=(APP, "bank", "messaging"),
        tasks=split_the_bill_tasks,
        solvers={"split-the-bill": split_the_bill},
        after="review-last",
        when=in_use,
    ),
    Scenario(
        home="dining",
        apps=("dining", "calendar"),
        tasks=errands,
        solvers={
            "friends-dinner": friends_dinner,
            "dinner-time-mixup": dinner_time_mixup,
            "team-dinner": team_dinner,
            "trip-dinner": trip_dinner,
        },
        rank=ERRANDS,
        when=in_use,
    ),
]
