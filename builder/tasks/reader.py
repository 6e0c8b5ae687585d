"""The independent reader: every answer task's answer derived again from what the persona can see.

A task's ``expected`` values come from the world the builder simulated. A reader derives them a second time from
the desktop alone, as a careful person would: the apps' own pages and the API routes their pages call, signed in
with the persona's cookies, the files in the home folder and the mailbox (:class:`See`). It never reads the world,
the seed, an app's database or the task's answers; of the task it gets only the instruction and the ``given``
values its registration names (what the person states in the question: a restaurant, a day), which the audit
checks are written in the instruction.

Every app with answer tasks has ``apps/<app>/reader.py`` with ``READERS`` (task slug -> :class:`Reader`; a key
ending in ``*`` reads every slug it begins, for slugs that carry a date), and a
cross-app scenario its ``readers`` beside its ``solvers`` (:class:`builder.tasks.collect.Scenario`). A task
belongs to the app its id names; a scenario homed there reads it, else the app's ``reader.py``.

A reader returns a :class:`Reading`: one value per answer item of the rubric (cents for ``answer_amount``, an
int for ``answer_number``, a string for ``answer_text``, a list of strings for ``answer_list``), the steps that
led there in words, and for a most/least/first/latest question the ``margin`` by which the answer wins (a tie is
margin 0: the task is ambiguous). :func:`compare` says where a reading and the task disagree.
"""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import importlib
import json as jsonlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from . import collect
from .model import Task


class NoReader(LookupError):
    """An answer task without a reader (the message names the file to add it to)."""


class Unreadable(AssertionError):
    """The desktop does not show what the task asks: a defect of the task or of the world (the message says what
    was missing where)."""


@dataclass
class Reading:
    """What a reader found: ``values`` (rubric item id -> value), ``steps`` (how, in words, in order) and, for a
    question with a single winner (most, least, first, latest, usual), ``margin``: the winner's lead over the
    runner-up in the question's own unit (visits, days, cents); 0 is a tie."""

    values: dict[str, Any] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)
    margin: float | None = None


@dataclass(frozen=True)
class Reader:
    """How one task slug is read: ``read(see, given) -> Reading``. ``given`` names the keys of the task's
    ``expected`` that the instruction states (the question's own terms, not its answer); only those reach
    ``read``. ``unique``: the question asks for a single winner, so the reading must carry a ``margin`` above 0.
    ``after_action``: it reads an action task's end state (see :func:`reader`)."""

    read: Callable[[See, dict], Reading]
    given: tuple[str, ...] = ()
    unique: bool = False
    after_action: bool = False


def reader(
    *given: str, unique: bool = False, after_action: bool = False
) -> Callable[[Callable[[See, dict], Reading]], Reader]:
    """Decorator: ``@reader("restaurant", "day")`` makes a :class:`Reader` of a function ``(see, given)``.
    ``after_action``: the answer of an action task that only its end state shows (a refund once the forms are
    imported): the oracle run reads it after the reference solution acted, the audit of a seeded desktop does not."""

    def wrap(fn: Callable[[See, dict], Reading]) -> Reader:
        return Reader(read=fn, given=tuple(given), unique=unique, after_action=after_action)

    return wrap


# --- what the persona sees ------------------------------------------------------------------------


_SPACE = re.compile(r"\s+")


def visible_text(node) -> str:
    """The text a person reads in an lxml element: scripts and styles left out, white space folded to one space."""
    parts = node.xpath(".//text()[not(ancestor::script) and not(ancestor::style) and not(ancestor::template)]")
    return _SPACE.sub(" ", " ".join(parts)).strip()


def parse_money(text: str) -> int:
    """The first amount of money in ``text`` as integer cents (hundredths of the major unit, as everywhere in the
    project), written as any locale writes it: ``$1,234.56``, ``-$5.00``, ``1.234,56 €``, ``£12``, ``¥1,850``
    (whole yen: 185000), ``CHF 1'234.50``. A last separator followed by one or two digits is the decimal point
    (:func:`builder.tasks.matching.number_cents`); a minus sign before the number (and its currency) makes it
    negative. Raises :class:`Unreadable` when ``text`` holds no
    number."""
    from .matching import NUMBER_AT, number_cents

    text = text.replace("\u2009", " ")
    m = NUMBER_AT.search(text)
    if m is None:
        raise Unreadable(f"no amount of money in {text!r}")
    # The minus before the number, with at most a currency written between (-$5.00, -F CFA 7,750, -CHF 12).
    negative = re.search(r"[-\u2212]\s*(?:[^\d\s-]{1,4}\s*){0,2}$", text[: m.start()]) is not None
    cents = number_cents(m.group(1))
    return -cents if negative else cents


