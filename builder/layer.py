"""The persona layer: the directory tree copied onto the guest's ``/`` when the image is baked.

Layout (``<user>`` is the persona's username)::

    etc/persona-desktop/guest.json             user, clock, apps: read by the in-guest installer
    etc/firefox/policies/policies.json         enterprise policies (no first run, no telemetry)
    home/<user>/.mozilla/firefox/...           the Firefox profile, signed in to every app
    home/<user>/...                            files apps contribute (seed.home_files: the bank's statements)
    home/<user>/Documents/{Work,Personal}/...  the persona's own documents (builder.files.work_docs)
    home/<user>/.config, .local/share          bookmarks, recent files (builder.files.desktop)
    var/lib/persona-desktop/apps/<app>/<db>    each app's seeded SQLite database

What an app contributes comes through its ``seed`` module's hooks, so this module names no app:
``seed(world, path)`` and ``credentials(world)`` (required: the database and the session cookie),
and optionally ``home_files(world, home)``, ``bookmarks(world)`` (dicts ``title``, ``url``,
``folder``: ``toolbar`` or ``menu/<folder>``) and ``visits(world)`` (dicts ``url``, ``title``,
``at``: naive local datetime, ``transition``: ``link``/``typed``/``bookmark``).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from zoneinfo import ZoneInfo

from . import firefox
from .files import desktop, work_docs
from .dates import add_months
from .apps import App
from .rng import token
from .world import World

PROFILE_NAME = "persona.default"


def utc(world: World, local: dt.datetime) -> dt.datetime:
    """Convert a naive local world time to an aware UTC datetime (persona's IANA time zone)."""
    return local.replace(tzinfo=ZoneInfo(world.persona.timezone)).astimezone(dt.timezone.utc)


def prtime(world: World, local: dt.datetime) -> int:
    """A naive local world time as Mozilla PRTime: microseconds since the Unix epoch, UTC."""
    return int(utc(world, local).timestamp()) * 1_000_000 + local.microsecond


_TRANSITION = {"link": 1, "typed": 2, "bookmark": 3}


def guest_settings(world: World, apps: list[App], homepage: str) -> dict:
    """The contents of ``guest.json``: what the in-guest installer needs to set up the user and clock, and each app's
    host, database and session cookie (name and token, as in Firefox's cookies.sqlite)."""
    p = world.persona
    return {
        "username": p.identity.username,
        "full_name": p.identity.name,
        "password": f"{p.identity.username}-{token(world.seed, 'guest/password', length=8)}",
        "uid": 1000,
        "timezone": p.timezone,
        "locale": p.bank + ".UTF-8",
        "as_of": world.now.isoformat(),
        "as_of_utc": utc(world, world.now).strftime("%Y-%m-%dT%H:%M:%S"),
        "hostname": f"{p.identity.username}-desktop",
        "homepage": homepage,
        # The session cookie lets persona-warm.service load each app's signed-in start page at boot.
        "apps": [
            {
                "name": a.name,
                "domain": a.domain,
                "database": a.database,
                "session_cookie": a.session_cookie,
                "session_token": a.module("seed").credentials(world)["session_token"],
            }
            for a in apps
        ],
    }


def build_layer(world: World, apps: list[App], dest: Path) -> list[Path]:
    """Write the persona layer for ``world`` into the empty or missing directory ``dest``: :func:`write_system`, then
    :func:`write_home`.

    Returns every file written, sorted. Raises ``FileExistsError`` if ``dest`` is not empty.
    """
    if dest.exists() and any(dest.iterdir()):
        raise FileExistsError(f"{dest} is not empty")
    write_system(world, apps, dest)
    write_home(world, apps, dest)
    return sorted(p for p in dest.rglob("*") if p.is_file())


def _homepage(apps: list[App]) -> str:
    """Firefox's start page: the app that provides "start-page" (the bank), else the first app."""
    start = next((a for a in apps if "start-page" in a.provides), apps[0] if apps else None)
    return start.url if start else "about:blank"


def write_system(world: World, apps: list[App], dest: Path) -> None:
    """The layer's part outside the home folder: each app's seeded database (``var/lib/persona-desktop/apps``),
    Firefox's enterprise policies and ``guest.json`` (``etc``). Needs nothing of :func:`write_home`."""
    for app in apps:
        db = dest / app.guest_database.lstrip("/")
        db.parent.mkdir(parents=True, exist_ok=True)
        app.module("seed").seed(world, db)
    homepage = _homepage(apps)
    policies = dest / "etc" / "firefox" / "policies" / "policies.json"
    policies.parent.mkdir(parents=True, exist_ok=True)
    policies.write_text(json.dumps(firefox.policies_json(homepage), indent=2, sort_keys=True) + "\n")
    guest = dest / "etc" / "persona-desktop" / "guest.json"
    guest.parent.mkdir(parents=True, exist_ok=True)
    guest.write_text(json.dumps(guest_settings(world, apps, homepage), indent=2) + "\n")


def form_history(world: World, apps: list[App]) -> list[tuple[str, str, int]]:
    """What the persona typed into forms, as Firefox's form history keeps it: ``(fieldname, value, used_us)``
    uses (PRTime µs), at or before ``world.now``, sorted.

    Every search typed into the address bar (a ``web_visit`` with ``search_query``) under ``searchbar-history``,
    the field name Firefox files address-bar and search-bar terms under (``DEFAULT_FORM_HISTORY_PARAM`` of
    toolkit/components/search/SearchSuggestionController.sys.mjs); then each app's own fields from its seed's
    optional ``form_history(world)`` hook (``[{"field", "value", "at"}]``, ``field`` the input's ``name``, which is
    what Firefox matches when it offers an entry). Values are stored verbatim."""
    uses = [
        ("searchbar-history", e.data["search_query"], e.at)
        for e in world.of_kind("web_visit")
        if e.status == "done" and e.data.get("search_query")
    ]
    for app in apps:
        hook = getattr(app.module("seed"), "form_history", None)
        if hook is not None:
            uses += [(x["field"], x["value"], x["at"]) for x in hook(world)]
    return [
        (field, value, prtime(world, at))
        for field, value, at in sorted(uses, key=lambda u: (u[2], u[0], u[1]))
        if at <= world.now and value.strip()
    ]


def write_home(world: World, apps: list[App], dest: Path) -> None:
    """The persona's home folder (``home/<user>``): the Firefox profile (signed in to every app by its session
    cookie, with bookmarks and history), the apps' home files, the persona's documents, then what makes them
    findable (file-manager places, recent files). Needs nothing of :func:`write_system`."""
    home = dest / "home" / world.persona.identity.username
    cookies = [
        firefox.Cookie(
            host=app.domain,
            name=app.session_cookie,
            value=app.module("seed").credentials(world)["session_token"],
            expiry_s=int(utc(world, add_months(world.now, 12)).timestamp()),
            created_us=prtime(world, world.now - dt.timedelta(days=1)),
        )
        for app in apps
    ]
    marks = [(e.at, e.data) for e in world.of_kind("bookmark")]
    visit_rows = [(e.at, e.data) for e in world.of_kind("web_visit") if e.status == "done"]
    for app in apps:
        seed = app.module("seed")
        if hasattr(seed, "bookmarks"):
            marks += [(world.start + dt.timedelta(hours=19, minutes=59), b) for b in seed.bookmarks(world)]
        if hasattr(seed, "visits"):
            visit_rows += [(v["at"], v) for v in seed.visits(world) if v["at"] <= world.now]
    toolbar, menu = [], {}
    seen = set()
    for at, b in marks:
        if (b["folder"], b["url"]) in seen:
            continue
        seen.add((b["folder"], b["url"]))
        mark = firefox.Bookmark(title=b["title"], url=b["url"], added_us=prtime(world, at))
        if b["folder"] == "toolbar":
            toolbar.append(mark)
        else:
            menu.setdefault(b["folder"].removeprefix("menu/"), []).append(mark)
    visit_rows.sort(key=lambda v: (v[0], v[1]["url"]))
    visits = [
        firefox.Visit(
            url=v["url"], title=v["title"], visit_us=prtime(world, at), transition=_TRANSITION[v["transition"]]
        )
        for at, v in visit_rows
    ]
    mozilla = home / ".mozilla" / "firefox"
    firefox.write_profile(
        mozilla / PROFILE_NAME,
        toolbar=toolbar,
        menu=list(menu.items()),
        visits=visits,
        cookies=cookies,
        homepage=_homepage(apps),
        now_us=prtime(world, world.now),
        form_history=form_history(world, apps),
    )
    firefox.write_profiles_ini(mozilla, PROFILE_NAME)

    for app in apps:
        # An app's own files in the home folder (the bank's statements): its seed's optional hook.
        home_files = getattr(app.module("seed"), "home_files", None)
        if home_files is not None:
            home_files(world, home)
    # The persona's own documents (expense reports, budget), then what makes every home file findable:
    # file-manager places, recent files, LibreOffice's recent documents (after all files are in place).
    work_docs.work_docs(world, home)
    desktop.write_desktop(world, home)
