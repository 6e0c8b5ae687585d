"""Desktop touches that make the home's documents findable, written after every file of the home is in place.

* ``~/.config/gtk-3.0/bookmarks``: Thunar's (and every GTK file chooser's) side-pane places, one
  ``file://`` URI and label a line: ``Documents/Work``, ``Documents/Personal`` and ``Downloads`` when they
  exist, then every other folder directly under ``Documents`` that holds files (the bank's statements live in
  ``Documents`` itself), and the folders under ``Documents/Work`` (projects, expenses), sorted.
* ``~/.local/share/recently-used.xbel``: the freedesktop recent-files list (XBEL 1.0 with the
  ``bookmark:`` and ``mime:`` metadata GLib's ``GBookmarkFile`` reads) of the :data:`RECENT_LIMIT` most
  recently modified documents (PDF, ODF, OOXML, CSV), newest first: ``added``, ``modified`` and ``visited``
  are the file's world time, the application the one that opens it in the guest (``image/guest/etc/xdg/
  mimeapps.list``: LibreOffice for office files, Firefox for PDFs; the image has no Evince).
* ``~/.config/libreoffice/4/user/registrymodifications.xcu``: LibreOffice's Start Center and File > Recent
  Documents (``org.openoffice.Office.Histories`` PickList, newest first) for the office files among them,
  with the tip-of-the-day dialog off (an agent's first start would otherwise meet it).

* ``~/Desktop`` and ``~/Pictures`` (created when missing) and ``~/.config/user-dirs.dirs``, the freedesktop
  user-directories file (xdg-user-dirs' format: ``XDG_<NAME>_DIR="$HOME/<folder>"``) that GLib, Xfce's desktop
  and file chooser and Firefox read: Desktop, Documents, Download and Pictures name their folders; Music, Public
  share, Templates and Videos are ``"$HOME/"``, which the format reads as "none" (no empty folders for them).

A document counts only when its modification time is a world time: a whole second no later than the world's
now, as ``os.utime`` from the world writes it (files whose time is the build's clock are left out, so the
lists depend on the world alone). Hidden folders and ``Mail`` (the mailbox's Maildir) are not browsed.
URIs name the guest's paths (``/home/<user>/...``), percent-encoded as RFC 3986 asks.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote
from xml.sax.saxutils import escape, quoteattr
from zoneinfo import ZoneInfo

from builder.world import World

RECENT_LIMIT = 15
SKIP_DIRS = frozenset({"Mail"})
FIRST_PLACES = (Path("Documents") / "Work", Path("Documents") / "Personal", Path("Downloads"))

# suffix -> (mime type, LibreOffice filter name or None)
DOCUMENT_TYPES = {
    ".pdf": ("application/pdf", None),
    ".odt": ("application/vnd.oasis.opendocument.text", "writer8"),
    ".ods": ("application/vnd.oasis.opendocument.spreadsheet", "calc8"),
    ".docx": ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "MS Word 2007 XML"),
    ".xlsx": ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "Calc MS Excel 2007 XML"),
    ".csv": ("text/csv", "Text - txt - csv (StarCalc)"),
}
# mime type -> (application name as GLib records it, exec line)
APPLICATIONS = {
    "application/pdf": ("Firefox ESR", "'firefox-esr %u'"),
}
LIBREOFFICE = ("LibreOffice", "'soffice %u'")


@dataclass(frozen=True)
class Document:
    """A document of the home: ``rel`` its path under the home, ``mtime`` its world time (Unix seconds)."""

    rel: Path
    mtime: int
    mime: str
    filter: str | None


def _now_ts(world: World) -> int:
    zone = ZoneInfo(world.persona.timezone or "UTC")
    return int(world.now.replace(tzinfo=zone).timestamp())


def _visible(rel: Path) -> bool:
    return not any(part.startswith(".") for part in rel.parts) and rel.parts[0] not in SKIP_DIRS


def documents(world: World, home: Path) -> list[Document]:
    """The home's documents dated by the world (see the module rules), newest first (ties by path)."""
    home = Path(home)
    now = _now_ts(world)
    out = []
    for path in home.rglob("*"):
        rel = path.relative_to(home)
        kind = DOCUMENT_TYPES.get(path.suffix.lower())
        if kind is None or not path.is_file() or not _visible(rel):
            continue
        ns = path.stat().st_mtime_ns
        if ns % 1_000_000_000 or ns // 1_000_000_000 > now:
            continue
        out.append(Document(rel, ns // 1_000_000_000, *kind))
    out.sort(key=lambda d: (-d.mtime, str(d.rel)))
    return out


def guest_uri(world: World, rel: Path | str) -> str:
    """``file:///home/dana/Documents/Work`` for a path under the persona's home (percent-encoded UTF-8)."""
    path = f"/home/{world.persona.identity.username}/{Path(rel).as_posix()}".rstrip("/")
    return "file://" + quote(path, safe="/-._~!$&'()*+,;=:@")


def places(world: World, home: Path) -> list[Path]:
    """The folders the bookmarks list (paths under the home, in order; see the module rules)."""
    home = Path(home)
    out = [p for p in FIRST_PLACES if (home / p).is_dir()]

    def holds_files(d: Path) -> bool:
        return any(f.is_file() for f in d.rglob("*"))

    docs = home / "Documents"
    more = []
    if docs.is_dir():
        more += [
            d.relative_to(home) for d in docs.iterdir() if d.is_dir() and not d.name.startswith(".") and holds_files(d)
        ]
    work = home / FIRST_PLACES[0]
    if work.is_dir():
        more += [
            d.relative_to(home) for d in work.iterdir() if d.is_dir() and not d.name.startswith(".") and holds_files(d)
        ]
    out += sorted((p for p in more if p not in out), key=lambda p: p.as_posix())
    return out


def bookmarks_text(world: World, home: Path) -> str:
    """The contents of ``~/.config/gtk-3.0/bookmarks``: ``<uri> <label>`` per place."""
    lines = []
    for rel in places(world, home):
        lines.append(f"{guest_uri(world, rel)} {rel.name}")
    return "".join(line + "\n" for line in lines)


def _iso(ts: int) -> str:
    return dt.datetime.fromtimestamp(ts, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000000Z")


def recent_xbel(world: World, docs: list[Document]) -> str:
    """``recently-used.xbel`` listing ``docs`` (see the module rules)."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<xbel version="1.0"',
        '      xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks"',
        '      xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info"',
        ">",
    ]
    for d in docs:
        stamp = _iso(d.mtime)
        name, exec_ = APPLICATIONS.get(d.mime, LIBREOFFICE)
        out += [
            f'  <bookmark href={quoteattr(guest_uri(world, d.rel))} added="{stamp}" modified="{stamp}" '
            f'visited="{stamp}">',
            "    <info>",
            '      <metadata owner="http://freedesktop.org">',
            f"        <mime:mime-type type={quoteattr(d.mime)}/>",
            "        <bookmark:applications>",
            f"          <bookmark:application name={quoteattr(name)} exec={quoteattr(exec_)} "
            f'modified="{stamp}" count="1"/>',
            "        </bookmark:applications>",
            "      </metadata>",
            "    </info>",
            "  </bookmark>",
        ]
    out.append("</xbel>")
    return "\n".join(out) + "\n"


_HISTORY = "/org.openoffice.Office.Histories/Histories/org.openoffice.Office.Histories:HistoryInfo['PickList']"


def libreoffice_registry(world: World, docs: list[Document]) -> str:
    """``registrymodifications.xcu``: the PickList of the office files among ``docs`` (newest first) and
    the tip of the day off."""
    office = [d for d in docs if d.filter]
    items = [
        '<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" '
        'oor:op="fuse"><value>false</value></prop></item>',
        '<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" '
        'oor:op="fuse"><value>false</value></prop></item>',
    ]
    for n, d in enumerate(office):
        uri = escape(guest_uri(world, d.rel))
        items.append(
            f'<item oor:path="{_HISTORY}/OrderList"><node oor:name="{n}" oor:op="replace">'
            f'<prop oor:name="HistoryItemRef" oor:op="fuse"><value>{uri}</value></prop></node></item>'
        )
    for d in office:
        uri = quoteattr(guest_uri(world, d.rel))
        props = [
            ("Filter", escape(d.filter)),
            ("Password", ""),
            ("Pinned", "false"),
            ("ReadOnly", "false"),
            ("Thumbnail", ""),
            ("Title", escape(d.rel.stem)),
        ]
        body = "".join(f'<prop oor:name="{k}" oor:op="fuse"><value>{v}</value></prop>' for k, v in props)
        items.append(f'<item oor:path="{_HISTORY}/ItemList"><node oor:name={uri} oor:op="replace">{body}</node></item>')
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
    )
    return head + "".join(i + "\n" for i in items) + "</oor:items>\n"


# xdg-user-dirs' keys, in its own order, and the folder under home each names ("" for none).
USER_DIRS = (
    ("DESKTOP", "Desktop"),
    ("DOWNLOAD", "Downloads"),
    ("TEMPLATES", ""),
    ("PUBLICSHARE", ""),
    ("DOCUMENTS", "Documents"),
    ("MUSIC", ""),
    ("PICTURES", "Pictures"),
    ("VIDEOS", ""),
)


def user_dirs_text() -> str:
    """The contents of ``~/.config/user-dirs.dirs`` (see the module rules)."""
    head = '# The user\'s well-known folders (freedesktop xdg-user-dirs); "$HOME/" means none.\n'
    return head + "".join(f'XDG_{key}_DIR="$HOME/{folder}"\n' for key, folder in USER_DIRS)


def write_desktop(world: World, home: Path) -> list[Path]:
    """Write the bookmarks, the recent-files list, LibreOffice's recent documents and the user-directories file
    into ``home`` and make its Desktop and Pictures folders (see the module rules); return the four file paths.
    Each file and made folder is dated the world's now."""
    home = Path(home)
    now = _now_ts(world)
    for _, folder in USER_DIRS:
        if folder and not (home / folder).exists():
            (home / folder).mkdir(parents=True)
            os.utime(home / folder, (now, now))
    docs = documents(world, home)[:RECENT_LIMIT]
    files = {
        home / ".config" / "user-dirs.dirs": user_dirs_text(),
        home / ".config" / "gtk-3.0" / "bookmarks": bookmarks_text(world, home),
        home / ".local" / "share" / "recently-used.xbel": recent_xbel(world, docs),
        home / ".config" / "libreoffice" / "4" / "user" / "registrymodifications.xcu": libreoffice_registry(
            world, docs
        ),
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        os.utime(path, (now, now))
    return list(files)
