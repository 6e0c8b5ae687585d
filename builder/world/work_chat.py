"""Work chat: the persona's Slack-like workspace as ``work_chat_message`` events (phrases in ``templates/work_chat``).

The workspace is the employer's (``workspace``; ``workspace_domain`` is the ASCII slug of the work mail
domain's first label, e.g. ``cascadia-robotics``). A persona without an employer has no workspace and no
messages. Its channels (:func:`channels`, a pure function of the persona):

* ``general`` and ``random`` (everyone), ``team-<team>`` (the persona and its colleagues; the team is the
  occupation's, :mod:`builder.persona.occupations`, e.g. ``team-design``, ``team-data``, ``team-studio``),
  ``proj-<project>`` for 2-3 projects named from the occupation's patterns (``Atlas warehouse migration``,
  ``Spring print run``), each running over part of the history (a spec's ``work.projects`` replace them: those
  names, in that order, each running through the whole history; a project's ``key`` prefixes the ticket keys said
  about it, e.g. ``APP-214``), and ``dm-<colleague>``
  for each colleague in ``persona.work.colleagues``. Two generated coworkers (Faker names of the persona's
  locale from the ``work_chat/coworkers`` stream; not contacts) run the office and post in ``general``;
  a persona with no colleagues gets four generated teammates instead and no DMs (a small workspace:
  about half the everyday traffic).

Rules the messages obey (tasks and tests depend on them):

* Every message is at or before ``now`` (none is scheduled). On workdays (Mon-Fri, not a public holiday)
  messages fall within 08:30-18:30 local; about 1 weekend day in 30 carries one short "no rush" message.
  Greetings match the time of day. While the persona is away on a trip it posts nothing (but a "back
  tomorrow" on a workday it flies home) and its DMs are quiet; its channels carry on at half the rate.
* Senders are channel members: a DM holds only the persona and that colleague. ``sender`` is the display
  name (the persona's own name for its messages); ``sender_email`` is the colleague contact's email when it
  is at the employer's domain, else ``first.last@<employer domain>``.
* Conversations come from scripts of the phrase bank (question then its answer, review ask then the
  review, notes then replies); in a channel, replies go to a thread (``thread_id`` = the root message's
  event id, always later and in the same channel) or follow in the channel. An exact text (case-folded) is
  sent at most :data:`MAX_REPEAT` times by one sender and :data:`MAX_ANYONE` times in all, a text of 4+
  words at most :data:`MAX_ANYONE_LONG` times; a reply that finds no fresh wording becomes a reaction
  instead (a conversation whose opening finds none is dropped).
* The words are the persona's work: the occupation's artifacts (pipelines and dashboards for a data
  engineer, commissions and print editions for an artist), ticket prefix and slot overrides (``env``,
  ``symptom``, ``cause``...) are laid over the locale's bank.
* Tied to the world (``ref`` = the event talked about): work meetings of the calendar (``calendar_event``
  with source ``meeting``: "joining in 2", pushing a meeting, agendas and notes, async stand-up updates,
  1:1 prep in the DM), trips (an early heads-up in a DM, the out-of-office notice on the last workday before
  leaving and "back tomorrow" or "back today" after, ``ref`` = the outbound or return ``flight``, else the
  ``hotel_stay``), public holidays (the ``calendar_event`` with source ``holiday``), projects (kickoff and
  wrap-up in their channel). Office days bring "in the office today?" and lunch plans at the persona's
  restaurants and cafés (``sim.merchants``).
* ``mentions`` lists the names written as ``@First Last`` in the text, in order; ``reactions`` are
  ``{"emoji", "by"}`` sorted by emoji, ``by`` sorted by name. The latest :data:`PINS_PER_CHANNEL`
  pin-worthy messages of each channel (agendas, notes, out-of-office, updates) are ``pinned``.
* A message from someone else is unread (``read`` false) when it came after the persona's last message in
  that channel and within 72 hours of ``now``; everything else is read.

Volume: everyday conversations per workday by channel class (:data:`RATES`) plus the ties above; about
2,800 messages over 18 months for a persona with 2-4 colleagues, at least 70% of texts distinct and no
text of 4+ words twice.

The event (kind ``work_chat_message``; the work chat app reads these fields): ``workspace``,
``workspace_domain``, ``channel`` (name without ``#``), ``channel_kind`` (``channel`` / ``dm``),
``thread_id`` (root's id or null), ``sender``, ``sender_email``, ``text``, ``mentions``, ``reactions``,
``pinned``, ``read``, ``ref`` (an event id or null).

Phrase banks are ``templates/work_chat/<locale>.yaml`` (en_US when the locale has none; a bank may say
``extends: <locale>``); the code never branches on the locale. Every draw comes from ``work_chat/...``
streams; the events carry no postings and no ``site_url``, so settlement and browsing (which run later
and scan events) see nothing of them and no other module's events change.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


from ..dates import add_months
from ..names import ascii_slug
from ..persona import Persona
from ..persona.complete import _mailbox
from ..persona.occupations import occupation
from ..rng import derived_id, token
from .calendar import _work_domain, away_dates, is_holiday, parse_when, trips
from .engine import world_step
from .context import WEEKDAYS, Sim
from .locale import phrase_bank
from .mail import TEMPLATES
from .model import Event, World

BANKS = TEMPLATES / "work_chat"
MAX_REPEAT = 2  # the same sender sends the same exact text at most this many times
MAX_ANYONE = 4  # and all senders together at most this many times
MAX_ANYONE_LONG = 1  # a text of 4+ words (case-folded) at most this many times in all: chat that reads fresh
PINS_PER_CHANNEL = 4
UNREAD_HOURS = 72
DAY_START, DAY_END = 8.5, 18.5  # working hours, local (hours as floats)
# Everyday conversations per workday by channel class (before presence and workspace scaling).
RATES = {"team": 1.0, "project": 0.8, "dm": 0.85, "random": 0.35, "general": 0.08}
# How often the persona starts an everyday conversation in a channel class (when at work).
ME_FIRST = {"team": 0.35, "project": 0.35, "dm": 0.5, "random": 0.2, "general": 0.05}
_SEASONS = {
    12: "winter",
    1: "winter",
    2: "winter",
    3: "spring",
    4: "spring",
    5: "spring",
    6: "summer",
    7: "summer",
    8: "summer",
    9: "autumn",
    10: "autumn",
    11: "autumn",
}
_SLOT = re.compile(r"\{([@#\w-]+)\}")
_WORDS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?", re.UNICODE)  # words as builder.world.report counts them


# --- the phrase bank -------------------------------------------------------------------------------


def bank(locale: str) -> dict[str, Any]:
    """The phrase bank of ``locale`` (``templates/work_chat/<locale>.yaml``, else en_US).

    A bank may say ``extends: <locale>``: its top-level maps (phrases, scripts, slots...) are laid over
    that bank's key by key; other values replace. Treat the result as read-only.
    """
    return phrase_bank("work_chat", locale)


# --- the workspace: people, projects, channels (a pure function of the persona) -------------------


@dataclass(frozen=True)
class Member:
    """Someone in the workspace. ``style`` is ``me`` for the persona, else a messaging style."""

    name: str
    email: str
    style: str
    colleague: bool = False  # one of persona.work.colleagues (gets a DM channel)
    office: bool = False  # generated office staff (posts announcements in general)
    closeness: int = 2

    @property
    def first(self) -> str:
        return self.name.split()[0]


@dataclass(frozen=True)
class Project:
    """A work project (channel ``proj-<slug>``). ``key`` is the spec's ticket prefix (None: the occupation's) and
    ``spec`` the index of the spec's ``work.projects`` entry it comes from (None: drawn)."""

    name: str
    slug: str
    start: dt.date
    end: dt.date | None  # None: still running at now
    key: str | None = None
    spec: int | None = None

    def active(self, day: dt.date) -> bool:
        return self.start <= day and (self.end is None or day <= self.end)


