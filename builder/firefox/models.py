"""Input records for the Firefox profile projection.

All timestamps follow the unit Firefox itself stores, named by suffix:

- ``*_us``: PRTime, integer microseconds since the Unix epoch, UTC
  (nspr/pr/include/prtime.h; what moz_places, moz_historyvisits,
  moz_bookmarks and moz_cookies.creationTime hold).
- ``*_s``: integer seconds since the Unix epoch, UTC.
"""

from __future__ import annotations

from dataclasses import dataclass

# nsINavHistoryService::TRANSITION_* (toolkit/components/places/nsINavHistoryService.idl),
# values confirmed at run time in Firefox 153 (Ci.nsINavHistoryService).
TRANSITION_LINK = 1
TRANSITION_TYPED = 2
TRANSITION_BOOKMARK = 3
TRANSITION_EMBED = 4
TRANSITION_REDIRECT_PERMANENT = 5
TRANSITION_REDIRECT_TEMPORARY = 6
TRANSITION_DOWNLOAD = 7
TRANSITION_FRAMED_LINK = 8
TRANSITION_RELOAD = 9
TRANSITIONS = frozenset(range(1, 10))

# nsINavHistoryService::VISIT_SOURCE_* (moz_historyvisits.source).
VISIT_SOURCE_ORGANIC = 0
VISIT_SOURCE_SPONSORED = 1
VISIT_SOURCE_BOOKMARKED = 2
VISIT_SOURCE_SEARCHED = 3

# nsICookie (netwerk/cookie/nsICookie.idl), confirmed at run time in Firefox 153.
SAMESITE_NONE = 0
SAMESITE_LAX = 1
SAMESITE_STRICT = 2
SAMESITE_UNSET = 256  # what Firefox 153 stores when the Set-Cookie had no SameSite
SCHEME_HTTP = 1
SCHEME_HTTPS = 2
SCHEME_FILE = 4


@dataclass(frozen=True)
class Bookmark:
    """A bookmark on the Bookmarks Toolbar (moz_bookmarks row, type 1).

    title: the bookmark's own title (moz_bookmarks.title).
    url: the page; normalised like nsIURI does (lower-case scheme/host, "/" path).
    added_us: dateAdded, PRTime microseconds since the epoch (UTC).
    """

    title: str
    url: str
    added_us: int


@dataclass(frozen=True)
class Visit:
    """One history visit (moz_historyvisits row).

    url: the page visited; title: the page's <title> at that visit ("" if none).
    visit_us: visit_date, PRTime microseconds since the epoch (UTC).
    transition: visit_type, nsINavHistoryService::TRANSITION_*: 1 link, 2 typed,
      3 bookmark, 4 embed, 5/6 redirect permanent/temporary, 7 download,
      8 framed link, 9 reload. Embed visits are not stored (Firefox never does);
      a page seen only through framed links is hidden; 0/4/7/8/9 do not count in
      visit_count.
    """

    url: str
    title: str
    visit_us: int
    transition: int = TRANSITION_LINK


@dataclass(frozen=True, kw_only=True)
class Cookie:
    """A cookie in cookies.sqlite (moz_cookies row). Keyword-only.

    host: "larkspurbank.test" for a host-only cookie, ".larkspurbank.test" for a
      domain cookie (the leading dot is what Firefox stores for Domain=).
    expiry_s: expiry in seconds since the epoch (written as milliseconds, the
      unit of moz_cookies.expiry since cookies schema 16).
    created_us: creationTime, PRTime microseconds (also used for lastAccessed
      and updateTime).
    same_site: nsICookie SAMESITE_*: 0 none, 1 lax, 2 strict, 256 unset.
    scheme_map: nsICookie SCHEME_* bits of the schemes that set it; None means
      2 (https) for secure cookies and 1 (http) otherwise.
    """

    host: str
    name: str
    value: str
    path: str = "/"
    expiry_s: int
    created_us: int
    secure: bool = False
    http_only: bool = True
    same_site: int = SAMESITE_LAX
    scheme_map: int | None = None
