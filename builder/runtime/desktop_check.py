"""What a person finds on a running persona image, checked through run-image's control API.

Everything goes through the endpoints an OSWorld agent uses (:mod:`builder.runtime.run`, forwarded to the guest's
control server, which runs commands as the persona's user in their X session): ``POST /execute`` for commands
(``xdotool`` for the keyboard, ``xwininfo`` for windows), ``POST /file`` to read a file back, ``GET /screenshot``
for the screen. So the checks run on the machine the episodes use, at its reset point, with no boot of their own.

:func:`check_desktop` is the desktop test's look at the desktop: Firefox on its home page with the bookmarks toolbar,
a screenshot of a few apps typed into the address bar, the guest's date and memory, the home folder (``~/Desktop``,
Impress, Firefox's seeded form history), an Impress deck converted to PDF and a page printed to PDF through
Firefox's own dialog.
"""

from __future__ import annotations

import io
import re
import time
import zlib
from pathlib import Path
from typing import Callable

import requests

from builder.image.boot import GUEST_PROFILE, TOOLBAR_ROWS, XWININFO_LINE, memory_used_mb

Progress = Callable[[str], None]

_MARK = "/tmp/.persona-desktop-check"


class DesktopError(RuntimeError):
    """The control API did not answer as it should (HTTP error, bad JSON)."""


class Desktop:
    """The persona's desktop behind run-image's control API at ``url`` (``http://127.0.0.1:<control port>``)."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")

    def run(self, argv: list[str], timeout: float = 60.0) -> tuple[int, str]:
        """Run ``argv`` as the persona's user in their X session; ``(exit code, stdout)``, -9 on a timeout
        (``timeout`` seconds). Raises :class:`DesktopError` when the API fails."""
        try:
            r = requests.post(
                self.url + "/execute",
                json={"command": argv, "shell": False, "timeout": timeout},
                timeout=timeout + 60,
            )
            body = r.json()
        except (requests.RequestException, ValueError) as e:
            raise DesktopError(f"POST /execute {argv[:3]}: {e}") from None
        if r.status_code not in (200, 500) or "returncode" not in body:
            raise DesktopError(f"POST /execute {argv[:3]}: HTTP {r.status_code} {r.text[:300]}")
        return int(body["returncode"]), str(body.get("output") or "")

    def read(self, path: str) -> bytes | None:
        """The bytes of the guest file ``path`` (``POST /file``), or None when there is none."""
        try:
            r = requests.post(self.url + "/file", data={"file_path": path}, timeout=120)
        except requests.RequestException as e:
            raise DesktopError(f"POST /file {path}: {e}") from None
        if r.status_code == 404:
            return None
        if r.status_code != 200:
            raise DesktopError(f"POST /file {path}: HTTP {r.status_code} {r.text[:300]}")
        return r.content

    def screenshot(self, png: Path | None = None) -> bytes:
        """The screen as PNG bytes (``GET /screenshot``), also written to ``png`` when given."""
        try:
            r = requests.get(self.url + "/screenshot", timeout=120)
        except requests.RequestException as e:
            raise DesktopError(f"GET /screenshot: {e}") from None
        if r.status_code != 200 or not r.content.startswith(b"\x89PNG"):
            raise DesktopError(f"GET /screenshot: HTTP {r.status_code} {r.text[:300]}")
        if png is not None:
            Path(png).parent.mkdir(parents=True, exist_ok=True)
            Path(png).write_bytes(r.content)
        return r.content

    def keys(self, *combo: str) -> None:
        """Press the keys of ``combo`` together (X keysym names: "ctrl", "p", "Return", "Tab")."""
        self.run(["xdotool", "key", "--clearmodifiers", "+".join(combo)], timeout=30)
        time.sleep(0.3)

    def type(self, text: str) -> None:
        """Type ``text`` at the focused window, a key at a time."""
        self.run(["xdotool", "type", "--delay", "60", "--", text], timeout=120)

    def windows(self) -> list[tuple[str, int, int]]:
        """``(title, width, height)`` of every X window (``xwininfo -root -tree``)."""
        rc, out = self.run(["xwininfo", "-root", "-tree"], timeout=30)
        found = []
        for line in out.splitlines():
            m = XWININFO_LINE.match(line)
            if m:
                found.append((m.group("title"), int(m.group("w")), int(m.group("h"))))
        return found

    def wait_window(self, pattern: str, timeout: float, min_size: tuple[int, int] = (400, 300)) -> str | None:
        """The title of the first window matching regex ``pattern`` and at least ``min_size`` pixels, waiting up to
        ``timeout`` seconds; None if none came."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            for title, w, h in self.windows():
                if rx.search(title) and w >= min_size[0] and h >= min_size[1]:
                    return title
            if time.monotonic() > deadline:
                return None
            time.sleep(3)

    def settle(self, timeout: float = 30.0, every: float = 3.0) -> bool:
        """Wait until the screen stops changing (two screenshots ``every`` seconds apart the same: the page has
        loaded and painted, the tab's throbber has stopped), up to ``timeout`` seconds; whether it did."""
        deadline = time.monotonic() + timeout
        last = self.screenshot()
        while time.monotonic() < deadline:
            time.sleep(every)
            now = self.screenshot()
            if now == last:
                return True
            last = now
        return False

    def open_url(self, url: str) -> None:
        """Go to ``url`` in the focused Firefox window as a person does: Ctrl+L, type it, Enter."""
        self.keys("ctrl", "l")
        time.sleep(1.0)
        self.type(url)
        self.keys("Return")


