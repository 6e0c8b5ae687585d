"""Guildline tasks derived from the world, each with its expected values and rubric.

Action checks read the end state of Guildline's database. Rows the app writes have ``world_ref IS
NULL`` (posts, messages, saved jobs), and answered invitations carry ``responded_at``; seeded rows
never do, so an agent that does nothing fails every action check. Queries are fixed text with
``?`` placeholders: names, titles and ids travel in ``params``.
"""

from __future__ import annotations

import hashlib

from builder.money import money
from builder.tasks import answers as A
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.world import World

from .seed import profile, recruiter_ids

APP = "network"
KIT = kit.Kit(
    APP,
    nothing_else="Nothing else changed on Guildline: only {}",
    allowed=(Change(table="messages", op="update", min=0, columns=["read_at"]),),
)


def _text(*forms: str) -> Check:
    return Check(type="answer_text", any_of=[f for f in dict.fromkeys(forms) if f])


#: The Guildline person whose career id (``p<n>`` / ``s<n>``) is the bound parameter.
PERSON = "(SELECT id FROM people WHERE world_ref = ?)"


def tasks(world: World) -> list[Task]:
    """Return Guildline's own tasks of ``world`` (lookups and actions), in a fixed order; the ones that need the
    calendar or Parley too are scenarios (``scenarios/errands/network.py``, ``scenarios/pairs/network.py``)."""
    p = world.persona
    prof = profile(world)
    out: list[Task] = []
    by_ref = {x["id"]: x for x in prof["connections"] + prof["people"]}

    task = KIT.adder(world, out)

    # 1. The résumé's one difference: the current title. The résumé (and work.role) is right: fix the profile.
    diff = prof["resume"]["difference"]
    folder, filename = prof["resume"]["folder"], prof["resume"]["filename"]
    task(
        "resume-title",
        ["network", "files"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=600,
        instruction=(
            f"My résumé draft ({filename} in {folder}) and my Guildline profile disagree about my "
            "current job. Work out which one is right and correct the other one on Guildline; "
            "tell me what was wrong."
        ),
        expected={
            "resume": f"{folder}/{filename}",
            "field": diff["field"],
            "profile_was": diff["profile"],
            "correct": diff["resume"],
            "company": prof["experience"][0]["company"],
        },
        rubric=[
            RubricItem(
                id="title-fixed",
                weight=55,
                requirement=f"The current position on Guildline is titled {diff['resume']!r}",
                check=KIT.sql(
                    "SELECT title, company FROM experience WHERE world_ref = 'exp-0'",
                    [],
                    [[diff["resume"], prof["experience"][0]["company"]]],
                ),
            ),
            RubricItem(
                id="edited",
                weight=15,
                requirement="The position was edited in the app (not deleted and re-added)",
                check=KIT.sql(
                    "SELECT COUNT(*) FROM experience WHERE world_ref = 'exp-0' AND updated_at IS NOT NULL", [], [[1]]
                ),
            ),
            RubricItem(
                id="says",
                weight=15,
                requirement=f"The answer says the profile showed {diff['profile']!r}",
                check=_text(*A.distinct_forms(diff["profile"], diff["resume"])),
            ),
            KIT.only(
                "the one position's title",
                Change(table="experience", op="update", min=1, max=1, columns=["title", "updated_at"]),
            ),
        ],
    )

    # 2. Post about the latest project milestone of work chat's plan (or the current job).
    from builder.world.career import _projects  # the same plan the world's posts use

    class _S:  # a minimal Sim stand-in for the plan (it reads only the persona)
        persona = p

    projects = _projects(_S) if p.work and p.work.employer else []
    running = [pr for pr in projects if pr.end is None] or projects
    project = running[-1].name if running else prof["experience"][0]["company"]
    task(
        "post-milestone",
        ["network"],
        kind="action",
        difficulty="easy",
        time_limit_seconds=300,
        instruction=f"Write a short Guildline post saying our team just hit a milestone on {project}.",
        expected={"project": project},
        rubric=[
            RubricItem(
                id="posted",
                weight=85,
                requirement=f"A new post of mine names {project!r}",
                check=KIT.sql(
                    """SELECT COUNT(*) > 0 FROM posts WHERE author_id IS NULL AND world_ref IS NULL
                                          AND instr(lower(body), lower(?)) > 0""",
                    [project],
                    [[1]],
                ),
            ),
            KIT.only("my one new post", Change(table="posts", op="insert", min=1, max=1)),
        ],
    )

    # 3. Save the best-paid job of the persona's family in the home city that is not saved yet.
    jobs = [e.data for e in world.of_kind("job_posting") if e.at <= world.now]
    home = prof["location"]
    local = [j for j in jobs if j["location"] == home and not j["saved_at"]]
    best = max(local or [j for j in jobs if not j["saved_at"]], key=lambda j: (j["salary_max_cents"], j["job_id"]))
    where = home if local else "any location"
    task(
        "save-best-job",
        ["network"],
        kind="action",
        difficulty="medium",
        time_limit_seconds=480,
        instruction=(
            f"On the Guildline job board, save the job in {where} with the highest top of its salary range "
            "(one I haven't saved yet)."
        ),
        expected={"job": best["job_id"], "title": best["title"], "company": best["company"]},
        rubric=[
            RubricItem(
                id="saved",
                weight=85,
                requirement=f"{best['title']} at {best['company']} is saved",
                check=KIT.sql(
                    """SELECT COUNT(*) FROM saved_jobs WHERE world_ref IS NULL
                                          AND job_id = (SELECT id FROM jobs WHERE slug = ?)""",
                    [best["job_id"]],
                    [[1]],
                ),
            ),
            KIT.only("the one saved job", Change(table="saved_jobs", op="insert", min=1, max=1)),
        ],
    )

    # 4. Withdraw the oldest still-pending sent invitation.
    sent = sorted(
        (e for e in world.of_kind("network_invitation") if e.data["direction"] == "sent" and e.at <= world.now),
        key=lambda e: (e.at, e.id),
    )
    if sent:
        old = sent[0].data
        task(
            "withdraw-oldest",
            ["network"],
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction="Withdraw the Guildline invitation I sent longest ago that is still unanswered.",
            expected={"name": old["name"]},
            rubric=[
                RubricItem(
                    id="withdrawn",
                    weight=60,
                    requirement=f"The invitation to {old['name']} is withdrawn",
                    check=KIT.sql(
                        f"SELECT status FROM invitations WHERE person_id = {PERSON}", [old["person"]], [["withdrawn"]]
                    ),
                ),
                RubricItem(
                    id="rest",
                    weight=25,
                    requirement="It was withdrawn and no other invitation changed",
                    check=KIT.sql(
                        f"""SELECT (SELECT status FROM invitations WHERE person_id = {PERSON}) = 'withdrawn'
                                               AND (SELECT COUNT(*) FROM invitations WHERE status != 'pending'
                                                    AND person_id != {PERSON}) = 0""",
                        [old["person"], old["person"]],
                        [[1]],
                    ),
                ),
                KIT.only(
                    "the one withdrawn invitation",
                    Change(table="invitations", op="update", min=1, max=1, columns=["status", "responded_at"]),
                ),
            ],
        )

    # 5. The salary range of the job the first (declined) recruiter wrote about.
    msgs = [e for e in world.of_kind("recruiter_message") if e.at <= world.now]
    first = msgs[0].data
    job = (
        next(j for j in jobs if j["job_id"] == first["job_id"])
        if any(j["job_id"] == first["job_id"] for j in jobs)
        else None
    )
    if job:
        first_at = msgs[0].at
        cur = job["currency"]
        task(
            "recruiter-salary",
            ["network"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=(
                f"A recruiter from {job['company']} messaged me on Guildline in {first_at:%B}. What salary "
                "range did they quote?"
            ),
            expected={
                "company": job["company"],
                "month": f"{first_at:%Y-%m}",
                "min_cents": job["salary_min_cents"],
                "max_cents": job["salary_max_cents"],
                "min": money(job["salary_min_cents"], cur),
                "max": money(job["salary_max_cents"], cur),
            },
            rubric=[
                RubricItem(
                    id="min",
                    weight=50,
                    requirement=f"States the bottom, {money(job['salary_min_cents'], cur)}",
                    check=Check(type="answer_amount", cents=job["salary_min_cents"]),
                ),
                RubricItem(
                    id="max",
                    weight=50,
                    requirement=f"States the top, {money(job['salary_max_cents'], cur)}",
                    check=Check(type="answer_amount", cents=job["salary_max_cents"]),
                ),
            ],
        )

    # 6. How many connections work at the persona's employer (colleagues on Guildline).
    employer = prof["experience"][0]["company"]
    same = sorted(x["name"] for x in prof["connections"] if x["company"] == employer)
    task(
        "colleague-count",
        ["network"],
        kind="aggregation",
        difficulty="easy",
        time_limit_seconds=300,
        instruction=f"How many of my Guildline connections currently work at {employer}? Name them.",
        expected={"company": employer, "count": len(same), "names": same},
        rubric=[
            RubricItem(
                id="count",
                weight=40,
                requirement=f"Says {len(same)}",
                check=Check(type="answer_number", value=len(same)),
            ),
            *[
                RubricItem(
                    id=f"name-{i}",
                    weight=60 // len(same) + (60 % len(same) if i == 0 else 0),
                    requirement=f"Names {n}",
                    check=_text(n),
                )
                for i, n in enumerate(same)
            ],
        ]
        if same
        else [RubricItem(id="count", weight=100, requirement="Says none", check=_text("0", "none", "no one"))],
    )

    # 7. Which recruiter thread is still unanswered (a lookup across the threads).
    threads: dict[str, list] = {}
    for m_ in msgs:
        threads.setdefault(m_.data["thread_id"], []).append(m_)
    unanswered = [t for t, ms in threads.items() if all(x.data["sender"] != "me" for x in ms)]
    if unanswered:
        r0 = by_ref[threads[unanswered[0]][0].data["recruiter"]]
        task(
            "unanswered-recruiter",
            ["network"],
            kind="lookup",
            difficulty="easy",
            time_limit_seconds=300,
            instruction="Which recruiter on Guildline have I never replied to, and which company are they hiring for?",
            expected={"name": r0["name"], "company": r0["company"]},
            rubric=[
                RubricItem(id="name", weight=50, requirement=f"Names {r0['name']}", check=_text(r0["name"])),
                RubricItem(id="company", weight=50, requirement=f"Names {r0['company']}", check=_text(r0["company"])),
            ],
        )
        # 8. Apply (Easy Apply) to that recruiter's job instead: the résumé from the persona's files uploaded, the
        # experience question answered from the profile.
        job8 = next((j for j in jobs if j["job_id"] == threads[unanswered[0]][0].data["job_id"]), None)
        if job8:
            years = experience_years(prof, world.now.date())
            task(
                "apply-recruiter-job",
                ["network", "files"],
                kind="action",
                difficulty="medium",
                time_limit_seconds=600,
                instruction=(
                    f"{r0['name']} wrote to me on Guildline about a job and I never replied. Apply to that job with "
                    f"Easy Apply instead, uploading my résumé ({filename} in {folder}). For the experience "
                    "question, count the full years since my first job on my Guildline profile started."
                ),
                expected={
                    "job": job8["job_id"],
                    "title": job8["title"],
                    "company": job8["company"],
                    "resume": f"{folder}/{filename}",
                    "years": years,
                },
                rubric=[
                    RubricItem(
                        id="applied",
                        weight=40,
                        requirement=f"An application to {job8['title']} at {job8['company']} was sent",
                        check=KIT.sql(
                            "SELECT COUNT(*) FROM applications WHERE job_id = (SELECT id FROM jobs WHERE slug = ?)",
                            [job8["job_id"]],
                            [[1]],
                        ),
                    ),
                    RubricItem(
                        id="resume",
                        weight=30,
                        requirement=f"The résumé uploaded with it is {filename}, byte for byte",
                        check=KIT.sql(
                            """SELECT resume_sha256 FROM applications
                                WHERE job_id = (SELECT id FROM jobs WHERE slug = ?)""",
                            [job8["job_id"]],
                            [[resume_sha256(world)]],
                        ),
                    ),
                    RubricItem(
                        id="years",
                        weight=15,
                        requirement=f"The experience question is answered {years}",
                        check=KIT.sql(
                            "SELECT years FROM applications WHERE job_id = (SELECT id FROM jobs WHERE slug = ?)",
                            [job8["job_id"]],
                            [[years]],
                        ),
                    ),
                    KIT.only("the one application", Change(table="applications", op="insert", min=1, max=1)),
                ],
            )
    assert recruiter_ids(world)  # every world has recruiter threads (builder.world.career)
    out.extend(insight_tasks(world))
    return out


def experience_years(prof: dict, today) -> int:
    """Full years from the start month of the profile's earliest job to ``today`` (a date): what "years of work
    experience" counts."""
    first = min(x["start"] for x in prof["experience"])
    months = today.year * 12 + today.month - (int(first[:4]) * 12 + int(first[5:7]))
    return max(0, months // 12)


def resume_sha256(world: World) -> str:
    """SHA-256 (hex) of the résumé draft the persona's home holds (:func:`apps.network.seed.write_resume`: its bytes
    depend only on the world)."""
    import tempfile
    from pathlib import Path

    from .seed import write_resume

    with tempfile.TemporaryDirectory() as tmp:
        return hashlib.sha256(write_resume(world, Path(tmp) / "resume.docx").read_bytes()).hexdigest()


# --- Reasoning tasks (contradiction, counterfactual, preference inference) ---------------------------------------


def insight_tasks(world: World) -> list[Task]:
    """Guildline's contradiction task: the profile's stale title against the résumé draft (which, like work chat,
    is right). None when the persona has no profile."""
    if not world.of_kind("career_profile"):
        return []
    prof = profile(world)
    diff = (prof.get("resume") or {}).get("difference")
    if not diff:
        return []
    pid = world.persona.id
    folder, filename = prof["resume"]["folder"], prof["resume"]["filename"]
    return [
        Task(
            id=f"{pid}/network/cx-resume-title",
            persona=pid,
            apps_involved=["network", "files"],
            kind="lookup",
            category="contradiction",
            difficulty="medium",
            time_limit_seconds=480,
            instruction=f"My résumé draft ({filename} in {folder}) and my Guildline profile give different job titles "
            "for my current position. What does each say, and which one is right? Put the right "
            "title first.",
            expected={
                "resume": f"{folder}/{filename}",
                "company": prof["experience"][0]["company"],
                "right": diff["resume"],
                "stale": diff["profile"],
                "truth": "resume",
            },
            rule="the résumé draft the persona keeps current beats the Guildline profile, which lags behind",
            rubric=[
                RubricItem(
                    id="right", weight=30, requirement=f"Gives {diff['resume']!r}", check=A.text(diff["resume"])
                ),
                RubricItem(
                    id="stale",
                    weight=30,
                    requirement=f"Gives {diff['profile']!r}",
                    check=A.text(*A.distinct_forms(diff["profile"], diff["resume"])),
                ),
                RubricItem(
                    id="order",
                    weight=40,
                    requirement="Names the résumé's title before the profile's",
                    check=A.names([[diff["resume"]], A.distinct_forms(diff["profile"], diff["resume"])], ordered=True),
                ),
            ],
        )
    ]
