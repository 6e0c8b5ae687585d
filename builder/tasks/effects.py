"""Side effects: the rows an action in one app writes into another app's database through a service, and the
state_diff items that check them.

Apps call each other through the services their ``app.yaml`` ``provides:`` (``@persona/platform/services``): a
booking charges the card through ``card-network`` and mails its confirmation through ``mail-delivery``. An action
task's own state_diff items say what the agent may change in the apps it acts in; this module adds, at bundle
time (:func:`builder.tasks.collect.home_tasks`), one state_diff item for every app that receives such calls and
that no state_diff item of the task covers yet, allowing exactly the rows those calls write.

An app declares its side of this in an optional ``apps/<app>/effects.py`` (it names no other app: services only):

* ``CALLS`` (a providing app): call name -> :class:`Call`, the rows one call of a service it provides writes in
  its own database. A call name is the service's name, or ``<service>/<route>`` when the service has several
  routes (``calendar/rsvp``).
* ``CAUSES`` (a calling app): :class:`Cause` records, each "every row of this change of my database makes
  ``min``..``max`` calls of that name".
* ``VISITS`` (any app): changes looking around the app may make at any time (mail marked read); every item this
  module builds for the app allows them (``min`` 0).
* ``IGNORE`` (any app): tables a state diff of it never compares (default: the sign-in sessions; a cart).

The calls a task makes are counted from its own state_diff items (:func:`calls`): a change allowed ``a``..``b``
rows, whose rows each make ``c``..``d`` calls, makes ``a*c``..``b*d`` of them (an update whose cause is a column
counts towards the minimum only when the change names that column: the task says it changes). A providing app
already covered by a state_diff item of the task is left to that item; one whose calls may all be none (every
minimum 0: a refund that depends on the fare) gets no item, since an item that passes on an untouched database
would score when nothing was done. Every added item weighs :data:`WEIGHT`; the task's other items give up that
weight in proportion to theirs (:func:`with_items`).

A task says more where it knows more: a long errand diffs every app it acts in with :func:`acting` (each item
counting the calls the errand's other items make into that app: the mail to the lead, with the confirmations of
the table and the ride booked), and a task whose own rows cannot tell a call from none (a market's ``activity``
row is a transfer or a trade) states its calls with :func:`expect`.

Pure and deterministic: apps in :func:`builder.apps.discover` order, calls and changes in declaration order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Literal

from .model import Change, Check, RubricItem, Task

#: The weight (points of 100) of every state_diff item this module adds.
WEIGHT = 5


@dataclass(frozen=True)
class Call:
    """One call of a service, as the providing app receives it: ``changes`` are the rows one call writes in the
    provider's database (``min``/``max`` per call); ``noun`` its name in a requirement, singular and plural
    (``("card payment", "card payments")``)."""

    noun: tuple[str, str]
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class Cause:
    """Every row of ``op`` on ``table`` in the calling app's database makes ``min``..``max`` calls ``call`` (a name
    in some app's ``CALLS``). ``column`` (updates only): only rows that change this column make them."""

    table: str
    op: Literal["insert", "update", "delete"]
    call: str
    min: int = 1
    max: int = 1
    column: str | None = None


@dataclass(frozen=True)
class Effects:
    """One app's declarations (its ``effects.py``; empty without one): see the module docstring."""

    app: str
    title: str
    calls: dict[str, Call]
    causes: tuple[Cause, ...]
    visits: tuple[Change, ...]
    ignore: tuple[str, ...]


@cache
def _declared(names: tuple[tuple[str, str], ...]) -> tuple[Effects, ...]:
    import importlib
    import importlib.util

    out = []
    for name, title in names:
        mod = None
        if importlib.util.find_spec(f"apps.{name}.effects") is not None:
            mod = importlib.import_module(f"apps.{name}.effects")
        out.append(
            Effects(
                app=name,
                title=title,
                calls=dict(getattr(mod, "CALLS", {})),
                causes=tuple(getattr(mod, "CAUSES", ())),
                visits=tuple(getattr(mod, "VISITS", ())),
                ignore=tuple(getattr(mod, "IGNORE", ("sessions",))),
            )
        )
    return tuple(out)


