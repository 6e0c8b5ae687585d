"""Career (the professional network app): the persona's profile, connections, posts, invitations,
recruiter messages, the job board and the résumé draft's one deliberate difference.

Everything is drawn from ``career/...`` streams and worded from ``templates/career/<locale>.yaml``
(falling back to en_US; a file that says ``extends: <locale>`` is laid over that one); job families are those of :mod:`builder.persona.occupations`.

Event kinds (all keyed ``("career", ...)``):

* ``career_profile`` (one, at the world's start): ``headline``, ``bio`` (``identity.bio`` verbatim), ``pronouns``, ``about``,
  ``location``, ``experience``
  (newest first: ``{id, title, company, location, start: "YYYY-MM", end: "YYYY-MM" | None, description}``;
  entry 0 is the current job at the spec's employer), ``education`` (``{school, degree, start_year, end_year}``),
  ``skills`` (list of str), ``connections`` and ``people`` (see below), ``resume``
  (``{folder, filename, written_at, difference}``). ``difference`` is the résumé's one deliberate
  difference from the profile: ``{entry: 0, field: "title", profile, resume, correct: "resume"}``: the
  profile still shows the title before the persona's latest change; the résumé (and the spec's
  ``work.role``, which work mail and chat use) is right.
* A person (``connections`` and ``people``): ``{id, name, headline, title, company, location, relation,
  connected_on: "YYYY-MM-DD" | None, mutual: [names], started: "YYYY-MM", previous: {title, company} | None}``;
  ``relation`` is ``colleague`` (every ``work.colleagues`` name), ``contact`` (other spec contacts but
  parents and children), ``former_colleague``, ``industry`` (connections) or ``second`` (``people``: not
  connected; invitations, the meetup and recruiters come from them).
* ``network_post`` (at its time, never after now): ``{post_id, author ("me" or a connection's name),
  kind (milestone / article / job_change / anniversary / event / hiring), body, project | None,
  reactions: [{name, reaction}], comments: [{name, body, at}]}``; reactions and comments are by
  connections (``name`` ``"me"``: the persona's), comments at or before now.
* ``network_invitation``: ``{invitation_id, direction ("incoming" / "sent"), person (a ``people`` id),
  name, note}``, all pending; the incoming one of ``met_at`` is from the meetup's other attendee.
* ``calendar_event`` (the calendar's shape, ``source`` ``meeting``, ``calendar`` ``personal``): the
  meetup the persona went to 8-16 days before now; ``career_profile.meetup`` names it
  (``{event_id, title, date, attendee, invitation_id}``).
* ``recruiter_message``: ``{thread_id, recruiter (a ``people`` id), name, sender ("recruiter" / "me"),
  text, job_id}``; three threads (declined, unanswered, and the latest asking for next week's
  availability, whose last message is the recruiter's).
* ``job_posting`` (at its posting time, in the 45 days before now; a posting a recruiter writes about was
  up 3-14 days before the thread's first message): ``{job_id, title, company, location,
  workplace, salary_min_cents, salary_max_cents, currency, summary, skills, saved_at | None}``.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from builder import yamlfile
from builder.persona import occupations

from ..reference import prices
from ..reference.services import service
from .context import Sim
from .engine import world_step

DATA = Path(__file__).with_name("templates") / "career"
SENIORITY = ("Senior ", "Lead ", "Staff ", "Principal ")
#: Relationships of spec contacts who are not on the persona's professional network (unless their ``apps`` list "network").
NOT_NETWORK = ("parent", "child")


@cache
def bank(locale: str) -> dict[str, Any]:
    """The career phrase bank of ``locale`` (en_US when the locale has none). Read-only."""
    path = DATA / f"{locale}.yaml"
    if not path.exists():
        path = DATA / "en_US.yaml"
    data = yamlfile.safe_load(path.read_text(encoding="utf-8"))
    base = data.pop("extends", None)
    return _merge(bank(base), data) if base else data


def _merge(base: dict, over: dict) -> dict:
    """``over`` laid over ``base`` key by key (nested dicts merged, anything else replaced)."""
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def family(b: dict, role: str | None) -> tuple[str, dict]:
    """(family key, its bank entry) for ``role``: the occupation family, ``default`` when the bank lacks it."""
    key = occupations.match(role)
    return (key, b["families"][key]) if key in b["families"] else ("default", b["families"]["default"])


def _cap(text: str) -> str:
    """``text`` with its first letter upper-cased (the rest as written: German nouns keep their capitals)."""
    return text[:1].upper() + text[1:]


def month(d: dt.date) -> str:
    """``YYYY-MM`` of ``d``."""
    return f"{d.year:04d}-{d.month:02d}"


def _add_months(d: dt.date, n: int) -> dt.date:
    y, m = divmod(d.year * 12 + d.month - 1 + n, 12)
    return dt.date(y, m + 1, 1)


def _country(sim: Sim) -> str:
    a = sim.persona.identity.address
    return a.country if a and a.country in ("US", "GB", "DE") else "other"


def _city(sim: Sim) -> str:
    a = sim.persona.identity.address
    return a.city if a else ""


def _company(r, b: dict, fam: dict, last: str, last2: str) -> str:
    """An invented employer: the occupation family's pattern, else a word of the bank and a suffix."""
    jb = b["jobs"]
    if r.random() < 0.5:
        return f"{r.choice(jb['company_words'])} {r.choice(jb['company_suffix'])}"
    return f"{last} {r.choice(jb['company_suffix'])}" if r.random() < 0.5 else f"{last} & {last2}"


