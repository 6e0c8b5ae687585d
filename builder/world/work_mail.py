"""Work mail: threads with colleagues about the persona's projects, and meeting notes after meetings.

Called by :func:`builder.world.mail.simulate_mail` in its place in the mailbox (after payroll, before
invitations); draws from ``mail/work``, ``mail/work/projects`` and ``mail/notes``. Rules:

* Work threads (2-5 messages) with colleagues who use mail, on workdays the persona is not away,
  inside working hours (a reply that would leave them moves to the next workday morning).
* Notes after some meetings (by title), sent by the organiser, sometimes answered.
"""

from __future__ import annotations

import datetime as dt
import random

from ..persona import Contact
from ..rng import token
from .calendar import away_dates, is_holiday, parse_when
from .mail import Mailbox, contact_dict, domain_of, has_app, render

_PROJECTS = ["Atlas", "Beacon", "Cedar", "Driftwood", "Ember", "Falcon", "Granite", "Heron", "Ironwood", "Juniper",
             "Kestrel", "Lumen", "Marlin", "Nimbus", "Osprey", "Pinnacle", "Quill", "Raven", "Sable", "Tamarack"]
_ARTIFACTS = ["onboarding flow", "dashboard", "settings page", "field app", "fleet map", "alerts panel",
              "reporting export", "customer portal", "mobile checkout", "admin console", "search results page",
              "notification center", "help center", "pricing page", "data import wizard", "status page"]


def _colleagues(box: Mailbox) -> list[Contact]:
    p = box.p
    names = list(p.work.colleagues) if p.work else []
    out = [c for c in p.contacts if (c.name in names or c.relationship == "colleague") and has_app(c, "mail")]
    return out


def _projects(box: Mailbox) -> list[tuple[dt.date, dt.date, str, list[str]]]:
    """Work projects: (start, end, codename, artifacts); a new one every ~10 weeks, each running ~5 months."""
    sim = box.sim
    r = sim.rng("mail/work/projects")
    names = r.sample(_PROJECTS, len(_PROJECTS))
    out = []
    day = sim.start.date() - dt.timedelta(days=60)
    i = 0
    while day <= sim.now.date():
        out.append((day, day + dt.timedelta(days=r.randint(120, 180)), names[i % len(names)],
                    r.sample(_ARTIFACTS, 3)))
        day += dt.timedelta(days=r.randint(60, 80))
        i += 1
    return out


def _next_work_time(box: Mailbox, at: dt.datetime, r: random.Random, lo: int, hi: int) -> dt.datetime:
    """``at`` plus ``lo``..``hi`` minutes, moved to the next workday morning if it leaves working hours."""
    nxt = at + dt.timedelta(minutes=r.randint(lo, hi))
    if nxt.hour >= 18 or nxt.date() != at.date():
        day = at.date() + dt.timedelta(days=1)
        while day.weekday() >= 5 or is_holiday(box.sim, day):
            day += dt.timedelta(days=1)
        nxt = dt.datetime.combine(day, dt.time(r.randint(8, 10), r.randint(0, 59)))
    return nxt


def work_threads(box: Mailbox) -> None:
    sim = box.sim
    colleagues = _colleagues(box)
    if not colleagues:
        return
    r = sim.rng("mail/work")
    projects = _projects(box)
    away = away_dates(sim)
    kinds = ["update", "review", "question", "schedule", "status"]
    weights = [3, 3, 3, 1.5, 1.5]
    n = 0
    for day in sim.past_days():
        if day.weekday() >= 5 or is_holiday(sim, day) or day in away:
            continue
        count = (1 if r.random() < 0.7 else 0) + (1 if r.random() < 0.15 else 0)
        for _ in range(count):
            active = [pr for pr in projects if pr[0] <= day <= pr[1]] or projects[-1:]
            start, _, project, artifacts = active[r.randrange(len(active))]
            artifact = artifacts[r.randrange(len(artifacts))]
            kind = r.choices(kinds, weights)[0]
            c = colleagues[r.randrange(len(colleagues))]
            others = [o for o in colleagues if o.name != c.name]
            cc = [contact_dict(o) for o in r.sample(others, r.randint(0, min(2, len(others))))] \
                if kind in ("update", "status") else []
            at = dt.datetime.combine(day, dt.time(r.randint(8, 16), r.randint(0, 59), r.randint(0, 59)))
            length = r.choices([2, 3, 4, 5], [4, 4, 2, 1])[0]
            me_first = kind in ("question", "status")
            msgs = []
            them = {"name": c.name, "email": c.email}
            ctx = {"fmt": box.fmt, "r": r, "project": project, "artifact": artifact, "kind": kind,
                   "me_first": box.first, "them_first": c.name.split()[0], "style": c.messaging_style or "brief",
                   "cc": cc, "day": day, "deadline": day + dt.timedelta(days=r.randint(2, 12)),
                   "doc_url": f"https://docs.{domain_of(box.me_work['email'])}/d/{token(sim.seed, 'doc', n, length=10)}"}
            subject = None
            for i in range(length):
                mine = (i % 2 == 0) == me_first
                sender = box.me_work if mine else them
                to = [them] if mine else [box.me_work]
                s, body = render("work", **ctx, step=i, last=i == length - 1, mine=mine)
                subject = subject or s
                if msgs:
                    body = body + "\n" + box.quote(msgs[-1]["sender"], msgs[-1]["at"], msgs[-1]["body"])
                msgs.append({"at": at, "sender": sender, "to": to, "cc": cc, "body": body})
                at = _next_work_time(box, at, r, 6, 200)
            box.thread(("work", day, n), subject, msgs, labels=["work"], r=r, archive_p=0.35)
            n += 1


def meeting_notes(box: Mailbox) -> None:
    sim = box.sim
    r = sim.rng("mail/notes")
    chance = {"Sprint planning": 0.7, "Design review": 0.35, "Team stand-up": 0.03}
    for e in sim.of_kind("calendar_event"):
        d = e.data
        if d["source"] != "meeting" or e.at > sim.now:
            continue
        if r.random() >= chance.get(d["title"], 0.5 if d["series"] is None else 0.25):
            continue
        org = d["organizer"] or box.me_work
        people = [a for a in d["attendees"] if a.get("email") and a["email"] != org["email"]]
        if not people:
            continue
        end = parse_when(sim, d["end"])
        at = _next_work_time(box, end, r, 10, 150)
        ctx = {"fmt": box.fmt, "r": r, "title": d["title"], "day": e.at, "org_first": org["name"].split()[0],
               "people": people, "attendees": d["attendees"], "me_first": box.first}
        subject, body = render("meeting_notes", **ctx)
        msgs = [{"at": at, "sender": org, "to": people, "body": body}]
        if r.random() < 0.35:
            replier = box.me_work if org["email"] != box.me_work["email"] else people[r.randrange(len(people))]
            _, reply = render("meeting_notes_reply", **ctx, replier_first=replier["name"].split()[0])
            msgs.append({"at": _next_work_time(box, at, r, 5, 120), "sender": replier,
                         "to": [org] + [x for x in people if x["email"] != replier["email"]],
                         "body": reply + "\n" + box.quote(org, at, body)})
        box.thread(("notes", e.id), subject, msgs, labels=["work"], ref=e.id, r=r, archive_p=0.4)