def declared(built: Iterable[str] | None = None) -> tuple[Effects, ...]:
    """Every discovered app's :class:`Effects`, in discovery order; with ``built``, only those apps.

    Raises ``ValueError`` when two apps declare the same call, a call's service is not among its app's
    ``provides:``, or a cause names a call no app declares."""
    from builder.apps import discover

    apps = discover()
    keep = None if built is None else set(built)
    every = _declared(tuple((a.name, a.title) for a in apps))
    provides = {a.name: set(a.provides) for a in apps}
    seen: dict[str, str] = {}
    for e in every:
        for name in e.calls:
            if name in seen:
                raise ValueError(f"apps {seen[name]} and {e.app} both declare the call {name!r}")
            if name.split("/", 1)[0] not in provides[e.app]:
                raise ValueError(f"{e.app} declares the call {name!r} but does not provide {name.split('/', 1)[0]!r}")
            seen[name] = e.app
    for e in every:
        for c in e.causes:
            if c.call not in seen:
                raise ValueError(f"{e.app}: a cause names the call {c.call!r}, which no app declares")
    return tuple(e for e in every if keep is None or e.app in keep)


def _rows(change: Change, cause: Cause) -> tuple[int, int | None] | None:
    """How many rows of ``change`` are rows of ``cause``: ``(min, max)``, or ``None`` when none can be."""
    if change.table != cause.table or change.op != cause.op:
        return None
    if cause.column is None or change.columns is None:
        return (change.min if cause.column is None else 0), change.max
    if cause.column not in change.columns:
        return None
    return change.min, change.max


def calls(rubric: Iterable[RubricItem], effects: Iterable[Effects]) -> dict[str, tuple[int, int | None, list[str]]]:
    """The calls the state_diff items of ``rubric`` let their apps make: call name -> ``(min, max, callers)``
    (``max`` ``None``: unbounded; ``callers`` the titles of the apps that make them, in rubric order)."""
    by_app = {e.app: e for e in effects}
    out: dict[str, tuple[int, int | None, list[str]]] = {}
    for item in rubric:
        check = item.check
        if check is None or check.type != "state_diff" or check.app not in by_app:
            continue
        for cause in by_app[check.app].causes:
            for change in check.changes:
                rows = _rows(change, cause)
                if rows is None or rows[1] == 0:
                    continue
                lo, hi = rows[0] * cause.min, None if rows[1] is None else rows[1] * cause.max
                if hi == 0:
                    continue
                was = out.get(cause.call, (0, 0, []))
                who = was[2] + ([by_app[check.app].title] if by_app[check.app].title not in was[2] else [])
                out[cause.call] = (was[0] + lo, None if was[1] is None or hi is None else was[1] + hi, who)
    return out


def _merge(changes: Iterable[Change]) -> list[Change]:
    """``changes`` with those of the same table, operation and columns summed (first place kept): the grader counts
    a row towards the first change that allows it, so two of the same kind would starve the second."""
    order: list[tuple] = []
    total: dict[tuple, tuple[int, int | None]] = {}
    for c in changes:
        key = (c.table, c.op, tuple(c.columns) if c.columns is not None else None)
        if key not in total:
            order.append(key)
            total[key] = (c.min, c.max)
        else:
            lo, hi = total[key]
            total[key] = (lo + c.min, None if hi is None or c.max is None else hi + c.max)
    return [
        Change(
            table=t,
            op=op,
            min=total[(t, op, cols)][0],
            max=total[(t, op, cols)][1],
            columns=list(cols) if cols else None,
        )
        for t, op, cols in order
        if total[(t, op, cols)][1] != 0
    ]