def _stale_title(role: str, titles: list[str]) -> str:
    """The title the profile still shows: ``role`` without its seniority word, else another title of the family."""
    for s in SENIORITY:
        if role.startswith(s) and role[len(s) :].strip():
            return role[len(s) :].strip()
    return next(
        (t for t in titles if t != role and not t.startswith(SENIORITY)),
        titles[0] if titles[0] != role else "Associate",
    )


def _career_dates(sim: Sim, r) -> tuple[dt.date, dt.date, int]:
    """(first job start, current job start, graduation year), consistent with the birth date and as_of."""
    p = sim.persona
    as_of = p.as_of
    born = p.identity.birth_date or dt.date(as_of.year - 30, 6, 1)
    grad = born.year + 22
    first = dt.date(grad, r.choice([7, 8, 9, 10]), 1) if grad < as_of.year else _add_months(as_of, -r.randint(3, 9))
    new_job = [e.date for e in p.life_events if e.kind == "new_job" and e.date <= as_of]
    if new_job:
        current = max(new_job).replace(day=1)
    else:
        current = _add_months(as_of, -r.randint(14, 62))
    if current < first:
        current = first
    return first, current, grad


def _profile(sim: Sim, b: dict) -> dict[str, Any]:
    """Headline, about, experience, education, skills of the persona (stream ``career/profile``)."""
    p = sim.persona
    r = sim.rng("career/profile")
    fk = sim.people("career/profile/names")
    work = p.work
    key, fam = family(b, work.role if work else None)
    role = work.role if work and work.role else fam["titles"][0]
    employer = work.employer if work and work.employer else None
    city = _city(sim)
    first, current, grad = _career_dates(sim, r)
    titles = list(fam["titles"])
    stale = _stale_title(role, titles)
    experience = []
    region = p.identity.address.region if p.identity.address else None
    loc = city + (f", {region}" if region and region != city else "")
    if employer:
        experience.append(
            {
                "id": "exp-0",
                "title": stale,
                "company": employer,
                "location": loc,
                "start": month(current),
                "end": None,
                "description": f"{_cap(r.choice(fam['focus']))}; {r.choice(fam['focus'])}.",
            }
        )
    # Earlier jobs fill the months from the first job to the current one, newest first, 18-48 months each.
    end = current
    juniors = [t for t in titles if not t.startswith(SENIORITY) and t != stale] or titles
    n = 0
    while n < 3 and (end - first).days >= 365:
        start = max(first, _add_months(end, -r.randint(18, 48)))
        if (end - start).days < 300 or n == 2:
            start = first
        last, last2 = fk.last_name(), fk.last_name()
        experience.append(
            {
                "id": f"exp-{len(experience)}",
                "title": juniors[n % len(juniors)] if n else stale,
                "company": _company(r, b, fam, last, last2),
                "location": loc,
                "start": month(start),
                "end": month(_add_months(end, -1)),
                "description": f"{_cap(r.choice(fam['focus']))}.",
            }
        )
        end = start
        n += 1
    if not employer and not experience:
        experience.append(
            {
                "id": "exp-0",
                "title": stale,
                "company": _company(r, b, fam, fk.last_name(), fk.last_name()),
                "location": loc,
                "start": month(current),
                "end": None,
                "description": f"{_cap(r.choice(fam['focus']))}.",
            }
        )
    edu = b["education"]
    schools = edu.get(_country(sim)) or edu["other"]
    level, fieldname = fam["degree"]
    education = [
        {
            "school": r.choice(schools),
            "degree": edu["degree"].format(level=edu["levels"][level], field=fieldname),
            "start_year": grad - 4,
            "end_year": grad,
        }
    ]
    skills = r.sample(fam["skills"], min(len(fam["skills"]), r.randint(6, 8)))
    shown_employer = employer or experience[0]["company"]
    previous = experience[1]["company"] if len(experience) > 1 else shown_employer
    focus = r.choice(fam["focus"])
    headline = r.choice(b["headline"]).format(role=stale, employer=shown_employer, focus=_cap(focus), city=city)
    hobbies = sorted({a for c in p.contacts or [] for a in (c.shared_activities or [])})[:3]
    ab = b["about"]
    years = max(1, as_of_year(sim) - int(experience[-1]["start"][:4]))
    ctx = {
        "role": stale,
        "role_lower": stale.lower(),
        "employer": shown_employer,
        "city": city,
        "years": years,
        "focus": focus,
        "joy": r.choice(fam["joy"]),
        "previous": previous,
        "lesson": r.choice(fam["lesson"]),
        "hobbies": ", ".join(hobbies[:-1]) + (f" {b['and']} " if len(hobbies) > 1 else "") + hobbies[-1]
        if hobbies
        else "",
    }
    parts = [r.choice(ab["open"]), r.choice(ab["middle"])]
    if len(experience) > 1:
        parts.append(r.choice(ab["close"]))
    if hobbies:
        parts.append(r.choice(ab["outside"]))
    about = " ".join(s.format(**ctx) for s in parts)
    return {
        "headline": headline,
        "bio": p.identity.bio or "",
        "pronouns": p.identity.pronouns or "",
        "about": about,
        "location": loc,
        "role": role,
        "family": key,
        "experience": experience,
        "education": education,
        "skills": skills,
        "difference": {"entry": 0, "field": "title", "profile": stale, "resume": role, "correct": "resume"},
    }


