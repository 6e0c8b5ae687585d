"""builder/firefox against the real Firefox 153 ESR (firefox-esr from apt).

Golden values below were produced by the real firefox-esr 153.8.0esr
(BuildID 20261117185949) on Debian 12, not by our code:

- URL_HASH_GOLDEN: moz_places.url_hash read back from places.sqlite files that
  Firefox wrote: ``firefox-esr --headless --profile <empty> --screenshot x.png
  file:///etc/hostname`` (the visited file URL plus the default bookmarks of
  the fresh profile), a Marionette navigation to a local http.server page
  (http://127.0.0.1:42403/page), and ``PlacesUtils.history.hashURL(url)``
  evaluated in Firefox's chrome context for the larkspurbank URLs.
- INSTALL_HASH_GOLDEN: the ``[Install<hash>]`` section Firefox added to
  profiles.ini when started under an empty $HOME from each directory
  (/usr/lib/firefox-esr, and `cp -al` copies of it at the other paths, chosen
  to hit each CityHash64 length branch).
- FRECENCY_GOLDEN: moz_places.frecency Firefox stored for a page with a single
  TRANSITION_LINK visit at that time.

The Firefox tests run the browser headless with HOME in a temp dir, drive it
over Marionette (a small client below, stdlib only), and inspect the files after
a graceful quit. They take ~20 s.
"""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

from builder.firefox import (
    COOKIES_SCHEMA_VERSION,
    FORMHISTORY_SCHEMA_VERSION,
    PLACES_SCHEMA_VERSION,
    Bookmark,
    Cookie,
    Visit,
    default_prefs,
    frecency,
    install_hash,
    policies_json,
    url_hash,
    write_profile,
    write_profiles_ini,
)
from builder.firefox.places import normalize_url

REPO = Path(__file__).resolve().parents[2]
FIREFOX = shutil.which("firefox-esr")
FIREFOX_DIR = Path("/usr/lib/firefox-esr")
needs_firefox = pytest.mark.skipif(FIREFOX is None, reason="firefox-esr not installed")

URL_HASH_GOLDEN = {
    "file:///etc/hostname": 219669553617004,
    "https://support.mozilla.org/products/firefox": 47358327123126,
    "https://support.mozilla.org/kb/customize-firefox-controls-buttons-and-toolbars"
    "?utm_source=firefox-browser&utm_medium=default-bookmarks&utm_campaign=customize": 47359956450016,
    "https://www.mozilla.org/contribute/": 47357364218428,
    "https://www.mozilla.org/about/": 47357608426557,
    "http://127.0.0.1:42403/page": 125508331459287,
    "http://larkspurbank.test/": 125508488135555,
    "https://larkspurbank.test/accounts?x=1": 47360293903098,
}
INSTALL_HASH_GOLDEN = {
    "/usr/lib/firefox-esr": "3B6073811A6ABF12",  # 40 bytes of UTF-16
    "/tmp/fx": "46D16A9BC6BAA8A2",  # 14 bytes
    "/tmp/ffx-abcdefgh": "C2AB7A5DFB6340C0",  # 32 bytes
    "/tmp/an-unusually-long-firefox-install-directory-for-cityhash-tests": "3525CDB75FB02F65",
}
FRECENCY_GOLDEN = {1795962772318734: 20955, 1795963006637489: 20955}

# Prefs Firefox 153 reads without declaring a default (checked in its sources:
# TelemetryUtils.sys.mjs, BrowserContentHandler.sys.mjs).
PREFS_WITHOUT_DEFAULT = {
    "toolkit.telemetry.reportingpolicy.firstRun",
    "browser.startup.homepage_override.mstone",
}

DAY_US = 86_400_000_000
HOMEPAGE = "http://larkspurbank.test/"


