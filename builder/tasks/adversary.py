"""Answers that must not pass: each answer check's other candidates, and the adversarial answers tried against it.

An answer check that accepts the right value anywhere in the answer can be gamed by naming every candidate at once
(all the restaurants, all the amounts). So at bundle time :func:`harden` gives every answer check a ``reject`` list:
the values of the same kind that the persona's other tasks expect (other restaurants and people, other amounts,
counts, dates, clock times and codes), nearest first, at most :data:`MAX_REJECT`; a value the task itself expects or
its instruction states is never rejected. The grader fails an answer that names a rejected value
(:mod:`builder.tasks.grade`).

:func:`adversaries` makes the adversarial answers of one item from the persona's own data: each other candidate
alone, near misses (the value one off, a clock time an hour off or twelve hours off, the day before and after, a
title without its first word, an amount without its currency) and every candidate at once with the right value.
Each must score below the item's weight; the audit (:mod:`builder.tasks.audit`) and CI try them all.
Pure and deterministic: the same tasks give the same lists.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

from .matching import normalise, occurrences
from .model import Check, Task

#: The most other candidates one check rejects (nearest first).
MAX_REJECT = 40

_TIME = re.compile(r"^\d{2}:\d{2}$")
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}")


def kind_of(spelling: str) -> str:
    """What a spelling names: ``time`` (a clock time), ``date`` (an ISO date, or a month's name and a day),
    ``code`` (one token with letters and digits: a confirmation number, a PNR), ``count`` (a phrase starting with a
    number: "16 times") or ``name`` (anything else: a place, a person, a word)."""
    norm = normalise(spelling)
    if _TIME.match(norm):
        return "time"
    words = norm.replace(",", " ").split()
    if (
        _ISO.match(norm)
        or re.fullmatch(r"\d{1,2}\.\d{1,2}\.(\d{2,4})?", norm)
        or (_month(norm) and len(words) <= 5 and any(re.fullmatch(r"\d{1,2}\.?(st|nd|rd|th)?", w) for w in words))
    ):
        return "date"
    if " " not in norm and re.search(r"\d", norm) and (re.search(r"[a-z]", norm) or re.fullmatch(r"\d{5,}", norm)):
        return "code"
    if re.match(r"^\d", norm):
        return "count"
    return "name"


def _month(norm: str) -> bool:
    """Whether a normalised spelling holds a month's name (English or German, :data:`dates.MONTH_NAMES`)."""
    from .dates import MONTH_NAMES

    return any(w.strip(".") in MONTH_NAMES for w in norm.split())


def _answer_checks(task: Task) -> list[tuple[str, Check]]:
    return [(i.id, i.check) for i in task.rubric if i.check.type.startswith("answer_")]


def _values(check: Check) -> list:
    """The values a check accepts, as candidates of other tasks see them: its cents or number, its first spelling,
    or each item's first spelling."""
    if check.type == "answer_amount":
        return [abs(check.cents)]
    if check.type == "answer_number":
        return [check.value]
    if check.type == "answer_text":
        return check.any_of[:1]
    return [item[0] for item in check.items]


def _spellings(check: Check) -> list[str]:
    if check.type == "answer_text":
        return list(check.any_of)
    if check.type == "answer_list":
        return [s for item in check.items for s in item]
    return []


def _pool(tasks: Iterable[Task], keep: Iterable[str] = ()) -> dict[str, list[tuple[Task, str, object]]]:
    """Kind -> ``[(task, item id, value), ...]`` over every answer check of ``tasks``, in task order, each value once
    per task. Kinds: ``amount``, ``number`` and the text kinds of :func:`kind_of`. A text value that is a plain
    lower-case word or phrase ("done", "morning"), or one of ``keep`` (the persona's name, the apps' names), is no
    candidate: a right answer may well hold it."""
    kept = {normalise(k) for k in keep}
    pool: dict[str, list[tuple[Task, str, object]]] = {}
    for t in tasks:
        seen = set()
        for item_id, c in _answer_checks(t):
            for v in _values(c):
                if c.type in ("answer_amount", "answer_number"):
                    kind = c.type.removeprefix("answer_")
                else:
                    kind = kind_of(v)
                    if normalise(v) in kept or (kind == "name" and v == v.lower()):
                        continue
                if (kind, v) not in seen:
                    seen.add((kind, v))
                    pool.setdefault(kind, []).append((t, item_id, v))
    return pool


def _app(task_id: str) -> str:
    return task_id.split("/")[1]


def _own(task: Task) -> tuple[set[int], list[str]]:
    """The numbers ``task`` itself expects (its amounts, counts and the numbers inside its text answers) and the
    spellings of its text answers, plus the texts its own end-state checks name (the booking it acts on: "Trip
    DAFLUK is cancelled, no refund" is a right answer to cancelling trip DAFLUK, never another candidate)."""
    nums: set[int] = set()
    texts: list[str] = []
    for _, c in _answer_checks(task):
        if c.type == "answer_amount":
            nums.add(abs(c.cents))
        elif c.type == "answer_number":
            nums.add(c.value)
        texts += _spellings(c)
    from .matching import numbers

    for text in texts:  # "Fichtenstraße 30" expects 30 too: never reject it beside the address
        nums |= numbers(text)
    for item in task.rubric:
        c = item.check
        if c is not None and c.type == "sql":
            texts += [
                v for v in (*(c.params or ()), *(x for row in c.expected or () for x in row)) if isinstance(v, str)
            ]
    return nums, texts


def _text_clashes(candidate: str, own: list[str], instruction: str) -> bool:
    """Whether rejecting ``candidate`` could fail a right answer: it is one of the task's own spellings, holds one or
    lies inside one (as whole words), or the instruction states it."""
    if occurrences(instruction, candidate):
        return True
    for s in own:
        if normalise(s) == normalise(candidate) or occurrences(s, candidate) or occurrences(candidate, s):
            return True
    return False


def _near(task: Task, item_id: str):
    """Sort key of a candidate ``(other task, its item id, value)``: the same item of another task first (another
    restaurant for a restaurant), then the same category, then the same app, then the rest, in bundle order."""
    app = _app(task.id)

    def key(x: tuple[Task, str, object]) -> tuple[bool, bool, bool]:
        other, other_item, _ = x
        return (other_item != item_id, other.category != task.category, _app(other.id) != app)

    return key


def rejects(task: Task, item_id: str, check: Check, pool: dict[str, list[tuple[Task, str, object]]]) -> list:
    """The ``reject`` list of ``check`` (the answer check of item ``item_id`` of ``task``): other tasks' values of
    the same kind, nearest first (:func:`_near`; for numbers and amounts then the closest in value), at most
    :data:`MAX_REJECT`, never a value the task itself expects or its instruction states."""
    from .matching import amounts, numbers

    own_nums, own_texts = _own(task)
    if check.type in ("answer_amount", "answer_number"):
        kind = check.type.removeprefix("answer_")
        target = abs(check.cents) if kind == "amount" else check.value
        said = amounts(task.instruction) if kind == "amount" else numbers(task.instruction)
        cands = [x for x in pool.get(kind, []) if x[0].id != task.id and x[2] not in own_nums and x[2] not in said]
        if kind == "number":
            cands += [(task, item_id, target + d) for d in (-1, 1) if target + d >= 0 and target + d not in own_nums]
        near = _near(task, item_id)
        ranked = sorted(cands, key=lambda x: (*near(x), abs(x[2] - target), x[2]))
        out: list = []
        for _, _, v in ranked:
            if v not in out and v != target:
                out.append(v)
        return sorted(out[:MAX_REJECT])
    kinds = {kind_of(v) for v in _values(check)}
    cands = [x for k in sorted(kinds) for x in pool.get(k, []) if x[0].id != task.id]
    cands.sort(key=_near(task, item_id))  # stable: bundle order within each group
    out = []
    for _, _, v in cands:
        if v in out or _text_clashes(v, own_texts, task.instruction) or numbers(v) & own_nums:
            continue
        out.append(v)
        if len(out) == MAX_REJECT:
            break
    return out


def harden(tasks: list[Task], keep: Iterable[str] = ()) -> list[Task]:
    """``tasks`` with every answer check given its ``reject`` list (:func:`rejects`), computed over all of them;
    ``keep``: names a right answer may hold whatever it is asked (the persona's, the apps'), never rejected."""
    pool = _pool(tasks, keep)
    out = []
    for t in tasks:
        if not _answer_checks(t):
            out.append(t)
            continue
        rubric = []
        for item in t.rubric:
            c = item.check
            if c.type.startswith("answer_"):
                found = rejects(t, item.id, c, pool)
                c = Check.model_validate({**c.model_dump(exclude_none=True), "reject": found or None})
                item = item.model_copy(update={"check": c})
            rubric.append(item)
        out.append(t.model_copy(update={"rubric": rubric}))
    return out


# --- adversarial answers -----------------------------------------------------------------------------------------


def _money(cents: int, currency: str) -> str:
    from builder.money import money

    return money(cents, currency)


def _near_times(spelling: str) -> list[str]:
    norm = normalise(spelling)
    if not _TIME.match(norm):
        return []
    h, m = map(int, norm.split(":"))
    out = []
    for dh in (1, -1, 12):
        hh = (h + dh) % 24
        out.append(f"{hh:02d}:{m:02d}")
        out.append(f"{(hh % 12) or 12}:{m:02d} {'PM' if hh >= 12 else 'AM'}")
    return out


def _near_dates(spelling: str) -> list[str]:
    norm = normalise(spelling)
    m = _ISO.match(norm)
    if not m:
        return []
    day = dt.date.fromisoformat(norm[:10])
    return [(day + dt.timedelta(days=d)).isoformat() for d in (-1, 1)] + [
        f"{(day + dt.timedelta(days=d)):%B} {(day + dt.timedelta(days=d)).day}" for d in (-1, 1)
    ]


def adversaries(check: Check, currency: str) -> list[tuple[str, str]]:
    """``(label, answer)`` adversarial answers of one answer check (amounts written in ``currency``): each rejected
    candidate alone, near misses, and every candidate at once with the right value. Every one must fail the check."""
    out: list[tuple[str, str]] = []
    reject = list(check.reject or ())
    if check.type == "answer_amount":
        right = abs(check.cents)
        out += [(f"other amount {_money(v, currency)}", f"It was {_money(v, currency)}.") for v in reject[:10]]
        from builder.money import unit_cents

        # One unit off: a whole unit of the money (a cent of an amount under one unit), never less than the
        # currency's smallest unit (a whole peso, yen), which its formatting would round away.
        unit = max(100 if right >= 100 else 1, unit_cents(currency))
        out += [(f"off by one unit ({d:+d})", f"It was {_money(right + d * unit, currency)}.") for d in (-1, 1)]
        out.append(("no currency", f"It was {right // 100}.{right % 100:02d}."))
        every = ", ".join(_money(v, currency) for v in [*reject, right])
    elif check.type == "answer_number":
        out += [(f"other number {v}", f"{v}.") for v in reject[:10]]
        out += [(f"off by one ({d:+d})", f"{check.value + d}.") for d in (-1, 1) if check.value + d >= 0]
        every = ", ".join(str(v) for v in [*reject, check.value])
    elif check.type == "answer_text":
        right = check.any_of[0]
        out += [(f"other candidate {v!r}", f"{v}.") for v in reject[:10]]
        out += [(f"near time {v}", f"At {v}.") for v in _near_times(right)]
        out += [(f"near day {v}", f"On {v}.") for v in _near_dates(right)]
        words = right.split()
        if len(words) >= 3:
            short = " ".join(words[1:])
            if not any(normalise(short) == normalise(s) for s in check.any_of):
                out.append((f"without its first word {short!r}", f"{short}."))
        every = ", ".join([*map(str, reject), right])
    else:
        items = list(dict.fromkeys(i[0] for i in check.items))
        out += [(f"other candidate {v!r}", f"{v}.") for v in reject[:10]]
        if len(items) > 1:
            out += [(f"missing {items[k]!r}", ", ".join(items[:k] + items[k + 1 :]) + ".") for k in range(len(items))]
        every = ", ".join([*map(str, reject), *items])
    if reject:
        out.append(("every candidate at once", every + "."))
    return out
