"""Browsing: web visits and bookmarks, from the persona's sites and from what happens in its life.

* Each site in ``persona.browsing`` gets sessions on ``per_week / 7`` of days on average
  (a day may hold two), at waking hours. A session opens the site's home page (typed, or
  from a bookmark if bookmarked) and follows 0-4 links to its pages.
* Life drives visits too: the bank after a paycheck lands, the airline's site when a
  flight is booked, the shop when an order is placed (whichever of those events exist).
* Bookmarks: each bookmarked site on the toolbar at the history's start, plus pages saved
  while browsing into folders of the bookmarks menu (``Recipes``, ``Travel``, ``Read later``, ``Work``).
* Page titles come from phrase banks in ``templates/browsing/<locale>.yaml`` (never lorem): a site's
  kind (news, weather, recipes, encyclopedia, video, forum, code, sports, rail, travel, else generic)
  is read from its host and title (:func:`site_kind`); a kind's templates fill ``{slot}`` from the
  bank's slot lists (slots may nest), ``{#a-b}`` with a number, ``{year}`` with the visit's year,
  ``{this_month}``/``{last_month}`` with a month and its year. ``kind@season`` and ``slot@season``
  entries join in that season only (northern hemisphere). URL shapes: Wikipedia ``/wiki/Title``,
  YouTube ``watch?v=``, Reddit ``/r/<sub>/comments/<id>/<slug>/``, others ``/<y>/<m>/<d>/<slug>``.
  All draws come from the ``browsing/pages`` Faker's random, in order.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache
from pathlib import Path
from urllib.parse import quote, urlsplit

import yaml

from ..names import ascii_slug
from .context import Sim

# Pages of our own app clones, by host: (path, title).
APP_PAGES: dict[str, list[tuple[str, str]]] = {
    "larkspurbank.test": [("/", "Accounts | Larkspur Bank"), ("/transfer", "Transfer money | Larkspur Bank"),
                          ("/statements", "Statements | Larkspur Bank"), ("/pay-bills", "Pay bills | Larkspur Bank"),
                          ("/send-money", "Send money | Larkspur Bank")],
}
_FOLDERS = ["Recipes", "Travel", "Read later", "Work"]
TEMPLATES = Path(__file__).with_name("templates") / "browsing"
KINDS = ("encyclopedia", "video", "forum", "code", "weather", "recipes", "sports", "rail", "travel", "news", "generic")
# Kind of a site by words of its host or title, first match wins (order of KINDS).
_KIND_WORDS: dict[str, tuple[str, ...]] = {
    "encyclopedia": ("wikipedia", "wiki", "britannica", "encyclop", "lexikon"),
    "video": ("youtube", "youtu.be", "vimeo", "twitch", "dailymotion", "video"),
    "forum": ("reddit", "forum", "stackexchange", "stackoverflow", "quora", "community"),
    "code": ("github", "gitlab", "bitbucket", "codeberg", "sourceforge"),
    "weather": ("weather", "metoffice", "dwd.de", "wetter", "forecast", "accuweather", "met office"),
    "recipes": ("recipe", "allrecipes", "goodfood", "chefkoch", "food", "kitchen", "cook", "epicurious", "rezept",
                "kochen", "essen"),
    "sports": ("espn", "kicker", "sport", "football", "fussball", "nfl", "nba", "mlb", "skysports", "goal.com"),
    "rail": ("rail", "bahn", "train", "amtrak", "trainline", "tfl", "transit", "sbb.ch", "oebb"),
    "travel": ("airline", "airways", "air.", "flight", "hotel", "booking", "travel", "trip",
               "expedia", "reise"),
    "news": ("news", "times", "guardian", "tagesschau", "spiegel", "zeit", "washingtonpost", "herald", "tribune", "bbc", "cnn",
             "reuters", "npr", "telegraph", "independent", "journal", "faz", "sueddeutsche", "welt", "heise",
             "tagesspiegel", "nachrichten", "apnews", "chronicle"),
}
_SEASONS = {12: "winter", 1: "winter", 2: "winter", 3: "spring", 4: "spring", 5: "spring", 6: "summer",
            7: "summer", 8: "summer", 9: "autumn", 10: "autumn", 11: "autumn"}
_SLOT = re.compile(r"\{([#\w@-]+)\}")


def site_kind(site_url: str, site_title: str = "") -> str:
    """The kind of site at ``site_url`` (one of :data:`KINDS`), from its host and title; ``generic`` if unknown."""
    host = urlsplit(site_url).netloc.lower().removeprefix("www.")
    text = f"{host} {site_title.lower()}"
    for kind, words in _KIND_WORDS.items():
        if any(w in text for w in words):
            return kind
    return "generic"


@cache
def bank(locale: str) -> dict:
    """The phrase bank of ``locale`` (en_US when the locale has none): ``slots``, ``kinds``, ``formats``, ``forum``."""
    path = TEMPLATES / f"{locale}.yaml"
    if not path.exists():
        path = TEMPLATES / "en_US.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _choices(table: dict, name: str, season: str) -> list:
    return list(table.get(name, [])) + list(table.get(f"{name}@{season}", []))


def _fill(r, b: dict, template: str, day: dt.date, depth: int = 0) -> str:
    """``template`` with every ``{slot}`` replaced by a draw from ``r`` (left to right, nested slots first)."""
    season = _SEASONS[day.month]

    def one(m: re.Match) -> str:
        name = m.group(1)
        if name.startswith("#"):
            lo, hi = name[1:].split("-")
            return str(r.randint(int(lo), int(hi)))
        if name == "year":
            return str(day.year)
        if name in ("this_month", "last_month"):
            first = day.replace(day=1) - dt.timedelta(days=1 if name == "last_month" else 0)
            return f"{b['slots']['month'][first.month - 1]} {first.year}"
        values = _choices(b["slots"], name, season)
        if not values:
            raise KeyError(f"browsing bank: unknown slot {name!r}")
        value = values[r.randrange(len(values))]
        return _fill(r, b, value, day, depth + 1) if depth < 4 and "{" in value else value

    return _SLOT.sub(one, template)


def _headline(r, b: dict, kind: str, day: dt.date) -> str:
    templates = _choices(b["kinds"], kind, _SEASONS[day.month]) or b["kinds"]["generic"]
    text = _fill(r, b, templates[r.randrange(len(templates))], day)
    return text if kind == "code" else text[:1].upper() + text[1:]


def _page(sim_faker, site_url: str, day: dt.date, site_title: str = "", locale: str = "en_US") -> tuple[str, str]:
    """A plausible article/page URL and title on ``site_url`` for ``day``, from the ``locale`` phrase bank."""
    host = urlsplit(site_url).netloc
    r = sim_faker.random
    b = bank(locale)
    kind = site_kind(site_url, site_title)
    formats = b["formats"]
    if kind == "encyclopedia" and "wikipedia" in host:
        article = _headline(r, b, "encyclopedia", day)
        path = "/wiki/" + quote(article.replace(" ", "_"), safe="_(),:'-!.")
        return f"https://{host}{path}", formats["encyclopedia"].format(title=article)
    if kind == "video" and "youtube" in host:
        title = _headline(r, b, "video", day)
        vid = "".join(sim_faker.random_choices("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789_-", 11))
        return f"https://{host}/watch?v={vid}", formats["video"].format(title=title)
    if kind == "forum" and "reddit" in host:
        group = b["forum"][r.randrange(len(b["forum"]))]
        sub = group["subs"][r.randrange(len(group["subs"]))]
        posts = group["posts"] + b["forum_common"]
        title = _fill(r, b, posts[r.randrange(len(posts))], day)
        title = title[:1].upper() + title[1:]
        return (f"https://{host}/r/{sub}/comments/{sim_faker.pystr(6, 6).lower()}/{ascii_slug(title)[:70]}/",
                formats["forum"].format(title=title, sub=sub))
    title = _headline(r, b, kind, day)
    site = site_title if site_title and "://" not in site_title else host.removeprefix("www.")
    return f"https://{host}/{day:%Y/%m/%d}/{ascii_slug(title)[:70]}", formats["page"].format(title=title, site=site)


def simulate_browsing(sim: Sim) -> None:
    """Append ``web_visit`` and ``bookmark`` events (see module rules)."""
    p = sim.persona
    ro = p.routines
    wake = int(ro.wake[:2])
    bed = int(ro.bedtime[:2])
    bed = bed if bed > wake else 23
    r = sim.rng("browsing/sessions")
    times = sim.rng("browsing/times")
    fake = sim.faker("browsing/pages")
    save = sim.rng("browsing/bookmarks")

    for i, site in enumerate(p.browsing):
        if site.bookmarked:
            sim.event("bookmark", sim.start + dt.timedelta(hours=19, minutes=i),
                      {"url": site.url, "title": site.title, "folder": "toolbar"}, key=site.url)

    def session(at: dt.datetime, site_url: str, site_title: str, bookmarked: bool, links: int, key: object) -> None:
        host = urlsplit(site_url).netloc
        home = (site_url, site_title)
        sim.event("web_visit", at, {"url": home[0], "title": home[1],
                                    "transition": "bookmark" if bookmarked else "typed", "site": host}, key=(key, 0))
        for n in range(1, links + 1):
            at = at + dt.timedelta(seconds=times.randint(20, 240))
            if at > sim.now:
                break
            if host in APP_PAGES:
                url, title = APP_PAGES[host][r.randrange(1, len(APP_PAGES[host]))]
                url = f"http://{host}{url}"
            else:
                url, title = _page(fake, site_url, at.date(), site_title, p.locale)
            sim.event("web_visit", at, {"url": url, "title": title, "transition": "link", "site": host}, key=(key, n))
            if host not in APP_PAGES and save.random() < 0.004:
                folder = _FOLDERS[save.randrange(len(_FOLDERS))]
                sim.event("bookmark", at + dt.timedelta(seconds=5), {"url": url, "title": title,
                                                                     "folder": f"menu/{folder}"}, key=url)

    for day in sim.past_days():
        for i, site in enumerate(p.browsing):
            rate = float(site.per_week) / 7
            count = int(rate) + (1 if r.random() < rate - int(rate) else 0)
            for k in range(count):
                at = dt.datetime.combine(day, dt.time(times.randint(wake, bed), times.randint(0, 59),
                                                      times.randint(0, 59)))
                if at <= sim.now:
                    session(at, site.url, site.title, site.bookmarked, r.randint(0, 4), (site.url, day, k))

    # Visits that follow events of other modules.
    by_kind = {"paycheck": ("http://larkspurbank.test/", "Accounts | Larkspur Bank")}
    for e in list(sim.events):
        if e.status != "done":
            continue
        target = by_kind.get(e.kind)
        if e.data.get("site_url"):
            target = (e.data["site_url"], e.data.get("site_title", e.data["site_url"]))
        if target and r.random() < 0.6:
            at = e.at + dt.timedelta(minutes=times.randint(1, 90))
            if at <= sim.now:
                session(at, target[0], target[1], False, r.randint(1, 3), ("after", e.id))