@dataclass
class See:
    """The persona's view of the desktop: the served apps over HTTP (each app's ``Host`` and the persona's session
    cookie), the home folder, and the clock (``now``: the desktop's local time, the world's now).

    ``port``: the site's loopback port; ``domains``: app -> host name; ``cookies``: app -> ``{name: value}``;
    ``home``: the persona's home folder (``None``: no files to read). Pages are fetched once and kept (an answer task
    changes nothing). Redirects are not followed: a page that redirects (to sign-in, say) is :class:`Unreadable`.
    Every page, file and mailbox read is noted in :attr:`trail`.
    """

    port: int
    domains: Mapping[str, str]
    cookies: Mapping[str, Mapping[str, str]]
    now: dt.datetime
    home: Path | None = None
    timeout: float = 60.0
    session: requests.Session = field(default_factory=requests.Session, repr=False)
    trail: list[str] = field(default_factory=list)
    _pages: dict[tuple, Any] = field(default_factory=dict, repr=False)

    def _get(self, app: str, path: str, params: Mapping[str, str] | None) -> requests.Response:
        if app not in self.domains:
            raise Unreadable(f"no app {app!r} on this desktop")
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.get(app, {}).items())
        headers = {"Host": self.domains[app], **({"Cookie": cookie} if cookie else {})}
        r = self.session.get(
            f"http://127.0.0.1:{self.port}{path}",
            params=dict(params or {}),
            headers=headers,
            allow_redirects=False,
            timeout=self.timeout,
        )
        where = f"{self.domains[app]}{path}" + (f"?{requests.compat.urlencode(dict(params))}" if params else "")
        self.trail.append(f"GET {where} -> {r.status_code}")
        if r.status_code != 200:
            raise Unreadable(f"GET {where} answered {r.status_code}")
        return r

    def page(self, app: str, path: str, params: Mapping[str, str] | None = None):
        """The page at ``path`` of ``app`` as an lxml HTML element (the whole document). Raises :class:`Unreadable`
        when the page does not answer 200."""
        import lxml.html

        key = ("page", app, path, tuple(sorted((params or {}).items())))
        if key not in self._pages:
            self._pages[key] = lxml.html.fromstring(self._get(app, path, params).content)
        else:
            self.trail.append(f"GET {self.domains[app]}{path} (read before)")
        return self._pages[key]

    def text(self, app: str, path: str, params: Mapping[str, str] | None = None) -> str:
        """The visible text of a page (:func:`visible_text`)."""
        return visible_text(self.page(app, path, params))

    def json(self, app: str, path: str, params: Mapping[str, str] | None = None) -> Any:
        """The JSON an API route the app's pages call answers."""
        key = ("json", app, path, tuple(sorted((params or {}).items())))
        if key not in self._pages:
            self._pages[key] = jsonlib.loads(self._get(app, path, params).content)
        else:
            self.trail.append(f"GET {self.domains[app]}{path} (read before)")
        return self._pages[key]

    def files(self, pattern: str) -> list[Path]:
        """Files of the home folder matching ``pattern`` (a glob relative to ``~``), by name."""
        if self.home is None:
            raise Unreadable("no home folder on this desktop")
        found = sorted(p for p in self.home.glob(pattern) if p.is_file())
        self.trail.append(f"ls ~/{pattern}: {len(found)} file(s)")
        return found

    def mailbox(self) -> list[email.message.EmailMessage]:
        """Every message of the home's Maildir (``~/Mail``, Maildir++: the inbox and its subfolders), by file name."""
        if self.home is None:
            raise Unreadable("no home folder on this desktop")
        key = ("mailbox",)
        if key not in self._pages:
            root = self.home / "Mail"
            paths = sorted(p for p in root.rglob("*") if p.is_file() and p.parent.name in ("cur", "new"))
            self._pages[key] = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in paths]
            self.trail.append(f"read ~/Mail: {len(paths)} message(s)")
        return self._pages[key]


