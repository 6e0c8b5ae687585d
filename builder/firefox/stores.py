"""cookies.sqlite and formhistory.sqlite.

cookies.sqlite (netwerk/cookie/CookiePersistentStorage.cpp, schema 17 in
Firefox 153), units as the real Firefox wrote them for a Set-Cookie over HTTP:
expiry in *milliseconds* since the epoch (seconds before schema 16),
lastAccessed / creationTime / updateTime in microseconds, originAttributes ''
for the default (non-container, non-partitioned) jar, sameSite per nsICookie
(0 none, 1 lax, 2 strict, 256 unset), schemeMap per nsICookie (1 http, 2 https,
4 file). Firefox drops expired cookies when it reads the file, so expiry must
lie after the guest's clock.

formhistory.sqlite (toolkit/components/satchel/FormHistory.sys.mjs, schema 5):
moz_formhistory rows with timesUsed / firstUsed / lastUsed (µs) and a 16-char
GUID like the ones FormHistory makes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from . import schema
from .hashing import guid
from .models import SCHEME_HTTP, SCHEME_HTTPS, Cookie
from .sqlitefile import finish, new_database


def write_cookies(path: Path, cookies: Sequence[Cookie]) -> None:
    """Write cookies.sqlite at ``path``; rows sorted by (host, name, path)."""
    seen: set[tuple[str, str, str]] = set()
    rows = []
    for c in sorted(cookies, key=lambda c: (c.host, c.name, c.path)):
        key = (c.host, c.name, c.path)
        if key in seen:  # CONSTRAINT moz_uniqueid UNIQUE (name, host, path, originAttributes)
            raise ValueError(f"duplicate cookie {key}")
        seen.add(key)
        if not c.host or c.host != c.host.strip().lower():
            raise ValueError(f"cookie host must be a lower-case host name: {c.host!r}")
        scheme_map = c.scheme_map if c.scheme_map is not None else (SCHEME_HTTPS if c.secure else SCHEME_HTTP)
        rows.append(
            (
                len(rows) + 1,
                "",  # originAttributes: default jar
                c.name,
                c.value,
                c.host,
                c.path,
                int(c.expiry_s) * 1000,  # milliseconds since schema 16
                int(c.created_us),  # lastAccessed
                int(c.created_us),  # creationTime
                int(bool(c.secure)),
                int(bool(c.http_only)),
                0,  # inBrowserElement
                int(c.same_site),
                int(scheme_map),
                0,  # isPartitionedAttributeSet
                int(c.created_us),  # updateTime
            )
        )
    db = new_database(path, schema.COOKIES_DDL, schema.COOKIES_SCHEMA_VERSION)
    try:
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO moz_cookies (id, originAttributes, name, value, host, path, expiry,"
            " lastAccessed, creationTime, isSecure, isHttpOnly, inBrowserElement, sameSite,"
            " schemeMap, isPartitionedAttributeSet, updateTime)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            rows,
        )
        db.execute("COMMIT")
    except BaseException:
        db.close()
        raise
    finish(db)


def write_formhistory(path: Path, entries: Iterable[tuple[str, str, int]]) -> None:
    """Write formhistory.sqlite from (fieldname, value, used_us) uses.

    Repeated (fieldname, value) pairs fold into one row: timesUsed = count,
    firstUsed / lastUsed = earliest / latest use. Rows are sorted by
    (fieldname, value).
    """
    folded: dict[tuple[str, str], list[int]] = {}
    for fieldname, value, used_us in entries:
        folded.setdefault((fieldname, value), []).append(int(used_us))
    db = new_database(path, schema.FORMHISTORY_DDL, schema.FORMHISTORY_SCHEMA_VERSION)
    try:
        db.execute("BEGIN")
        for i, ((fieldname, value), uses) in enumerate(sorted(folded.items()), start=1):
            db.execute(
                "INSERT INTO moz_formhistory (id, fieldname, value, timesUsed, firstUsed,"
                " lastUsed, guid) VALUES (?,?,?,?,?,?,?)",
                (
                    i,
                    fieldname,
                    value,
                    len(uses),
                    min(uses),
                    max(uses),
                    guid("formhistory", fieldname, value, length=16),
                ),
            )
        db.execute("COMMIT")
    except BaseException:
        db.close()
        raise
    finish(db)