def band_colours(png: bytes, top: int, bottom: int) -> int:
    """Number of distinct colours in rows ``top``..``bottom - 1`` of the PNG ``png`` (a flat band has one or two)."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        im = im.convert("RGB")
        band = im.crop((0, min(top, im.height), im.width, min(bottom, im.height)))
        return len(band.getcolors(maxcolors=1 << 20) or [])


def pdf_pages(data: bytes) -> int:
    """The number of page objects (``/Type /Page``, ISO 32000-1 7.7.3.3) in PDF bytes ``data``, in the file or in
    its Flate-compressed object streams; 0 if it is not a PDF."""
    if not data.startswith(b"%PDF-"):
        return 0
    # Page objects may sit in compressed object streams (PDF 1.5, 7.5.7: cairo's PDFs, so Firefox's): read those too.
    text = [data]
    for m in re.finditer(rb"/Type\s*/ObjStm\b.*?stream\r?\n", data, re.S):
        try:
            text.append(zlib.decompressobj().decompress(data[m.end() : m.end() + (64 << 20)]))
        except zlib.error:
            continue
    return sum(len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", t)) for t in text)


def home_facts(desk: Desktop, user: str) -> dict:
    """What a person finds in the home folder while Firefox runs: ``{"desktop_dir": bool (``~/Desktop`` is a
    folder), "impress": str (the installed libreoffice-impress version, "" if none), "form_history": int (rows of
    Firefox's formhistory.sqlite, read-only: Firefox has kept the seeded file rather than replacing it; -1 if
    unreadable)}``."""
    home = f"/home/{user}"
    rc, _ = desk.run(["test", "-d", f"{home}/Desktop"])
    impress_rc, impress = desk.run(["dpkg-query", "-W", "-f=${Version}", "libreoffice-impress"])
    db = f"file:{home}/.mozilla/firefox/{GUEST_PROFILE}/formhistory.sqlite?mode=ro"
    rows_rc, rows = desk.run(["sqlite3", db, "SELECT COUNT(*) FROM moz_formhistory"])
    return {
        "desktop_dir": rc == 0,
        "impress": impress.strip() if impress_rc == 0 else "",
        "form_history": int(rows.strip()) if rows_rc == 0 and rows.strip().isdigit() else -1,
    }


def _new_file(desk: Desktop, folder: str, pattern: str, timeout: float) -> str | None:
    """The first file under ``folder`` named like ``pattern`` (``find -name``) written after :data:`_MARK`, once its
    writer is done with it (size above zero and the same two polls in a row), waiting up to ``timeout`` s."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        rc, out = desk.run(["find", folder, "-type", "f", "-name", pattern, "-newer", _MARK])
        found = sorted(line for line in out.splitlines() if line.startswith("/"))
        if found:
            rc, size = desk.run(["stat", "-c", "%s", found[0]])
            size = size.strip()
            if rc == 0 and size.isdigit() and int(size) > 0 and size == last:
                return found[0]
            last = size
        if time.monotonic() > deadline:
            return found[0] if found else None
        time.sleep(2)