# --- finding and running readers -----------------------------------------------------------------


def task_slug(task: Task) -> tuple[str, str]:
    """``(app, slug)`` of a task id ``<persona>/<app>/<slug>``."""
    _, app, slug = task.id.split("/", 2)
    return app, slug


def readers_of(app: str) -> dict[str, Reader]:
    """Every reader of tasks whose ids name ``app``: the scenarios homed there, then ``apps/<app>/reader.py``."""
    out: dict[str, Reader] = {}
    try:
        module = importlib.import_module(f"apps.{app}.reader")
    except ModuleNotFoundError as e:
        if e.name != f"apps.{app}.reader":
            raise
    else:
        out.update(getattr(module, "READERS", {}))
    out.update(collect.readers(app))
    return out


def find(task: Task) -> Reader:
    """The reader of ``task``. Raises :class:`NoReader` when none is registered."""
    app, slug = task_slug(task)
    known = readers_of(app)
    found = known.get(slug)
    if found is None:  # a slug that carries its own date ("x-tips-2026") is read by its pattern ("x-tips-*")
        found = next((r for key, r in known.items() if key.endswith("*") and slug.startswith(key[:-1])), None)
    if found is None:
        raise NoReader(f"{task.id}: no reader {slug!r} in apps/{app}/reader.py READERS or a scenario homed in {app}")
    return found


ANSWER_CHECKS = ("answer_amount", "answer_number", "answer_text", "answer_list")


def answer_items(task: Task) -> list:
    """The rubric items of ``task`` a reader must give a value for: its machine-judged answer checks."""
    return [i for i in task.rubric if i.check.type in ANSWER_CHECKS]


def givens(task: Task, found: Reader) -> dict:
    """The values of ``task.expected`` that ``found`` may see (its ``given`` keys). Raises :class:`NoReader` when
    the task lacks one."""
    missing = [k for k in found.given if k not in task.expected]
    if missing:
        raise NoReader(f"{task.id}: its expected values lack the given {missing}")
    return {k: task.expected[k] for k in found.given}


def read(task: Task, see: See) -> Reading:
    """Read ``task`` on ``see`` with its reader. Raises :class:`NoReader` or :class:`Unreadable`."""
    found = find(task)
    see.trail.clear()
    reading = found.read(see, givens(task, found))
    return reading


def compare(task: Task, reading: Reading, found: Reader | None = None) -> list[str]:
    """Where ``reading`` and ``task`` disagree, one line each (empty: the reader confirms every answer item).

    A value agrees when it is the check's own: the same cents or number; for text, an answer of that value alone
    meets the check (:func:`builder.tasks.grade.run_check`); for a list, the same number of items, each meeting
    one of the check's items (in order when ordered). A ``unique`` reader's reading needs a margin above 0."""
    from .grade import run_check

    problems = []
    for item in answer_items(task):
        c = item.check
        if item.id not in reading.values:
            problems.append(f"{item.id}: the reader gave no value")
            continue
        got = reading.values[item.id]
        if c.type == "answer_amount":
            ok = isinstance(got, int) and abs(got) == abs(c.cents)
            want = c.cents
        elif c.type == "answer_number":
            ok = isinstance(got, int) and got == c.value
            want = c.value
        elif c.type == "answer_text":
            ok = isinstance(got, str) and run_check(c, {}, got)[0]
            want = c.any_of[0]
        else:
            got = list(got) if isinstance(got, (list, tuple)) else [got]
            ok = len(got) == len(c.items) and run_check(c, {}, "\n".join(map(str, got)))[0]
            want = [s[0] for s in c.items]
        if not ok:
            problems.append(f"{item.id}: the reader found {got!r}, the task expects {want!r}")
    unique = found.unique if found is not None else False
    if unique and not (reading.margin is not None and reading.margin > 0):
        problems.append(f"the answer is not unique (margin {reading.margin!r})")
    return problems