def persona_inputs(now_us: int):
    """A few toolbar bookmarks, ~50 visits of every kind and age, one bank cookie."""
    pages = [
        ("http://larkspurbank.test/", "Larkspur Bank — Sign in"),
        ("http://larkspurbank.test/accounts", "Accounts · Larkspur Bank"),
        ("http://larkspurbank.test/accounts/checking", "Checking ····4821"),
        ("http://mail.test/inbox", "Inbox (3) — Mail"),
        ("http://calendar.test/", "Calendar"),
        ("https://news.example.org/world/story?id=42&ref=home", "World news"),
        ("http://shop.test:8080/cart", "Cart"),
        ("file:///home/persona/Documents/notes.html", "notes"),
        ("http://Recipes.TEST/pasta", "Pasta — Recipes"),
        ("http://recipes.test/soup#step-2", "Soup"),
    ]
    transitions = [1, 1, 1, 2, 2, 3, 1, 5, 6, 8, 9, 7]
    visits = []
    for i in range(48):
        url, title = pages[(i * 7) % len(pages)]
        age_us = ((i * 37) % 200) * DAY_US + (i * 7919) % DAY_US
        visits.append(Visit(url, title, now_us - age_us, transitions[(i * 5) % len(transitions)]))
    visits += [
        Visit("http://typed.test/", "Typed", now_us - 95 * DAY_US, 2),
        Visit("http://typed.test/", "Typed", now_us - 1 * DAY_US, 2),
        Visit("http://framed.test/ad", "Ad", now_us - 2 * DAY_US, 8),
    ]
    toolbar = [
        Bookmark("Larkspur Bank", "http://larkspurbank.test/", now_us - 400 * DAY_US),
        Bookmark("Mail", "http://mail.test/inbox", now_us - 300 * DAY_US),
        Bookmark("Bills", "http://larkspurbank.test/bills", now_us - 20 * DAY_US),
    ]
    cookies = [
        Cookie(
            host="larkspurbank.test",
            name="lb_session",
            value="s3cr3t-token",
            expiry_s=now_us // 1_000_000 + 365 * 86400,
            created_us=now_us - 3 * DAY_US,
        ),
    ]
    form_history = [
        ("searchbar-history", "pasta recipe", now_us - 5 * DAY_US),
        ("searchbar-history", "pasta recipe", now_us - 4 * DAY_US),
    ]
    return toolbar, visits, cookies, form_history


def menu_inputs(now_us: int):
    """Bookmarks Menu folders (title, bookmarks in display order), like the personas' ones."""
    return [
        (
            "Recipes",
            [
                Bookmark("Soup", "http://recipes.test/soup#step-2", now_us - 90 * DAY_US),
                Bookmark("Pasta", "http://recipes.test/pasta", now_us - 30 * DAY_US),
            ],
        ),
        ("Travel", [Bookmark("Flights", "https://flights.test/search?to=LIS", now_us - 60 * DAY_US)]),
    ]


def build(dest: Path, now_us: int) -> None:
    toolbar, visits, cookies, form_history = persona_inputs(now_us)
    write_profile(
        dest,
        toolbar=toolbar,
        visits=visits,
        cookies=cookies,
        homepage=HOMEPAGE,
        now_us=now_us,
        form_history=form_history,
        menu=menu_inputs(now_us),
    )


# ---------------------------------------------------------------------------
# Pure checks against golden values from the real Firefox


def test_url_hash_matches_firefox():
    for url, expected in URL_HASH_GOLDEN.items():
        assert url_hash(url) == expected, url


def test_install_hash_matches_firefox():
    for path, expected in INSTALL_HASH_GOLDEN.items():
        assert install_hash(path) == expected, path


def test_frecency_matches_firefox():
    for visit_us, expected in FRECENCY_GOLDEN.items():
        assert frecency([Visit("http://x.test/", "", visit_us, 1)]) == expected
    # Bookmarked, never visited: the bookmark's day, high weight 100.
    added = 20_000 * DAY_US
    assert frecency([], bookmarks_added_us=[added]) == 20_000 + 199


def test_url_normalization():
    assert normalize_url("HTTP://Recipes.TEST:80") == "http://recipes.test/"
    assert normalize_url("https://x.test:8443/a?b#c") == "https://x.test:8443/a?b#c"
    with pytest.raises(ValueError):
        normalize_url("about:blank")


