"""places.sqlite: history and bookmarks, written the way Firefox 153 keeps them.

Firefox's own triggers (toolkit/components/places/nsPlacesTriggers.h) are TEMP
triggers created when it opens the file, so an offline writer must store what
they would have computed:

- moz_places.visit_count = visits whose type is not 0/4/7/8/9, last_visit_date =
  newest visit of any type (moz_historyvisits_afterinsert_v2_trigger; the same
  rule PlacesDBUtils' coherence check "L.2" enforces);
- moz_places.foreign_count = bookmarks + keywords pointing at the page
  (moz_bookmarks_foreign_count_afterinsert_trigger, check "L.4");
- moz_places.origin_id and the moz_origins row (prefix "https://", host with a
  non-default port) (moz_places_afterinsert_trigger);
- frecency (see frecency.py) with recalc_frecency = 0; recalc_alt_frecency = 1
  as Firefox leaves it while alternative frecency is off;
- moz_meta 'origin_frecency_threshold' as PlacesFrecencyRecalculator stores it.

Bookmark roots are the six folders Firefox creates (Database.cpp CreateRoot:
root________ id 1 parent 0; menu________, toolbar_____, tags________,
unfiled_____ at positions 0-3 and mobile______ at 4, syncStatus 1 NEW).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from . import schema
from .frecency import NOT_COUNTED, origin_frecency, page_frecency, visit_source
from .hashing import guid, url_hash
from .models import TRANSITION_EMBED, TRANSITIONS, Bookmark, Visit
from .sqlitefile import finish, new_database

# Schemes whose pages Firefox keeps in history (nsNavHistory::CanAddURI refuses
# about:, data:, javascript:, chrome:, view-source: ...).
_HIERARCHICAL = {"http": 80, "https": 443, "ftp": 21, "file": None}

# (guid, title, parent id, position) for ids 1..6, as Firefox 153 creates them.
ROOTS = (
    ("root________", "", 0, 0),
    ("menu________", "menu", 1, 0),
    ("toolbar_____", "toolbar", 1, 1),
    ("tags________", "tags", 1, 2),
    ("unfiled_____", "unfiled", 1, 3),
    ("mobile______", "mobile", 1, 4),
)
MENU_ID = 2
TOOLBAR_ID = 3
TYPE_BOOKMARK = 1
TYPE_FOLDER = 2
SYNC_STATUS_NEW = 1


def normalize_url(url: str) -> str:
    """The URL spec Firefox would store: lower-case scheme and host (IDNA),
    default port dropped, empty path as "/". Other parts are kept as given."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _HIERARCHICAL:
        raise ValueError(f"Firefox does not keep {scheme or 'scheme-less'} URLs in history: {url!r}")
    host = (parts.hostname or "").encode("idna").decode("ascii").lower()
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    if parts.port is not None and parts.port != _HIERARCHICAL[scheme]:
        host = f"{host}:{parts.port}"
    userinfo = parts.netloc.rpartition("@")[0]
    spec = f"{scheme}://{userinfo + '@' if userinfo else ''}{host}{parts.path or '/'}"
    if parts.query:
        spec += "?" + parts.query
    if parts.fragment:
        spec += "#" + parts.fragment
    return spec