def as_of_year(sim: Sim) -> int:
    """The year of the spec's as_of."""
    return sim.persona.as_of.year


def _person(
    r,
    b: dict,
    fk,
    pid: str,
    name: str,
    relation: str,
    title: str,
    company: str,
    location: str,
    started: dt.date,
    connected: dt.date | None,
    mutual: list[str],
) -> dict[str, Any]:
    fam_key, fam = family(b, title)
    prev = None
    if r.random() < 0.7:
        prev = {"title": r.choice(fam["titles"]), "company": _company(r, b, fam, fk.last_name(), fk.last_name())}
    return {
        "id": pid,
        "name": name,
        "title": title,
        "company": company,
        "location": location,
        "headline": b["person_headline"].format(title=title, company=company),
        "relation": relation,
        "connected_on": connected.isoformat() if connected else None,
        "mutual": mutual,
        "started": month(started),
        "previous": prev,
    }


def _people(sim: Sim, b: dict, profile: dict) -> tuple[list[dict], list[dict]]:
    """(connections, second-degree people) of the persona (stream ``career/people``)."""
    p = sim.persona
    r = sim.rng("career/people")
    fk = sim.people("career/people/names")
    as_of = p.as_of
    city = profile["location"]
    fam_key, fam = family(b, profile["role"])
    colleagues = list(p.work.colleagues) if p.work else []
    employer = profile["experience"][0]["company"]
    cur_start = dt.date.fromisoformat(profile["experience"][0]["start"] + "-01")
    taken = {p.identity.name} | {c.name for c in p.contacts or []}
    conns: list[dict] = []

    def when(lo: dt.date) -> dt.date:
        span = max(1, (as_of - lo).days - 20)
        return lo + dt.timedelta(days=r.randint(0, span))

    for c in p.contacts or []:
        if c.relationship in NOT_NETWORK and "network" not in (c.apps or []):
            continue
        colleague = c.name in colleagues or c.relationship == "colleague"
        title = (c.job or r.choice(fam["titles"])).strip()
        title = title[:1].upper() + title[1:]
        company = employer if colleague else _company(r, b, family(b, title)[1], fk.last_name(), fk.last_name())
        started = _add_months(as_of, -r.randint(8, 70))
        conns.append(
            _person(
                r,
                b,
                fk,
                f"p{len(conns) + 1}",
                c.name,
                "colleague" if colleague else "contact",
                title,
                company,
                c.city or city.split(",")[0],
                started,
                when(cur_start if colleague else _add_months(as_of, -60)),
                [],
            )
        )

    def fresh_name() -> str:
        for _ in range(50):
            n = f"{fk.first_name()} {fk.last_name()}"  # no "Dr." or "MBA": a name as people sign it
            if n not in taken:
                taken.add(n)
                return n
        n = f"{fk.first_name()} {fk.last_name()}-{len(taken)}"
        taken.add(n)
        return n

    for exp in profile["experience"][1:]:
        start = dt.date.fromisoformat(exp["start"] + "-01")
        for _ in range(r.randint(2, 3)):
            title = r.choice(fam["titles"])
            stayed = r.random() < 0.4
            company = exp["company"] if stayed else _company(r, b, fam, fk.last_name(), fk.last_name())
            conns.append(
                _person(
                    r,
                    b,
                    fk,
                    f"p{len(conns) + 1}",
                    fresh_name(),
                    "former_colleague",
                    title,
                    company,
                    city.split(",")[0],
                    _add_months(as_of, -r.randint(6, 40)),
                    when(start),
                    [],
                )
            )
    others = [f for f in b["families"] if f != "default"]
    for _ in range(r.randint(5, 8)):
        f = b["families"][r.choice(others)]
        conns.append(
            _person(
                r,
                b,
                fk,
                f"p{len(conns) + 1}",
                fresh_name(),
                "industry",
                r.choice(f["titles"]),
                _company(r, b, f, fk.last_name(), fk.last_name()),
                r.choice(
                    [city.split(",")[0]]
                    + [c.split(",")[0] for c in b["cities"].get(_country(sim), b["cities"]["other"])]
                ),
                _add_months(as_of, -r.randint(6, 60)),
                when(_add_months(as_of, -48)),
                [],
            )
        )
    names = [c["name"] for c in conns]
    people: list[dict] = []
    for i in range(12):
        f = fam if i < 7 else b["families"][r.choice(others)]
        mutual = sorted(r.sample(names, min(len(names), r.randint(1, 4))))
        people.append(
            _person(
                r,
                b,
                fk,
                f"s{i + 1}",
                fresh_name(),
                "second",
                r.choice(f["titles"]),
                _company(r, b, f, fk.last_name(), fk.last_name()),
                city.split(",")[0],
                _add_months(as_of, -r.randint(6, 60)),
                None,
                mutual,
            )
        )
    return conns, people


