"""Parley's own tasks derived from the world, each with its expected values and rubric (its tasks across apps are
scenarios', ``scenarios/*/messaging.py``, which build on :data:`KIT` and the check helpers here).

Action checks read the end state of Parley's database. Rows an app writes have ``world_ref IS NULL``; seeded rows never do, so an agent that does
nothing fails every action check. Check queries are fixed SQL text with ``?`` placeholders:
names, titles, emoji and amounts travel in ``params``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter

from builder.rng import rng
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World
from builder.world.calendar import reservation_time
from builder.reference.locale import Fmt
from builder.reference.people import called

from .effects import VISITS
from .seed import chat_contacts, groups

APP = "messaging"
KIT = kit.Kit(APP, nothing_else="Nothing else changed in Parley: only {}", allowed=VISITS)
#: The direct conversation with the contact named by the bound parameter.
DIRECT = (
    "(SELECT id FROM conversations WHERE kind = 'direct' AND contact_id = (SELECT id FROM contacts WHERE name = ?))"
)
#: The (newest) group conversation with the title bound as a parameter.
GROUP = "(SELECT id FROM conversations WHERE kind = 'group' AND title = ? ORDER BY id DESC LIMIT 1)"


def _text(*forms: str) -> Check:
    return Check(type="answer_text", any_of=[f for f in dict.fromkeys(forms) if f])


def time_forms(t: dt.datetime) -> list[str]:
    """How a person may write a clock time: ``8:00 PM``, ``8 PM``, ``8pm``, ``20:00``."""
    h12 = (t.hour - 1) % 12 + 1
    ampm = "AM" if t.hour < 12 else "PM"
    forms = [f"{h12}:{t.minute:02d} {ampm}", f"{h12}:{t.minute:02d}{ampm.lower()}", f"{t.hour:02d}:{t.minute:02d}"]
    if t.minute == 0:
        forms += [f"{h12} {ampm}", f"{h12}{ampm.lower()}", f"{h12} {ampm.lower()}"]
    return forms


def mine_written(conversation: str, extra: str = "") -> str:
    """Count of the persona's app-written messages in ``conversation`` (a subquery), with an extra condition."""
    return (
        f"SELECT COUNT(*) > 0 FROM messages WHERE conversation_id = {conversation} AND sender_id IS NULL "
        f"AND world_ref IS NULL {extra}"
    )


