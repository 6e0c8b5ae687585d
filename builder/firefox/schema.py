"""SQLite schemas of the Firefox 153 ESR profile databases.

These are schema facts observed, not invented: a profile was created by the real
``firefox-esr`` 153.8.0esr (Debian package 153.8.0esr-1~deb12u1, BuildID
20261117185949) with ``firefox-esr --headless --profile <empty dir>`` and the
statements below are the ``sqlite_master.sql`` texts it wrote, byte for byte and
in the order Firefox created them (``sqlite_sequence`` appears by itself with the
AUTOINCREMENT table; ``sqlite_stat1`` comes from ANALYZE). The version numbers are
the ``PRAGMA user_version`` Firefox stored.

Where Firefox defines them:
- places.sqlite: toolkit/components/places/nsPlacesTables.h, nsPlacesIndexes.h,
  Database.cpp (DATABASE_SCHEMA_VERSION). Triggers (nsPlacesTriggers.h) are TEMP
  and created at run time, so they are not part of the file.
- cookies.sqlite: netwerk/cookie/CookiePersistentStorage.cpp (COOKIES_SCHEMA_VERSION).
- formhistory.sqlite: toolkit/components/satchel/FormHistory.sys.mjs (dbSchema,
  DB_SCHEMA_VERSION); created lazily on first form-history use.

Firefox opens a file whose user_version equals its own without migrating it;
an older one is migrated, and one it cannot read is moved aside as corrupt.
"""

# mozStorage's default page size; all three files Firefox made use it.
PAGE_SIZE = 32768

