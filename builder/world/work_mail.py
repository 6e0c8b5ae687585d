"""Work mail: threads about the persona's actual work, and meeting notes after meetings.

Called by :func:`builder.world.mail.simulate_mail` in its place in the mailbox (after payroll, before
invitations); draws from ``mail/work``, ``mail/work/projects``, ``mail/work/external`` and ``mail/notes``.
The words come from the persona's occupation (:mod:`builder.persona.occupations`: a data engineer's
threads are about pipelines, dashboards and incidents, an artist's about commissions, galleries and
prints, a teacher's about lesson plans and parents) in the persona's locale (German for de_DE).
Rules:

* Work threads (2-4 messages) with colleagues who use mail, on workdays the persona is not away, inside
  working hours (08:00-18:00; a reply that would leave them moves to the next workday morning).
  A family's own kinds may come from outside (``from_client``: a client or a parent writes first, from
  their own domain); every colleague writes from the employer's domain (completion puts them there, and
  :func:`builder.world.calendar.work_person` gives a spec contact with another address a work one).
* Subjects are composed (kind frame x project x artifact) and never repeat an earlier thread's subject
  in the mailbox (``Mailbox.subjects``); no sender repeats their own sentence in a thread; a greeting
  fits the sender's hour (no "good morning" after noon).
* Notes after some meetings (chance by title from the occupation), sent by the organiser, sometimes
  answered.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

from ..names import ascii_slug
from ..persona import Contact
from ..persona.facts import email_domain
from ..persona.occupations import Occupation, of_persona
from ..rng import token
from .calendar import away_dates, is_holiday, parse_when, work_person
from .context import Sim
from .engine import world_step
from .locale import phrase_bank
from .mail import Mailbox, domain_of, has_app, mailbox, render

_CODENAMES = [
    "Atlas",
    "Beacon",
    "Cedar",
    "Driftwood",
    "Ember",
    "Falcon",
    "Granite",
    "Heron",
    "Ironwood",
    "Juniper",
    "Kestrel",
    "Lumen",
    "Marlin",
    "Nimbus",
    "Osprey",
    "Pinnacle",
    "Quill",
    "Raven",
    "Sable",
    "Tamarack",
]
_SLOT = re.compile(r"\{(\w+)\}")
_GENERIC = {"update": 3, "review": 3, "question": 3, "schedule": 1.5, "status": 1.5}
_OWN_KIND_WEIGHT = 3.0


def _colleagues(box: Mailbox) -> list[Contact]:
    p = box.p
    names = list(p.work.colleagues) if p.work else []
    return [c for c in p.contacts if (c.name in names or c.relationship == "colleague") and has_app(c, "mail")]


def _projects(box: Mailbox, occ: Occupation) -> list[tuple[dt.date, dt.date, str, list[str]]]:
    """Work projects: (start, end, name, artifacts); a new one every ~10 weeks, each running ~5 months."""
    sim = box.sim
    r = sim.rng("mail/work/projects")
    names = r.sample(_CODENAMES, len(_CODENAMES))
    patterns = occ.get("projects") or ["{codename}"]
    artifacts = occ.get("artifacts") or ["report"]
    out = []
    day = sim.start.date() - dt.timedelta(days=60)
    i = 0
    while day <= sim.now.date():
        name = patterns[r.randrange(len(patterns))].format(
            codename=names[i % len(names)], quarter=(day.month - 1) // 3 + 1
        )
        out.append(
            (day, day + dt.timedelta(days=r.randint(120, 180)), name, r.sample(artifacts, min(4, len(artifacts))))
        )
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


def fill(text: str, slots: dict[str, Any], r: random.Random, depth: int = 0) -> str:
    """``text`` with each ``{name}`` replaced by ``slots[name]`` (a list: one drawn item); unknown slots stay."""

    def one(m: re.Match) -> str:
        v = slots.get(m.group(1))
        if v is None:
            return m.group(0)
        if isinstance(v, (list, tuple)):
            v = v[r.randrange(len(v))] if v else ""
        v = str(v)
        return fill(v, slots, r, depth + 1) if depth < 3 and "{" in v else v

    return _SLOT.sub(one, text)


def _part_of_day(hour: int) -> str:
    return "morning" if hour < 12 else "afternoon" if hour < 17 else "evening"


def greeting(
    occ: Occupation,
    hour: int,
    name: str,
    r: random.Random,
    quoted_at: int | None = None,
    formal_full: str | None = None,
) -> str:
    """A salutation for ``name`` that fits the sender's local ``hour`` (morning ones only before noon).

    ``quoted_at``: the hour of the reply that will quote this message; a time-of-day greeting is used only
    when that hour is in the same part of the day, so a quoted "Good morning" never sits in an afternoon mail.
    ``formal_full``: the addressee's full name when the exchange is formal (``greet_formal``: German Sie).
    """
    g = occ.mail["greet"]
    if formal_full and g is not None and occ.mail.get("greet_formal"):  # a client or a parent: formal (Sie)
        pool = occ.mail["greet_formal"]
        return pool[r.randrange(len(pool))].format(name=name, full=formal_full)
    part = _part_of_day(hour)
    timed = part != "evening" and (quoted_at is None or _part_of_day(quoted_at) == part)
    pool = list(g["any"]) + (list(g[part]) if timed else [])
    return pool[r.randrange(len(pool))].format(name=name)


def agree(text: str, nouns: list[str], rules: dict[str, Any]) -> str:
    """Verb agreement after each of ``nouns`` in ``text`` by the locale's ``rules`` (``agreement`` of
    ``templates/work_mail/<locale>.yaml``): "the dbt models is" -> "are", "the print edition are" -> "is" (a
    noun ending in a plain ``s`` counts as plural)."""
    singular_s = tuple(rules["singular_s"])
    for noun in nouns:
        if not noun or noun not in text:
            continue
        plural = noun.endswith("s") and not noun.endswith(singular_s)
        for one, many in rules["verbs"].items():
            text = text.replace(noun + (one if plural else many), noun + (many if plural else one))
    return text


def _compose(step: list[list[str]], slots: dict, r: random.Random, said: set[str]) -> str:
    """One message body from a step's parts (one alternative per part), avoiding sentences in ``said``."""
    out = ""
    for part in step:
        text = ""
        for _ in range(6):
            text = fill(part[r.randrange(len(part))], slots, r)
            if slots.get("_agreement"):  # the language's verb agreement (English); other frames avoid it
                text = agree(
                    text, [slots.get("artifact"), slots.get("artifact2"), slots.get("pipeline")], slots["_agreement"]
                )
            if text.strip() not in said:
                break
        said.add(text.strip())
        out += text if text.startswith("\n") or not out else " " + text
    return out