def tasks(world: World) -> list[Task]:
    """Return Parley's own tasks of ``world`` (lookups, aggregations, actions in Parley alone), in a fixed order."""
    p = world.persona
    fmt = Fmt(p)
    contacts = chat_contacts(world)
    names = {c.name for c in contacts}
    msgs = [e for e in world.of_kind("chat_message") if e.status == "done" and e.data.get("contact") in names]
    events = {e.id: e for e in world.events}
    r = rng(world.seed, "tasks/messaging")
    out: list[Task] = []

    task = KIT.adder(world, out)

    # 1. The time of a dinner the persona texted a friend about (the latest booking talked about in chat).
    talked = [
        events[e.data["ref"]]
        for e in msgs
        if e.data.get("ref") in events and events[e.data["ref"]].kind == "restaurant_booking"
    ]
    if talked:
        b = talked[-1]
        friend = next(e.data["contact"] for e in msgs if e.data.get("ref") == b.id)
        when = reservation_time(world, b)
        task(
            "dinner-time",
            ["messaging"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=240,
            instruction=f"What time did I tell {friend} our table at {b.data['restaurant']} is booked for?",
            expected={
                "contact": friend,
                "restaurant": b.data["restaurant"],
                "time": when.strftime("%H:%M"),
                "date": when.date().isoformat(),
            },
            rubric=[
                RubricItem(
                    id="time",
                    weight=80,
                    requirement=f"States the time {fmt.time(when)}",
                    check=_text(*time_forms(when)),
                ),
                RubricItem(id="day", weight=20, requirement=f"Gives the day, {fmt.long_date(when)}"),
            ],
        )

    # 2. Messages exchanged with the closest contact last month.
    first = world.now.date().replace(day=1)
    m_end = first - dt.timedelta(days=1)
    m_start = m_end.replace(day=1)
    per = Counter(e.data["contact"] for e in msgs if m_start <= e.at.date() <= m_end)
    if per:
        who = sorted(per, key=lambda n: (-per[n], n))[0]
        mine = sum(
            1 for e in msgs if e.data["contact"] == who and e.data["sender"] == "me" and m_start <= e.at.date() <= m_end
        )
        task(
            "messages-last-month",
            ["messaging"],
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=600,
            instruction=f"How many text messages did {who} and I exchange in {m_start:%B %Y} (both directions, "
            "our one-to-one chat only)?",
            expected={"contact": who, "month": f"{m_start:%Y-%m}", "messages": per[who], "sent_by_me": mine},
            rubric=[
                RubricItem(
                    id="count", weight=100, requirement=f"States {per[who]} messages", check=_text(str(per[who]))
                )
            ],
        )

    # 3. Reply to the latest question a contact asked.
    questions = [e for e in msgs if e.data["sender"] != "me" and e.data["text"].rstrip().endswith("?")]
    if questions:
        q = questions[-1]
        who = q.data["contact"]
        task(
            "reply-question",
            ["messaging"],
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"{who} asked me \u201c{q.data['text']}\u201d in Parley. Reply to {who.split()[0]} with an answer.",
            expected={"contact": who, "question": q.data["text"], "question_at": q.at.isoformat()},
            rubric=[
                RubricItem(
                    id="sent",
                    weight=55,
                    requirement=f"A new message from me is in the chat with {who}",
                    check=KIT.sql(mine_written(DIRECT, "AND length(trim(body)) > 0"), [who], [[1]]),
                ),
                KIT.only(
                    f"my one reply (and {who.split()[0]}'s answer to it arriving)",
                    Change(table="messages", op="insert", min=1, max=2),
                ),
                RubricItem(
                    id="answers",
                    weight=30,
                    requirement=f"The message answers the question \u201c{q.data['text']}\u201d",
                ),
            ],
        )

    # 4. React to a particular message (a recent one from the closest contact, unique in its chat).
    closest = sorted(contacts, key=lambda c: (-(c.closeness or 0), c.name))
    for c in closest:
        theirs = [e for e in msgs if e.data["contact"] == c.name and e.data["sender"] != "me"]
        texts = Counter(e.data["text"] for e in msgs if e.data["contact"] == c.name)
        unique = [
            e
            for e in theirs[-40:]
            if texts[e.data["text"]] == 1 and len(e.data["text"]) >= 12 and not e.data.get("ref")
        ]
        if unique:
            target = unique[r.randrange(len(unique))]
            emoji = r.choice(["❤️", "😂", "👍"])
            task(
                "react",
                ["messaging"],
                kind="action",
                difficulty="medium",
                time_limit_seconds=300,
                instruction=f"In Parley, react with {emoji} to {c.name.split()[0]}'s message "
                f"\u201c{target.data['text']}\u201d from {fmt.date(target.at)}.",
                expected={"contact": c.name, "message": target.data["text"], "emoji": emoji, "world_ref": target.id},
                rubric=[
                    RubricItem(
                        id="reaction",
                        weight=70,
                        requirement=f"A {emoji} tapback from me is on that message",
                        check=KIT.sql(
                            """SELECT COUNT(*) FROM reactions r JOIN messages m ON m.id = r.message_id
                                    WHERE r.world_ref IS NULL AND r.contact_id IS NULL AND r.emoji = ? AND m.world_ref = ?""",
                            [emoji, target.id],
                            [[1]],
                        ),
                    ),
                    RubricItem(
                        id="only",
                        weight=15,
                        requirement="No other tapback was added",
                        check=KIT.sql("SELECT COUNT(*) FROM reactions WHERE world_ref IS NULL", [], [[1]]),
                    ),
                    KIT.only("the one tapback", Change(table="reactions", op="insert", min=1, max=1)),
                ],
            )
            break

    # 5. Create a group of two contacts who share an activity (not one of the seeded groups).
    seeded = {frozenset(g.members) for g in groups(world)}
    by_activity: dict[str, list[str]] = {}
    for c in contacts:
        for a in c.shared_activities or []:
            by_activity.setdefault(a, []).append(c.name)
    options = sorted(a for a, ms in by_activity.items() if len(ms) >= 2 and frozenset(ms[:2]) not in seeded)
    if options:
        act = options[r.randrange(len(options))]
        a, b = by_activity[act][:2]
        title = f"{act[:1].upper()}{act[1:]} buddies"
        task(
            "create-group",
            ["messaging"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=300,
            instruction=f"Start a Parley group called \u201c{title}\u201d with {a} and {b}.",
            expected={"title": title, "members": [a, b]},
            rubric=[
                RubricItem(
                    id="group",
                    weight=35,
                    requirement=f"A new group named {title} exists",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM conversations WHERE kind = 'group' AND world_ref IS NULL AND title = ?",
                        [title],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="members",
                    weight=50,
                    requirement=f"Its members are exactly {a} and {b} (and me)",
                    check=KIT.sql(
                        f"""SELECT COUNT(*), SUM(k.name IN (?, ?)) FROM members b
                                JOIN contacts k ON k.id = b.contact_id WHERE b.conversation_id = {GROUP}
                                AND b.conversation_id IN (SELECT id FROM conversations WHERE world_ref IS NULL)""",
                        [a, b, title],
                        [[2, 2]],
                    ),
                ),
                KIT.only(
                    "the one new group and its two members",
                    Change(table="conversations", op="insert", min=1, max=1),
                    Change(table="members", op="insert", min=2, max=2),
                    Change(table="messages", op="insert", min=0),
                ),
            ],
        )
    # 6. Reply to a particular message quoting it (a recent one from the second-closest contact, unique in its chat),
    # telling the contact where the persona last ate out (TableTime's history: the latest done booking by now).
    quoted = _unique_recent(msgs, closest[1].name, world.now, mine=False) if len(closest) > 1 else None
    ate = [
        e
        for e in world.of_kind("restaurant_booking")
        if e.status == "done" and e.data.get("restaurant") and reservation_time(world, e) < world.now
    ]
    if quoted and ate:
        place = max(ate, key=lambda e: (reservation_time(world, e), e.id)).data["restaurant"]
        who = quoted.data["contact"]
        first = who.split()[0]
        task(
            "quote-reply",
            ["messaging", "dining"],
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"In Parley, reply to {first}'s message \u201c{quoted.data['text']}\u201d from "
            f"{fmt.date(quoted.at)} so that my reply quotes that message, and tell {first} the name of the "
            "restaurant I last ate at (my TableTime reservations have it).",
            expected={"contact": who, "message": quoted.data["text"], "world_ref": quoted.id, "restaurant": place},
            rubric=[
                RubricItem(
                    id="quoted",
                    weight=60,
                    requirement=f"A new message from me to {who} quotes that message",
                    check=KIT.sql(
                        mine_written(
                            DIRECT,
                            "AND deleted_at IS NULL AND length(trim(body)) > 0 "
                            "AND quote_id = (SELECT id FROM messages WHERE world_ref = ?)",
                        ),
                        [who, quoted.id],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="restaurant",
                    weight=25,
                    requirement=f"The quoting reply names {place}",
                    check=KIT.sql(
                        mine_written(
                            DIRECT,
                            "AND deleted_at IS NULL AND quote_id = (SELECT id FROM messages WHERE world_ref = ?) "
                            "AND instr(lower(body), lower(?)) > 0",
                        ),
                        [who, quoted.id, place],
                        [[1]],
                    ),
                ),
                KIT.only(
                    f"my one reply (and {first}'s answer to it arriving)",
                    Change(table="messages", op="insert", min=1, max=2),
                ),
            ],
        )
    out.extend(insight_tasks(world))
    return out


def _unique_recent(msgs: list, contact: str, now: dt.datetime, *, mine: bool):
    """The latest of the last 40 messages with ``contact`` by ``now``, sent by the persona (``mine``) or the contact,
    at least 12 characters on one line, about no world event, whose text is unique in their chat; None if none."""
    thread = [e for e in msgs if e.data["contact"] == contact and e.at <= now]
    texts = Counter(e.data["text"] for e in thread)
    fit = [
        e
        for e in thread[-40:]
        if (e.data["sender"] == "me") == mine
        and texts[e.data["text"]] == 1
        and len(e.data["text"]) >= 12
        and "\n" not in e.data["text"]
        and not e.data.get("ref")
    ]
    return fit[-1] if fit else None


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def _fact_forms(path: str, value: str) -> list[str]:
    """How an answer may write ``value`` of the spec's fact ``path``: a date or a clock time as people write them,
    else the text itself."""
    from builder.tasks import answers as A

    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        return A.date_forms(value)
    if re.fullmatch(r"[0-9]{2}:[0-9]{2}", value):
        return A.time_forms(dt.time.fromisoformat(value))
    return [value]


def insight_tasks(world: World) -> list[Task]:
    """Parley's contradiction and preference tasks: two friends giving different times for one plan, and who the
    persona texts most. Items the world lacks give no task."""
    from builder.tasks import answers as A
    from builder.tasks.phrasing import day_phrase

    p = world.persona
    _pid, today = p.id, world.now.date()
    out: list[Task] = []

    task = KIT.adder(world, out)

    it = A.planted(world, "contradiction/plan-times")
    if it:
        right, said = dt.datetime.fromisoformat(it["organizer_time"]), dt.datetime.fromisoformat(it["relay_time"])
        org, relay = it["organizer"], it["relay"]
        known = [c.name for c in p.contacts]
        relay_is = called(relay, known)  # a first name, whole when two friends share it
        task(
            "cx-plan-times",
            ["messaging"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"{relay_is} asked me about the time of our plan {day_phrase(right.date(), today)} "
            f"(“{it['plan']}”). {relay_is} and {called(org, known)} seem to have "
            "different times in mind. Which time is right, and which is the mix-up? Give the right one first.",
            expected={
                "plan": it["plan"],
                "right": it["organizer_time"],
                "stale": it["relay_time"],
                "organizer": org,
                "relay": relay,
                "truth": "organizer",
            },
            rule="The organizer's own message beats a time someone else passes on from them.",
            planted=[it["id"]],
            rubric=[
                RubricItem(
                    id="right",
                    weight=40,
                    requirement=f"Gives {A.clock(right)} (what {org} set)",
                    check=A.text(*A.time_forms(right)),
                ),
                RubricItem(
                    id="stale",
                    weight=20,
                    requirement=f"Names {A.clock(said)} as the mix-up",
                    check=A.text(*A.time_forms(said)),
                ),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement="Names the right time before the wrong one",
                    check=A.names([A.time_forms(right), A.time_forms(said)], ordered=True),
                ),
            ],
        )

    # The contributor's own contradictions (the spec's ``contradictions``): the spec's value is right.
    for n, it in enumerate(A.planted_of(world, "contradiction", "spec_claim"), 1):
        right, said = _fact_forms(it["fact"], it["value"]), _fact_forms(it["fact"], it["claim"])
        who = it["contact"].split()[0]
        task(
            f"cx-spec-{n}",
            sorted({APP, it["truth"]}),
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"{who} messaged me about {it['about']} and said “{it['claim']}”. Is that right? Tell me "
            "what is right and which is the mix-up, the right one first.",
            expected={"right": it["value"], "stale": it["claim"], "fact": it["fact"], "truth": it["truth"]},
            planted=[it["id"]],
            rubric=[
                RubricItem(id="right", weight=60, requirement=f"Gives {it['value']}", check=A.text(*right)),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement=f"Names {it['value']} before {it['claim']} (the mix-up)",
                    check=A.names([right, said], ordered=True),
                ),
            ],
        )

    # Who the persona texts most (one-to-one chats, the last 90 days).
    since = dt.datetime.combine((world.now - dt.timedelta(days=90)).date(), dt.time())  # from that day's start
    counts = Counter(
        e.data["contact"]
        for e in world.of_kind("chat_message")
        if e.status == "done"
        and e.at >= since
        and e.at <= world.now
        and e.data.get("contact")
        and not e.data.get("group")
        and e.data.get("app", "chat") == "chat"
    )
    top = counts.most_common(3)
    everyone = {c.name for c in p.contacts}
    if len(top) == 3 and top[0][1] > top[1][1] > top[2][1]:
        task(
            "pref-closest",
            ["messaging"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=480,
            instruction="Who are the three people I text with most in Parley? Look at our one-to-one chats since "
            f"{since:%B} {since.day} and rank them, most first.",
            expected={
                "ranking": [n for n, _ in top],
                "messages": [c for _, c in top],
                "since": since.date().isoformat(),
            },
            rubric=[
                RubricItem(
                    id="top",
                    weight=40,
                    requirement=f"Names {top[0][0]} first",
                    check=A.names([A.person_among(top[0][0], everyone)]),
                ),
                RubricItem(
                    id="ranking",
                    weight=60,
                    requirement="Ranks " + ", ".join(n for n, _ in top),
                    check=A.names([A.person_among(n, everyone) for n, _ in top], ordered=True),
                ),
            ],
        )
    return out
