"""user.js and the enterprise policies for the guest's Firefox ESR.

Pref names were checked against Firefox 153.8.0esr at run time (each one below
has a default there, i.e. is read by this version): browser/app/profile/
firefox.js, modules/libpref/init/all.js and StaticPrefList.yaml. Policy names and
shapes follow browser/components/enterprisepolicies/schemas/policies-schema.json
as shipped in 153's browser/omni.ja; the tests validate against that file.

Where Debian's firefox-esr reads policies.json: EnterprisePoliciesParent.sys.mjs
looks first in Services.dirsvc "SysConfD" + "/policies/policies.json" (Linux,
MOZ_SYSTEM_POLICIES, true in this build), which Firefox 153 resolves to
``/etc/firefox`` (lower-cased app name "Firefox", not the package name), so
``/etc/firefox/policies/policies.json``; failing that
``/usr/lib/firefox-esr/distribution/policies.json`` ("XREAppDist").
"""

from __future__ import annotations

import json
from collections.abc import Mapping

PrefValue = str | int | bool

POLICIES_PATH = "/etc/firefox/policies/policies.json"

# termsofuse.currentVersion / minimumVersion in Firefox 153.
TERMS_OF_USE_VERSION = 4


def default_prefs(homepage: str, *, now_us: int) -> dict[str, PrefValue]:
    """The prefs every persona profile gets (see module docstring for sources)."""
    return {
        # Start page: the persona's homepage, every start (1 = homepage).
        "browser.startup.homepage": homepage,
        "browser.startup.page": 1,
        "browser.startup.firstrunSkipsHomepage": False,
        # No welcome / what's-new / upgrade pages (BrowserContentHandler.sys.mjs
        # shows the override page unless mstone is "ignore").
        "browser.startup.homepage_override.mstone": "ignore",
        "startup.homepage_welcome_url": "",
        "startup.homepage_welcome_url.additional": "",
        "startup.homepage_override_url": "",
        "browser.aboutwelcome.enabled": False,
        "browser.startup.upgradeDialog.enabled": False,
        # Terms of use / data-reporting notice already handled
        # (TelemetryReportingPolicy.sys.mjs).
        "termsofuse.acceptedVersion": TERMS_OF_USE_VERSION,
        "termsofuse.acceptedDate": str(now_us // 1000),
        "termsofuse.bypassNotification": True,
        "datareporting.policy.dataSubmissionEnabled": False,
        "datareporting.policy.dataSubmissionPolicyBypassNotification": True,
        "datareporting.healthreport.uploadEnabled": False,
        "datareporting.usage.uploadEnabled": False,
        "toolkit.telemetry.reportingpolicy.firstRun": False,
        "toolkit.telemetry.enabled": False,
        "toolkit.telemetry.unified": False,
        "toolkit.telemetry.archive.enabled": False,
        "toolkit.telemetry.newProfilePing.enabled": False,
        "toolkit.telemetry.firstShutdownPing.enabled": False,
        "toolkit.telemetry.shutdownPingSender.enabled": False,
        "toolkit.telemetry.updatePing.enabled": False,
        "toolkit.telemetry.bhrPing.enabled": False,
        # Crash reporter prompts.
        "browser.crashReports.unsubmittedCheck.enabled": False,
        "browser.crashReports.unsubmittedCheck.autoSubmit2": False,
        "browser.tabs.crashReporting.sendReport": False,
        # Default-browser check.
        "browser.shell.checkDefaultBrowser": False,
        "browser.shell.skipDefaultBrowserCheckOnFirstRun": True,
        "browser.shell.didSkipDefaultBrowserCheckOnFirstRun": True,
        # No "restore session?" page after an unclean stop (a VM snapshot is one),
        # no quit confirmations.
        "browser.sessionstore.resume_from_crash": False,
        "browser.warnOnQuit": False,
        "browser.warnOnQuitShortcut": False,
        # The toolbar our bookmarks live on.
        "browser.toolbars.bookmarks.visibility": "always",
        # Sidebar / AI / recommendation pop-ups.
        "sidebar.revamp": False,
        "sidebar.verticalTabs": False,
        "browser.ml.chat.enabled": False,
        "browser.ml.linkPreview.enabled": False,
        "browser.tabs.groups.smart.enabled": False,
        "browser.translations.automaticallyPopup": False,
        "browser.newtabpage.activity-stream.asrouter.userprefs.cfr.addons": False,
        "browser.newtabpage.activity-stream.asrouter.userprefs.cfr.features": False,
        "browser.uitour.enabled": False,
        "browser.discovery.enabled": False,
        "browser.vpn_promo.enabled": False,
        "browser.promo.focus.enabled": False,
        "app.normandy.enabled": False,
        "app.shield.optoutstudies.enabled": False,
        # New tab: the persona's own top sites only, nothing sponsored or remote.
        "browser.newtabpage.activity-stream.default.sites": "",
        "browser.newtabpage.activity-stream.showSponsored": False,
        "browser.newtabpage.activity-stream.showSponsoredTopSites": False,
        "browser.newtabpage.activity-stream.feeds.section.topstories": False,
        "browser.newtabpage.activity-stream.showWeather": False,
        "browser.topsites.contile.enabled": False,
        # The guest is offline: no probes or update checks that would fail.
        "network.captive-portal-service.enabled": False,
        "network.connectivity-service.enabled": False,
        "extensions.getAddons.cache.enabled": False,
        "extensions.update.enabled": False,
        "browser.region.update.enabled": False,
    }


def _pref_literal(value: PrefValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if not -(2**31) <= value < 2**31:
            raise ValueError(f"integer prefs are 32-bit in Firefox: {value}")
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # "..." with \" \\ \uXXXX escapes, which libpref parses
    raise TypeError(f"unsupported pref value {value!r}")


def render_user_js(prefs: Mapping[str, PrefValue]) -> str:
    """``user_pref("name", value);`` lines, sorted by name."""
    lines = ["// Written by Persona Desktop (builder/firefox). Firefox applies it at every start."]
    for name in sorted(prefs):
        lines.append(f"user_pref({json.dumps(name)}, {_pref_literal(prefs[name])});")
    return "\n".join(lines) + "\n"


def policies_json(homepage: str) -> dict:
    """Enterprise policies for ``/etc/firefox/policies/policies.json``.

    Returns ``{"policies": {...}}``; dump it with ``json.dumps(..., indent=2,
    sort_keys=True)`` for a stable file.
    """
    return {
        "policies": {
            "DisableAppUpdate": True,
            "DisableTelemetry": True,
            "DisableFirefoxStudies": True,
            "DisableProfileImport": True,
            "DisableProfileRefresh": True,
            "DontCheckDefaultBrowser": True,
            "NoDefaultBookmarks": True,
            "OverrideFirstRunPage": "",
            "OverridePostUpdatePage": "",
            "SkipTermsOfUse": True,
            "CaptivePortal": False,
            "ExtensionUpdate": False,
            "DisplayBookmarksToolbar": "always",
            "Homepage": {"URL": homepage, "StartPage": "homepage", "Locked": False},
            "UserMessaging": {
                "WhatsNew": False,
                "ExtensionRecommendations": False,
                "FeatureRecommendations": False,
                "UrlbarInterventions": False,
                "SkipOnboarding": True,
                "MoreFromMozilla": False,
                "FirefoxLabs": False,
                "Locked": False,
            },
            "FirefoxHome": {
                "Search": True,
                "TopSites": True,
                "SponsoredTopSites": False,
                "Highlights": True,
                "Pocket": False,
                "Stories": False,
                "SponsoredPocket": False,
                "SponsoredStories": False,
                "Snippets": False,
                "Weather": False,
                "Locked": False,
            },
            "FirefoxSuggest": {
                "WebSuggestions": False,
                "SponsoredSuggestions": False,
                "ImproveSuggest": False,
                "Locked": False,
            },
            "GenerativeAI": {"Enabled": False, "Locked": False},
        }
    }