def _count(lo: int, hi: int | None, noun: tuple[str, str]) -> str:
    one, many = noun
    if lo == hi:
        return f"the one {one}" if lo == 1 else f"the {lo} {many}"
    if hi is None:
        return f"at least {lo} {many}"
    return f"at most {hi} {many}" if lo == 0 else f"{lo} to {hi} {many}"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"


def items(task: Task, effects: Iterable[Effects]) -> list[RubricItem]:
    """The state_diff items :func:`complete` adds to ``task`` (see the module docstring), providers in ``effects``
    order."""
    effects = tuple(effects)
    made = calls(task.rubric, effects)
    if not made:
        return []
    covered = {i.check.app for i in task.rubric if i.check is not None and i.check.type == "state_diff"}
    taken = {i.id for i in task.rubric}
    out = []
    for p in effects:
        mine = [(name, made[name]) for name in p.calls if name in made]
        if not mine or p.app in covered:
            continue
        if not any(lo * c.min for name, (lo, _, _) in mine for c in p.calls[name].changes):
            continue  # every call may be none: an item here would pass on an untouched database
        rid = f"{p.app}-effects"
        while rid in taken:
            rid += "-again"
        taken.add(rid)
        out.append(_item(p, mine, WEIGHT, rid))
    return out


def expect(call: str, lo: int, hi: int | None, by: str, *, weight: int = WEIGHT) -> RubricItem:
    """The item of :func:`items` for ``lo``..``hi`` calls ``call`` made by the app titled ``by``, for a task that knows
    better than its state_diff items can say (a market's ``activity`` row is a transfer or a trade). Give it to
    :func:`with_items`; the providing app is then covered and :func:`complete` adds nothing there.

    Raises ``ValueError`` when no discovered app declares ``call`` or ``lo`` is 0 (an item that passes on an
    untouched database)."""
    if lo < 1:
        raise ValueError(f"expect({call!r}): at least one call, or the item passes when nothing was done")
    provider = next((e for e in declared() if call in e.calls), None)
    if provider is None:
        raise ValueError(f"no app declares the call {call!r}")
    return _item(provider, [(call, (lo, hi, [by]))], weight, f"{provider.app}-effects")


def only(
    rubric: Iterable[RubricItem], app: str, what: str, *changes: Change, rid: str | None = None, weight: int = WEIGHT
) -> RubricItem:
    """The state_diff item of an app a long task acts in besides its own: ``app`` changed only by ``changes`` (what
    the task does there; ``what`` says it: "the mail to Sam and its reply"), by what a visit changes (its
    ``VISITS``), and by the rows the calls of the state_diff items in ``rubric`` (the task's other items, those
    before this one) write there (the confirmation a booking mails). :func:`complete` then leaves ``app`` to this
    item. ``rid``: the item's id (``only-<app>`` unless given).

    Raises ``ValueError`` when no discovered app is ``app``, or nothing the item allows must happen (every minimum 0:
    the item would pass when nothing was done)."""
    every = declared()
    p = next((e for e in every if e.app == app), None)
    if p is None:
        raise ValueError(f"no app {app!r}")
    made = calls(rubric, every)
    mine = [(name, made[name]) for name in p.calls if name in made]
    item = _item(p, mine, weight, rid or f"only-{app}", own=changes, what=what)
    if not any(c.min for c in item.check.changes):
        raise ValueError(f"only({app!r}): nothing must change, so the item passes when nothing was done")
    return item