def _projects(sim: Sim) -> list:
    """The work chat's projects of the persona (the same plan work chat draws; [] without an employer)."""
    from . import work_chat

    ws = work_chat._plan(work_chat._sim_of(sim.persona))
    return list(ws.projects) if ws and getattr(ws, "projects", None) else []


def _at(day: dt.date, r, lo: int = 8, hi: int = 21) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(r.randint(lo, hi - 1), r.randint(0, 59)))


def _posts(sim: Sim, b: dict, profile: dict, conns: list[dict]) -> None:
    """``network_post`` events: the persona's milestones and articles, the connections' posts (``career/posts``)."""
    r = sim.rng("career/posts")
    start, now = sim.start.date(), sim.now
    fam = family(b, profile["role"])[1]
    names = [c["name"] for c in conns]
    posts: list[tuple[dt.datetime, str, str, str, str | None]] = []  # at, author, kind, body, project
    employer = profile["experience"][0]["company"]
    for pr in _projects(sim):
        if pr.end and start <= pr.end < now.date():
            day = pr.end + dt.timedelta(days=r.randint(1, 5))
            posts.append(
                (
                    _at(day, r),
                    "me",
                    "milestone",
                    r.choice(b["posts"]["milestone"]).format(
                        project=pr.name, employer=employer, topic=r.choice(fam["topics"])
                    ),
                    pr.name,
                )
            )
    day = start + dt.timedelta(days=r.randint(10, 40))
    while day < now.date():
        posts.append(
            (_at(day, r), "me", "article", r.choice(b["posts"]["article"]).format(topic=r.choice(fam["topics"])), None)
        )
        day += dt.timedelta(days=r.randint(50, 110))
    cur = dt.date.fromisoformat(profile["experience"][0]["start"] + "-01")
    for years in range(1, 40):
        ann = dt.date(cur.year + years, cur.month, 1) + dt.timedelta(days=r.randint(0, 20))
        if start <= ann < now.date():
            posts.append(
                (_at(ann, r), "me", "anniversary", b["posts"]["anniversary"][0].format(n=years, company=employer), None)
            )
    for c in conns:
        cfam = family(b, c["title"])[1]
        started = dt.date.fromisoformat(c["started"] + "-01")
        if c["relation"] != "colleague" and start <= started < now.date():
            posts.append(
                (
                    _at(started + dt.timedelta(days=r.randint(0, 12)), r),
                    c["name"],
                    "job_change",
                    r.choice(b["posts"]["job_change"]).format(title=c["title"], company=c["company"]),
                    None,
                )
            )
        day = start + dt.timedelta(days=r.randint(5, 120))
        while day < now.date():
            kind = r.choice(["article", "event", "hiring", "article"])
            body = r.choice(b["posts"][kind]).format(
                topic=r.choice(cfam["topics"]), title=r.choice(cfam["titles"]), company=c["company"]
            )
            posts.append((_at(day, r), c["name"], kind, body, None))
            day += dt.timedelta(days=r.randint(60, 160))
    posts = [x for x in posts if x[0] <= now]
    posts.sort(key=lambda x: (x[0], x[1]))
    for n, (at, author, kind, body, project) in enumerate(posts, start=1):
        fans = [x for x in names if x != author]
        k = min(len(fans), r.randint(0, 14 if author == "me" else 9))
        reactions = [{"name": x, "reaction": r.choice(b["reactions"])} for x in sorted(r.sample(fans, k))]
        if author != "me" and r.random() < 0.25:
            reactions.append({"name": "me", "reaction": r.choice(b["reactions"])})
        comments = []
        for x in sorted(r.sample(fans, min(len(fans), r.randint(0, 3 if author == "me" else 1)))):
            cat = at + dt.timedelta(minutes=r.randint(20, 60 * 30))
            if cat <= now:
                comments.append({"name": x, "body": r.choice(b["comments"]), "at": cat.isoformat()})
        comments.sort(key=lambda c: (c["at"], c["name"]))
        sim.event(
            "network_post",
            at,
            {
                "post_id": f"post-{n}",
                "author": author,
                "kind": kind,
                "body": body,
                "project": project,
                "reactions": reactions,
                "comments": comments,
            },
            key=("career", "post", n),
        )


