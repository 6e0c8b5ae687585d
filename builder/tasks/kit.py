"""The task builder every ``tasks.py`` and scenario uses: sql checks, the "nothing else changed" item, amount
answers and the task record with its id convention.

An app binds its conventions once in a :class:`Kit` (its name, the wording of its "nothing else changed" item,
the changes any action there may make besides the task's own, the tables a state diff ignores) and builds its
checks from it; a scenario uses the kit of each app it checks. Every function is pure: no randomness, no clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from builder.world import World

from .model import Change, Check, Dropped, RubricItem, Task


def sql(app: str, query: str, params: list, expected: list[list]) -> Check:
    """A sql check on ``app``'s database: fixed ``query`` text with ``?`` placeholders (its whitespace folded to
    single spaces), every world or spec value in ``params``, the rows it must return in ``expected``."""
    return Check(type="sql", app=app, query=" ".join(query.split()), params=list(params), expected=expected)


def amount(cents: int) -> Check:
    """An answer check: the final answer states this amount of money (integer minor units, cents)."""
    return Check(type="answer_amount", cents=cents)


def percent(value: int) -> Check:
    """An answer check: the final answer states ``value`` per cent, written ``15%``, ``15 %`` or ``15 percent``."""
    return Check(type="answer_text", any_of=[f"{value}%", f"{value} %", f"{value} percent"])


def only(
    app: str,
    requirement: str,
    *changes: Change,
    rid: str = "only",
    weight: int = 15,
    ignore: tuple[str, ...] = ("sessions",),
    allowed: tuple[Change, ...] = (),
) -> RubricItem:
    """The state-diff rubric item (id ``rid``, ``weight`` points): ``app``'s database changed by ``allowed`` (changes
    any visit may make, such as messages marked read) and ``changes`` only, the tables in ``ignore`` aside."""
    return RubricItem(
        id=rid,
        weight=weight,
        requirement=requirement,
        check=Check(type="state_diff", app=app, changes=[*allowed, *changes], ignore=list(ignore)),
    )


def task(world: World, app: str, slug: str, apps: list[str], **fields) -> Task:
    """The task ``<persona>/<app>/<slug>`` of ``world``'s persona involving ``apps`` (app folder names, the id's
    app first by convention); ``fields`` are the rest of :class:`~builder.tasks.model.Task`."""
    pid = world.persona.id
    return Task(id=f"{pid}/{app}/{slug}", persona=pid, apps_involved=apps, **fields)


def dropped(world: World, app: str, slug: str, category: str, reason: str) -> Dropped:
    """The record of the task ``<persona>/<app>/<slug>`` left out of the bundle, and why (a tie, an answer the
    desktop does not show): append it to the ``tasks(world)`` list in the task's place."""
    return Dropped(id=f"{world.persona.id}/{app}/{slug}", category=category, reason=reason)


def adder(world: World, app: str, out: list[Task], **defaults) -> Callable[..., None]:
    """The ``task(slug, apps=None, **fields)`` closure of a ``tasks(world)`` function: appends :func:`task` to
    ``out``; ``apps`` empty or left out means ``[app]``; ``defaults`` are fields every task of ``out`` shares
    (a section's ``kind``, say), and a field given to one task overrides its default."""

    def add(slug: str, apps: list[str] | None = None, **fields) -> None:
        out.append(task(world, app, slug, apps or [app], **{**defaults, **fields}))

    return add


@dataclass(frozen=True)
class Kit:
    """One app's checks: ``app`` (its folder name) bound into :func:`sql` and :func:`only`.

    ``nothing_else``: the wording of the app's state-diff item, a format string with one ``{}`` for what the task
    changes (``"Nothing else changed in Huddle: only {}"``; the item's id is then ``nothing-else``); ``None``: the
    caller gives the whole requirement and the id is ``only``. ``allowed``: changes any visit may make besides the
    task's own (messages marked read, the tax return's own rows). ``ignore``: tables a state diff never compares
    (sign-in sessions, a cart)."""

    app: str
    nothing_else: str | None = None
    allowed: tuple[Change, ...] = ()
    ignore: tuple[str, ...] = ("sessions",)

    def sql(self, query: str, params: list, expected: list[list], app: str | None = None) -> Check:
        """:func:`sql` on this app's database (or ``app``'s)."""
        return sql(app or self.app, query, params, expected)

    def only(self, what: str, *changes: Change) -> RubricItem:
        """:func:`only` on this app: ``what`` is the whole requirement, or the ``{}`` of :attr:`nothing_else`."""
        if self.nothing_else is None:
            return only(self.app, what, *changes, ignore=self.ignore, allowed=self.allowed)
        return only(
            self.app,
            self.nothing_else.format(what),
            *changes,
            rid="nothing-else",
            ignore=self.ignore,
            allowed=self.allowed,
        )

    @staticmethod
    def amount(cents: int) -> Check:
        """:func:`amount`."""
        return amount(cents)

    def dropped(self, world: World, slug: str, category: str, reason: str) -> Dropped:
        """:func:`dropped` for this app."""
        return dropped(world, self.app, slug, category, reason)

    def adder(self, world: World, out: list[Task], **defaults) -> Callable[..., None]:
        """:func:`adder` for this app."""
        return adder(world, self.app, out, **defaults)