@dataclass
class Workspace:
    name: str
    domain: str  # workspace_domain slug
    mail_domain: str
    team: dict[str, str]  # slug, title
    me: Member
    colleagues: list[Member]
    team_people: list[Member]  # colleagues, else generated teammates
    office: list[Member]
    projects: list[Project]
    channels: list[dict[str, Any]]
    bank: dict[str, Any]
    members: dict[str, list[Member]] = field(default_factory=dict)

    @property
    def people(self) -> list[Member]:
        return [self.me, *self.team_people, *self.office]

    def channel(self, name: str) -> dict[str, Any]:
        return next(c for c in self.channels if c["name"] == name)

    def team_channel(self) -> str:
        return f"team-{self.team['slug']}"

    def dm(self, m: Member) -> str:
        return f"dm-{ascii_slug(m.name) or token(0, m.name, length=8)}"


def work_email(sim: Sim, name: str, email: str | None) -> str:
    """A colleague's work address: ``email`` if it is at the employer's mail domain, else ``first.last@domain``."""
    domain = _work_domain(sim)
    if email and email.rsplit("@", 1)[-1].lower() == domain.lower():
        return email
    return f"{_mailbox(name, sim.seed, f'work_chat/email/{name}')}@{domain}"


def _team(b: dict, role: str, locale: str = "en_US") -> dict[str, str]:
    """The team channel {slug, title}: the occupation's team, else the bank's ``teams`` by role words."""
    occ = occupation(role, locale)
    if occ.get("team"):
        return dict(occ.get("team"))
    role = f" {(role or '').lower()} "
    for t in b["teams"]:
        if any(w in role for w in t["words"]):
            return {"slug": t["slug"], "title": t["title"]}
    return dict(b["default_team"])


def _occupation_bank(b: dict, occ) -> dict[str, Any]:
    """The bank with the occupation's artifacts (under ``artifacts.occupation``), project patterns, ticket
    prefix, chat slot overrides and ``chat.phrases`` (intent -> variants) laid over it (a new dict; the cached
    bank is untouched)."""
    out = dict(b)
    if occ.get("artifacts"):
        out["artifacts"] = {**b["artifacts"], "occupation": list(occ.get("artifacts"))}
    if occ.get("projects") and len(occ.get("projects")) >= 3:
        out["project_names"] = {**b["project_names"], "patterns": list(occ.get("projects"))}
    chat = dict(occ.get("chat") or {})
    phrases = chat.pop("phrases", None) or {}
    out["slots"] = {**b["slots"], **chat}
    out["phrases"] = {**b["phrases"], **phrases}  # a job's own wording for some intents (an artist ships no PRs)
    out["ticket"] = occ.get("ticket")
    return out


def _generated(sim: Sim, count: int, taken: set[str], stream: str) -> list[str]:
    fake = sim.people(f"work_chat/{stream}")
    out: list[str] = []
    for _ in range(count * 20):
        if len(out) == count:
            break
        name = f"{fake.first_name()} {fake.last_name()}"
        if name.lower() not in taken:
            taken.add(name.lower())
            out.append(name)
    return out


