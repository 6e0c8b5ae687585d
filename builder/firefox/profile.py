"""A whole Firefox profile directory, and the profiles.ini that makes it the default.

How Firefox 153 picks the profile when started with no arguments
(toolkit/profile/nsToolkitProfileService.cpp, observed with the real
firefox-esr 153.8.0esr under an empty $HOME):

- Profiles root: ``~/.mozilla/firefox`` when that directory exists; otherwise
  Firefox 153 uses the XDG location ``$XDG_CONFIG_HOME/mozilla/firefox``
  (``~/.config/mozilla/firefox``). Writing ``~/.mozilla/firefox`` is enough.
- Dedicated profiles per installation: the default profile is the
  ``Default=`` of the ``[Install<HASH>]`` section (profiles.ini, mirrored in
  installs.ini), HASH = CityHash64 of the install directory
  (hashing.install_hash; "3B6073811A6ABF12" for /usr/lib/firefox-esr).
  With only ``Default=1`` on a [ProfileN] and no Install section, Firefox 153
  does NOT use that profile: it creates a fresh ``xxxxxxxx.default-esr`` and
  records it as the install's default. ``Locked=1`` keeps other installs from
  claiming it. (Setting MOZ_LEGACY_PROFILES=1 in the environment would restore
  the old ``Default=1`` behaviour; the Install section makes that unnecessary.)
- compatibility.ini is not written: a missing one only makes Firefox treat the
  start as a version change (startup caches rebuilt, then it writes the file),
  while one naming a newer version than the guest's triggers the profile
  downgrade refusal.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from .hashing import install_hash
from .models import Bookmark, Cookie, Visit
from .places import write_places
from .prefs import PrefValue, default_prefs, render_user_js
from .stores import write_cookies, write_formhistory

DEBIAN_INSTALL_DIR = "/usr/lib/firefox-esr"


def write_profile(
    dest: Path,
    *,
    toolbar: Sequence[Bookmark],
    visits: Sequence[Visit],
    cookies: Sequence[Cookie],
    homepage: str,
    prefs: Mapping[str, PrefValue] | None = None,
    now_us: int,
    form_history: Iterable[tuple[str, str, int]] = (),
    menu: Sequence[tuple[str, Sequence[Bookmark]]] = (),
) -> None:
    """Write a Firefox 153 profile into ``dest`` (created if needed).

    toolbar: bookmarks on the Bookmarks Toolbar, in display order.
    menu: folders of the Bookmarks Menu: (folder title, bookmarks in display order).
    visits: history; several visits to one URL make one moz_places row.
    cookies: the cookie jar (e.g. each app's session cookie).
    homepage: browser.startup.homepage (and the page shown at start).
    prefs: extra user.js prefs; they override the defaults of prefs.default_prefs.
    now_us: "today" of the persona, PRTime µs; the only clock used.
    form_history: (fieldname, value, used_us) uses for formhistory.sqlite.

    Files: places.sqlite, cookies.sqlite, formhistory.sqlite, user.js,
    times.json. Same arguments give byte-identical files.
    """
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    form_history = list(form_history)
    # The profile "came to be" at its oldest fact (and never after now).
    created_us = min(
        [now_us]
        + [b.added_us for b in toolbar]
        + [b.added_us for _, marks in menu for b in marks]
        + [v.visit_us for v in visits]
        + [c.created_us for c in cookies]
        + [used for _, _, used in form_history]
    )
    write_places(
        dest / "places.sqlite", toolbar=toolbar, visits=visits, now_us=now_us, created_us=created_us, menu=menu
    )
    write_cookies(dest / "cookies.sqlite", cookies)
    write_formhistory(dest / "formhistory.sqlite", form_history)

    all_prefs = default_prefs(homepage, now_us=now_us)
    all_prefs.update(prefs or {})
    (dest / "user.js").write_text(render_user_js(all_prefs), encoding="utf-8")

    # toolkit/modules/ProfileAge.sys.mjs: milliseconds; with "created" present
    # Firefox does not rescan the directory, with "firstUse" present it keeps it.
    created_ms = created_us // 1000
    (dest / "times.json").write_text(
        json.dumps({"created": created_ms, "firstUse": created_ms}, separators=(",", ":")),
        encoding="utf-8",
    )


def _ini(sections: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> str:
    out = []
    for name, items in sections:
        out.append(f"[{name}]")
        out.extend(f"{k}={v}" for k, v in items)
        out.append("")
    return "\n".join(out) + "\n"


def write_profiles_ini(
    mozilla_dir: Path,
    profile_name: str = "persona.default",
    *,
    install_dirs: Sequence[str] = (DEBIAN_INSTALL_DIR,),
) -> None:
    """Make ``<mozilla_dir>/<profile_name>`` the profile Firefox opens by default.

    mozilla_dir: the profiles root, ``<home>/.mozilla/firefox`` (a path ending in
      ``.mozilla`` gets ``firefox`` appended). Writes profiles.ini and
      installs.ini there; the profile directory itself is write_profile's.
    install_dirs: Firefox installations to bind (their [Install<hash>] sections).
    """
    root = Path(mozilla_dir)
    if root.name == ".mozilla":
        root = root / "firefox"
    root.mkdir(parents=True, exist_ok=True)
    hashes = sorted({install_hash(d) for d in install_dirs})
    install_items = (("Default", profile_name), ("Locked", "1"))
    profiles = _ini(
        [
            ("Profile0", (("Name", profile_name), ("IsRelative", "1"), ("Path", profile_name), ("Default", "1"))),
            ("General", (("StartWithLastProfile", "1"), ("Version", "2"))),
        ]
        + [(f"Install{h}", install_items) for h in hashes]
    )
    (root / "profiles.ini").write_text(profiles, encoding="utf-8")
    (root / "installs.ini").write_text(_ini([(h, install_items) for h in hashes]), encoding="utf-8")