def test_write_is_deterministic_across_processes(tmp_path):
    now_us = 1_750_000_000_000_000
    build(tmp_path / "a", now_us)
    code = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]);"
        "from tests.firefox.test_profile import build; build(Path(sys.argv[2]), int(sys.argv[3]))"
    )
    subprocess.run([sys.executable, "-c", code, str(REPO), str(tmp_path / "b"), str(now_us)], check=True, cwd=REPO)

    def digests(d: Path):
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(d.iterdir())}

    a, b = digests(tmp_path / "a"), digests(tmp_path / "b")
    assert set(a) == {"places.sqlite", "cookies.sqlite", "formhistory.sqlite", "user.js", "times.json"}
    assert a == b
    for name in ("places.sqlite", "cookies.sqlite", "formhistory.sqlite"):
        db = sqlite3.connect(tmp_path / "a" / name)
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert db.execute("PRAGMA page_size").fetchone()[0] == 32768
        db.close()


def test_profiles_ini(tmp_path):
    write_profiles_ini(tmp_path / ".mozilla")
    root = tmp_path / ".mozilla" / "firefox"
    ini = (root / "profiles.ini").read_text()
    assert "[Install3B6073811A6ABF12]\nDefault=persona.default\nLocked=1\n" in ini
    assert "Path=persona.default\nDefault=1\n" in ini
    assert (root / "installs.ini").read_text() == ("[3B6073811A6ABF12]\nDefault=persona.default\nLocked=1\n\n")


def _omni_browser() -> zipfile.ZipFile:
    return zipfile.ZipFile(FIREFOX_DIR / "browser" / "omni.ja")


@pytest.mark.skipif(not (FIREFOX_DIR / "browser" / "omni.ja").exists(), reason="no firefox-esr")
def test_policies_fit_firefox_schema():
    with _omni_browser() as z:
        schema = json.loads(z.read("modules/policies/policies-schema.json"))
        impl = z.read("modules/policies/Policies.sys.mjs").decode()
    policies = policies_json(HOMEPAGE)["policies"]
    for name, value in policies.items():
        spec = schema["properties"].get(name)
        assert spec is not None, f"unknown policy {name}"
        assert f"\n  {name}: {{" in impl, f"policy {name} has no implementation (deprecated)"
        if isinstance(value, dict):
            for key in value:
                assert key in spec["properties"], f"{name}.{key}"
    assert policies["Homepage"] == {"URL": HOMEPAGE, "StartPage": "homepage", "Locked": False}


# ---------------------------------------------------------------------------
# Running the real Firefox