def _meetup_and_invitations(sim: Sim, b: dict, profile: dict, people: list[dict]) -> dict:
    """The meetup (a ``calendar_event``) and the pending ``network_invitation`` events (``career/invitations``)."""
    r = sim.rng("career/invitations")
    p = sim.persona
    now = sim.now
    city = profile["location"].split(",")[0]
    fam_key = profile["family"]
    label = "Professionals" if fam_key == "default" else fam_key.replace("_", " ").title()
    day = now.date() - dt.timedelta(days=r.randint(8, 16))
    while day.weekday() not in (1, 2, 3):
        day -= dt.timedelta(days=1)
    start = dt.datetime.combine(day, dt.time(18, 30))
    end = dt.datetime.combine(day, dt.time(20, 30))
    met, other = people[0], people[1]
    mb = b["meetup"]
    title = mb["title"].format(city=city, topic_title=label)
    venue = r.choice(mb["venues"])
    from zoneinfo import ZoneInfo

    tz = ZoneInfo(p.timezone)

    def iso(t: dt.datetime) -> str:
        return t.replace(tzinfo=tz).isoformat()

    def mail(n: str) -> str:
        return (
            ".".join(n.lower().split()[:2]).encode("ascii", "ignore").decode() + "@" + service("mail-delivery").domain
        )

    ev = sim.event(
        "calendar_event",
        start,
        {
            "calendar": "personal",
            "title": title,
            "start": iso(start),
            "end": iso(end),
            "all_day": False,
            "location": mb["location"].format(venue=venue, city=city),
            "attendees": [
                {"name": p.identity.name, "email": p.identity.email or ""},
                {"name": met["name"], "email": mail(met["name"])},
                {"name": other["name"], "email": mail(other["name"])},
            ],
            "organizer": {"name": other["name"], "email": mail(other["name"])},
            "source": "life_event",
            "ref": None,
            "series": None,
            "description": f"{label} talks and drinks.",
        },
        key=("career", "meetup"),
    )
    incoming = [met, people[2], people[3]]
    sent = [people[4], people[5]]
    out = {"event_id": ev.id, "title": title, "date": day.isoformat(), "attendee": met["name"], "other": other["name"]}
    items = []
    for who in incoming:
        at = (
            start + dt.timedelta(hours=r.randint(15, 40))
            if who is met
            else _at(now.date() - dt.timedelta(days=r.randint(1, 20)), r)
        )
        note = (
            ""
            if who is met
            else r.choice(b["invitation_notes"]).format(first=p.identity.name.split()[0], where=r.choice(mb["venues"]))
        )
        items.append((at, "incoming", who, note))
    for who in sent:
        at = _at(now.date() - dt.timedelta(days=r.randint(2, 25)), r)
        items.append((at, "sent", who, r.choice(b["sent_notes"]).format(first=who["name"].split()[0])))
    items.sort(key=lambda x: (x[0], x[2]["id"]))
    for n, (at, direction, who, note) in enumerate(items, start=1):
        iid = f"inv-{n}"
        if who is met:
            out["invitation_id"] = iid
        sim.event(
            "network_invitation",
            at,
            {"invitation_id": iid, "direction": direction, "person": who["id"], "name": who["name"], "note": note},
            key=("career", "invitation", n),
        )
    return out


