"""Reference solutions ("oracles") of action tasks, performed through the apps' own HTTP routes.

Every app that ships action tasks has ``apps/<app>/oracle.py`` with a ``SOLVERS`` dict, and every cross-app
scenario (``scenarios/``) its ``solvers`` beside its tasks: task slug (the last part of the task id) ->
``solve(task, web) -> str``, which does what the task asks the way a
person's browser would (the forms and API routes the app's pages call, with the persona's session
cookie of each app) and returns the final answer the person would give ("" when the task asks for
none). A task belongs to the app named in its id (``<persona>/<app>/<slug>``); a scenario homed there solves it,
else that app's ``oracle.py``. A solver may act in any app the task involves and may write files under
``web.home``.

Oracles may *look things up* read-only (:meth:`Web.query`: what a page shows, such as the id behind
a button), but every change goes through HTTP. The oracle run (``tests/tasks/test_oracles.py``) performs
each action task from a fresh copy of the seeded databases against the production build of the apps
and requires the task's machine checks to score in full, and zero before the oracle ran.
"""

from __future__ import annotations

import importlib
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import requests

from . import collect
from .model import Task


class NoOracle(LookupError):
    """An action task without a reference solution (the message names the file to add it to)."""


class OracleError(AssertionError):
    """An app refused or failed a step of a reference solution (the message says which request)."""


@dataclass
class Web:
    """A browser's view of the served apps: HTTP to ``127.0.0.1:port`` with each app's ``Host`` and cookie.

    ``domains``: app name -> host name; ``cookies``: app name -> ``{cookie name: value}`` (the
    persona's signed-in sessions); ``databases``: app name -> the served SQLite file (read-only
    lookups only); ``home``: the persona's home folder, for tasks that write files; ``currency``: the persona's home
    currency (ISO 4217), in which final answers state money.
    Redirects are never followed: a form post's answer is its status and ``Location``.
    """

    port: int
    domains: dict[str, str]
    cookies: dict[str, dict[str, str]]
    databases: dict[str, Path] = field(default_factory=dict)
    home: Path | None = None
    currency: str = "USD"
    timeout: float = 60.0
    session: requests.Session = field(default_factory=requests.Session, repr=False)

    def money(self, cents: int) -> str:
        """``cents`` written as the persona writes money in a final answer: with the home currency's sign
        (:func:`builder.money.money`: ``$1,234.56``, ``€12.00``, ``¥1,850``)."""
        from builder.money import money

        return money(cents, self.currency)

    def _url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _headers(self, app: str, extra: dict | None = None) -> dict:
        if app not in self.domains:
            raise OracleError(f"no app {app!r} is served (served: {', '.join(sorted(self.domains))})")
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.get(app, {}).items())
        return {"Host": self.domains[app], **({"Cookie": cookie} if cookie else {}), **(extra or {})}

    def get(self, app: str, path: str, params: dict | list | None = None) -> requests.Response:
        """``GET path`` on ``app`` (query ``params``); the response, redirects not followed."""
        return self.session.get(
            self._url(path), params=params, headers=self._headers(app), allow_redirects=False, timeout=self.timeout
        )

    def post_form(
        self,
        app: str,
        path: str,
        fields: list[tuple[str, str]] | dict,
        expect: tuple[int, ...] = (200, 201, 204, 302, 303),
        files: dict[str, tuple[str, bytes]] | None = None,
    ) -> tuple[int, str]:
        """A form post as a browser sends it: ``(status, Location or "")``; urlencoded, or multipart/form-data with
        ``files`` (field name -> ``(file name, bytes)``, an ``<input type=file>``'s upload).

        Raises :class:`OracleError` when the status is not in ``expect``.
        """
        r = self.session.post(
            self._url(path),
            data=fields,
            files=files,
            headers=self._headers(app),
            allow_redirects=False,
            timeout=self.timeout,
        )
        if r.status_code not in expect:
            raise OracleError(f"POST {self.domains[app]}{path} -> {r.status_code}: {r.text[:500]}")
        return r.status_code, r.headers.get("Location", "")

    def post_json(
        self, app: str, path: str, body: object, method: str = "POST", expect: tuple[int, ...] = (200, 201, 204)
    ) -> requests.Response:
        """A JSON request (``fetch`` from a page's script). Raises :class:`OracleError` on an unexpected status."""
        r = self.session.request(
            method,
            self._url(path),
            json=body,
            allow_redirects=False,
            timeout=self.timeout,
            headers=self._headers(app, {"Content-Type": "application/json"}),
        )
        if r.status_code not in expect:
            raise OracleError(f"{method} {self.domains[app]}{path} -> {r.status_code}: {r.text[:500]}")
        return r

    def query(self, app: str, sql: str, params: tuple | list = ()) -> list[tuple]:
        """Rows of a read-only query on ``app``'s served database (a lookup, never a change)."""
        path = self.databases.get(app)
        if path is None:
            raise OracleError(f"no database for app {app!r}")
        con = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            return con.execute(sql, list(params)).fetchall()
        finally:
            con.close()

    def one(self, app: str, sql: str, params: tuple | list = ()):
        """The single value of a one-row, one-column read-only query. Raises :class:`OracleError` otherwise."""
        rows = self.query(app, sql, params)
        if len(rows) != 1 or len(rows[0]) != 1:
            raise OracleError(f"{app}: expected one value from {sql!r} {list(params)!r}, got {rows[:3]!r}")
        return rows[0][0]


Solver = Callable[[Task, Web], str]


def task_app(task: Task) -> str:
    """The app a task belongs to: the middle part of ``<persona>/<app>/<slug>``."""
    return task.id.split("/")[-2]


def solver(task: Task) -> Solver:
    """The reference solution of ``task``. Raises :class:`NoOracle` when its app has none for it."""
    app, slug = task_app(task), task.id.rsplit("/", 1)[-1]
    scenario = collect.solvers(app).get(slug)
    if scenario is not None:
        return scenario
    try:
        module = importlib.import_module(f"apps.{app}.oracle")
    except ModuleNotFoundError as e:
        if e.name != f"apps.{app}.oracle":
            raise
        raise NoOracle(f"{task.id}: no scenario solves it and apps/{app}/oracle.py does not exist") from None
    solvers: dict[str, Solver] = getattr(module, "SOLVERS", {})
    if slug not in solvers:
        raise NoOracle(f"{task.id}: no solver {slug!r} in apps/{app}/oracle.py SOLVERS")
    return solvers[slug]


def solve(task: Task, web: Web) -> str:
    """Perform ``task`` through ``web`` with its reference solution; return the final answer."""
    return solver(task)(task, web)