def acting(task: Task, *acts: tuple[str, str, tuple[Change, ...]]) -> Task:
    """``task`` with an :func:`only` item for every ``(app, what, changes)`` of ``acts``: the apps a long task acts
    in, each item counting the calls the task's other state_diff items (the rubric's and the other acts') make into
    its app (the confirmations a booking and a ride mail). A new item weighs :data:`WEIGHT` and the rubric's items
    give up that weight in proportion to theirs (:func:`with_items`); an act on an app the rubric already diffs
    replaces that item, keeping its id and weight.

    Raises ``ValueError`` as :func:`only` does, or when the rubric diffs an act's app twice."""
    diffed = [i.check.app for i in task.rubric if i.check is not None and i.check.type == "state_diff"]
    twice = sorted({a for a in diffed if diffed.count(a) > 1} & {app for app, _, _ in acts})
    if twice:
        raise ValueError(f"{task.id}: the rubric diffs {twice} more than once")
    # The calls of an item depend on its own changes only, so the acts' bare items suffice to count them.
    bare = [only([], app, what, *changes) for app, what, changes in acts]
    apps = {app for app, _, _ in acts}
    kept = [i for i in task.rubric if i.check is None or i.check.type != "state_diff" or i.check.app not in apps]
    made = {
        app: only([*kept, *bare[:k], *bare[k + 1 :]], app, what, *changes)
        for k, (app, what, changes) in enumerate(acts)
    }
    rubric = [
        made.pop(i.check.app).model_copy(update={"id": i.id, "weight": i.weight})
        if i.check is not None and i.check.type == "state_diff" and i.check.app in made
        else i
        for i in task.rubric
    ]
    return with_items(task.model_copy(update={"rubric": rubric}), list(made.values()))


def _item(
    p: Effects,
    mine: list[tuple[str, tuple[int, int | None, list[str]]]],
    weight: int,
    rid: str,
    own: tuple[Change, ...] = (),
    what: str | None = None,
) -> RubricItem:
    changes = _merge(
        Change(
            table=c.table,
            op=c.op,
            min=lo * c.min,
            max=None if hi is None or c.max is None else hi * c.max,
            columns=c.columns,
        )
        for name, (lo, hi, _) in mine
        for c in p.calls[name].changes
    )
    said = ([what] if what else []) + [
        f"{_count(lo, hi, p.calls[name].noun)} from {_and(who)}" for name, (lo, hi, who) in mine
    ]
    return RubricItem(
        id=rid,
        weight=weight,
        requirement=f"Nothing else changed in {p.title}: only {_and(said)}",
        check=Check(type="state_diff", app=p.app, changes=_merge([*p.visits, *own, *changes]), ignore=list(p.ignore)),
    )


def reweigh(weights: list[int], total: int) -> list[int]:
    """``weights`` scaled to sum to ``total``, each at least 1, by largest remainder (ties: the earlier item).
    Raises ``ValueError`` when ``total`` is less than the number of weights."""
    if total < len(weights):
        raise ValueError(f"{len(weights)} items cannot share {total} points")
    whole = sum(weights)
    exact = [w * total / whole for w in weights]
    out = [max(1, int(x)) for x in exact]
    rest = total - sum(out)
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - int(exact[i])), i))
    k = 0
    while rest > 0:
        out[order[k % len(order)]] += 1
        rest -= 1
        k += 1
    while rest < 0:  # the floor of 1 took points: take them back from the heaviest
        i = max(range(len(out)), key=lambda j: (out[j], -j))
        out[i] -= 1
        rest += 1
    return out


def with_items(task: Task, extra: list[RubricItem]) -> Task:
    """``task`` with ``extra`` appended to its rubric, the other items giving up the extra weight in proportion to
    theirs (:func:`reweigh`)."""
    if not extra:
        return task
    share = reweigh([i.weight for i in task.rubric], 100 - sum(i.weight for i in extra))
    rubric = [i.model_copy(update={"weight": w}) for i, w in zip(task.rubric, share)] + list(extra)
    return Task.model_validate({**dict(task), "rubric": rubric})


def complete(task: Task, built: Iterable[str] | None = None) -> Task:
    """``task`` with a state_diff item for every app its own state_diff items cause calls into (:func:`items`),
    among the apps of ``built`` (``None``: every discovered app); other tasks as they are."""
    if task.kind != "action":
        return task
    return with_items(task, items(task, declared(built)))
