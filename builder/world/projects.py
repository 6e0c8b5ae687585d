"""Work projects: the team's ticket board (the Project board app) across a two-week sprint cadence.

What it makes (nothing for a persona without an employer, i.e. without a work chat workspace):

* The projects are the work chat's (:func:`builder.world.work_chat._plan`, a pure function of the persona, so
  names and slugs match ``#proj-<slug>``; a spec's ``work.projects`` when given); tickets carry the key prefix
  the work chat uses (``DES-2417``, the occupation's ``ticket``, or the spec project's ``key``).
* Sprints of 14 days start at each "Sprint planning" meeting of the calendar (the recurring meeting whose title
  holds one of the grammar's ``planning_words``); without one, every other Monday. Sprints run from the history
  start to the one after the current (``next``); the current is the one holding ``now``.
* Every ticket key a work chat message mentions (``{PREFIX}-{n}`` in its text) is a ticket, created before its
  first mention and worked in the sprint of that mention; the chat's sender of that first mention is its
  assignee when a team member. More tickets come out of sprint plannings (created right after the meeting, or the
  sprint's start without one; ``meeting`` = the planning's event id), and a backlog plus the next sprint's scope.
* Statuses: ``backlog`` -> ``todo`` -> ``in_progress`` -> ``in_review`` -> ``done``, in that order, one step per
  ``ticket_transition``. A sprint's tickets move to ``todo`` a few minutes after its planning ends (``meeting``
  = the planning); work often starts right after a stand-up (``meeting`` = that stand-up). A ticket not done
  when its sprint ends is carried into the next one at its planning (``ticket_sprint``). No ticket event is
  after ``now``; every transition is on a workday between 08:30 and 18:30 local.
* People: assignee and reporter are the persona or its team (``persona.work.colleagues``, else the work chat's
  generated teammates); comments come from them too.
* The spec's tickets (``work.projects[].tickets``; :func:`_spec_plans`, stream ``projects/spec``) are on the board
  as written: title, type, priority, assignee, due, points, status, the description and comments verbatim (the
  builder draws missing points, the reporter and labels; a missing description stays empty). Each is created at a sprint planning
  (``backlog``: on a workday of the last 40 days) and reaches its status by ``now`` through the usual transitions
  (``done`` inside one of the last three past sprints, any other in the current sprint, worked since the one
  before and carried over when the current leaves no room); its comments fall between its creation and its
  ``done`` (or ``now``). The builder's own tickets (chat mentions, plannings, the backlog) join the spec's
  projects too. A project's ``key`` prefixes all its tickets; numbers are the team's one sequence.
* Words come from ``templates/projects/<locale>.yaml`` (families keyed by the occupation's team slug, else
  ``default``); the code never branches on the locale.

Events (all keyed ``("projects", ...)``, no postings, no ``site_url``):

* ``sprint`` at its start: ``number``, ``name``, ``start``, ``end`` (ISO dates, ``end`` its last day), ``goal``,
  ``planning`` (calendar event id or null), ``team``.
* ``ticket_created``: ``key``, ``number``, ``project``, ``project_slug``, ``type`` (story/task/bug), ``title``,
  ``description``, ``priority`` (urgent/high/medium/low), ``labels``, ``points``, ``due`` (ISO date or null),
  ``reporter``, ``assignee``, ``subtasks`` ([{title, done}], done as of now), ``sprint`` (number or null),
  ``meeting`` (event id or null), ``chat`` (ids of work chat messages that mention the key).
* ``ticket_transition``: ``key``, ``from``, ``to``, ``by``, ``meeting`` (event id or null).
* ``ticket_sprint``: ``key``, ``from_sprint``, ``to_sprint``, ``by``, ``meeting``.
* ``ticket_comment``: ``key``, ``author``, ``text``.

:func:`board` replays these events into the board's state as of ``now`` (what the app's seed writes).
Every draw comes from ``projects/...`` streams.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass
from typing import Any

from ..persona.model import name_key
from .calendar import is_holiday, parse_when
from .engine import world_step
from .context import Sim
from .locale import phrase_bank
from .model import Event, World
from .work_chat import Project, Workspace, _plan, ticket_prefix

STATUSES = ["backlog", "todo", "in_progress", "in_review", "done"]
PRIORITIES = ["urgent", "high", "medium", "low"]
SPRINT_DAYS = 14
POINTS = [1, 2, 3, 5, 8]
POINT_WEIGHTS = [2, 4, 5, 4, 1]
DAY_START, DAY_END = 8.5, 18.5
KINDS = ("sprint", "ticket_created", "ticket_transition", "ticket_sprint", "ticket_comment")


def grammar(locale: str, team_slug: str) -> dict[str, Any]:
    """The board grammar of ``locale``: the top level plus ``family`` (the team's family laid over ``default``)."""
    b = phrase_bank("projects", locale)
    fam = dict(b["default"])
    fam.update(b.get(team_slug) or {})
    return {**b, "family": fam}


@dataclass(frozen=True)
class Sprint:
    """A two-week sprint: ``start`` .. ``end`` its days (``end`` the day before the next planning); it opens at its
    planning (``opens``; ``planning_end`` when the meeting ends) and closes when the next one opens (``closes``)."""

    number: int
    start: dt.date
    end: dt.date
    planning: str | None
    opens: dt.datetime
    planning_end: dt.datetime
    closes: dt.datetime

    def holds(self, t: dt.datetime) -> bool:
        return self.opens <= t < self.closes


def _series(sim: Sim, words: list[str]) -> list[Event]:
    """The calendar's meetings of the recurring series whose title holds one of ``words`` (most frequent series)."""
    groups: dict[str, list[Event]] = {}
    for e in sim.of_kind("calendar_event"):
        d = e.data
        if d.get("source") == "meeting" and d.get("series") and any(w in d["title"].lower() for w in words):
            groups.setdefault(d["series"], []).append(e)
    if not groups:
        return []
    best = max(sorted(groups), key=lambda s: len(groups[s]))
    return sorted(groups[best], key=lambda e: (e.at, e.id))


def _end_of(sim: Sim, e: Event) -> dt.datetime:
    return parse_when(sim, e.data.get("end")) or e.at + dt.timedelta(minutes=30)


def _sprints(sim: Sim, r: random.Random, planning: list[Event]) -> list[Sprint]:
    first, now = sim.start.date(), sim.now.date()
    offset = r.randint(20, 60)
    if planning:
        starts = [(e.at.date(), e) for e in planning]
    else:
        day = first - dt.timedelta(days=(first - dt.date(2024, 1, 1)).days % SPRINT_DAYS)
        starts = []
        while day <= now + dt.timedelta(days=3 * SPRINT_DAYS):
            starts.append((day, None))
            day += dt.timedelta(days=SPRINT_DAYS)
    opens = [e.at if e else dt.datetime.combine(day, dt.time(10, 0)) for day, e in starts]
    out: list[Sprint] = []
    for i, (day, e) in enumerate(starts):
        closes = opens[i + 1] if i + 1 < len(starts) else opens[i] + dt.timedelta(days=SPRINT_DAYS)
        if closes.date() <= first:
            continue
        out.append(
            Sprint(
                offset + len(out) + 1,
                day,
                closes.date() - dt.timedelta(days=1),
                e.id if e else None,
                opens[i],
                _end_of(sim, e) if e else opens[i] + dt.timedelta(hours=1),
                closes,
            )
        )
        if opens[i] > sim.now:  # the next sprint is the last one
            break
    return out


class _Board:
    """Draws and emits the tickets (one instance per simulation)."""

    def __init__(self, sim: Sim, ws: Workspace):
        self.sim, self.ws = sim, ws
        self.g = grammar(sim.persona.bank, ws.team["slug"])
        self.fam = self.g["family"]
        b = ws.bank
        self.arts = b["artifacts"].get("occupation") or b["artifacts"].get(ws.team["slug"]) or b["artifacts"]["default"]
        self.prefix = ticket_prefix(ws)
        self.me = ws.me.name
        self.people = [self.me, *[m.name for m in ws.team_people]]
        self.firsts = {n: n.split()[0] for n in self.people}
        self.titles: set[str] = set()
        self.used: set[int] = set()
        self.standups = {e.at.date(): e for e in _series(sim, self.g["standup_words"]) if e.at <= sim.now}
        self.planning = _series(sim, self.g["planning_words"])
        self.sprints = _sprints(sim, sim.rng("projects/sprints"), self.planning)

    # -- time helpers
    def workday(self, day: dt.date) -> bool:
        return day.weekday() < 5 and not is_holiday(self.sim, day)

    def in_hours(self, t: dt.datetime) -> bool:
        return self.workday(t.date()) and DAY_START <= t.hour + t.minute / 60 < DAY_END

    def key_of(self, project: Project) -> str:
        """The ticket key prefix of ``project``: its spec ``key``, else the team's."""
        return project.key or self.prefix

    def next_workday(self, day: dt.date) -> dt.date:
        day += dt.timedelta(days=1)
        while not self.workday(day):
            day += dt.timedelta(days=1)
        return day

    def at(self, r: random.Random, day: dt.date, lo: float = DAY_START, hi: float = DAY_END - 0.5) -> dt.datetime:
        while not self.workday(day):
            day = self.next_workday(day)
        minutes = int(lo * 60) + r.randrange(max(1, int((hi - lo) * 60)))
        return dt.datetime.combine(day, dt.time(minutes // 60, minutes % 60, r.randrange(60)))

    def later(self, r: random.Random, t: dt.datetime, days_lo: int, days_hi: int) -> dt.datetime:
        """A work time ``days_lo``..``days_hi`` workdays after ``t`` (same day: later that day, if there is room)."""
        n = r.randint(days_lo, days_hi)
        day = t.date()
        if n == 0 and t.hour + t.minute / 60 < DAY_END - 1.0:
            lo = t.hour + t.minute / 60 + 0.25
            return self.at(r, day, lo, DAY_END - 0.5)
        for _ in range(max(n, 1)):
            day = self.next_workday(day)
        return self.at(r, day)

    def back(self, r: random.Random, day: dt.date) -> dt.datetime:
        """A work time on ``day``, else the workday before it (else the first workday of the history)."""
        d = day
        while not self.workday(d) and d > self.sim.start.date():
            d -= dt.timedelta(days=1)
        return self.at(r, d)

    def spread(self, r: random.Random, lo: dt.datetime, hi: dt.datetime, n: int, gap: int) -> list[dt.datetime]:
        """``n`` times strictly between ``lo`` and ``hi`` in order, within working hours when the working time
        between them holds ``gap`` minutes a time, else evenly spaced (minutes apart, seconds drawn)."""
        spans: list[tuple[dt.datetime, int]] = []
        day = lo.date()
        while day <= hi.date() and n:
            if self.workday(day):
                a = max(lo + dt.timedelta(minutes=1), dt.datetime.combine(day, dt.time(8, 30)))
                b = min(hi - dt.timedelta(minutes=1), dt.datetime.combine(day, dt.time(18, 30)))
                minutes = int((b - a).total_seconds() // 60)
                if minutes > 0:
                    spans.append((a.replace(second=0, microsecond=0) + dt.timedelta(minutes=1), minutes - 1))
            day += dt.timedelta(days=1)
        total = sum(m for _, m in spans)
        if total < gap * n:
            step = (hi - lo) / (n + 1)
            return [(lo + step * (i + 1)).replace(microsecond=0) for i in range(n)]
        out = []
        for m in sorted(r.sample(range(total), n)):
            for a, minutes in spans:
                if m < minutes:
                    out.append(a + dt.timedelta(minutes=m, seconds=r.randrange(60)))
                    break
                m -= minutes
        return out

    def sprint_of(self, t: dt.datetime) -> Sprint | None:
        return next((s for s in self.sprints if s.holds(t)), None)

    def after(self, s: Sprint) -> Sprint | None:
        i = self.sprints.index(s)
        return self.sprints[i + 1] if i + 1 < len(self.sprints) else None

    # -- words
    def fill(self, r: random.Random, text: str, project: str) -> str:
        a, a2 = r.sample(self.arts, 2)
        mates = [n for n in self.people if n != self.me] or self.people
        return text.format(
            artifact=a,
            artifact2=a2,
            project=project,
            person=self.firsts[mates[r.randrange(len(mates))]],
            n=r.randint(3, 12),
        )

    def ticket_words(self, r: random.Random, kind: str, project: str) -> tuple[str, str]:
        title = ""
        for _ in range(12):
            title = self.fill(r, r.choice(self.fam["titles"][kind]), project)
            if title not in self.titles:
                break
        self.titles.add(title)
        title = title[0].upper() + title[1:]
        return title, self.description(r, project)

    def description(self, r: random.Random, project: str) -> str:
        """A ticket description of ``project``: why, then 2-3 "done when" bullets."""
        why = self.fill(r, r.choice(self.fam["why"]), project)
        done = [
            self.fill(r, t, project)
            for t in r.sample(self.fam["done_when"], min(len(self.fam["done_when"]), r.randint(2, 3)))
        ]
        return why + "\n\n" + "\n".join(f"- {d[0].upper()}{d[1:]}" for d in done)

    def number_near(self, n: int) -> int:
        while n in self.used:
            n += 1
        self.used.add(n)
        return n


@world_step(
    rank=160,
    reads=("calendar_event", "work_chat_message"),
    writes=("sprint", "ticket_created", "ticket_sprint", "ticket_transition", "ticket_comment"),
)
def simulate_projects(sim: Sim) -> None:
    """Append the board's events (see module rules); nothing for a persona without a work chat workspace."""
    ws = _plan(sim)
    if ws is None or not ws.projects:
        return
    bd = _Board(sim, ws)
    if not bd.sprints:
        return
    r = sim.rng("projects/tickets")
    rc = sim.rng("projects/comments")
    prefixes = sorted({bd.key_of(p) for p in ws.projects} | {bd.prefix})
    key_re = re.compile(rf"\b({'|'.join(map(re.escape, prefixes))})-(\d+)\b")
    goals = sim.rng("projects/goals")
    for s in bd.sprints:
        active = [p for p in ws.projects if p.active(s.start)] or ws.projects[-1:]
        goal = bd.fill(goals, goals.choice(bd.g["sprint_goals"]), active[goals.randrange(len(active))].name)
        sim.event(
            "sprint",
            s.opens,
            {
                "team": ws.team["title"],
                "number": s.number,
                "name": bd.g["sprint_name"].format(n=s.number),
                "start": s.start.isoformat(),
                "end": s.end.isoformat(),
                "opens": s.opens.isoformat(),
                "closes": s.closes.isoformat(),
                "goal": goal,
                "planning": s.planning,
            },
            key=("projects", "sprint", s.number),
        )

    # Tickets the work chat mentions: key -> (number, first mention, all mentions)
    mentioned: dict[int, list[Event]] = {}
    said: dict[int, str] = {}  # number -> its prefix (the chat gives a number one prefix)
    for e in sorted(sim.of_kind("work_chat_message"), key=lambda e: (e.at, e.id)):
        if e.at > sim.now:
            continue
        for m in key_re.finditer(e.data["text"]):
            n = int(m.group(2))
            if said.setdefault(n, m.group(1)) == m.group(1):
                mentioned.setdefault(n, []).append(e)
    bd.used.update(mentioned)
    plans: list[dict[str, Any]] = []
    for n in sorted(mentioned, key=lambda n: (mentioned[n][0].at, n)):
        first = mentioned[n][0]
        s = bd.sprint_of(first.at) or bd.sprints[0]
        ch = first.data["channel"]
        # The project whose key the mention carries; among those of the team's prefix, the channel's, else drawn.
        pool = [p for p in ws.projects if bd.key_of(p) == said[n]] or ws.projects
        project = next((p for p in pool if ch == f"proj-{p.slug}"), None)
        if project is None:
            active = [p for p in pool if p.active(first.at.date())] or pool[-1:]
            project = active[r.randrange(len(active))]
        created = first.at - dt.timedelta(days=r.randint(1, 12))
        created = bd.at(r, max(created.date(), sim.start.date()))
        if created >= first.at:
            created = first.at - dt.timedelta(minutes=r.randint(20, 90))
            if not bd.in_hours(created):
                day = first.at.date() - dt.timedelta(days=1)
                while not bd.workday(day):
                    day -= dt.timedelta(days=1)
                created = bd.at(r, day)
        sender = first.data["sender"]
        plans.append(
            {
                "number": n,
                "project": project,
                "sprint": s,
                "created": created,
                "meeting": None,
                "assignee": sender if sender in bd.people else None,
                "chat": [e.id for e in mentioned[n]],
                "start_before": first.at,
            }
        )
    # Tickets decided at sprint planning (created right after the meeting).
    rp = sim.rng("projects/planning")
    top = max(mentioned, default=100)
    for s in bd.sprints:
        if s.planning_end > sim.now:
            continue
        current = s.holds(sim.now)
        for _ in range(rp.randint(4, 6) if current else rp.choice([0, 1, 1, 2])):
            active = [p for p in ws.projects if p.active(s.start)] or ws.projects[-1:]
            near = max([n for n in mentioned if mentioned[n][0].at <= s.opens], default=top - 200)
            plans.append(
                {
                    "number": bd.number_near(near + rp.randint(1, 8)),
                    "project": active[rp.randrange(len(active))],
                    "sprint": s,
                    "created": s.planning_end + dt.timedelta(minutes=rp.randint(3, 25)),
                    "meeting": s.planning,
                    "assignee": None,
                    "chat": [],
                    "start_before": None,
                    "scope": True,
                }
            )
    # The backlog and the next sprint's scope of projects still running.
    rb = sim.rng("projects/backlog")
    nxt = bd.sprints[-1] if bd.sprints[-1].opens > sim.now else None
    running = [p for p in ws.projects if p.end is None or p.end >= sim.now.date()] or ws.projects[-1:]
    count = 0
    for p in running:
        for i in range(rb.randint(5, 8) + (rb.randint(3, 5) if nxt else 0)):
            to_next = nxt is not None and i < 3
            day = sim.now.date() - dt.timedelta(days=rb.randint(1, 60))
            created = bd.at(rb, max(day, p.start, sim.start.date()))
            if created > sim.now:
                created = sim.now - dt.timedelta(hours=rb.randint(1, 20))
            count += 1
            plans.append(
                {
                    "number": bd.number_near(top + count * 2 + rb.randint(0, 1)),
                    "project": p,
                    "sprint": nxt if to_next else None,
                    "created": created,
                    "meeting": None,
                    "assignee": None,
                    "chat": [],
                    "start_before": None,
                    "backlog": True,
                }
            )
    plans += _spec_plans(bd, plans)
    for plan in sorted(plans, key=lambda x: (x["created"], x["number"])):
        if "spec" in plan:
            _spec_ticket(bd, plan)
        else:
            _ticket(bd, r, rc, plan)


def _ticket(bd: _Board, r: random.Random, rc: random.Random, plan: dict[str, Any]) -> None:
    sim, me = bd.sim, bd.me
    key = f"{bd.key_of(plan['project'])}-{plan['number']}"
    kinds = bd.g["types"]
    kind = r.choices(list(kinds), weights=list(kinds.values()))[0]
    title, description = bd.ticket_words(r, kind, plan["project"].name)
    pw = bd.g["priorities"]
    priority = r.choices(
        PRIORITIES, weights=[pw[p] * (2 if kind == "bug" and p in ("urgent", "high") else 1) for p in PRIORITIES]
    )[0]
    labels = sorted(r.sample(bd.fam["labels"], r.choice([1, 1, 2])))
    points = r.choices(POINTS, weights=POINT_WEIGHTS)[0]
    reporter = bd.people[r.randrange(len(bd.people))]
    assignee = plan["assignee"] or bd.people[r.randrange(len(bd.people))]
    s: Sprint | None = plan["sprint"]
    due = s.end.isoformat() if s and r.random() < 0.4 else None
    created: dt.datetime = plan["created"]
    # The status path: (time, kind, data) steps, cut at now.
    steps: list[tuple[dt.datetime, str, dict]] = []
    status = "backlog"
    if s is not None and not plan.get("backlog"):
        commit = max(
            created + dt.timedelta(minutes=r.randint(2, 30)), s.planning_end + dt.timedelta(minutes=r.randint(2, 40))
        )
        if commit.hour + commit.minute / 60 >= DAY_END:
            commit = bd.at(r, bd.next_workday(commit.date()), DAY_START, DAY_START + 1)
        by_meeting = s.planning if commit <= s.planning_end + dt.timedelta(minutes=45) else None
        steps.append((commit, "todo", {"by": reporter, "meeting": by_meeting}))
        # Work starts after a stand-up when there is one that day, before the first chat mention where it fits.
        slow = s.holds(sim.now) and plan.get("scope", False)  # this sprint's own scope: spread over the board
        t = bd.later(r, commit, 1, 9) if slow else bd.later(r, commit, 0, 4)
        limit = plan["start_before"]
        if limit and commit < limit < t:
            t = max(commit + dt.timedelta(minutes=5), limit - dt.timedelta(minutes=r.randint(5, 120)))
            if not bd.in_hours(t):
                t = bd.later(r, commit, 0, 1)
        su = bd.standups.get(t.date())
        meeting = None
        if su is not None:
            su_end = _end_of(sim, su)
            cand = su_end + dt.timedelta(minutes=r.randint(3, 40))
            if commit < cand and bd.in_hours(cand) and (limit is None or cand <= limit or limit <= commit):
                t, meeting = cand, su.id
        steps.append((t, "in_progress", {"by": assignee, "meeting": meeting}))
        t = bd.later(r, t, 2 if slow else 1, 6 if slow else max(2, points))
        steps.append((t, "in_review", {"by": assignee, "meeting": None}))
        t = bd.later(r, t, 0, 3)
        steps.append(
            (t, "done", {"by": reporter if reporter != assignee and r.random() < 0.5 else assignee, "meeting": None})
        )
    elif s is not None:
        steps = []
    # Emit: creation, transitions in order; a sprint carry-over when the sprint ends before done.
    subtasks = []
    if points >= 3 and r.random() < 0.55:
        picks = bd.fam["subtasks"][:]
        k = min(len(picks), r.randint(2, 4))
        start = r.randrange(0, len(picks) - k + 1)
        subtasks = [bd.fill(r, t, plan["project"].name) for t in picks[start : start + k]]
    shown = [st for st in steps if st[0] <= sim.now]
    final = shown[-1][1] if shown else status
    done_subs = (
        len(subtasks) if final == "done" else (len(subtasks) // 2 if final in ("in_progress", "in_review") else 0)
    )
    sprint_no = s.number if s else None
    sim.event(
        "ticket_created",
        created,
        {
            "key": key,
            "number": plan["number"],
            "project": plan["project"].name,
            "project_slug": plan["project"].slug,
            "type": kind,
            "title": title,
            "description": description,
            "priority": priority,
            "labels": labels,
            "points": points,
            "due": due,
            "reporter": reporter,
            "assignee": assignee,
            "subtasks": [{"title": t, "done": i < done_subs} for i, t in enumerate(subtasks)],
            "sprint": sprint_no,
            "meeting": plan["meeting"],
            "chat": plan["chat"],
        },
        key=("projects", "created", key),
    )
    prev, cur_sprint = status, s
    for i, (t, to, d) in enumerate(shown):
        while cur_sprint is not None and t >= cur_sprint.closes:
            nxt = bd.after(cur_sprint)
            if nxt is None or nxt.opens > sim.now:
                break
            at = max(
                nxt.opens + dt.timedelta(minutes=1),
                min(t - dt.timedelta(minutes=1), nxt.planning_end + dt.timedelta(minutes=r.randint(1, 20))),
            )
            sim.event(
                "ticket_sprint",
                at,
                {
                    "key": key,
                    "from_sprint": cur_sprint.number,
                    "to_sprint": nxt.number,
                    "by": me if r.random() < 0.4 else reporter,
                    "meeting": nxt.planning,
                },
                key=("projects", "sprint_move", key, nxt.number),
            )
            cur_sprint = nxt
        sim.event(
            "ticket_transition",
            t,
            {"key": key, "from": prev, "to": to, "by": d["by"], "meeting": d["meeting"]},
            key=("projects", "transition", key, i),
        )
        prev = to
    # Comments: between creation and done (or now), by the team.
    end = shown[-1][0] if shown and final == "done" else sim.now
    pool = [n for n in bd.people if n != assignee] or bd.people
    said: set[str] = set()
    for j in range(rc.choice([0, 0, 1, 1, 2, 3])):
        span = (end - created).total_seconds()
        if span <= 3600:
            break
        at = created + dt.timedelta(seconds=rc.randrange(int(span)))
        if not bd.workday(at.date()) or not DAY_START <= at.hour + at.minute / 60 < DAY_END:
            at = bd.at(rc, at.date())
            if at > end or at <= created:
                continue
        text = bd.fill(rc, rc.choice(bd.fam["comments"]), plan["project"].name)
        if text in said:
            continue
        said.add(text)
        author = pool[rc.randrange(len(pool))] if rc.random() < 0.75 else assignee
        sim.event(
            "ticket_comment", at, {"key": key, "author": author, "text": text}, key=("projects", "comment", key, j)
        )


# --- the spec's tickets ---------------------------------------------------------------------------


def _spec_plans(bd: _Board, plans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Plans of the spec's tickets (``work.projects[].tickets``; draws from ``projects/spec``), numbered after the
    tickets ``plans`` creates before them. Each is created at a sprint planning (``backlog``: on a workday of the
    last 40 days) and reaches its status by ``now``: ``done`` in one of the last three past sprints, any other in
    the current one (worked since the sprint before and carried over when the current has no room for its steps)."""
    sim, ws = bd.sim, bd.ws
    specs = sim.persona.work.projects if sim.persona.work else None
    if not specs:
        return []
    r = sim.rng("projects/spec")
    canon = {name_key(n): n for n in bd.people}
    cur = bd.sprint_of(sim.now) or max(
        (s for s in bd.sprints if s.opens <= sim.now), key=lambda s: s.opens, default=None
    )
    past = [s for s in bd.sprints if s.closes <= sim.now and s.planning_end >= sim.start]
    out: list[dict[str, Any]] = []
    for project in ws.projects:
        if project.spec is None:
            continue
        for t in specs[project.spec].tickets:
            bd.titles.add(t.title)
            k = STATUSES.index(t.status)
            reporter = bd.people[r.randrange(len(bd.people))]
            assignee = canon.get(name_key(t.assignee), bd.me) if t.assignee else bd.me
            plan: dict[str, Any] = {"spec": t, "project": project, "reporter": reporter, "assignee": assignee}
            if k == 0:
                span = max(1, min(40, (sim.now.date() - sim.start.date()).days))
                created = bd.back(r, sim.now.date() - dt.timedelta(days=r.randint(1, span)))
                out.append({**plan, "created": created, "sprint": None, "meeting": None, "steps": [], "carry": None})
                continue
            s = (r.choice(past[-3:]) if past else cur) if t.status == "done" else cur
            s = s or bd.sprints[-1]
            for attempt in (0, 1):
                created = s.planning_end + dt.timedelta(minutes=r.randint(3, 25))
                commit = created + dt.timedelta(minutes=r.randint(2, 20))
                if commit.hour + commit.minute / 60 >= DAY_END:
                    commit = bd.at(r, bd.next_workday(commit.date()), DAY_START, DAY_START + 1)
                end = min(s.closes, sim.now) if t.status == "done" else sim.now
                room = _work_minutes(bd, commit, end)
                at = bd.sprints.index(s)
                prev = bd.sprints[at - 1] if at > 0 and bd.sprints[at - 1].planning_end >= sim.start else None
                if attempt == 0 and s is cur and (commit >= sim.now or room < 30 * (k - 1)) and prev is not None:
                    s = prev
                    continue
                break
            if commit >= sim.now:  # no sprint before a planning still running at now: committed just before
                created, commit = sim.now - dt.timedelta(minutes=10), sim.now - dt.timedelta(minutes=5)
            meeting = s.planning if commit <= s.planning_end + dt.timedelta(minutes=45) else None
            steps = [(commit, "todo", reporter, meeting)]
            times = bd.spread(r, commit, end, k - 1, 30)
            steps += [(at, STATUSES[2 + i], assignee, None) for i, at in enumerate(times)]
            carry = None
            if s is not cur and t.status != "done" and cur is not None:
                at = cur.planning_end + dt.timedelta(minutes=r.randint(1, 20))
                at = max(cur.opens + dt.timedelta(minutes=1), min(at, sim.now - dt.timedelta(minutes=1)))
                carry = (at, s.number, cur.number, bd.me if r.random() < 0.4 else reporter, cur.planning)
            out.append({**plan, "created": created, "sprint": s, "meeting": s.planning, "steps": steps, "carry": carry})
    # Numbers: after the builder's tickets created before each (the team's one sequence), in creation order.
    timeline = sorted((p["created"], p["number"]) for p in plans)
    low = min((n for _, n in timeline), default=101)
    for plan in sorted(out, key=lambda p: p["created"]):
        near = max((n for at, n in timeline if at <= plan["created"]), default=low - 12)
        plan["number"] = bd.number_near(near + r.randint(1, 3))
        plan["comment_at"] = _comment_times(bd, r, plan)
        plan["labels"] = sorted(r.sample(bd.fam["labels"], r.choice([1, 1, 2])))
        plan["points"] = plan["spec"].points or r.choices(POINTS, weights=POINT_WEIGHTS)[0]
        # No description drawn for a spec ticket: the grammar's words are about the occupation's usual work, not
        # about the title the contributor wrote.
        plan["description"] = plan["spec"].description or ""
    return out


def _work_minutes(bd: _Board, lo: dt.datetime, hi: dt.datetime) -> int:
    """Working minutes (workdays, 08:30-18:30) between ``lo`` and ``hi``."""
    total, day = 0, lo.date()
    while day <= hi.date():
        if bd.workday(day):
            a = max(lo, dt.datetime.combine(day, dt.time(8, 30)))
            b = min(hi, dt.datetime.combine(day, dt.time(18, 30)))
            total += max(0, int((b - a).total_seconds() // 60))
        day += dt.timedelta(days=1)
    return total


def _comment_times(bd: _Board, r: random.Random, plan: dict[str, Any]) -> list[dt.datetime]:
    """When the spec ticket's comments were written, in order: between its creation and when it was done (or now)."""
    n = len(plan["spec"].comments or [])
    steps = plan["steps"]
    end = steps[-1][0] if steps and steps[-1][1] == "done" else bd.sim.now
    return bd.spread(r, plan["created"], end, n, 3)


def _spec_ticket(bd: _Board, plan: dict[str, Any]) -> None:
    """Emit one spec ticket: as written (title, type, priority, status, assignee, due, points; description and
    comments verbatim when given), the rest (reporter, labels) drawn in :func:`_spec_plans`."""
    sim, t = bd.sim, plan["spec"]
    key = f"{bd.key_of(plan['project'])}-{plan['number']}"
    s: Sprint | None = plan["sprint"]
    sim.event(
        "ticket_created",
        plan["created"],
        {
            "key": key,
            "number": plan["number"],
            "project": plan["project"].name,
            "project_slug": plan["project"].slug,
            "type": t.type,
            "title": t.title,
            "description": plan["description"],
            "priority": t.priority,
            "labels": plan["labels"],
            "points": plan["points"],
            "due": t.due.isoformat() if t.due else None,
            "reporter": plan["reporter"],
            "assignee": plan["assignee"],
            "subtasks": [],
            "sprint": s.number if s else None,
            "meeting": plan["meeting"],
            "chat": [],
        },
        key=("projects", "created", key),
    )
    prev = "backlog"
    for i, (at, to, by, meeting) in enumerate(plan["steps"]):
        sim.event(
            "ticket_transition",
            at,
            {"key": key, "from": prev, "to": to, "by": by, "meeting": meeting},
            key=("projects", "transition", key, i),
        )
        prev = to
    if plan["carry"]:
        at, old, new, by, meeting = plan["carry"]
        sim.event(
            "ticket_sprint",
            at,
            {"key": key, "from_sprint": old, "to_sprint": new, "by": by, "meeting": meeting},
            key=("projects", "sprint_move", key, new),
        )
    canon = {name_key(n): n for n in bd.people}
    for j, (c, at) in enumerate(zip(t.comments or [], plan["comment_at"])):
        sim.event(
            "ticket_comment",
            at,
            {"key": key, "author": canon.get(name_key(c.author), bd.me), "text": c.text},
            key=("projects", "comment", key, j),
        )


# --- the board as of now -------------------------------------------------------------------------


def board(world: World) -> dict[str, Any]:
    """Replay the world's board events into its state as of ``now``.

    Returns ``{"prefix", "team", "workspace", "people": [{name, email, is_me}] (the persona first),
    "projects": [{name, slug, start, end, key (its ticket prefix), description (the spec's or None)}],
    "sprints": [sprint event data + state (past/current/next)], "tickets": [ticket dict]}``, tickets in creation order, each the ``ticket_created``
    data plus ``id`` (its event), ``created_at``, ``status``, ``sprint`` (current number or null), ``updated_at``, ``history``
    ([{at, field, old, new, by, meeting, ref}]) and ``comments`` ([{at, author, text, ref}]); ``ref`` is the event id. Times are local ISO
    strings. Empty lists for a persona without a workspace.
    """
    events = [e for e in world.events if e.kind in KINDS and e.at <= world.now or e.kind == "sprint"]
    ws = _plan(_sim(world))
    specs = (world.persona.work.projects if world.persona.work else None) or []
    projects = [
        {
            "name": p.name,
            "slug": p.slug,
            "start": p.start.isoformat(),
            "end": p.end.isoformat() if p.end else None,
            "key": p.key or ticket_prefix(ws),
            "description": specs[p.spec].description if p.spec is not None else None,
        }
        for p in (ws.projects if ws else [])
    ]
    now = world.now.isoformat()
    sprints = []
    for e in events:
        if e.kind == "sprint":
            d = dict(e.data, id=e.id)
            d["state"] = "past" if d["closes"] <= now else "current" if d["opens"] <= now else "next"
            sprints.append(d)
    tickets: dict[str, dict] = {}
    for e in events:
        d, at = e.data, e.at.replace(microsecond=0).isoformat()
        if e.kind == "ticket_created":
            t = dict(
                d,
                id=e.id,
                created_at=at,
                updated_at=at,
                status="backlog",
                history=[],
                comments=[],
                labels=list(d["labels"]),
                subtasks=[dict(s) for s in d["subtasks"]],
                chat=list(d["chat"]),
            )
            t["history"].append(
                {
                    "at": at,
                    "field": "created",
                    "old": None,
                    "new": d["title"],
                    "by": d["reporter"],
                    "meeting": d["meeting"],
                    "ref": e.id,
                }
            )
            tickets[d["key"]] = t
        elif e.kind == "ticket_transition":
            t = tickets[d["key"]]
            t["status"], t["updated_at"] = d["to"], at
            t["history"].append(
                {
                    "at": at,
                    "field": "status",
                    "old": d["from"],
                    "new": d["to"],
                    "by": d["by"],
                    "meeting": d["meeting"],
                    "ref": e.id,
                }
            )
        elif e.kind == "ticket_sprint":
            t = tickets[d["key"]]
            t["sprint"], t["updated_at"] = d["to_sprint"], at
            t["history"].append(
                {
                    "at": at,
                    "field": "sprint",
                    "old": str(d["from_sprint"]),
                    "new": str(d["to_sprint"]),
                    "by": d["by"],
                    "meeting": d["meeting"],
                    "ref": e.id,
                }
            )
        elif e.kind == "ticket_comment":
            tickets[d["key"]]["comments"].append({"at": at, "author": d["author"], "text": d["text"], "ref": e.id})
    people = (
        [{"name": m.name, "email": m.email, "is_me": m.name == ws.me.name} for m in [ws.me, *ws.team_people]]
        if ws
        else []
    )
    return {
        "prefix": ticket_prefix(ws) if ws else "",
        "team": ws.team["title"] if ws else "",
        "workspace": ws.name if ws else "",
        "people": people,
        "projects": projects,
        "sprints": sprints,
        "tickets": list(tickets.values()),
    }


def _sim(world: World) -> Sim:
    return Sim(persona=world.persona, start=world.start, now=world.now, end=world.end, merchants=world.merchants)