def _money(cents: int, currency: str) -> str:
    sym = {"USD": "$", "GBP": "£", "EUR": "€"}.get(currency, "")
    return f"{sym}{cents // 100:,}" if sym else f"{cents // 100:,} {currency}"


def _jobs(sim: Sim, b: dict, profile: dict, currency: str) -> list[dict]:
    """The 30 postings of the job board (dicts with ``at``; :func:`_post_jobs` adds their events), three saved (``career/jobs``)."""
    r = sim.rng("career/jobs")
    fk = sim.people("career/jobs/names")
    now = sim.now
    jb = b["jobs"]
    country = _country(sim)
    fam = family(b, profile["role"])[1]
    others = [f for f in b["families"] if f != "default"]
    home = profile["location"]
    cities = (
        [home] * 3
        + list(b["cities"].get(country, b["cities"]["other"]))
        + [b["remote"].get(country, b["remote"]["other"])] * 2
    )
    scale = b["salary_scale"].get(country, b["salary_scale"]["other"])
    jobs = []
    for i in range(30):
        f = fam if i % 3 != 2 else b["families"][r.choice(others)]
        title = r.choice(f["titles"])
        company = _company(r, b, f, fk.last_name(), fk.last_name())
        bump = (
            1.25
            if title.startswith(("Lead ", "Staff ", "Principal "))
            else 1.15
            if title.startswith("Senior ")
            else 1.0
        )
        low = int(f["salary"] * scale * bump * r.uniform(0.88, 1.08) / 1000) * 1000
        if currency not in prices.WRITTEN:  # the family's US pay at the country's wage level (prices.annual_pay),
            # in whole thousands as a posting states it (the top already is)
            low = int(prices.annual_pay(Decimal(low) / Decimal(str(scale)), "USD", currency, country)) // 1000 * 1000
        high = int(low * r.uniform(1.18, 1.35) / 1000) * 1000
        place = r.choice(cities)
        workplace = "Remote" if place.startswith("Remote") else r.choice(jb["workplaces"][:2])
        day = now.date() - dt.timedelta(days=r.randint(1, 44))
        at = dt.datetime.combine(day, dt.time(r.randint(7, 16), r.randint(0, 59)))
        summary = r.choice(jb["summary"]).format(
            company=company, title=title, partner=r.choice(jb["partners"]), focus=r.choice(f["focus"])
        )
        jobs.append(
            {
                "job_id": f"job-{i + 1}",
                "title": title,
                "company": company,
                "location": place,
                "workplace": workplace,
                "salary_min_cents": low * 100,
                "salary_max_cents": high * 100,
                "currency": currency,
                "summary": summary,
                "skills": r.sample(f["skills"], 3),
                "saved_at": None,
                "at": at,
            }
        )
    for j in r.sample(jobs[:20], 3):
        saved = j["at"] + dt.timedelta(hours=r.randint(1, 48))
        j["saved_at"] = min(saved, now - dt.timedelta(minutes=5)).isoformat()
    return jobs