class Marionette:
    """Minimal Marionette client: ``len:json`` frames, [0, id, cmd, params] -> [1, id, err, res]."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.buf = b""
        self.msgid = 0
        self._recv()  # server hello

    def _read(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:  # Firefox closed the connection (it died): fail, never spin on an empty socket
            raise ConnectionError("Marionette: Firefox closed the connection")
        return chunk

    def _recv(self):
        while b":" not in self.buf:
            self.buf += self._read()
        size, rest = self.buf.split(b":", 1)
        while len(rest) < int(size):
            rest += self._read()
        self.buf = rest[int(size) :]
        return json.loads(rest[: int(size)])

    def cmd(self, name: str, params: dict | None = None):
        self.msgid += 1
        data = json.dumps([0, self.msgid, name, params or {}]).encode()
        self.sock.sendall(b"%d:%s" % (len(data), data))
        while True:
            msg = self._recv()
            if msg[0] == 1 and msg[1] == self.msgid:
                if msg[2]:
                    raise RuntimeError(msg[2])
                return msg[3]

    def js(self, script: str, *args):
        """Run ``script`` (its returned promise is awaited) in the current context."""
        res = self.cmd("WebDriver:ExecuteScript", {"script": script, "args": list(args)})
        return res.get("value") if isinstance(res, dict) else res


def firefox_env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MOZ_", "XDG_"))}
    env.update(HOME=str(home), MOZ_HEADLESS="1", TZ="UTC")
    return env


class CookieServer:
    """http.server on 127.0.0.1 recording the Cookie header of each request."""

    def __init__(self):
        seen = self.seen = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                seen.append((self.path, self.headers.get("Cookie", "")))
                body = b"<html><head><title>Larkspur test page</title></head><body>ok</body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)  # our own process group only
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


def _rows(db_path: Path, sql: str):
    db = sqlite3.connect(db_path)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


@needs_firefox
def test_firefox_accepts_profile(tmp_path):
    # "Today" for Firefox's own clock-dependent bits (origin cut-off, cookie
    # expiry) is the test machine's day; the builder itself never reads a clock.
    now_us = (int(time.time()) // 86400) * DAY_US + 12 * 3600 * 1_000_000
    toolbar, visits, cookies, form_history = persona_inputs(now_us)
    menu = menu_inputs(now_us)
    src = tmp_path / "src"
    write_profile(
        src,
        toolbar=toolbar,
        visits=visits,
        cookies=cookies,
        homepage=HOMEPAGE,
        now_us=now_us,
        form_history=form_history,
        menu=menu,
    )
    ours = {
        "places": _rows(
            src / "places.sqlite",
            "SELECT url, title, frecency, visit_count, hidden, typed, last_visit_date,"
            " foreign_count, guid, url_hash FROM moz_places ORDER BY url",
        ),
        "origins": _rows(src / "places.sqlite", "SELECT prefix, host, frecency FROM moz_origins ORDER BY prefix, host"),
        "visits": _rows(
            src / "places.sqlite",
            "SELECT h.url, v.visit_date, v.visit_type FROM moz_historyvisits v"
            " JOIN moz_places h ON h.id = v.place_id ORDER BY 1, 2, 3",
        ),
        "bookmarks": _rows(
            src / "places.sqlite",
            "SELECT b.guid, b.parent, b.position, b.title, h.url, b.dateAdded"
            " FROM moz_bookmarks b LEFT JOIN moz_places h ON h.id = b.fk ORDER BY b.id",
        ),
        "schema": {
            name: _rows(
                src / f"{name}.sqlite",
                "SELECT type, name, sql FROM sqlite_master WHERE name LIKE 'moz_%' ORDER BY name",
            )
            for name in ("places", "cookies", "formhistory")
        },
    }
    assert len(ours["visits"]) == len(visits)

    run = tmp_path / "run"
    shutil.copytree(src, run)
    with open(run / "user.js", "a") as f:  # test-only plumbing, on the copy
        f.write('user_pref("marionette.port", 0);\n')
        f.write('user_pref("network.dns.localDomains", "larkspurbank.test");\n')
    home = tmp_path / "home"
    home.mkdir()
    server = CookieServer()
    proc = subprocess.Popen(
        [FIREFOX, "--headless", "--no-remote", "--marionette", "--remote-allow-system-access", "--profile", str(run)],
        env=firefox_env(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        port_file = run / "MarionetteActivePort"
        deadline = time.time() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            assert proc.poll() is None, "firefox exited early"
            assert time.time() < deadline, "marionette did not start"
            time.sleep(0.1)
        m = Marionette(int(port_file.read_text()))
        m.cmd("WebDriver:NewSession", {"capabilities": {}})

        # A real page load on the bank's host name carries our session cookie.
        bank_page = f"http://larkspurbank.test:{server.port}/dashboard"
        m.cmd("WebDriver:Navigate", {"url": bank_page})
        assert ("/dashboard", "lb_session=s3cr3t-token") in server.seen

        m.cmd("Marionette:SetContext", {"value": "chrome"})
        tree = m.js(
            "return PlacesUtils.promiseBookmarksTree(PlacesUtils.bookmarks.toolbarGuid)"
            ".then(t => t.children.map(c => [c.title, c.uri, c.index]))"
        )
        assert tree == [[b.title, normalize_url(b.url), i] for i, b in enumerate(toolbar)]
        menu_tree = m.js(
            "return PlacesUtils.promiseBookmarksTree(PlacesUtils.bookmarks.menuGuid)"
            ".then(t => t.children.map(f => [f.title, f.children.map(c => [c.title, c.uri])]))"
        )
        assert menu_tree == [[title, [[b.title, normalize_url(b.url)] for b in marks]] for title, marks in menu]

        # What the user sees: the Bookmarks Toolbar of the window lists our
        # bookmarks. Firefox fills it only once PlacesUIUtils.unblockToolbars()
        # ran, which is a "browser-idle-startup" task (BrowserGlue, first idle
        # after session restore): until then the row is shown EMPTY, without even
        # the empty-toolbar hint. On a slow guest (QEMU TCG) that is 45-90 s after
        # the start page's title appears, so a screenshot taken earlier shows an
        # empty toolbar although the profile is right (seen on the baked image:
        # empty at +45 s, filled at +90 s).
        m.cmd("WebDriver:SetTimeouts", {"script": 60000})
        shown = m.js(
            "return (async () => { await PlacesUIUtils.canLoadToolbarContentPromise;"
            " let items = document.getElementById('PlacesToolbarItems');"
            " for (let i = 0; i < 300 && items.children.length < arguments[0]; i++)"
            "   await new Promise(r => setTimeout(r, 100));"
            " return [document.getElementById('PersonalToolbar').collapsed,"
            "   [...items.children].map(b => [b.label, b._placesNode.uri])]; })()",
            len(toolbar),
        )
        assert shown == [False, [[b.title, normalize_url(b.url)] for b in toolbar]]

        fetched = m.js(
            "return Promise.all(arguments[0].map(u => PlacesUtils.history.fetch(u,"
            " {includeVisits: true}).then(r => r && [r.url.href, r.visits.length])))",
            sorted({normalize_url(v.url) for v in visits}),
        )
        expected_counts = {}
        for v in visits:
            expected_counts[normalize_url(v.url)] = expected_counts.get(normalize_url(v.url), 0) + 1
        assert dict(map(tuple, fetched)) == expected_counts

        jar = m.js(
            "return Services.cookies.getCookiesFromHost('larkspurbank.test', {})"
            ".map(c => [c.name, c.value, c.expiry, c.isHttpOnly, c.sameSite, c.schemeMap])"
        )
        assert jar == [["lb_session", "s3cr3t-token", cookies[0].expiry_s * 1000, True, 1, 1]]

        forms = m.js(
            "const {FormHistory} = ChromeUtils.importESModule("
            "'resource://gre/modules/FormHistory.sys.mjs');"
            " return FormHistory.search(['fieldname', 'value', 'timesUsed'], {})"
        )
        assert forms == [{"fieldname": "searchbar-history", "value": "pasta recipe", "timesUsed": 2}]

        # Our hash of every URL equals Firefox's.
        urls = sorted({normalize_url(v.url) for v in visits} | {HOMEPAGE, bank_page})
        assert m.js("return arguments[0].map(u => PlacesUtils.history.hashURL(u))", urls) == [url_hash(u) for u in urls]

        # Every pref we write is one this Firefox knows.
        no_default = m.js(
            "let d = Services.prefs.getDefaultBranch('');"
            " return arguments[0].filter(n => { for (let get of ['getBoolPref', 'getIntPref',"
            " 'getStringPref']) { try { d[get](n); return false } catch (e) {} } return true })",
            sorted(default_prefs(HOMEPAGE, now_us=now_us)),
        )
        assert set(no_default) == PREFS_WITHOUT_DEFAULT
        assert m.js("return Services.prefs.getStringPref('browser.startup.homepage')") == HOMEPAGE

        # Places maintenance finds nothing to fix, and Firefox recomputing every
        # frecency (pages and origins) lands on our numbers.
        report = m.js(
            "const {PlacesDBUtils} = ChromeUtils.importESModule("
            "'resource://gre/modules/PlacesDBUtils.sys.mjs');"
            " return PlacesDBUtils.checkAndFixDatabase().then(r => [...r.entries()]"
            ".filter(([k, v]) => ['checkIntegrity', 'checkCoherence'].includes(k)))"
        )
        assert report == [
            [
                "checkIntegrity",
                {
                    "succeeded": True,
                    "logs": ["The places.sqlite database is sane", "The favicons.sqlite database is sane"],
                },
            ],
            ["checkCoherence", {"succeeded": True, "logs": ["The database is coherent"]}],
        ]
        m.js(
            "return PlacesUtils.withConnectionWrapper('test', async db => {"
            " await db.execute('UPDATE moz_places SET recalc_frecency = 1');"
            " await db.execute('UPDATE moz_origins SET recalc_frecency = 1'); })"
            ".then(() => Cc['@mozilla.org/places/frecency-recalculator;1']"
            ".getService(Ci.nsIObserver).wrappedJSObject.recalculateAnyOutdatedFrecencies())"
        )
        live = m.js(
            "return PlacesUtils.promiseDBConnection().then(async db => {"
            " let q = async (sql, n) => (await db.execute(sql)).map(r =>"
            " [...Array(n).keys()].map(i => r.getResultByIndex(i)));"
            " return [await q(`SELECT url, title, frecency, visit_count, hidden, typed,"
            " last_visit_date, foreign_count, guid, url_hash FROM moz_places ORDER BY url`, 10),"
            " await q('SELECT prefix, host, frecency FROM moz_origins ORDER BY prefix, host', 3)] })"
        )
        live_places = [tuple(r) for r in live[0] if r[0] != bank_page]
        live_origins = [tuple(r) for r in live[1] if r[1] != f"larkspurbank.test:{server.port}"]
        assert live_places == ours["places"]
        assert live_origins == ours["origins"]

        m.cmd("Marionette:Quit", {"flags": ["eAttemptQuit"]})
        assert proc.wait(60) == 0
    finally:
        _stop(proc)
        server.close()

    # After a clean shutdown: nothing was migrated, replaced or lost.
    assert not [p.name for p in run.iterdir() if ".corrupt" in p.name or p.name.endswith(".bak")]
    for name, version in (
        ("places", PLACES_SCHEMA_VERSION),
        ("cookies", COOKIES_SCHEMA_VERSION),
        ("formhistory", FORMHISTORY_SCHEMA_VERSION),
    ):
        assert _rows(run / f"{name}.sqlite", "PRAGMA user_version") == [(version,)]
        assert (
            _rows(
                run / f"{name}.sqlite",
                "SELECT type, name, sql FROM sqlite_master WHERE name LIKE 'moz_%' ORDER BY name",
            )
            == ours["schema"][name]
        )
    after_visits = set(
        _rows(
            run / "places.sqlite",
            "SELECT h.url, v.visit_date, v.visit_type FROM moz_historyvisits v JOIN moz_places h ON h.id = v.place_id",
        )
    )
    assert set(ours["visits"]) <= after_visits
    assert len(after_visits) == len(ours["visits"]) + 1  # plus the /dashboard load
    assert (
        _rows(
            run / "places.sqlite",
            "SELECT b.guid, b.parent, b.position, b.title, h.url, b.dateAdded"
            " FROM moz_bookmarks b LEFT JOIN moz_places h ON h.id = b.fk ORDER BY b.id",
        )
        == ours["bookmarks"]
    )
    assert _rows(
        run / "cookies.sqlite",
        "SELECT host, name, value, path, expiry, isHttpOnly, sameSite, schemeMap, originAttributes FROM moz_cookies",
    ) == [("larkspurbank.test", "lb_session", "s3cr3t-token", "/", cookies[0].expiry_s * 1000, 1, 1, 1, "")]


@needs_firefox
def test_firefox_without_arguments_opens_persona_profile(tmp_path):
    """`firefox-esr` with no profile argument uses ~/.mozilla/firefox/persona.default."""
    now_us = (int(time.time()) // 86400) * DAY_US
    home = tmp_path / "home"
    root = home / ".mozilla" / "firefox"
    build(root / "persona.default", now_us)
    write_profiles_ini(home / ".mozilla")
    server = CookieServer()
    url = f"http://127.0.0.1:{server.port}/started"
    proc = subprocess.Popen(
        [FIREFOX, "--headless", "--screenshot", str(tmp_path / "shot.png"), url],
        env=firefox_env(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        assert proc.wait(60) == 0
    finally:
        _stop(proc)
        server.close()
    assert ("/started", "") in server.seen
    # No second profile was made, here or in the XDG location.
    assert [p.name for p in root.iterdir() if (p / "prefs.js").exists()] == ["persona.default"]
    assert not (home / ".config" / "mozilla" / "firefox").exists()
    assert "[Profile1]" not in (root / "profiles.ini").read_text()
    assert "Default=persona.default" in (root / "installs.ini").read_text()
    # The visit landed in our places.sqlite, next to our bookmarks.
    places = root / "persona.default" / "places.sqlite"
    assert _rows(places, f"SELECT count(*) FROM moz_places WHERE url = '{url}'") == [(1,)]
    assert _rows(places, "SELECT title FROM moz_bookmarks WHERE parent = 3 ORDER BY position") == [
        ("Larkspur Bank",),
        ("Mail",),
        ("Bills",),
    ]