def _subject(box: Mailbox, frames: list[str], slots: dict, r: random.Random, day: dt.date) -> str:
    """A subject from ``frames`` no earlier thread of the mailbox has (else dated, else numbered)."""
    used: set[str] = getattr(box, "subjects", None)
    if used is None:
        used = box.subjects = set()
    s = ""
    for _ in range(12):
        s = fill(frames[r.randrange(len(frames))], slots, r)
        s = s[:1].upper() + s[1:]
        if s.lower() not in used:
            break
    else:
        s = f"{s} ({box.fmt.day(day)})"
        n = 2
        while s.lower() in used:
            s, n = f"{s} #{n}", n + 1
    used.add(s.lower())
    return s


def _external(box: Mailbox, r: random.Random, slots: dict) -> dict[str, str]:
    """Someone outside the employer (a client, a parent): a Faker name at a domain of their own."""
    fake = box.sim.people(f"mail/work/external/{r.randrange(10**9)}")
    name = f"{fake.first_name()} {fake.last_name()}"
    org = slots.get("client")
    domain = f"{ascii_slug(org)[:30] or 'mail'}.test" if org else email_domain(box.p.bank)
    return {"name": name, "email": f"{ascii_slug(name, '.')}@{domain}"}


def work_threads(box: Mailbox) -> None:
    """Append the work threads (see module rules); nothing without colleagues who use mail."""
    sim = box.sim
    colleagues = _colleagues(box)
    if not colleagues:
        return
    occ = of_persona(box.p)
    r = sim.rng("mail/work")
    projects = _projects(box, occ)
    away = away_dates(sim)
    kinds = {**occ.mail["kinds"], **(occ.get("kinds") or {})}
    names = list(kinds)
    weights = [_GENERIC.get(k, kinds[k].get("weight", _OWN_KIND_WEIGHT)) for k in names]
    if occ.freelance:  # a freelancer's mail is mostly clients and galleries
        weights = [w * (2.0 if k not in _GENERIC else 0.6) for k, w in zip(names, weights)]
    vocab = {
        k: occ.get(k) for k in ("done", "done_item", "next_item", "risk", "ask", "answer", "question", "focus", "note")
    }
    n = 0
    for day in sim.past_days():
        if day.weekday() >= 5 or is_holiday(sim, day) or day in away:
            continue
        count = (1 if r.random() < 0.7 else 0) + (1 if r.random() < 0.15 else 0)
        for _ in range(count):
            active = [pr for pr in projects if pr[0] <= day <= pr[1]] or projects[-1:]
            _, _, project, artifacts = active[r.randrange(len(active))]
            art, art2 = r.sample(artifacts, 2) if len(artifacts) > 1 else (artifacts[0], artifacts[0])
            name = r.choices(names, weights)[0]
            kind = kinds[name]
            deadline = day + dt.timedelta(days=r.randint(2, 12))
            while deadline.weekday() >= 5 or is_holiday(sim, deadline):  # a deadline falls on a workday
                deadline += dt.timedelta(days=1)
            slots: dict[str, Any] = {
                **{k: v for k, v in vocab.items() if v},
                **{
                    k: v[r.randrange(len(v))] if isinstance(v, list) else v
                    for k, v in (kind.get("slots") or {}).items()
                },  # one client per thread
                "artifact": art,
                "artifact2": art2,
                "project": project,
                "_agreement": phrase_bank("work_mail", box.p.bank)["agreement"],
                "deadline": box.fmt.weekday(deadline),
                "n": str(r.randint(2, 9)),
                "doc": f"https://docs.{domain_of(box.me_work['email'])}/d/{token(sim.seed, 'doc', n, length=10)}",
            }
            at = dt.datetime.combine(day, dt.time(r.randint(8, 15), r.randint(0, 59), r.randint(0, 59)))
            slots["clock"] = box.fmt.time(at - dt.timedelta(hours=r.randint(4, 7)))
            c = colleagues[r.randrange(len(colleagues))]
            if kind.get("from_client"):
                them = _external(box, r, slots)
                me_first, cc = False, []
            else:
                them = work_person(sim, c.name)
                me_first = name in ("question", "status") or (name not in _GENERIC and r.random() < 0.5)
                others = [o for o in colleagues if o.name != c.name]
                cc = (
                    [work_person(sim, o.name) for o in r.sample(others, r.randint(0, min(2, len(others))))]
                    if name in ("update", "status")
                    else []
                )
            subject = _subject(box, kind["subjects"], slots, r, day)
            steps = kind["steps"]
            length = min(len(steps), r.choices([2, 3, 4], [4, 4, 2])[0])
            msgs: list[dict] = []
            said: dict[str, set[str]] = {}
            signoffs = occ.mail["signoff"]
            signoffs_formal = occ.mail.get("signoff_formal") or signoffs
            times = [at]
            for _ in range(length - 1):
                times.append(_next_work_time(box, times[-1], r, 6, 200))
            for i in range(length):
                at = times[i]
                mine = (i % 2 == 0) == me_first
                sender = box.me_work if mine else them
                to = [them] if mine else [box.me_work]
                other_first = (them if mine else box.me_work)["name"].split()[0]
                own = said.setdefault(sender["email"], set())
                core = _compose(steps[i], slots, r, own)
                quoted = times[i + 1].hour if i + 1 < length else None
                other = them if mine else box.me_work
                formal = bool(kind.get("from_client"))
                bye = signoffs_formal if formal else signoffs
                body = (
                    f"{greeting(occ, at.hour, other_first, r, quoted, other['name'] if formal else None)}"
                    f"\n\n{core}\n\n{bye[r.randrange(len(bye))]}\n"
                    f"{sender['name'] if formal else sender['name'].split()[0]}"
                )
                _, body = render("work", subject=subject, body=body)
                if msgs:
                    body = body + "\n" + box.quote(msgs[-1]["sender"], msgs[-1]["at"], msgs[-1]["body"])
                msgs.append({"at": at, "sender": sender, "to": to, "cc": cc, "body": body})
            box.thread(("work", day, n), subject, msgs, labels=["work"], r=r, archive_p=0.35)
            n += 1