def _post_jobs(sim: Sim, jobs: list[dict]) -> None:
    """Add the ``job_posting`` events (after the recruiters dated the postings they write about)."""
    for j in jobs:
        data = {k: v for k, v in j.items() if k != "at"}
        sim.event("job_posting", j["at"], data, key=("career", "job", j["job_id"]))


def _recruiters(sim: Sim, b: dict, profile: dict, people: list[dict], jobs: list[dict]) -> None:
    """Three ``recruiter_message`` threads (``career/recruiters``): declined, unanswered, asking for availability."""
    r = sim.rng("career/recruiters")
    now = sim.now
    rb = b["recruiter"]
    first = sim.persona.identity.name.split()[0]
    employer = profile["experience"][0]["company"]
    plans = [
        (r.randint(70, 110), ["open", "me_reply:2", "polite_close"]),
        (r.randint(30, 50), ["open"]),
        (r.randint(2, 5), ["open", "me_reply:1", "follow_up"]),
    ]
    fam_jobs = [j for j in jobs if family(b, j["title"])[0] == profile["family"]] or jobs
    for t, (days_ago, steps) in enumerate(plans, start=1):
        rec = people[5 + t]
        job = fam_jobs[t % len(fam_jobs)]
        rec_title = r.choice(rb["titles"])
        rec["title"], rec["company"] = rec_title, job["company"]
        rec["headline"] = b["person_headline"].format(title=rec_title, company=job["company"])
        salary = (
            f"{_money(job['salary_min_cents'], job['currency'])}-{_money(job['salary_max_cents'], job['currency'])}"
        )
        ctx = {
            "first": first,
            "recruiter": rec["name"],
            "rfirst": rec["name"].split()[0],
            "rtitle": rec_title,
            "company": job["company"],
            "title": job["title"],
            "location": job["location"],
            "salary": salary,
            "employer": employer,
        }
        at = now - dt.timedelta(days=days_ago, hours=r.randint(0, 6))
        at = at.replace(hour=r.randint(9, 15), minute=r.randint(0, 59), second=0, microsecond=0)
        # The posting a recruiter writes about was up before the first message.
        if job["at"] >= at:
            job["at"] = dt.datetime.combine(
                at.date() - dt.timedelta(days=r.randint(3, 14)), dt.time(r.randint(7, 16), r.randint(0, 59))
            )
            if job["saved_at"] and job["saved_at"] < job["at"].isoformat():
                job["saved_at"] = (job["at"] + dt.timedelta(hours=2)).isoformat()
        for k, step in enumerate(steps):
            name, _, idx = step.partition(":")
            variants = rb[name]
            text = (variants[int(idx)] if idx else r.choice(variants)).format(**ctx)
            sender = "me" if name == "me_reply" else "recruiter"
            if k:
                at += dt.timedelta(hours=r.randint(2, 30), minutes=r.randint(0, 59))
                if at.hour < 8:  # people answer in the day: the night's message waits for the morning
                    at = at.replace(hour=r.randint(8, 11))
                elif at.hour >= 21:
                    at = (at + dt.timedelta(days=1)).replace(hour=r.randint(8, 11))
            at = min(at, now - dt.timedelta(minutes=30 * (len(steps) - k)))
            sim.event(
                "recruiter_message",
                at,
                {
                    "thread_id": f"thread-{t}",
                    "recruiter": rec["id"],
                    "name": rec["name"],
                    "sender": sender,
                    "text": text,
                    "job_id": job["job_id"],
                },
                key=("career", "recruiter", t, k),
            )