def _projects(sim: Sim, b: dict, span_start: dt.date, span_end: dt.date) -> list[Project]:
    r = sim.rng("work_chat/projects")
    n = r.choice([2, 3, 3])
    names = b["project_names"]
    codenames = r.sample(names["codenames"], n)
    patterns = r.sample(names["patterns"], n)
    span = max((span_end - span_start).days, 30)
    out, seen = [], set()
    for i in range(n):
        if i == 0:
            start = span_start - dt.timedelta(days=r.randint(30, 150))
        else:
            start = span_start + dt.timedelta(days=span * i // n - r.randint(10, 30))
        end = None if i == n - 1 else span_start + dt.timedelta(days=span * (i + 1) // n + r.randint(5, 25))
        name = patterns[i].format(codename=codenames[i], quarter=(start.month - 1) // 3 + 1)
        slug = ascii_slug(name) or f"project-{i + 1}"
        if slug in seen:
            name, slug = f"{name} {i + 1}", f"{slug}-{i + 1}"
        seen.add(slug)
        out.append(Project(name, slug, start, end))
    return out


def _spec_projects(sim: Sim) -> list[Project]:
    """The spec's ``work.projects`` in order: each running from a weekday 30-150 days before the history (stream
    ``work_chat/projects/spec``) through ``now``; slugs as drawn projects' (a clash or a name without ASCII letters
    gets ``-<n>``/``project-<n>``)."""
    r = sim.rng("work_chat/projects/spec")
    out, seen = [], set()
    for i, pr in enumerate(sim.persona.work.projects):
        slug = base = ascii_slug(pr.name)[:60].strip("-") or f"project-{i + 1}"
        n = i + 1
        while slug in seen:
            slug, n = f"{base}-{n}", n + 1
        seen.add(slug)
        start = sim.start.date() - dt.timedelta(days=r.randint(30, 150))
        if start.weekday() >= 5:  # the Monday after a weekend day
            start += dt.timedelta(days=7 - start.weekday())
        out.append(Project(pr.name, slug, start, None, pr.key, i))
    return out


def _plan(sim: Sim) -> Workspace | None:
    """The workspace of the sim's persona (None without an employer); draws only from work_chat streams."""
    p = sim.persona
    w = p.work
    if not w or not w.employer:
        return None
    occ = occupation(w.role, p.bank)
    b = _occupation_bank(bank(p.bank), occ)
    mail_domain = _work_domain(sim)
    domain = ascii_slug(mail_domain.split(".")[0]) or ascii_slug(w.employer) or "workspace"
    me = Member(p.identity.name, w.email or work_email(sim, p.identity.name, None), "me")
    taken = {p.identity.name.lower(), *(c.name.lower() for c in p.contacts)}
    colleagues = []
    for name in dict.fromkeys(w.colleagues):
        if name == p.identity.name:
            continue
        try:
            c = sim.contact(name)
            colleagues.append(
                Member(
                    c.name,
                    work_email(sim, c.name, c.email),
                    c.messaging_style or "brief",
                    True,
                    closeness=c.closeness or 2,
                )
            )
        except KeyError:
            colleagues.append(Member(name, work_email(sim, name, None), "brief", True))
    styles = sim.rng("work_chat/coworkers/style")
    kinds = ["brief", "chatty", "formal", "emoji"]
    office = [
        Member(n, work_email(sim, n, None), kinds[styles.randrange(4)], office=True)
        for n in _generated(sim, 2, taken, "coworkers")
    ]
    team_people = colleagues or [
        Member(n, work_email(sim, n, None), kinds[styles.randrange(4)]) for n in _generated(sim, 4, taken, "teammates")
    ]
    team = _team(b, w.role or "", p.bank)
    r = sim.rng("work_chat/workspace")
    joined = sim.start.date() - dt.timedelta(days=r.randint(60, 900))
    founded = joined - dt.timedelta(days=r.randint(200, 2500))
    team_created = founded + dt.timedelta(days=r.randint(30, max(31, (joined - founded).days)))
    projects = _spec_projects(sim) if w.projects else _projects(sim, b, sim.start.date(), sim.now.date())
    ws = Workspace(w.employer, domain, mail_domain, team, me, colleagues, team_people, office, projects, [], b)
    meta = b["channels"]
    fill = {"employer": w.employer, "team": team["title"]}
    everyone = ws.people

    def add(name: str, kind: str, topic: str, purpose: str, members: list[Member], created: dt.date) -> None:
        ws.channels.append(
            {
                "name": name,
                "kind": kind,
                "topic": topic,
                "purpose": purpose,
                "members": [m.name for m in members],
                "created": created.isoformat(),
            }
        )
        ws.members[name] = members

    add(
        "general",
        "channel",
        meta["general"]["topic"].format(**fill),
        meta["general"]["purpose"].format(**fill),
        everyone,
        founded,
    )
    add(
        "random",
        "channel",
        meta["random"]["topic"].format(**fill),
        meta["random"]["purpose"].format(**fill),
        everyone,
        founded,
    )
    add(
        ws.team_channel(),
        "channel",
        meta["team"]["topic"].format(**fill),
        meta["team"]["purpose"].format(**fill),
        [me, *team_people],
        min(team_created, joined),
    )
    for pr in projects:
        f = {**fill, "project": pr.name}
        add(
            f"proj-{pr.slug}",
            "channel",
            meta["project"]["topic"].format(**f),
            meta["project"]["purpose"].format(**f),
            [me, *team_people],
            pr.start,
        )
    for c in sorted(colleagues, key=lambda m: m.name):
        add(
            ws.dm(c),
            "dm",
            meta["dm"]["topic"],
            meta["dm"]["purpose"],
            [me, c],
            joined + dt.timedelta(days=r.randint(0, 30)),
        )
    return ws


def ticket_prefix(ws: Workspace) -> str:
    """The team's ticket key prefix: the occupation's ``ticket`` (``DES``), else the team slug's first three letters
    in capitals (``OPS`` without any)."""
    return ws.bank.get("ticket") or (ascii_slug(ws.team["slug"])[:3] or "ops").upper()


def _sim_of(world_or_persona: World | Persona) -> Sim:
    if isinstance(world_or_persona, World):
        w = world_or_persona
        return Sim(persona=w.persona, start=w.start, now=w.now, end=w.end, merchants=w.merchants)
    p = world_or_persona
    now = dt.datetime.combine(p.as_of, dt.time(9, 0))
    start = dt.datetime.combine(add_months(p.as_of, -p.history_months), dt.time(0, 0))
    return Sim(persona=p, start=start, now=now, end=now, merchants=[])


def channels(world_or_persona: World | Persona) -> list[dict[str, Any]]:
    """The workspace's channels, the same every call: ``[{name, kind, topic, purpose, members, created}]``.

    ``kind`` is ``channel`` or ``dm``; ``members`` are display names (the persona first); ``created`` is an
    ISO date on or before the channel's first message. Order: general, random, the team channel, project
    channels by start, DMs by colleague name. ``[]`` for a persona without an employer. Takes the completed
    persona or its world.
    """
    ws = _plan(_sim_of(world_or_persona))
    return [dict(c, members=list(c["members"])) for c in ws.channels] if ws else []


# --- writing messages -----------------------------------------------------------------------------


@dataclass
class Message:
    id: str
    at: dt.datetime
    channel: str
    thread: str | None
    sender: Member
    text: str
    ref: str | None
    pin: bool
    reactions: dict[str, set[str]] = field(default_factory=dict)


class Writer:
    """Runs phrase-bank scripts into :class:`Message` s, then emits them as events."""

    def __init__(self, sim: Sim, ws: Workspace):
        self.sim, self.ws, self.b = sim, ws, ws.bank
        self.messages: list[Message] = []
        self.used: Counter = Counter()
        self.away = away_dates(sim)
        self.spots = [m.name for m in sim.merchants if m.category in ("restaurants", "coffee")]
        self.newcomers = sim.people("work_chat/newcomers")
        self.founded = dt.date.fromisoformat(ws.channels[0]["created"])
        self.mail_domain = ws.mail_domain
        self.slow = set(self.b.get("slow", ()))  # intents sent after a long pause (a review, feedback)
        self.prefix = ticket_prefix(ws)
        # Several ticket prefixes (spec projects with their own key): a number belongs to one prefix only, so the
        # board (one number sequence, as the app numbers) can file every key the chat mentions.
        self.keyed = any(p.key and p.key != self.prefix for p in ws.projects)
        self.numbers: dict[int, str] = {}

    # -- time and text helpers

    def workday(self, day: dt.date) -> bool:
        return day.weekday() < 5 and not is_holiday(self.sim, day)

    def present(self, day: dt.date) -> bool:
        return self.workday(day) and day not in self.away

    def clock(self, t: dt.datetime) -> str:
        if self.b["clock"] == "12h":
            h = (t.hour - 1) % 12 + 1
            return f"{h}{f':{t.minute:02d}' if t.minute else ''}{'am' if t.hour < 12 else 'pm'}"
        return f"{t.hour:02d}:{t.minute:02d}"

    def date(self, d: dt.date, weekday: bool = True) -> str:
        text = self.b["date_format"].format(month=self.b["months_short"][d.month - 1], day=d.day)
        return self.b["day_format"].format(weekday=self.b["weekdays"][d.weekday()], date=text) if weekday else text

    def next_workday(self, day: dt.date, step: int = 1) -> dt.date:
        day += dt.timedelta(days=step)
        while not self.workday(day):
            day += dt.timedelta(days=step)
        return day

    def at(self, r: random.Random, day: dt.date, lo: float = DAY_START, hi: float = DAY_END - 0.5) -> dt.datetime:
        lo, hi = max(lo, DAY_START), min(hi, DAY_END - 0.25)
        minutes = int(lo * 60) + r.randrange(max(1, int((hi - lo) * 60)))
        return dt.datetime.combine(day, dt.time(minutes // 60, minutes % 60, r.randrange(60)))

    def ctx(self, r: random.Random, at: dt.datetime, channel: str, roles: dict[str, Member | None]) -> dict:
        b, ws, day = self.b, self.ws, at.date()
        team = ws.team["slug"]
        arts = b["artifacts"].get("occupation") or b["artifacts"].get(team) or b["artifacts"]["default"]
        art, art2 = r.sample(arts, 2)
        age = (day - self.founded).days
        project = next((pr for pr in ws.projects if channel == f"proj-{pr.slug}"), None)
        active = [pr for pr in ws.projects if pr.active(day)] or ws.projects[-1:]
        project = project or active[r.randrange(len(active))]
        later = at + dt.timedelta(minutes=r.choice([75, 90, 120, 150, 180, 240]))
        later = later.replace(minute=later.minute // 15 * 15, second=0)
        later = min(later, dt.datetime.combine(day, dt.time(17, 30)))
        if later <= at + dt.timedelta(minutes=20):  # late in the day: the next quarter hour but one
            later = (at + dt.timedelta(minutes=30)).replace(second=0)
            later = later.replace(minute=later.minute // 15 * 15)
        ahead = self.next_workday(day, 1)
        for _ in range(r.randrange(3)):
            ahead = self.next_workday(ahead, 1)
        link = b["review_links"].get(team) or b["review_links"]["default"]
        n = 40 + age * 2 // 3 + r.randint(0, 25)
        key = (channel, at.isoformat(), len(self.messages))
        ctx = {
            "hi": r.choice(b["greetings"]["morning" if at.hour < 12 else "afternoon" if at.hour < 17 else "evening"]),
            "artifact": art,
            "artifact2": art2,
            "project": project.name,
            "channel": channel,
            "ticket": self.ticket(project, 100 + age + r.randint(0, 60)),
            "pr": link.format(
                domain=self.mail_domain, team=team, n=n, tok=token(self.sim.seed, "work_chat/link", *key, length=10)
            ),
            "doc": f"https://docs.{self.mail_domain}/d/{token(self.sim.seed, 'work_chat/doc', *key, length=10)}",
            "time": self.clock(later),
            "day": b["weekdays"][ahead.weekday()],
            "team": ws.team["title"],
            "employer": ws.name,
            "lunch_spot": self.spots[r.randrange(len(self.spots))] if self.spots else "{lunch_place}",
        }
        if channel == "general":
            ctx["newcomer"] = f"{self.newcomers.first_name()} {self.newcomers.last_name()}"
        for role, m in roles.items():
            if m is not None:
                ctx[role], ctx[f"@{role}"] = m.first, f"@{m.name}"
        return ctx

    def ticket(self, project: Project, n: int) -> str:
        """The ticket key ``<prefix>-<n>`` of ``project`` (its spec key, else the team's); with several prefixes
        ``n`` moves up past numbers another prefix holds."""
        prefix = project.key or self.prefix
        if self.keyed:
            while self.numbers.setdefault(n, prefix) != prefix:
                n += 1
        return f"{prefix}-{n}"

    def fill(self, r: random.Random, template: str, ctx: dict, season: str, depth: int = 0) -> str:
        slots = self.b["slots"]

        def one(m: re.Match) -> str:
            name = m.group(1)
            if name.startswith("#"):
                lo, hi = name[1:].split("-")
                return str(r.randint(int(lo), int(hi)))
            if name in ctx:
                value = str(ctx[name])
            else:
                values = list(slots.get(name, [])) + list(slots.get(f"{name}@{season}", []))
                if not values:
                    raise KeyError(f"work_chat bank: unknown slot {name!r}")
                value = values[r.randrange(len(values))]
            return self.fill(r, value, ctx, season, depth + 1) if depth < 4 and "{" in value else value

        return _SLOT.sub(one, template)

    def say(self, intent: str, sender: Member, r: random.Random, ctx: dict, season: str) -> str | None:
        """A phrase of ``intent`` for ``sender`` that they have sent fewer than :data:`MAX_REPEAT` times and everyone
        fewer than :data:`MAX_ANYONE` times (None if six draws find none)."""
        entry = self.b["phrases"][intent]
        if isinstance(entry, dict):
            styled = list(entry.get(sender.style) or [])
            variants = styled + list(entry.get("default") or []) if len(styled) < 6 else styled
            variants = variants or next(iter(entry.values()))
        else:
            variants = entry
        for _ in range(8):
            text = self.fill(r, variants[r.randrange(len(variants))], ctx, season)
            text = text[:1].upper() + text[1:] if sender.style == "formal" else text
            key = text.casefold()
            cap = MAX_ANYONE_LONG if len(_WORDS.findall(text)) >= 4 else MAX_ANYONE
            if self.used[(sender.name, key)] < MAX_REPEAT and self.used[key] < cap:
                self.used[(sender.name, key)] += 1
                self.used[key] += 1
                return text
        return None

    def react(self, msg: Message, cls: str, r: random.Random, by: list[Member] | None = None) -> None:
        pool = [
            m
            for m in (by or self.ws.members[msg.channel])
            if m.name != msg.sender.name and (m.style != "me" or self.present(msg.at.date()))
        ]
        if not pool:
            return
        emoji = self.b["reactions"][cls][r.randrange(len(self.b["reactions"][cls]))]
        names = r.sample(pool, r.randint(1, min(3, len(pool))))
        msg.reactions.setdefault(emoji, set()).update(m.name for m in names)

    def run(
        self,
        name: str,
        channel: str,
        at: dt.datetime,
        roles: dict[str, Member | None],
        r: random.Random,
        ref: str | None = None,
        extra: dict | None = None,
    ) -> list[Message]:
        """Play script ``name`` in ``channel`` from ``at``; stops at the end of working hours or at ``now``."""
        sim, script = self.sim, self.b["scripts"][name]
        if at > sim.now or at < sim.start:
            return []
        limit = min(sim.now, dt.datetime.combine(at.date(), dt.time(18, 30)))
        season = _SEASONS[at.month]
        cast = {k: v for k, v in roles.items() if v is not None}
        if "c" not in cast:  # a third person to talk about: a teammate not in the conversation
            third = _others(self.ws.team_people, *cast.values()) or _others(self.ws.office, *cast.values())
            cast_c = third[r.randrange(len(third))] if third else cast.get("b")
        named = cast if "c" in cast else {**cast, "c": cast_c}
        if named.get("b") is None:
            # Nobody but the speaker in the channel today (a team of one colleague, the persona away): a line that
            # names b names the teammate talked about, else the persona; no draw, so no other line changes.
            named = {**named, "b": named.get("c") or (self.ws.me if cast.get("a") is not self.ws.me else None)}
        ctx = self.ctx(r, at, channel, named)
        ctx.update(extra or {})
        mode = "never" if channel.startswith("dm-") else script.get("thread", "maybe")
        threaded = mode == "always" or (mode == "maybe" and r.random() < 0.6)
        out: list[Message] = []
        t = at
        for step in script["steps"]:
            ((key, intent),) = step.items()
            role, optional = key.rstrip("?"), key.endswith("?")
            if optional and r.random() >= 0.55:
                continue
            if role == "react":
                if out:
                    self.react(out[-1], intent, r)
                continue
            sender = roles.get(role)
            if sender is None or (role == "c" and sender is roles.get("b")):
                if optional:
                    continue
                break
            text = self.say(intent, sender, r, ctx, season)
            if text is None:
                if not out:
                    return []
                self.react(out[-1], "positive", r, by=[sender])  # a spent reply becomes a reaction
                continue
            if out:
                gap = (
                    r.randint(1200, 7200)
                    if intent in self.slow
                    else r.randint(20, 240)
                    if r.random() < 0.8
                    else r.randint(300, 2700)
                )
                t = t + dt.timedelta(seconds=gap + len(text) // 4)
            if t > limit:
                break
            msg = Message(
                derived_id(sim.seed, "work_chat/message", channel, t.isoformat(), len(self.messages)),
                t,
                channel,
                out[0].id if out and threaded else None,
                sender,
                text,
                ref,
                bool(script.get("pin")) and not out,
            )
            self.messages.append(msg)
            out.append(msg)
        return out

    # -- emitting

    def emit(self) -> None:
        """Pins, read state and mentions, then one ``work_chat_message`` event per message in time order."""
        sim, ws = self.sim, self.ws
        msgs = sorted(self.messages, key=lambda m: (m.at, m.id))
        pinned: set[str] = set()
        by_channel: dict[str, list[Message]] = {}
        for m in msgs:
            by_channel.setdefault(m.channel, []).append(m)
        for ch in by_channel.values():
            pinned.update(m.id for m in [m for m in ch if m.pin][-PINS_PER_CHANNEL:])
        mine_last = {
            ch: max((m.at for m in lst if m.sender.style == "me"), default=sim.start) for ch, lst in by_channel.items()
        }
        names = sorted((m.name for m in ws.people), key=len, reverse=True)
        kinds = {c["name"]: c["kind"] for c in ws.channels}
        for m in msgs:
            found: dict[int, str] = {}
            for n in names:
                i = m.text.find(f"@{n}")
                if i >= 0 and not any(j <= i < j + len(k) + 1 for j, k in found.items()):
                    found[i] = n
            read = (
                m.sender.style == "me"
                or m.at <= mine_last[m.channel]
                or (sim.now - m.at).total_seconds() > UNREAD_HOURS * 3600
            )
            sim.event(
                "work_chat_message",
                m.at,
                {
                    "workspace": ws.name,
                    "workspace_domain": ws.domain,
                    "channel": m.channel,
                    "channel_kind": kinds[m.channel],
                    "thread_id": m.thread,
                    "sender": m.sender.name,
                    "sender_email": m.sender.email,
                    "text": m.text,
                    "mentions": [found[i] for i in sorted(found)],
                    "reactions": [{"emoji": e, "by": sorted(by)} for e, by in sorted(m.reactions.items())],
                    "pinned": m.id in pinned,
                    "read": read,
                    "ref": m.ref,
                },
                id=m.id,
            )


# --- the module -----------------------------------------------------------------------------------


@world_step(rank=90, reads=("flight", "hotel_stay", "calendar_event"), writes=("work_chat_message",))
def simulate_work_chat(sim: Sim) -> None:
    """Append ``work_chat_message`` events (see module rules); nothing for a persona without an employer."""
    ws = _plan(sim)
    if ws is None:
        return
    w = Writer(sim, ws)
    _trips(w)
    _holidays(w)
    _meetings(w)
    _office_days(w)
    _project_milestones(w)
    _everyday(w)
    _weekends(w)
    w.emit()


def _others(pool: list[Member], *not_: Member | None) -> list[Member]:
    skip = {m.name for m in not_ if m is not None}
    return [m for m in pool if m.name not in skip]


def _cast(
    w: Writer,
    r: random.Random,
    channel: str,
    day: dt.date,
    first: Member | None = None,
    me_first: float = 0.35,
    office: bool = False,
) -> dict[str, Member | None]:
    """Roles a, b, c among ``channel``'s members (the persona only when at work that day)."""
    here = w.present(day)
    pool = [m for m in w.ws.members[channel] if m.style != "me" or here]
    if first is None:
        staff = [m for m in pool if m.office]
        if office and staff:
            first = staff[r.randrange(len(staff))]
        elif here and r.random() < me_first:
            first = w.ws.me
        else:
            others = [m for m in pool if m.style != "me" and (office or not m.office)] or _others(pool, w.ws.me)
            if not others:
                return {"a": None}
            first = others[r.randrange(len(others))]
    rest = _others(pool, first)
    r.shuffle(rest)
    # The persona answers often when it is in the channel: it is its workspace.
    if here and first.style != "me" and len(rest) > 1 and r.random() < 0.45:
        rest.remove(w.ws.me)
        rest.insert(0, w.ws.me)
    return {"a": first, "b": rest[0] if rest else None, "c": rest[1] if len(rest) > 1 else None}


def _eligible(w: Writer, cls: str, day: dt.date) -> list[tuple[str, dict]]:
    wd = WEEKDAYS[day.weekday()]
    return [
        (n, s) for n, s in w.b["scripts"].items() if cls in s.get("in", ()) and (not s.get("days") or wd in s["days"])
    ]


def _everyday(w: Writer) -> None:
    sim, ws = w.sim, w.ws
    r = sim.rng("work_chat/everyday")
    scale = 1.0 if ws.colleagues else 0.5
    dms = sorted(ws.colleagues, key=lambda m: m.name)
    for day in sim.past_days():
        if not w.workday(day):
            continue
        here = w.present(day)
        for cls, rate in RATES.items():
            rate *= scale * (1.0 if here else 0.5)
            if cls == "dm" and (not here or not dms):
                continue
            count = sum(r.random() < rate / 3 for _ in range(3))
            for _ in range(count):
                scripts = _eligible(w, cls, day)
                if not scripts:
                    continue
                name, script = r.choices(scripts, [s.get("weight", 1) for _, s in scripts])[0]
                lo, hi = script.get("hours", (DAY_START, DAY_END - 0.5))
                at = w.at(r, day, lo, hi)
                if cls == "team":
                    channel = ws.team_channel()
                elif cls == "project":
                    active = [p for p in ws.projects if p.active(day)]
                    channel = f"proj-{active[r.randrange(len(active))].slug}" if active else ws.team_channel()
                elif cls == "dm":
                    c = r.choices(dms, [m.closeness for m in dms])[0]
                    channel = ws.dm(c)
                else:
                    channel = cls
                roles = _cast(w, r, channel, day, me_first=ME_FIRST[cls], office=bool(script.get("office")))
                if roles["a"] is not None:
                    w.run(name, channel, at, roles, r)


def _meetings(w: Writer) -> None:
    sim, ws = w.sim, w.ws
    r = sim.rng("work_chat/meetings")
    by_name = {m.name: m for m in ws.people}
    for e in sim.of_kind("calendar_event"):
        if e.data.get("source") == "meeting" and sim.start <= e.at <= sim.now:
            _meeting(w, r, e, by_name)


def _meeting(w: Writer, r: random.Random, e: Event, by_name: dict[str, Member]) -> None:
    """Messages around one past meeting: 1:1 prep and follow-up in the DM; lateness, async updates,
    pushes, agendas and notes in the team (or, for a one-off, a project) channel."""
    sim, ws, d = w.sim, w.ws, e.data
    people = [
        by_name[a["name"]] for a in d.get("attendees", []) if a.get("name") in by_name and a["name"] != ws.me.name
    ]
    if not people:
        return
    start, day = e.at, e.at.date()
    end = parse_when(sim, d.get("end")) or start + dt.timedelta(minutes=30)
    minutes = (end - start).total_seconds() / 60
    extra = {
        "meeting": d["title"],
        "meeting_time": w.clock(start),
        "new_time": w.clock(start + dt.timedelta(minutes=30)),
    }
    org = by_name.get((d.get("organizer") or {}).get("name"))
    h0 = start.hour + start.minute / 60

    def before(lo: int, hi: int) -> dt.datetime | None:
        at = start - dt.timedelta(minutes=r.randint(lo, hi), seconds=r.randrange(60))
        return at if at.hour + at.minute / 60 >= DAY_START else None

    def after(lo: int, hi: int) -> dt.datetime | None:
        at = end + dt.timedelta(minutes=r.randint(lo, hi), seconds=r.randrange(60))
        return at if at.date() == day and at.hour + at.minute / 60 < DAY_END - 0.25 else None

    if len(people) == 1 and people[0].colleague:
        them = people[0]
        channel = ws.dm(them)
        pair = [ws.me, them] if r.random() < 0.5 else [them, ws.me]
        if r.random() < 0.25 and (at := before(30, 240)):
            w.run("one_on_one_prep", channel, at, {"a": pair[0], "b": pair[1]}, r, e.id, extra)
        if r.random() < 0.08 and (at := before(0, 3)):
            w.run("meeting_late", channel, at, {"a": pair[0], "b": pair[1]}, r, e.id, extra)
        if r.random() < 0.12 and (at := after(5, 90)):
            w.run("one_on_one_after", channel, at, {"a": pair[1], "b": pair[0]}, r, e.id, extra)
        return
    channel = ws.team_channel()
    if d.get("series") is None:
        active = [p for p in ws.projects if p.active(day)]
        if active and r.random() < 0.5:
            channel = f"proj-{active[r.randrange(len(active))].slug}"
    pool = [ws.me, *people]

    def roles(first: Member | None = None) -> dict[str, Member | None]:
        first = first or pool[r.randrange(len(pool))]
        rest = _others(pool, first)
        r.shuffle(rest)
        return {"a": first, "b": rest[0] if rest else None, "c": rest[1] if len(rest) > 1 else None}

    if r.random() < 0.07 and (at := before(0, 4)):
        w.run("meeting_late", channel, at, roles(), r, e.id, extra)
    if minutes <= 20:
        if r.random() < 0.06 and (at := before(5, 40)):
            w.run("async_update", channel, at, roles(), r, e.id, extra)
        if d.get("series") and r.random() < 0.03 and h0 < 16 and (at := before(30, 150)):
            w.run("meeting_push", channel, at, roles(), r, e.id, extra)
        return
    if d.get("series") and r.random() < 0.03 and h0 < 16 and (at := before(30, 150)):
        w.run("meeting_push", channel, at, roles(), r, e.id, extra)
    if r.random() < 0.3 and (at := before(20, 180)):
        w.run("agenda", channel, at, roles(org if org in pool else None), r, e.id, extra)
    if r.random() < 0.35 and (at := after(5, 60)):
        w.run("notes", channel, at, roles(org if org in pool and r.random() < 0.6 else None), r, e.id, extra)


def _trip_refs(sim: Sim) -> dict[int, tuple[str | None, str | None]]:
    """trip index -> (id of its first outbound flight, id of its last return flight); hotel stays fill gaps."""
    out: dict[int, list] = {}
    back: dict[int, list] = {}
    for f in sim.of_kind("flight"):
        i = f.data.get("trip")
        (back if f.data.get("direction") == "return" else out).setdefault(i, []).append(f)
    stays = {}
    for h in sim.of_kind("hotel_stay"):
        stays.setdefault(h.data.get("trip"), h)
    refs = {}
    for i in set(out) | set(back) | set(stays):
        o = min(out.get(i, []), key=lambda e: (e.at, e.id), default=None)
        b = max(back.get(i, []), key=lambda e: (e.at, e.id), default=None)
        h = stays.get(i)
        first = o or h or b
        last = b or h or o
        refs[i] = (first.id if first else None, last.id if last else None)
    return refs


def _trips(w: Writer) -> None:
    sim, ws = w.sim, w.ws
    r = sim.rng("work_chat/trips")
    refs = _trip_refs(sim)
    team = ws.team_channel()
    mates = ws.team_people
    confidant = max(ws.colleagues, key=lambda m: (m.closeness, m.name), default=None)
    for i, t in enumerate(trips(sim)):
        out_ref, back_ref = refs.get(i, (None, None))
        if out_ref is None:
            continue
        kind = "business" if t.purpose == "business" else "leisure"
        back = w.next_workday(t.return_)
        while back in w.away:
            back = w.next_workday(back)
        last = w.next_workday(t.depart, -1)
        while last in w.away:
            last = w.next_workday(last, -1)
        extra = {
            "dest": t.destination,
            "start_day": w.date(t.depart),
            "end_day": w.date(t.return_),
            "back_day": w.date(back),
        }
        c = mates[r.randrange(len(mates))] if mates else None
        b = _others(mates, c)
        b = b[r.randrange(len(b))] if b else None
        if confidant and (t.return_ - t.depart).days >= 2:
            day = last - dt.timedelta(days=r.randint(7, 21))
            while not w.present(day):
                day = w.next_workday(day, -1)
            w.run(
                f"ooo_early_{kind}",
                ws.dm(confidant),
                w.at(r, day, 10, 16),
                {"a": ws.me, "b": confidant},
                r,
                out_ref,
                extra,
            )
        w.run(f"ooo_{kind}", team, w.at(r, last, 14, 17.5), {"a": ws.me, "b": b or c, "c": c}, r, out_ref, extra)
        if w.workday(t.return_) and w.next_workday(t.return_) == back:
            w.run("back_tomorrow", team, w.at(r, t.return_, 12, 17), {"a": ws.me, "b": b, "c": c}, r, back_ref, extra)
            if r.random() >= 0.5:
                continue
        greeter = b or c
        w.run("back_today", team, w.at(r, back, 8.6, 10.5), {"a": ws.me, "b": greeter, "c": None}, r, back_ref, extra)


def _holidays(w: Writer) -> None:
    sim, ws = w.sim, w.ws
    r = sim.rng("work_chat/holidays")
    for e in sim.of_kind("calendar_event"):
        if e.data.get("source") != "holiday" or e.at.weekday() >= 5:
            continue
        day = w.next_workday(e.at.date(), -1)
        extra = {"holiday": e.data["title"], "holiday_day": w.b["weekdays"][e.at.weekday()]}
        staff = ws.office or ws.team_people
        a = staff[r.randrange(len(staff))]
        roles = _cast(w, r, "general", day, first=a)
        w.run("holiday", "general", w.at(r, day, 14, 17), roles, r, e.id, extra)


def _office_days(w: Writer) -> None:
    sim, ws = w.sim, w.ws
    r = sim.rng("work_chat/office")
    office_days = set(sim.persona.work.office_days)
    team = ws.team_channel()
    for day in sim.past_days():
        if WEEKDAYS[day.weekday()] not in office_days or not w.present(day):
            continue
        if r.random() < 0.15:
            name = "office_check" if r.random() < 0.7 else "office_check_no"
            w.run(name, team, w.at(r, day, 8.5, 9.75), _cast(w, r, team, day, me_first=0.5), r)
        if r.random() < 0.18:
            channel = team
            if ws.colleagues and r.random() < 0.5:
                channel = ws.dm(ws.colleagues[r.randrange(len(ws.colleagues))])
            name = "lunch" if r.random() < 0.75 else "lunch_declined"
            at = w.at(r, day, 11, 11.85)
            slot = at.replace(hour=12, minute=r.choice([0, 15, 30]), second=0)
            w.run(name, channel, at, _cast(w, r, channel, day, me_first=0.5), r, extra={"time": w.clock(slot)})


def _project_milestones(w: Writer) -> None:
    sim, ws = w.sim, w.ws
    r = sim.rng("work_chat/milestones")
    for pr in ws.projects:
        channel = f"proj-{pr.slug}"
        for name, day in (("kickoff", pr.start), ("wrapup", pr.end)):
            if day is None or not sim.start.date() <= day <= sim.now.date():
                continue
            while not w.workday(day):
                day = w.next_workday(day)
            lo, hi = (10, 11.5) if name == "kickoff" else (15, 17)
            w.run(name, channel, w.at(r, day, lo, hi), _cast(w, r, channel, day, me_first=0.3), r)


def _weekends(w: Writer) -> None:
    sim, ws = w.sim, w.ws
    r = sim.rng("work_chat/weekends")
    for day in sim.past_days():
        if day.weekday() < 5 or day in w.away or r.random() >= 1 / 30:
            continue
        if ws.colleagues and r.random() < 0.6:
            c = ws.colleagues[r.randrange(len(ws.colleagues))]
            pair = [ws.me, c] if r.random() < 0.5 else [c, ws.me]
            channel, roles = ws.dm(c), {"a": pair[0], "b": pair[1]}
        else:
            channel = ws.team_channel()
            mates = ws.team_people
            roles = {"a": ws.me if r.random() < 0.4 else mates[r.randrange(len(mates))]}
        at = dt.datetime.combine(day, dt.time(r.randint(10, 16), r.randrange(60), r.randrange(60)))
        w.run("weekend_ping", channel, at, roles, r)
