"""Two-app answer tasks (ids ``<persona>/<app>/pair-...``): one question each whose answer needs exactly the apps it
names, over the apps with few cross-app tasks (ZipRide, Meridian Air, Cairn, Huddle, Guildline, Ledgerleaf,
Hunchline, Tidewell, Parley).

``pair_tasks(world, app)`` gives the tasks owned by ``app`` (called from that app's ``tasks()``). Every expected value
comes from the world's events, the same records the apps' seeds write; a task whose material the world lacks is not
generated. Pure and deterministic: no randomness, no wall clock.
"""

from __future__ import annotations

import datetime as dt

from builder.money import money
from builder.world import World

from . import answers as A
from .model import RubricItem, Task
from .phrasing import day_phrase, month_phrase


def _ts(s: str) -> dt.datetime:
    """An ISO local time with offset, as an aware datetime (naive ones are left naive)."""
    return dt.datetime.fromisoformat(s)


def _done(world: World, kind: str) -> list:
    return [e for e in world.of_kind(kind) if e.status == "done" and e.at <= world.now]


def _trips(world: World) -> dict[int, dict]:
    """Trip index -> {"booking", "flights" (by departure), "hotel"} for trips with a flight booking."""
    out: dict[int, dict] = {}
    for e in world.of_kind("flight_booking"):
        out.setdefault(e.data["trip"], {})["booking"] = e
    for e in world.of_kind("flight"):
        if e.data["trip"] in out:
            out[e.data["trip"]].setdefault("flights", []).append(e)
    for e in world.of_kind("hotel_booking"):
        if e.data.get("trip") in out:
            out[e.data["trip"]]["hotel"] = e
    for t in out.values():
        t["flights"] = sorted(t.get("flights", []), key=lambda f: _ts(f.data["dep_utc"].replace("Z", "+00:00")))
    return {k: v for k, v in out.items() if v["flights"]}


def _utc(f, which: str) -> dt.datetime:
    return _ts(f.data[which].replace("Z", "+00:00"))


def _past_trip(world: World) -> dict | None:
    now = world.now
    past = [t for t in _trips(world).values() if all(f.status == "done" and f.at <= now for f in t["flights"])]
    return max(past, key=lambda t: t["flights"][0].at) if past else None


def _next_trip(world: World) -> dict | None:
    nxt = [t for t in _trips(world).values() if all(f.status == "scheduled" for f in t["flights"])]
    return min(nxt, key=lambda t: t["flights"][0].at) if nxt else None


def pair_tasks(world: World, app: str) -> list[Task]:
    """The pair tasks owned by ``app`` (empty for an app without any)."""
    builders = {"rides": _rides, "airline": _airline, "board": _board, "workchat": _workchat, "network": _network,
                "taxes": _taxes, "markets": _markets, "brokerage": _brokerage, "messaging": _messaging}
    fn = builders.get(app)
    if fn is None:
        return []
    out: list[Task] = []
    pid = world.persona.id

    def task(slug: str, apps: list[str], **kw) -> None:
        out.append(Task(id=f"{pid}/{app}/{slug}", persona=pid, apps_involved=apps, **kw))

    fn(world, task)
    return out


# --- ZipRide -------------------------------------------------------------------------------------------------------


