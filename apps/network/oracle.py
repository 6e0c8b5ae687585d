"""Reference solutions of Guildline's action tasks, through its HTTP routes (see builder.tasks.oracle).

The profile editor posts to ``/api/experience`` (``action=update`` with every field of the entry),
the invitation buttons to ``/api/invitations``, the post box to ``/api/posts``, the job page's Save to
``/api/jobs``, Easy Apply (multipart, the résumé uploaded) to ``/api/applications?job=<id>``. Each answers 303,
with ``error=`` when refused (``steps.py`` posts and checks). The tasks that need the calendar too are solved beside them, in ``scenarios/errands/network.py``.
"""

from __future__ import annotations

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

from .steps import APP, apply, invitation, post


def resume_title(task: Task, web: Web) -> str:
    exp = task.expected
    row = web.query(
        APP,
        "SELECT id, company, location, start_month, end_month, description FROM experience WHERE world_ref = 'exp-0'",
    )[0]
    post(
        web,
        "/api/experience",
        [
            ("action", "update"),
            ("id", str(row[0])),
            ("title", exp["correct"]),
            ("company", row[1]),
            ("location", row[2] or ""),
            ("start", row[3]),
            ("end", row[4] or ""),
            ("description", row[5] or ""),
        ],
    )
    return (
        f"The Guildline profile said “{exp['profile_was']}”; the résumé's {exp['correct']} is right, so I "
        "corrected the profile."
    )


def withdraw_oldest(task: Task, web: Web) -> str:
    invitation(web, task.expected["name"], "withdraw")
    return f"Withdrew the invitation to {task.expected['name']}."


def post_milestone(task: Task, web: Web) -> str:
    project = task.expected["project"]
    post(web, "/api/posts", [("body", f"Big week: our team just hit a milestone on {project}. Thanks, everyone!")])
    return f"Posted about the {project} milestone."


def save_best_job(task: Task, web: Web) -> str:
    exp = task.expected
    job = web.one(APP, "SELECT id FROM jobs WHERE slug = ?", (exp["job"],))
    post(web, "/api/jobs", [("job", str(job)), ("action", "save")])
    return f"Saved {exp['title']} at {exp['company']}."


def apply_recruiter_job(task: Task, web: Web) -> str:
    exp = task.expected
    if web.home is None:
        raise OracleError("the résumé is in the persona's home, and no home was given")
    apply(web, exp["job"], web.home / exp["resume"], exp["years"])
    return f"Applied to {exp['title']} at {exp['company']} with {exp['resume'].rsplit('/', 1)[-1]}."


SOLVERS = {
    "resume-title": resume_title,
    "post-milestone": post_milestone,
    "save-best-job": save_best_job,
    "withdraw-oldest": withdraw_oldest,
    "apply-recruiter-job": apply_recruiter_job,
}
