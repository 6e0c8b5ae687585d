"""Browsing: web visits and bookmarks, from the persona's sites and from what happens in its life.

* Each site in ``persona.browsing`` gets sessions on ``per_week / 7`` of days on average
  (a day may hold two), at waking hours. A session opens the site's home page (typed, or
  from a bookmark if bookmarked) and follows 0-4 links to its pages.
* Life drives visits too: the bank after a paycheck lands, the airline's site when a
  flight is booked, the shop when an order is placed (whichever of those events exist).
* Bookmarks: each bookmarked site on the toolbar at the history's start, plus pages saved
  while browsing into folders of the bookmarks menu (``Recipes``, ``Travel``, ``Read later``, ``Work``).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from urllib.parse import urlsplit

from .context import Sim

# Pages of our own app clones, by host: (path, title).
APP_PAGES: dict[str, list[tuple[str, str]]] = {
    "larkspurbank.test": [("/", "Accounts | Larkspur Bank"), ("/transfer", "Transfer money | Larkspur Bank"),
                          ("/statements", "Statements | Larkspur Bank"), ("/pay-bills", "Pay bills | Larkspur Bank"),
                          ("/send-money", "Send money | Larkspur Bank")],
}
_FOLDERS = ["Recipes", "Travel", "Read later", "Work"]


def _slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:70]


def _page(sim_faker, site_url: str, day: dt.date) -> tuple[str, str]:
    """A plausible article/page URL and title on ``site_url`` for ``day``."""
    host = urlsplit(site_url).netloc
    title = sim_faker.sentence(nb_words=sim_faker.random_int(4, 9)).rstrip(".")
    slug = _slug(title)
    if "wikipedia" in host:
        words = title.split()[:2]
        path = "/wiki/" + "_".join(w.capitalize() for w in words)
        return f"https://{host}{path}", f"{' '.join(words).title()} - Wikipedia"
    if "youtube" in host:
        vid = "".join(sim_faker.random_choices("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789_-", 11))
        return f"https://{host}/watch?v={vid}", f"{title} - YouTube"
    if "reddit" in host:
        return (f"https://{host}/r/{_slug(sim_faker.word())}/comments/{sim_faker.pystr(6, 6).lower()}/{slug}/",
                f"{title} : r/{sim_faker.word()}")
    return f"https://{host}/{day:%Y/%m/%d}/{slug}", title


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
                url, title = _page(fake, site_url, at.date())
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