PLACES_SCHEMA_VERSION = 86
PLACES_DDL = (
    "CREATE TABLE moz_origins ( id INTEGER PRIMARY KEY, prefix TEXT NOT NULL, host TEXT NOT NULL, frecency INTEGER NOT NULL, recalc_frecency INTEGER NOT NULL DEFAULT 0, alt_frecency INTEGER, recalc_alt_frecency INTEGER NOT NULL DEFAULT 0, block_until_ms INTEGER, block_pages_until_ms INTEGER, UNIQUE (prefix, host) )",
    "CREATE TABLE moz_places (   id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR, rev_host LONGVARCHAR, visit_count INTEGER DEFAULT 0, hidden INTEGER DEFAULT 0 NOT NULL, typed INTEGER DEFAULT 0 NOT NULL, frecency INTEGER DEFAULT -1 NOT NULL, last_visit_date INTEGER , guid TEXT, foreign_count INTEGER DEFAULT 0 NOT NULL, url_hash INTEGER DEFAULT 0 NOT NULL , description TEXT, preview_image_url TEXT, site_name TEXT, origin_id INTEGER REFERENCES moz_origins(id), recalc_frecency INTEGER NOT NULL DEFAULT 0, alt_frecency INTEGER, recalc_alt_frecency INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE moz_places_extra (  place_id INTEGER PRIMARY KEY NOT NULL, sync_json TEXT, FOREIGN KEY (place_id) REFERENCES moz_places(id) ON DELETE CASCADE )",
    "CREATE INDEX moz_places_url_hashindex ON moz_places (url_hash)",
    "CREATE INDEX moz_places_hostindex ON moz_places (rev_host)",
    "CREATE INDEX moz_places_visitcount ON moz_places (visit_count)",
    "CREATE INDEX moz_places_frecencyindex ON moz_places (frecency)",
    "CREATE INDEX moz_places_lastvisitdateindex ON moz_places (last_visit_date)",
    "CREATE UNIQUE INDEX moz_places_guid_uniqueindex ON moz_places (guid)",
    "CREATE INDEX moz_places_originidindex ON moz_places (origin_id)",
    "CREATE INDEX moz_places_altfrecencyindex ON moz_places (alt_frecency)",
    "CREATE TABLE moz_historyvisits (  id INTEGER PRIMARY KEY, from_visit INTEGER, place_id INTEGER, visit_date INTEGER, visit_type INTEGER, session INTEGER, source INTEGER DEFAULT 0 NOT NULL, triggeringPlaceId INTEGER)",
    "CREATE TABLE moz_historyvisits_extra (  visit_id INTEGER PRIMARY KEY NOT NULL, sync_json TEXT, FOREIGN KEY (visit_id) REFERENCES moz_historyvisits(id) ON   DELETE CASCADE)",
    "CREATE INDEX moz_historyvisits_placedateindex ON moz_historyvisits (place_id, visit_date)",
    "CREATE INDEX moz_historyvisits_fromindex ON moz_historyvisits (from_visit)",
    "CREATE INDEX moz_historyvisits_dateindex ON moz_historyvisits (visit_date)",
    "CREATE TABLE moz_inputhistory (  place_id INTEGER NOT NULL, input LONGVARCHAR NOT NULL, use_count INTEGER, PRIMARY KEY (place_id, input))",
    "CREATE TABLE moz_bookmarks (  id INTEGER PRIMARY KEY, type INTEGER, fk INTEGER DEFAULT NULL, parent INTEGER, position INTEGER, title LONGVARCHAR, keyword_id INTEGER, folder_type TEXT, dateAdded INTEGER, lastModified INTEGER, guid TEXT, syncStatus INTEGER NOT NULL DEFAULT 0, syncChangeCounter INTEGER NOT NULL DEFAULT 1)",
    "CREATE TABLE moz_bookmarks_deleted (  guid TEXT PRIMARY KEY, dateRemoved INTEGER NOT NULL DEFAULT 0)",
    "CREATE INDEX moz_bookmarks_itemindex ON moz_bookmarks (fk, type)",
    "CREATE INDEX moz_bookmarks_parentindex ON moz_bookmarks (parent, position)",
    "CREATE INDEX moz_bookmarks_itemlastmodifiedindex ON moz_bookmarks (fk, lastModified)",
    "CREATE INDEX moz_bookmarks_dateaddedindex ON moz_bookmarks (dateAdded)",
    "CREATE UNIQUE INDEX moz_bookmarks_guid_uniqueindex ON moz_bookmarks (guid)",
    "CREATE TABLE moz_keywords (  id INTEGER PRIMARY KEY AUTOINCREMENT, keyword TEXT UNIQUE, place_id INTEGER, post_data TEXT)",
    "CREATE UNIQUE INDEX moz_keywords_placepostdata_uniqueindex ON moz_keywords (place_id, post_data)",
    "CREATE TABLE moz_anno_attributes (  id INTEGER PRIMARY KEY, name VARCHAR(32) UNIQUE NOT NULL)",
    "CREATE TABLE moz_annos (  id INTEGER PRIMARY KEY, place_id INTEGER NOT NULL, anno_attribute_id INTEGER, content LONGVARCHAR, flags INTEGER DEFAULT 0, expiration INTEGER DEFAULT 0, type INTEGER DEFAULT 0, dateAdded INTEGER DEFAULT 0, lastModified INTEGER DEFAULT 0)",
    "CREATE UNIQUE INDEX moz_annos_placeattributeindex ON moz_annos (place_id, anno_attribute_id)",
    "CREATE TABLE moz_items_annos (  id INTEGER PRIMARY KEY, item_id INTEGER NOT NULL, anno_attribute_id INTEGER, content LONGVARCHAR, flags INTEGER DEFAULT 0, expiration INTEGER DEFAULT 0, type INTEGER DEFAULT 0, dateAdded INTEGER DEFAULT 0, lastModified INTEGER DEFAULT 0)",
    "CREATE UNIQUE INDEX moz_items_annos_itemattributeindex ON moz_items_annos (item_id, anno_attribute_id)",
    "CREATE TABLE moz_meta (key TEXT PRIMARY KEY, value NOT NULL) WITHOUT ROWID ",
    "CREATE TABLE moz_places_metadata (id INTEGER PRIMARY KEY, place_id INTEGER NOT NULL, referrer_place_id INTEGER, created_at INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL DEFAULT 0, total_view_time INTEGER NOT NULL DEFAULT 0, typing_time INTEGER NOT NULL DEFAULT 0, key_presses INTEGER NOT NULL DEFAULT 0, scrolling_time INTEGER NOT NULL DEFAULT 0, scrolling_distance INTEGER NOT NULL DEFAULT 0, document_type INTEGER NOT NULL DEFAULT 0, search_query_id INTEGER, FOREIGN KEY (place_id) REFERENCES moz_places(id) ON DELETE CASCADE, FOREIGN KEY (referrer_place_id) REFERENCES moz_places(id) ON DELETE CASCADE, FOREIGN KEY(search_query_id) REFERENCES moz_places_metadata_search_queries(id) ON DELETE CASCADE CHECK(place_id != referrer_place_id) )",
    "CREATE UNIQUE INDEX moz_places_metadata_placecreated_uniqueindex ON moz_places_metadata (place_id, created_at)",
    "CREATE INDEX moz_places_metadata_referrerindex ON moz_places_metadata (referrer_place_id)",
    "CREATE TABLE moz_places_metadata_search_queries ( id INTEGER PRIMARY KEY, terms TEXT NOT NULL UNIQUE )",
    "CREATE TABLE moz_previews_tombstones (   hash TEXT PRIMARY KEY ) WITHOUT ROWID",
    "CREATE TABLE moz_newtab_story_click (   feature TEXT NOT NULL,   timestamp_s INTEGER NOT NULL,   card_format_enum INTEGER NOT NULL,   position INTEGER NOT NULL,   section_position INTEGER NOT NULL,   feature_value REAL NOT NULL DEFAULT 1 )",
    "CREATE TABLE moz_newtab_story_impression (   feature TEXT NOT NULL,   timestamp_s INTEGER NOT NULL,   card_format_enum INTEGER NOT NULL,   position INTEGER NOT NULL,   section_position INTEGER NOT NULL,   feature_value REAL NOT NULL DEFAULT 1 )",
    "CREATE INDEX moz_newtab_story_click_newtab_click_timestampindex ON moz_newtab_story_click (timestamp_s)",
    "CREATE INDEX moz_newtab_story_impression_newtab_impression_timestampindex ON moz_newtab_story_impression (timestamp_s)",
    "CREATE TABLE moz_newtab_shortcuts_interaction (   id INTEGER PRIMARY KEY,   place_id INTEGER NOT NULL REFERENCES moz_places(id) ON DELETE CASCADE,   event_type INTEGER NOT NULL,   timestamp_s INTEGER NOT NULL,   pinned INTEGER NOT NULL CHECK (pinned IN (0, 1)),   tile_position INTEGER NOT NULL)",
    "CREATE INDEX moz_newtab_shortcuts_interaction_timestampindex ON moz_newtab_shortcuts_interaction (timestamp_s)",
    "CREATE INDEX moz_newtab_shortcuts_interaction_placeidindex ON moz_newtab_shortcuts_interaction (place_id)",
)

