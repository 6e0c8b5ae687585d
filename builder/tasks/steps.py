"""The shared pieces of the steps long tasks chain across apps. Each app's own steps (a machine check of what the
persona did there, and the action that does it through the app's routes, for the reference solutions of the
cross-app scenarios in ``scenarios/``) live in ``apps/<app>/steps.py``, the app's whole testing interface (it
imports no other app); this module holds what they all use, and the world look-ups several scenarios share.

Checks read only rows an app wrote during the episode: every seeded row carries ``world_ref`` (or another seed
marker), rows the apps write do not, so doing nothing fails every check. World values travel in ``params``.
Actions post what the app's pages post, with the persona's cookie of that app (:class:`builder.tasks.oracle.Web`),
and raise :class:`~builder.tasks.oracle.OracleError` when the app does not confirm.
"""

from __future__ import annotations

import urllib.parse

from .model import Change, Check, RubricItem


def sql(app: str, query: str, params: list, expected: list[list]) -> Check:
    """A sql check (whitespace of ``query`` folded)."""
    return Check(type="sql", app=app, query=" ".join(query.split()), params=list(params), expected=expected)


def item(rid: str, weight: int, requirement: str, check: Check | None = None) -> RubricItem:
    """A rubric item; without ``check`` it is a judge item."""
    return RubricItem(id=rid, weight=weight, requirement=requirement, check=check)


def diff(app: str, *changes: Change, ignore: tuple[str, ...] = ("sessions",)) -> Check:
    """Only ``changes`` in ``app``'s database (its sign-in sessions aside)."""
    return Check(type="state_diff", app=app, changes=list(changes), ignore=list(ignore))


def needles(column: str, groups: list[list[str]]) -> tuple[str, list[str]]:
    """SQL requiring, for every group, one of its strings in ``column`` (case-insensitive)."""
    sql_parts, params = [], []
    for group in groups:
        sql_parts.append("(" + " OR ".join(f"instr(lower({column}), lower(?)) > 0" for _ in group) + ")")
        params += group
    return "".join(f" AND {p}" for p in sql_parts), params


def query_of(location: str) -> dict[str, list[str]]:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)


def street_address(contact) -> str | None:
    """A contact's address as the apps' places hold it, in the country's order (builder.world.travel.format_address:
    "7520 Sunset Drive, Portland, OR 97234", "165 Cromwell Road, Manchester M30 9BY", "Kastanienstraße 128, 22599
    Hamburg"); None without a street."""
    from builder.reference.addresses import format_address

    a = getattr(contact, "address", None)
    if not a or not a.street:
        return None
    return format_address(a)


def chat_contacts(world) -> list:
    """The spec's contacts who chat (``"chat"`` among their apps) and have a phone, in spec order: the people a chat
    app shows."""
    return [c for c in world.persona.contacts if "chat" in (c.apps or []) and c.phone]


def closest_contact(world):
    """The chat contact the persona is closest to, to tell news (closeness, then a partner or spouse first, then
    spec order; colleagues aside): a spec ``Contact``, or None when the persona chats with nobody."""
    people = [c for c in chat_contacts(world) if c.relationship != "colleague"]
    if not people:
        return None
    return min(
        enumerate(people),
        key=lambda ic: (-(ic[1].closeness or 0), ic[1].relationship not in ("partner", "spouse"), ic[0]),
    )[1]


def team_channel(world) -> str | None:
    """The persona's team channel in work chat (``team-design``, ``team-data``...), or None."""
    from builder.world.work_chat import channels

    return next((c["name"] for c in channels(world) if c["name"].startswith("team-")), None)


def work_lead(world) -> tuple[str, str] | None:
    """(name, work email) of the first of the persona's colleagues with a work address (their lead), or None."""
    from builder.world.projects import board

    emails = {x["name"]: x["email"] for x in board(world)["people"] if not x["is_me"] and x.get("email")}
    p = world.persona
    lead = next((c for c in (p.work.colleagues if p.work else []) if c in emails), None)
    return (lead, emails[lead]) if lead else None