def _rides(world: World, task) -> None:
    today, cur = world.now.date(), world.currency
    trip = _past_trip(world)
    if trip:
        first = trip["flights"][0]
        dep = _ts(first.data["dep_local"])
        rides = [e for e in _done(world, "ride") if e.data.get("trip") == first.data["trip"]
                 and first.data["from"] in e.data["dropoff"] and _ts(e.data["dropoff_local"]) <= dep]
        if rides:
            r = rides[-1]
            lead = int((dep - _ts(r.data["dropoff_local"])).total_seconds() // 60)
            task("pair-airport-lead", ["rides", "airline"], kind="lookup", difficulty="medium", time_limit_seconds=420,
                 instruction=f"My ZipRide dropped me at the airport for my {trip['booking'].data['destination']} "
                             f"trip {day_phrase(dep.date(), today)}. How many minutes before the scheduled departure "
                             "did I get there, and what was the flight number?",
                 expected={"flight": first.data["flight_number"], "dropoff": r.data["dropoff_local"],
                           "departure": first.data["dep_local"], "minutes": lead},
                 rubric=[RubricItem(id="minutes", weight=60, requirement=f"Says {lead} minutes", check=A.number(lead)),
                         RubricItem(id="flight", weight=40, requirement=f"Names flight {first.data['flight_number']}",
                                    check=A.text(first.data["flight_number"],
                                                 first.data["flight_number"].replace(" ", "")))])
    bookings = {}
    for b in _done(world, "restaurant_booking"):
        bookings.setdefault((b.data["address"], b.data["reservation_local"][:10]), b)
    hits = [(r, bookings[(r.data["dropoff"], r.data["dropoff_local"][:10])]) for r in _done(world, "ride")
            if (r.data["dropoff"], r.data["dropoff_local"][:10]) in bookings]
    hits = [(r, b) for r, b in hits if b.data.get("companions")]
    if hits:
        r, b = hits[-1]
        who = b.data["companions"]
        day = _ts(r.data["dropoff_local"]).date()
        task("pair-ride-to-dinner", ["rides", "dining"], kind="lookup", difficulty="medium", time_limit_seconds=420,
             instruction="The last time I took a ZipRide straight to a restaurant I'd booked on TableTime, who was I "
                         "eating with, and what did that ride cost me in total?",
             expected={"restaurant": b.data["restaurant"], "day": day.isoformat(), "companions": who,
                       "ride_total_cents": r.data["total_cents"]},
             rubric=[RubricItem(id="who", weight=50, requirement="Names " + ", ".join(who),
                                check=A.names([A.person(n) for n in who])),
                     RubricItem(id="cost", weight=40, requirement=f"States {money(r.data['total_cents'], cur)}",
                                check=A.amount(r.data["total_cents"])),
                     RubricItem(id="where", weight=10, requirement=f"Mentions {b.data['restaurant']}")])


# --- Meridian Air ----------------------------------------------------------------------------------------------------


def _airline(world: World, task) -> None:
    cur = world.currency
    nxt = _next_trip(world)
    if nxt and nxt.get("hotel"):
        fb, hb = nxt["booking"], nxt["hotel"]
        total = fb.data["total_cents"] + hb.data["total_cents"]
        task("pair-next-trip-package", ["airline", "stays"], kind="aggregation", difficulty="medium",
             time_limit_seconds=480,
             instruction=f"For my upcoming trip to {fb.data['destination']}, what do the flights and the hotel come "
                         "to together? Give me each part and the combined total.",
             expected={"flight_cents": fb.data["total_cents"], "hotel_cents": hb.data["total_cents"],
                       "total_cents": total, "hotel": hb.data["hotel"]},
             rubric=[RubricItem(id="total", weight=50, requirement=f"States {money(total, cur)}", check=A.amount(total)),
                     RubricItem(id="flight", weight=25, requirement=f"Flights {money(fb.data['total_cents'], cur)}",
                                check=A.amount(fb.data["total_cents"])),
                     RubricItem(id="hotel", weight=25, requirement=f"Hotel {money(hb.data['total_cents'], cur)}",
                                check=A.amount(hb.data["total_cents"]))])


# --- Cairn -----------------------------------------------------------------------------------------------------------


def _board(world: World, task) -> None:
    from builder.world.projects import board

    today = world.now.date()
    sprints = [e for e in _done(world, "sprint") if e.data.get("planning")]
    if sprints:
        sp = sprints[-1]
        ref = sp.data["planning"]
        meeting = next((e for e in world.of_kind("calendar_event") if e.id == ref), None)
        keys = sorted({e.data["key"] for k in ("ticket_transition", "ticket_sprint") for e in _done(world, k)
                       if e.data.get("meeting") == ref})
        if meeting and keys:
            day = _ts(meeting.data["start"]).date()
            task("pair-planning-moves", ["board", "calendar"], kind="aggregation", difficulty="medium",
                 time_limit_seconds=480,
                 instruction=f"Check my calendar for the {sp.data['name']} planning meeting. How many different "
                             "tickets were moved on the board during that meeting, and what day was it?",
                 expected={"sprint": sp.data["name"], "day": day.isoformat(), "tickets": keys, "count": len(keys)},
                 rubric=[RubricItem(id="count", weight=70, requirement=f"Says {len(keys)} tickets",
                                    check=A.number(len(keys))),
                         RubricItem(id="day", weight=30, requirement=f"Names {day:%B %d}",
                                    check=A.text(*A.date_forms(day)))])
    b = board(world)
    chat = {e.id: e for e in _done(world, "work_chat_message")}
    monday = today - dt.timedelta(days=today.weekday() + 7)
    said = [t for t in b["tickets"] if any(c in chat and monday <= chat[c].at.date() < monday + dt.timedelta(days=7)
                                           for c in t["chat"])]
    still = [t for t in said if t["status"] != "done"]
    if said and still:
        task("pair-huddle-tickets-open", ["board", "workchat"], kind="aggregation", difficulty="medium",
             time_limit_seconds=480,
             instruction="Last week a few tickets got brought up by number in Huddle. How many different ones was "
                         "that, and which of them still aren't done on the board?",
             expected={"week": monday.isoformat(), "mentioned": [t["key"] for t in said],
                       "open": [t["key"] for t in still]},
             rubric=[RubricItem(id="count", weight=40, requirement=f"Says {len(said)} tickets", check=A.number(len(said))),
                     RubricItem(id="open", weight=60, requirement="Names " + ", ".join(t["key"] for t in still),
                                check=A.names([[t["key"]] for t in still]))])
    nxt = _next_trip(world)
    me = world.persona.identity.name
    if b["tickets"] and nxt:
        leave = _ts(nxt["flights"][0].data["dep_local"]).date()
        due = sorted((t for t in b["tickets"] if t["assignee"] == me and t["status"] != "done" and t.get("due")
                      and today <= dt.date.fromisoformat(t["due"][:10]) < leave), key=lambda t: t["due"])
        if due:
            dest = nxt["booking"].data["destination"]
            task("pair-due-before-trip", ["board", "airline"], kind="aggregation", difficulty="medium",
                 time_limit_seconds=480,
                 instruction=f"Before I fly out to {dest}, which of my open tickets come due? Just the ones due "
                             "between today and the day my flight leaves.",
                 expected={"leave": leave.isoformat(), "tickets": [t["key"] for t in due],
                           "titles": [t["title"] for t in due]},
                 rubric=[RubricItem(id="tickets", weight=100, requirement="Names " + ", ".join(t["key"] for t in due),
                                    check=A.names([[t["key"], t["title"]] for t in due]))])


# --- Huddle ----------------------------------------------------------------------------------------------------------


def _workchat(world: World, task) -> None:
    today = world.now.date()
    me = world.persona.identity.name
    cal = {e.id: e for e in world.of_kind("calendar_event")}
    flights = {e.id: e for e in world.of_kind("flight")}
    msgs = _done(world, "work_chat_message")
    pinned = [m for m in msgs if m.data.get("pinned") and m.data.get("ref") in cal
              and cal[m.data["ref"]].data.get("location")]
    if pinned:
        m = pinned[-1]
        ev = cal[m.data["ref"]]
        end = _ts(ev.data["end"])
        task("pair-pinned-meeting", ["workchat", "calendar"], kind="lookup", difficulty="medium",
             time_limit_seconds=420,
             instruction=f"There's a pinned message in #{m.data['channel']} about an upcoming meeting. Where is that "
                         "meeting held, what time is it scheduled to end, and how many people are invited?",
             expected={"title": ev.data["title"], "location": ev.data["location"], "end": ev.data["end"],
                       "invited": len(ev.data.get("attendees") or [])},
             rubric=[RubricItem(id="where", weight=40, requirement=f"Says {ev.data['location']}",
                                check=A.text(ev.data["location"])),
                     RubricItem(id="end", weight=35, requirement=f"Ends at {A.clock(end)}", check=A.text(*A.time_forms(end))),
                     RubricItem(id="invited", weight=25, requirement=f"{len(ev.data.get('attendees') or [])} invited",
                                check=A.number(len(ev.data.get("attendees") or [])))])
    late = [m for m in msgs if m.data["sender"] != me and " late to " in m.data["text"] and m.data.get("ref") in cal]
    if late:
        m = late[-1]
        ev = cal[m.data["ref"]]
        start = _ts(ev.data["start"])
        task("pair-late-colleague", ["workchat", "calendar"], kind="lookup", difficulty="easy",
             time_limit_seconds=360,
             instruction="Someone on the team said in Huddle they'd be running late to a meeting—the most recent one. "
                         "Who was it, and what time did that meeting start according to my calendar?",
             expected={"who": m.data["sender"], "meeting": ev.data["title"], "start": ev.data["start"],
                       "said": m.at.isoformat()},
             rubric=[RubricItem(id="who", weight=50, requirement=f"Names {m.data['sender']}",
                                check=A.names([A.person(m.data["sender"])])),
                     RubricItem(id="start", weight=50, requirement=f"Starts at {A.clock(start)}",
                                check=A.text(*A.time_forms(start)))])
    back = [m for m in msgs if m.data["sender"] == me and m.data.get("ref") in flights
            and flights[m.data["ref"]].data["direction"] == "return"]
    if back:
        m = back[-1]
        f = flights[m.data["ref"]]
        land = _ts(f.data["arr_local"])
        task("pair-back-from-trip", ["workchat", "airline"], kind="lookup", difficulty="medium",
             time_limit_seconds=420,
             instruction=f"I told the team in Huddle I was back from my trip {day_phrase(m.at.date(), today)}. Which "
                         "flight had brought me home, and on what date did it land?",
             expected={"flight": f.data["flight_number"], "landed": f.data["arr_local"], "said": m.at.isoformat()},
             rubric=[RubricItem(id="flight", weight=55, requirement=f"Names {f.data['flight_number']}",
                                check=A.text(f.data["flight_number"], f.data["flight_number"].replace(" ", ""))),
                     RubricItem(id="landed", weight=45, requirement=f"Landed {land:%B %d}",
                                check=A.text(*A.date_forms(land.date())))])


# --- Guildline -------------------------------------------------------------------------------------------------------


def _connections(world: World) -> list[dict]:
    prof = next((e.data for e in world.of_kind("career_profile")), None)
    return [c for c in (prof or {}).get("connections", []) if c.get("connected_on")]


def _network(world: World, task) -> None:
    me = world.persona.identity.name
    conns = _connections(world)
    if not conns:
        return
    names = {c["name"]: c for c in conns}
    senders = {m.data["sender"] for m in _done(world, "work_chat_message")} - {me}
    both = sorted(senders & set(names))
    if both:
        task("pair-coworkers-connected", ["network", "workchat"], kind="aggregation", difficulty="medium",
             time_limit_seconds=480,
             instruction="Which of the people who post in my work Huddle am I also connected with on Guildline? "
                         "Name them all.",
             expected={"people": both},
             rubric=[RubricItem(id="people", weight=100, requirement="Names " + ", ".join(both),
                                check=A.names([A.person(n) for n in both]))])
    upcoming = sorted((e for e in world.of_kind("calendar_event") if e.status == "scheduled" and e.at > world.now
                       and {a["name"] for a in e.data.get("attendees") or []} - {me}), key=lambda e: (e.at, e.id))
    if upcoming and {a["name"] for a in upcoming[0].data["attendees"]} & set(names):
        ev = upcoming[0]
        who = sorted({a["name"] for a in ev.data["attendees"]} & set(names))
        task("pair-next-meeting-connections", ["network", "calendar"], kind="lookup", difficulty="medium",
             time_limit_seconds=420,
             instruction="Look at the next thing on my calendar that has other people invited. Which of those people "
                         "am I connected with on Guildline, and what are their current job titles there?",
             expected={"event": ev.data["title"], "start": ev.data["start"], "people": who,
                       "titles": [names[n]["title"] for n in who]},
             rubric=[RubricItem(id="people", weight=60, requirement="Names " + ", ".join(who),
                                check=A.names([A.person(n) for n in who])),
                     RubricItem(id="titles", weight=40, requirement="Gives " + ", ".join(names[n]["title"] for n in who),
                                check=A.names([[names[n]["title"]] for n in who]))])
    chats = [m for m in _done(world, "chat_message") if m.data.get("contact") in names]
    if chats:
        m = chats[-1]
        c = names[m.data["contact"]]
        on = dt.date.fromisoformat(c["connected_on"])
        task("pair-last-chat-connection", ["network", "messaging"], kind="lookup", difficulty="medium",
             time_limit_seconds=420,
             instruction="Of my Guildline connections, who did I most recently exchange messages with on Parley? And "
                         "when did the two of us connect on Guildline?",
             expected={"contact": c["name"], "connected_on": c["connected_on"], "last_message": m.at.isoformat()},
             rubric=[RubricItem(id="who", weight=55, requirement=f"Names {c['name']}",
                                check=A.names([A.person(c["name"])])),
                     RubricItem(id="since", weight=45, requirement=f"Connected {on.isoformat()}",
                                check=A.text(*A.date_forms(on)))])


# --- Ledgerleaf ------------------------------------------------------------------------------------------------------


def _taxes(world: World, task) -> None:
    from builder.world import tax_year as ty

    cur = world.currency
    forms = ty.tax_forms(world)
    b = next((f for f in forms if f["form"] == "1099-B" and "gain" in f["boxes"]), None)
    if b:
        year = int(b["tax_year"])
        sells = [e for e in _done(world, "brokerage_trade") if e.data["side"] == "sell" and int(e.data["tax_year"]) == year]
        if sells:
            syms = sorted({e.data["symbol"] for e in sells})
            gain = int(b["boxes"]["gain"])
            task("pair-1099b-sales", ["taxes", "brokerage"], kind="lookup", difficulty="medium",
                 time_limit_seconds=480,
                 instruction=f"My {year} 1099-B is in Ledgerleaf. What net gain does it report, and which holdings did "
                             "I actually sell in Tidewell that year to produce it?",
                 expected={"tax_year": year, "gain_cents": gain, "symbols": syms, "sales": len(sells)},
                 rubric=[RubricItem(id="gain", weight=55, requirement=f"States {money(abs(gain), cur)}",
                                    check=A.amount(gain)),
                         RubricItem(id="symbols", weight=45, requirement="Names " + ", ".join(syms),
                                    check=A.names(syms))])
    w2 = next((f for f in forms if f["form"] in ("W-2",) and "1" in f["boxes"]), None)
    if w2:
        year = int(w2["tax_year"])
        pays = [e for e in _done(world, "paycheck") if e.at.year == year]
        net = sum(p.amount_cents for e in pays for p in e.postings if p.amount_cents > 0)
        if pays and net:
            wages = int(w2["boxes"]["1"])
            gap = wages - net
            task("pair-w2-vs-deposits", ["taxes", "bank"], kind="aggregation", difficulty="hard",
                 time_limit_seconds=600,
                 instruction=f"Compare the wages on my {year} W-2 in Ledgerleaf with what my paychecks actually put "
                             f"into my bank that year, as far as the bank's history shows. Give me both figures and the difference.",
                 expected={"tax_year": year, "wages_cents": wages, "deposited_cents": net, "gap_cents": gap,
                           "paychecks": len(pays)},
                 rubric=[RubricItem(id="deposited", weight=40, requirement=f"Deposits {money(net, cur)}",
                                    check=A.amount(net)),
                         RubricItem(id="wages", weight=25, requirement=f"W-2 wages {money(wages, cur)}",
                                    check=A.amount(wages)),
                         RubricItem(id="gap", weight=35, requirement=f"Difference {money(abs(gap), cur)}",
                                    check=A.amount(gap))])


# --- Hunchline -------------------------------------------------------------------------------------------------------


def _markets(world: World, task) -> None:
    cur, year = world.currency, world.now.year
    tw = sum(e.data["amount_cents"] for e in _done(world, "brokerage_transfer")
             if e.data["direction"] == "in" and e.at.year == year)
    hl = sum(e.data["amount_cents"] for e in _done(world, "forecast_deposit") if e.at.year == year)
    if tw and hl:
        task("pair-invested-this-year", ["markets", "brokerage"], kind="aggregation", difficulty="medium",
             time_limit_seconds=480,
             instruction="Between Tidewell and Hunchline, how much new money have I put in since January? Break it "
                         "down by account and give me the total.",
             expected={"year": year, "tidewell_cents": tw, "hunchline_cents": hl, "total_cents": tw + hl},
             rubric=[RubricItem(id="total", weight=50, requirement=f"States {money(tw + hl, cur)}", check=A.amount(tw + hl)),
                     RubricItem(id="tidewell", weight=25, requirement=f"Tidewell {money(tw, cur)}", check=A.amount(tw)),
                     RubricItem(id="hunchline", weight=25, requirement=f"Hunchline {money(hl, cur)}", check=A.amount(hl))])


# --- Tidewell --------------------------------------------------------------------------------------------------------


def _brokerage(world: World, task) -> None:
    cur, year = world.currency, world.now.year
    div = sum(e.data["amount_cents"] for e in _done(world, "brokerage_dividend") if e.at.year == year)
    interest = sum(e.data["amount_cents"] for e in _done(world, "interest")
                   if e.at.year == year and e.data.get("account") == "savings")
    if div and interest and div != interest:
        more = "dividends" if div > interest else "interest"
        task("pair-dividends-vs-interest", ["brokerage", "bank"], kind="aggregation", difficulty="medium",
             time_limit_seconds=480,
             instruction="So far this year, which has paid me more: the dividends in my Tidewell account or the "
                         "interest on my savings account at the bank? Give me both amounts and the difference.",
             expected={"year": year, "dividends_cents": div, "interest_cents": interest, "more": more,
                       "difference_cents": abs(div - interest)},
             rubric=[RubricItem(id="dividends", weight=30, requirement=f"Dividends {money(div, cur)}", check=A.amount(div)),
                     RubricItem(id="interest", weight=30, requirement=f"Interest {money(interest, cur)}",
                                check=A.amount(interest)),
                     RubricItem(id="difference", weight=30, requirement=f"Difference {money(abs(div - interest), cur)}",
                                check=A.amount(div - interest)),
                     RubricItem(id="verdict", weight=10, requirement=f"Says the {more} paid more")])


# --- Parley ----------------------------------------------------------------------------------------------------------


def _messaging(world: World, task) -> None:
    today = world.now.date()
    me = world.persona.identity.name
    nxt = _next_trip(world)
    if nxt:
        fb = nxt["booking"]
        friends = [n for n in fb.data["passengers"] if n != me]
        ref = {fb.id} | {f.id for f in nxt["flights"]}
        said = [m for m in _done(world, "chat_message") if m.data.get("ref") in ref and m.data["sender"] != "me"
                and m.data.get("contact") in friends]
        if said:
            who = said[-1].data["contact"]
            last = nxt["flights"][-1]
            dep = _ts(nxt["flights"][0].data["dep_local"])
            back = _ts(last.data["dep_local"])
            pnr = fb.data["pnr"]
            task("pair-trip-friend-flight", ["messaging", "airline"], kind="lookup", difficulty="medium",
                 time_limit_seconds=420,
                 instruction=f"{who.split()[0]} has been texting me about our trip {month_phrase(dep.date(), today)}"
                             ". What's our booking's confirmation code, and which flight brings us home on what day?",
                 expected={"friend": who, "pnr": pnr, "return_flight": last.data["flight_number"],
                           "return_departs": last.data["dep_local"]},
                 rubric=[RubricItem(id="pnr", weight=40, requirement=f"Gives {pnr}", check=A.text(pnr)),
                         RubricItem(id="flight", weight=35, requirement=f"Names {last.data['flight_number']}",
                                    check=A.text(last.data["flight_number"], last.data["flight_number"].replace(" ", ""))),
                         RubricItem(id="day", weight=25, requirement=f"Leaves {back:%B %d}",
                                    check=A.text(*A.date_forms(back.date())))])