COOKIES_SCHEMA_VERSION = 17
COOKIES_DDL = (
    "CREATE TABLE moz_cookies (id INTEGER PRIMARY KEY, originAttributes TEXT NOT NULL DEFAULT '', name TEXT, value TEXT, host TEXT, path TEXT, expiry INTEGER, lastAccessed INTEGER, creationTime INTEGER, isSecure INTEGER, isHttpOnly INTEGER, inBrowserElement INTEGER DEFAULT 0, sameSite INTEGER DEFAULT 0, schemeMap INTEGER DEFAULT 0, isPartitionedAttributeSet INTEGER DEFAULT 0, updateTime INTEGER, CONSTRAINT moz_uniqueid UNIQUE (name, host, path, originAttributes))",
)

FORMHISTORY_SCHEMA_VERSION = 5
FORMHISTORY_DDL = (
    "CREATE TABLE moz_formhistory (\n      id INTEGER PRIMARY KEY, fieldname TEXT NOT NULL, value TEXT NOT NULL, timesUsed INTEGER, firstUsed INTEGER, lastUsed INTEGER, guid TEXT\n      \n    )",
    "CREATE TABLE moz_deleted_formhistory (\n      id INTEGER PRIMARY KEY, timeDeleted INTEGER, guid TEXT\n      \n    )",
    "CREATE TABLE moz_sources (\n      id INTEGER PRIMARY KEY, source TEXT NOT NULL\n      \n    )",
    "CREATE TABLE moz_history_to_sources (\n      history_id INTEGER, source_id INTEGER\n      ,\n        PRIMARY KEY (history_id, source_id),\n        FOREIGN KEY (history_id) REFERENCES moz_formhistory(id) ON DELETE CASCADE,\n        FOREIGN KEY (source_id) REFERENCES moz_sources(id) ON DELETE CASCADE\n      \n    ) WITHOUT ROWID",
    "CREATE INDEX moz_formhistory_index ON moz_formhistory(fieldname)",
    "CREATE INDEX moz_formhistory_lastused_index ON moz_formhistory(lastUsed)",
    "CREATE INDEX moz_formhistory_guid_index ON moz_formhistory(guid)",
)