def origin_of(url: str) -> tuple[str, str]:
    """(prefix, host_and_port) of moz_origins for a normalized URL
    (get_prefix / get_host_and_port): ("https://", "larkspurbank.test")."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None and parts.port != _HIERARCHICAL.get(parts.scheme):
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://", host


def rev_host(url: str) -> str:
    """moz_places.rev_host: the host (no port) reversed, plus "." ("." for file:)."""
    return (urlsplit(url).hostname or "")[::-1] + "."


@dataclass
class _Page:
    url: str
    visits: list[Visit] = field(default_factory=list)
    bookmarks: list[Bookmark] = field(default_factory=list)

    @property
    def first_us(self) -> int:
        return min([v.visit_us for v in self.visits] + [b.added_us for b in self.bookmarks])


def write_places(
    path: Path,
    *,
    toolbar: Sequence[Bookmark],
    visits: Sequence[Visit],
    now_us: int,
    created_us: int,
    menu: Sequence[tuple[str, Sequence[Bookmark]]] = (),
) -> None:
    """Write places.sqlite at ``path`` (replacing it).

    Visits with TRANSITION_EMBED (4) are skipped: Firefox never stores them.

    created_us: when the profile (and its bookmark roots) came to be, PRTime µs.
    menu: folders in the Bookmarks Menu, in display order: (folder title, its bookmarks
      in display order); each folder's dateAdded is its first bookmark's.
    """
    pages: dict[str, _Page] = {}
    for v in visits:
        if v.transition not in TRANSITIONS:
            raise ValueError(f"unknown transition {v.transition} for {v.url}")
        if v.transition == TRANSITION_EMBED:  # History.cpp keeps embed visits in memory only
            continue
        u = normalize_url(v.url)
        pages.setdefault(u, _Page(u)).visits.append(Visit(u, v.title, v.visit_us, v.transition))
    toolbar_norm = [Bookmark(b.title, normalize_url(b.url), b.added_us) for b in toolbar]
    menu_norm = [
        (title, [Bookmark(b.title, normalize_url(b.url), b.added_us) for b in marks]) for title, marks in menu if marks
    ]
    for b in toolbar_norm + [b for _, marks in menu_norm for b in marks]:
        pages.setdefault(b.url, _Page(b.url)).bookmarks.append(b)

    # Place ids in the order Firefox would have met the pages: chronologically.
    ordered = sorted(pages.values(), key=lambda p: (p.first_us, p.url))
    place_id = {p.url: i for i, p in enumerate(ordered, start=1)}

    origins: dict[tuple[str, str], int] = {}
    for p in ordered:
        origins.setdefault(origin_of(p.url), len(origins) + 1)

    db = new_database(path, schema.PLACES_DDL, schema.PLACES_SCHEMA_VERSION)
    try:
        db.execute("BEGIN")
        frecencies: dict[str, int] = {}
        for p in ordered:
            vis = sorted(p.visits, key=lambda v: v.visit_us)
            fr = page_frecency(
                ((v.visit_us, v.transition, visit_source(v.transition)) for v in vis),
                bookmarks_added_us=[b.added_us for b in p.bookmarks],
                url=p.url,
            )
            frecencies[p.url] = fr
            titled = [v.title for v in vis if v.title]
            hidden = int(bool(vis) and not p.bookmarks and all(v.transition == 8 for v in vis))
            db.execute(
                "INSERT INTO moz_places (id, url, title, rev_host, visit_count, hidden, typed,"
                " frecency, last_visit_date, guid, foreign_count, url_hash, description,"
                " preview_image_url, site_name, origin_id, recalc_frecency, alt_frecency,"
                " recalc_alt_frecency)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,NULL,NULL,NULL,?,0,NULL,1)",
                (
                    place_id[p.url],
                    p.url,
                    titled[-1] if titled else None,
                    rev_host(p.url),
                    sum(1 for v in vis if v.transition not in NOT_COUNTED),
                    hidden,
                    int(any(v.transition == 2 for v in vis)),
                    fr,
                    vis[-1].visit_us if vis else None,
                    guid("place", p.url),
                    len(p.bookmarks),
                    url_hash(p.url),
                    origins[origin_of(p.url)],
                ),
            )

        # Origins: typed visits feed their frecency (frecency.origin_frecency).
        typed: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
        for p in ordered:
            for v in p.visits:
                if v.transition == 2:
                    typed[origin_of(p.url)].append((frecencies[p.url], v.visit_us))
        for (prefix, host), oid in origins.items():
            db.execute(
                "INSERT INTO moz_origins (id, prefix, host, frecency, recalc_frecency,"
                " alt_frecency, recalc_alt_frecency, block_until_ms, block_pages_until_ms)"
                " VALUES (?,?,?,?,0,NULL,1,NULL,NULL)",
                (oid, prefix, host, origin_frecency(typed[(prefix, host)], now_us=now_us)),
            )

        # Visits in time order; ids follow.
        all_visits = sorted((v for p in ordered for v in p.visits), key=lambda v: (v.visit_us, v.url, v.transition))
        for vid, v in enumerate(all_visits, start=1):
            db.execute(
                "INSERT INTO moz_historyvisits (id, from_visit, place_id, visit_date,"
                " visit_type, session, source, triggeringPlaceId) VALUES (?,0,?,?,?,0,?,NULL)",
                (vid, place_id[v.url], v.visit_us, v.transition, visit_source(v.transition)),
            )

        # Bookmark roots, then the toolbar's children, then the menu's folders and theirs.
        toolbar_modified = max([created_us] + [b.added_us for b in toolbar_norm])
        menu_modified = max([created_us] + [marks[0].added_us for _, marks in menu_norm])
        children = {TOOLBAR_ID: len(toolbar_norm), MENU_ID: len(menu_norm)}
        for rid, (rguid, title, parent, position) in enumerate(ROOTS, start=1):
            db.execute(
                "INSERT INTO moz_bookmarks (id, type, fk, parent, position, title, keyword_id,"
                " folder_type, dateAdded, lastModified, guid, syncStatus, syncChangeCounter)"
                " VALUES (?,?,NULL,?,?,?,NULL,NULL,?,?,?,?,?)",
                (
                    rid,
                    TYPE_FOLDER,
                    parent,
                    position,
                    title,
                    created_us,
                    {TOOLBAR_ID: toolbar_modified, MENU_ID: menu_modified}.get(rid, created_us),
                    rguid,
                    SYNC_STATUS_NEW,
                    1 + children.get(rid, 0),
                ),
            )
        for pos, b in enumerate(toolbar_norm):
            db.execute(
                "INSERT INTO moz_bookmarks (id, type, fk, parent, position, title, keyword_id,"
                " folder_type, dateAdded, lastModified, guid, syncStatus, syncChangeCounter)"
                " VALUES (?,?,?,?,?,?,NULL,NULL,?,?,?,?,1)",
                (
                    len(ROOTS) + 1 + pos,
                    TYPE_BOOKMARK,
                    place_id[b.url],
                    TOOLBAR_ID,
                    pos,
                    b.title,
                    b.added_us,
                    b.added_us,
                    guid("bookmark", "toolbar_____", str(pos), b.url, b.title),
                    SYNC_STATUS_NEW,
                ),
            )
        next_id = len(ROOTS) + 1 + len(toolbar_norm)
        for fpos, (title, marks) in enumerate(menu_norm):
            folder_id = next_id
            next_id += 1
            db.execute(
                "INSERT INTO moz_bookmarks (id, type, fk, parent, position, title, keyword_id,"
                " folder_type, dateAdded, lastModified, guid, syncStatus, syncChangeCounter)"
                " VALUES (?,?,NULL,?,?,?,NULL,NULL,?,?,?,?,?)",
                (
                    folder_id,
                    TYPE_FOLDER,
                    MENU_ID,
                    fpos,
                    title,
                    marks[0].added_us,
                    max(b.added_us for b in marks),
                    guid("folder", "menu________", title),
                    SYNC_STATUS_NEW,
                    1 + len(marks),
                ),
            )
            for pos, b in enumerate(marks):
                db.execute(
                    "INSERT INTO moz_bookmarks (id, type, fk, parent, position, title, keyword_id,"
                    " folder_type, dateAdded, lastModified, guid, syncStatus, syncChangeCounter)"
                    " VALUES (?,?,?,?,?,?,NULL,NULL,?,?,?,?,1)",
                    (
                        next_id,
                        TYPE_BOOKMARK,
                        place_id[b.url],
                        folder_id,
                        pos,
                        b.title,
                        b.added_us,
                        b.added_us,
                        guid("bookmark", title, str(pos), b.url, b.title),
                        SYNC_STATUS_NEW,
                    ),
                )
                next_id += 1

        # What PlacesFrecencyRecalculator stores after recalculating origins:
        # the highest frecency of the lower half (NTILE(2)) of origins with
        # frecency > 1, or 2 when there is none.
        (threshold,) = db.execute(
            "WITH ntiled AS (SELECT frecency, NTILE(2) OVER (ORDER BY frecency ASC) AS ntile"
            " FROM moz_origins WHERE frecency > 1) SELECT MAX(frecency) FROM ntiled WHERE ntile = 1"
        ).fetchone()
        db.execute(
            "INSERT INTO moz_meta (key, value) VALUES ('origin_frecency_threshold', ?)",
            (threshold if threshold is not None else 2,),
        )
        db.execute("COMMIT")
    except BaseException:
        db.close()
        raise
    finish(db, analyze=True)