@world_step(
    rank=170,
    writes=("career_profile", "job_posting", "network_invitation", "network_post", "recruiter_message"),
    amends=("calendar_event",),
)
def simulate_career(sim: Sim) -> None:
    """Add the career events to ``sim`` (kinds and shapes in the module docstring)."""
    p = sim.persona
    b = bank(p.bank)
    currency = (p.finances.currency if p.finances and getattr(p.finances, "currency", None) else None) or "USD"
    profile = _profile(sim, b)
    conns, people = _people(sim, b, profile)
    jobs = _jobs(sim, b, profile, currency)
    _recruiters(sim, b, profile, people, jobs)
    _post_jobs(sim, jobs)
    meetup = _meetup_and_invitations(sim, b, profile, people)
    _posts(sim, b, profile, conns)
    r = sim.rng("career/resume")
    written = dt.datetime.combine(
        sim.now.date() - dt.timedelta(days=r.randint(3, 9)), dt.time(r.randint(19, 22), r.randint(0, 59))
    )
    first_last = "_".join(p.identity.name.split()[:1] + p.identity.name.split()[-1:])
    difference = profile.pop("difference")
    profile.update(
        {
            "connections": conns,
            "people": people,
            "meetup": meetup,
            "resume": {
                "folder": "Documents/Career",
                "filename": f"{first_last}_Resume.docx",
                "written_at": written.isoformat(),
                "difference": difference,
            },
        }
    )
    sim.event("career_profile", sim.start, profile, key=("career", "profile"))
