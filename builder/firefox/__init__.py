"""Firefox profile projection: a persona's browser state as files Firefox 153 ESR opens.

API (see each module for units and the Mozilla sources followed):

- :class:`Bookmark`, :class:`Visit`, :class:`Cookie` (models.py): input records.
- :func:`write_profile` (profile.py): places.sqlite, cookies.sqlite,
  formhistory.sqlite, user.js, times.json into one profile directory.
- :func:`write_profiles_ini` (profile.py): profiles.ini + installs.ini making
  that directory the default profile of /usr/lib/firefox-esr.
- :func:`policies_json` (prefs.py): enterprise policies for
  /etc/firefox/policies/policies.json.
- :func:`url_hash`, :func:`install_hash` (hashing.py): Firefox's hashes.
- :func:`frecency` (frecency.py): Firefox 153's page frecency.

Schema versions written (observed from the real Firefox 153.8.0esr):
places.sqlite 86, cookies.sqlite 17, formhistory.sqlite 5 (schema.py).
"""

from .frecency import frecency, origin_frecency, page_frecency
from .hashing import install_hash, url_hash
from .models import Bookmark, Cookie, Visit
from .prefs import POLICIES_PATH, default_prefs, policies_json, render_user_js
from .profile import write_profile, write_profiles_ini
from .schema import COOKIES_SCHEMA_VERSION, FORMHISTORY_SCHEMA_VERSION, PLACES_SCHEMA_VERSION

__all__ = [
    "Bookmark",
    "COOKIES_SCHEMA_VERSION",
    "Cookie",
    "FORMHISTORY_SCHEMA_VERSION",
    "PLACES_SCHEMA_VERSION",
    "POLICIES_PATH",
    "Visit",
    "default_prefs",
    "frecency",
    "install_hash",
    "origin_frecency",
    "page_frecency",
    "policies_json",
    "render_user_js",
    "url_hash",
    "write_profile",
    "write_profiles_ini",
]