def meeting_notes(box: Mailbox) -> None:
    """Append notes mail after some past work meetings (see module rules)."""
    sim = box.sim
    r = sim.rng("mail/notes")
    occ = of_persona(box.p)
    chance = occ.get("notes_chance") or {}
    notes = occ.mail["notes"]
    discussed, actions = occ.get("discussed") or ["-"], occ.get("actions") or ["-"]
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
        slots = {"title": d["title"], "day": box.fmt.day(e.at)}
        subject = _subject(box, notes["subject"], slots, r, e.at.date())
        who = [a["name"].split()[0] for a in d["attendees"]]
        topics = r.sample(discussed, min(2, len(discussed)))
        todo = r.sample(actions, min(2, len(actions)))
        hi = (
            notes["hi"]
            if len(people) > 1
            else notes.get("hi_one", notes["hi"]).format(first=people[0]["name"].split()[0])
        )
        lines = [
            hi,
            "",
            fill(r.choice(notes["open"]), slots, r),
            "",
            f"{notes['attendees']}: " + ", ".join(a["name"] for a in d["attendees"]),
            "",
            f"{notes['discussed']}:",
            *[f"- {t}" for t in topics],
            "",
            f"{notes['actions']}:",
            *[f"- {who[r.randrange(len(who))]}: {t}" for t in todo],
            "",
            r.choice(notes["close"]),
            "",
            org["name"].split()[0],
        ]
        _, body = render("meeting_notes", subject=subject, body="\n".join(lines))
        msgs = [{"at": at, "sender": org, "to": people, "body": body}]
        if r.random() < 0.35:
            replier = box.me_work if org["email"] != box.me_work["email"] else people[r.randrange(len(people))]
            reply = f"{r.choice(notes['reply_open'])} {r.choice(notes['reply_core'])}\n\n{replier['name'].split()[0]}"
            _, reply = render("meeting_notes_reply", body=reply)
            msgs.append(
                {
                    "at": _next_work_time(box, at, r, 5, 120),
                    "sender": replier,
                    "to": [org] + [x for x in people if x["email"] != replier["email"]],
                    "body": reply + "\n" + box.quote(org, at, body),
                }
            )
        box.thread(("notes", e.id), subject, msgs, labels=["work"], ref=e.id, r=r, archive_p=0.4)


@world_step(rank=71, reads=("calendar_event",), writes=("email",))
def simulate_work_mail(sim: Sim) -> None:
    """Append the work mailbox's threads and the notes of past meetings (see module rules), through the mail
    channel."""
    box = mailbox(sim)
    work_threads(box)
    meeting_notes(box)