def deck_and_print(desk: Desktop, user: str, url: str, title: str, progress: Progress, timeout: float = 180.0) -> dict:
    """Use the desktop as its person would and report what each step left behind:

    * **Impress opens a deck:** the first ``*.odp`` under ``~/Documents`` is converted to PDF by the guest's
      LibreOffice (headless, with a throw-away LibreOffice profile so the person's stays untouched).
    * **Firefox prints to PDF:** go to ``url`` (its window title then matches regex ``title``), Ctrl+P, Enter (the
      print dialog's destination is "Save to PDF"), Enter in GTK's "Save As" dialog: a PDF appears in the home.

    Returns ``{"deck": {"file", "pages"}, "print": {"file", "pages"}}`` (``file`` None and ``pages`` 0 when a step
    left nothing within ``timeout`` seconds). Raises :class:`DesktopError` when the control API fails.
    """
    home = f"/home/{user}"
    desk.run(["touch", _MARK])
    time.sleep(1.1)  # find -newer compares whole seconds on some file systems
    out: dict = {}

    rc, decks = desk.run(["find", f"{home}/Documents", "-name", "*.odp"])
    deck = sorted(line for line in decks.splitlines() if line.startswith("/"))[:1]
    out["deck"] = {"file": deck[0] if deck else None, "pages": 0}
    if deck:
        conv = "/tmp/persona-desktop-check"
        argv = ["soffice", "--headless", f"-env:UserInstallation=file://{conv}/lo", "--convert-to", "pdf"]
        rc, text = desk.run([*argv, "--outdir", conv, deck[0]], timeout=max(timeout, 300))
        data = desk.read(f"{conv}/{Path(deck[0]).stem}.pdf")
        out["deck"]["pages"] = pdf_pages(data or b"")
        if data is None:
            progress(f"LibreOffice wrote no PDF of {deck[0]} (exit {rc}): {text[-400:]}")
        progress(f"deck {deck[0]}: {out['deck']['pages']} pages")

    desk.open_url(url)
    if desk.wait_window(title, timeout=120) is None:
        progress(f"{title!r} not in Firefox's title after 120s; printing anyway")
    desk.settle()

    out["print"] = {"file": None, "pages": 0}
    for attempt in (1, 2):  # the print preview may not have taken the first Enter under TCG
        desk.keys("ctrl", "p")
        time.sleep(10)
        desk.keys("Return")
        if desk.wait_window(r"^Save As", timeout=90, min_size=(200, 150)):
            break
        progress(f"no Save As dialog after Ctrl+P, Enter (attempt {attempt})")
        desk.keys("Escape")
        time.sleep(2)
    else:
        progress("Firefox's print dialog never offered to save a PDF")
    desk.keys("Return")
    pdf = _new_file(desk, home, "*.pdf", timeout)
    if pdf:
        out["print"] = {"file": pdf, "pages": pdf_pages(desk.read(pdf) or b"")}
    progress(f"print to PDF: {out['print']}")
    return out


def check_desktop(
    url: str,
    apps: list[tuple[str, str, str]],
    screenshot_dir: Path,
    user: str,
    *,
    shown: set[str] | None = None,
    desktop_page: tuple[str, str] | None = None,
    progress: Progress | None = None,
) -> dict:
    """Look at the desktop of the machine behind the control API ``url`` (at its reset point: Firefox open on its
    home page) as its person would.

    ``apps`` are ``(name, title, domain)``. Saves a screenshot of Firefox's home page (the app whose title is in the
    window's title, named for it) and of each app named in ``shown`` (every app when None), each typed into the
    address bar, as ``<screenshot_dir>/<name>.png``; then, with ``desktop_page`` ``(url, title regex)``,
    :func:`deck_and_print` on that page. Returns ``{"window": Firefox's title, "toolbar": bool (the bookmarks
    toolbar is drawn), "guest_date": "YYYY-MM-DDTHH:MM:SS TZ", "memory_used_mb": float (MemTotal - MemAvailable),
    "screenshots": {name: path}, "untitled": [apps whose title never showed in Firefox's], "home":
    :func:`home_facts`, "desktop": :func:`deck_and_print` or None}``. Raises :class:`DesktopError`.
    """
    progress = progress or (lambda s: None)
    desk = Desktop(url)
    window = desk.wait_window(r".\s[—–-]\s(Mozilla )?Firefox", timeout=300) or ""
    progress(f"window: {window}")
    toolbar = band_colours(desk.screenshot(), *TOOLBAR_ROWS) >= 8
    rc, guest_date = desk.run(["date", "+%Y-%m-%dT%H:%M:%S %Z"])
    rc, meminfo = desk.run(["cat", "/proc/meminfo"])
    memory = memory_used_mb(meminfo)
    progress(f"guest memory in use with Firefox up: {memory:.0f} MiB")
    home = home_facts(desk, user)
    progress(f"guest home: {home}")
    shots: dict[str, str] = {}
    untitled: list[str] = []
    first = next((a for a in apps if a[1] in window), apps[0])
    for i, (name, title, domain) in enumerate([first, *(a for a in apps if a is not first)]):
        if shown is not None and i and name not in shown:
            continue
        if i:
            for attempt in (1, 2):  # a key lost while Firefox is busy garbles the URL: type it again
                desk.open_url(f"http://{domain}/")
                if desk.wait_window(re.escape(title), timeout=120):
                    break
                progress(f"{title} not in Firefox's title after 120s (attempt {attempt})")
            else:
                untitled.append(name)
            if not desk.settle():
                progress(f"{title}: the screen was still changing after 30s")
        png = Path(screenshot_dir) / f"{name}.png"
        desk.screenshot(png)
        shots[name] = str(png)
        progress(f"screenshot {png}")
    desktop = deck_and_print(desk, user, *desktop_page, progress=progress) if desktop_page else None
    return {
        "window": window,
        "toolbar": toolbar,
        "guest_date": guest_date.strip(),
        "memory_used_mb": memory,
        "screenshots": shots,
        "untitled": untitled,
        "home": home,
        "desktop": desktop,
    }
