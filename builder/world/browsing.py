"""Browsing: web visits and bookmarks, from the persona's sites and from what happens in its life.

* Each site in ``persona.browsing`` gets sessions on ``per_week / 7`` of days on average
  (a day may hold two), at waking hours. A session opens the site's home page (typed, or
  from a bookmark if bookmarked) and follows 0 to ``4 x screen_hours_per_day / 3`` links to its pages (0-4 at
  the default 3 hours a day; 0 for a persona who spends no time on screens, 24 at 18 hours).
* Life drives visits too: the bank after a paycheck lands, the airline's site when a
  flight is booked, the shop when an order is placed (whichever of those events exist).
* Bookmarks: each bookmarked site on the toolbar at the history's start, plus pages saved
  while browsing into folders of the bookmarks menu (``Recipes``, ``Travel``, ``Read later``, ``Work``).
* Page titles come from phrase banks in ``templates/browsing/<locale>.yaml`` (never lorem): a site's
  kind (news, weather, recipes, encyclopedia, video, forum, code, sports, rail, transit, travel, classifieds,
  else generic)
  is read from its host and title (:func:`site_kind`); a kind's templates fill ``{slot}`` from the
  bank's slot lists (slots may nest), ``{#a-b}`` with a number, ``{year}`` with the visit's year,
  ``{this_month}``/``{last_month}`` with a month and its year. ``kind@season`` and ``slot@season``
  entries join in that season only (northern hemisphere). URL shapes: Wikipedia ``/wiki/Title``,
  YouTube ``watch?v=``, Reddit ``/r/<sub>/comments/<id>/<slug>/``, others ``/<y>/<m>/<d>/<slug>``.
  All draws come from the ``browsing/pages`` Faker's random, in order.
* Search history (:func:`simulate_searches`): result pages of the locale's search engine
  (``templates/browsing/search/<locale>.yaml``: google.com, google.co.uk, google.de; DuckDuckGo or Bing
  when the persona's sites include one) for queries typed around the persona's real plans: each trip
  (weather, things to do, the hotel, the airport; 3-30 days before it), restaurant bookings (the place,
  its menu; shortly before booking), birthdays of close contacts (gift ideas, a week or so before),
  recipes of the persona's cuisines, the payees of its bills. Titles ``<query> - Google Search``, URLs
  ``/search?q=<query, form-encoded>`` (data ``search_query``: the query); some are followed by a click on a
  result (transition ``link``, data ``search_result``: true; URLs of the result site's own shape).
  Draws come from ``browsing/search/...`` streams, so the other visits are unchanged.
"""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import quote, quote_plus, urlsplit

from ..names import ascii_slug
from ..reference.locale import territory
from ..reference.services import service
from .context import Sim
from .engine import world_step
from .locale import phrase_bank

_BANK, _AIRLINE, _STAYS, _RIDES = service("bank"), service("airline"), service("lodging"), service("rides")
# Pages of our own app clones, by host: (path, title).
APP_PAGES: dict[str, list[tuple[str, str]]] = {
    _BANK.domain: [
        ("/", f"Accounts | {_BANK.title}"),
        ("/transfer", f"Transfer money | {_BANK.title}"),
        ("/statements", f"Statements | {_BANK.title}"),
        ("/pay-bills", f"Pay bills | {_BANK.title}"),
        ("/send-money", f"Send money | {_BANK.title}"),
    ],
    # The travel apps: a visit after a booking or a ride opens real pages of the site (first: its home).
    _AIRLINE.domain: [
        ("/", f"My Trips · {_AIRLINE.title}"),
        ("/loyalty", f"MileagePass · {_AIRLINE.title}"),
        ("/book", f"Book a flight · {_AIRLINE.title}"),
    ],
    _STAYS.domain: [
        ("/", f"{_STAYS.title}: hotels and homes"),
        ("/trips", f"Trips | {_STAYS.title}"),
        ("/messages", f"Messages | {_STAYS.title}"),
    ],
    _RIDES.domain: [
        ("/", f"Request a ride · {_RIDES.title}"),
        ("/activity", f"Activity · {_RIDES.title}"),
        ("/scheduled", f"Scheduled rides · {_RIDES.title}"),
    ],
}
_FOLDERS = ["Recipes", "Travel", "Read later", "Work"]
KINDS = (
    "encyclopedia",
    "video",
    "forum",
    "code",
    "weather",
    "recipes",
    "sports",
    "rail",
    "transit",
    "travel",
    "news",
    "classifieds",
    "generic",
)
# Kind of a site by words of its host or title, first match wins (order of KINDS).
_KIND_WORDS: dict[str, tuple[str, ...]] = {
    "encyclopedia": ("wikipedia", "wiki", "britannica", "encyclop", "lexikon"),
    "video": ("youtube", "youtu.be", "vimeo", "twitch", "dailymotion", "video"),
    "forum": ("reddit", "forum", "stackexchange", "stackoverflow", "quora", "community"),
    "code": ("github", "gitlab", "bitbucket", "codeberg", "sourceforge"),
    "weather": ("weather", "metoffice", "dwd.de", "wetter", "forecast", "accuweather", "met office"),
    "recipes": (
        "recipe",
        "allrecipes",
        "goodfood",
        "chefkoch",
        "food",
        "kitchen",
        "cook",
        "epicurious",
        "rezept",
        "kochen",
        "essen",
    ),
    "sports": ("espn", "kicker", "sport", "football", "fussball", "nfl", "nba", "mlb", "skysports", "goal.com"),
    "rail": ("rail", "bahn", "train", "amtrak", "trainline", "tfl", "transit", "sbb.ch", "oebb"),
    # Local transport associations (a bank without this kind falls back to generic pages).
    "transit": ("hvv", "bvg", "mvv", "vbb", "rmv", "kvb"),
    "travel": ("airline", "airways", "air.", "flight", "hotel", "booking", "travel", "trip", "expedia", "reise"),
    "news": (
        "news",
        "times",
        "guardian",
        "tagesschau",
        "spiegel",
        "zeit",
        "washingtonpost",
        "herald",
        "tribune",
        "bbc",
        "cnn",
        "reuters",
        "npr",
        "telegraph",
        "independent",
        "journal",
        "faz",
        "sueddeutsche",
        "welt",
        "heise",
        "tagesspiegel",
        "nachrichten",
        "apnews",
        "chronicle",
        "ndr",
        "wdr",
        "mdr",
        "swr",
        "br24",
        "rbb",
    ),
    "classifieds": ("kleinanzeigen", "craigslist", "gumtree", "marketplace"),
}
_SEASONS = {
    12: "winter",
    1: "winter",
    2: "winter",
    3: "spring",
    4: "spring",
    5: "spring",
    6: "summer",
    7: "summer",
    8: "summer",
    9: "autumn",
    10: "autumn",
    11: "autumn",
}
_SLOT = re.compile(r"\{([#\w@-]+)\}")


def site_kind(site_url: str, site_title: str = "") -> str:
    """The kind of site at ``site_url`` (one of :data:`KINDS`), from its host and title; ``generic`` if unknown."""
    host = urlsplit(site_url).netloc.lower().removeprefix("www.")
    text = f"{host} {site_title.lower()}"
    for kind, words in _KIND_WORDS.items():
        if any(w in text for w in words):
            return kind
    return "generic"


def bank(locale: str) -> dict:
    """The phrase bank of ``locale`` (en_US when the locale has none): ``slots``, ``kinds``, ``formats``, ``forum``."""
    return phrase_bank("browsing", locale)


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
        return (
            f"https://{host}/r/{sub}/comments/{sim_faker.pystr(6, 6).lower()}/{ascii_slug(title)[:70]}/",
            formats["forum"].format(title=title, sub=sub),
        )
    title = _headline(r, b, kind, day)
    site = site_title if site_title and "://" not in site_title else host.removeprefix("www.")
    return f"https://{host}/{day:%Y/%m/%d}/{ascii_slug(title)[:70]}", formats["page"].format(title=title, site=site)


@world_step(
    rank=120,
    reads=(
        "paycheck",
        "flight_booking",
        "hotel_booking",
        "restaurant_booking",
        "food_order",
        "grocery_order",
        "retail_order",
        "ride",
    ),
    writes=("web_visit", "bookmark"),
)
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
    links = max(0, round(4 * float(ro.screen_hours_per_day) / 3))  # links a session follows at most

    for i, site in enumerate(p.browsing):
        if site.bookmarked:
            sim.event(
                "bookmark",
                sim.start + dt.timedelta(hours=19, minutes=i),
                {"url": site.url, "title": site.title, "folder": "toolbar"},
                key=site.url,
            )

    def session(at: dt.datetime, site_url: str, site_title: str, bookmarked: bool, links: int, key: object) -> None:
        host = urlsplit(site_url).netloc
        home = (site_url, site_title)
        sim.event(
            "web_visit",
            at,
            {"url": home[0], "title": home[1], "transition": "bookmark" if bookmarked else "typed", "site": host},
            key=(key, 0),
        )
        for n in range(1, links + 1):
            at = at + dt.timedelta(seconds=times.randint(20, 240))
            if at > sim.now:
                break
            if host in APP_PAGES:
                url, title = APP_PAGES[host][r.randrange(1, len(APP_PAGES[host]))]
                url = f"http://{host}{url}"
            else:
                url, title = _page(fake, site_url, at.date(), site_title, p.bank)
            sim.event("web_visit", at, {"url": url, "title": title, "transition": "link", "site": host}, key=(key, n))
            if host not in APP_PAGES and save.random() < 0.004:
                folder = _FOLDERS[save.randrange(len(_FOLDERS))]
                sim.event(
                    "bookmark",
                    at + dt.timedelta(seconds=5),
                    {"url": url, "title": title, "folder": f"menu/{folder}"},
                    key=url,
                )

    for day in sim.past_days():
        for i, site in enumerate(p.browsing):
            rate = float(site.per_week) / 7
            count = int(rate) + (1 if r.random() < rate - int(rate) else 0)
            for k in range(count):
                at = dt.datetime.combine(
                    day, dt.time(times.randint(wake, bed), times.randint(0, 59), times.randint(0, 59))
                )
                if at <= sim.now:
                    session(at, site.url, site.title, site.bookmarked, r.randint(0, links), (site.url, day, k))

    # Visits that follow events of other modules.
    by_kind = {"paycheck": (_BANK.url, f"Accounts | {_BANK.title}")}
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
    simulate_searches(sim)


# --- search history ----------------------------------------------------------------------------------


def search_bank(locale: str) -> dict:
    """The search phrase bank of ``locale`` (en_US when it has none): ``engine``, query lists, ``results``."""
    return phrase_bank("browsing/search", locale)


_MONTHS_EN = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]


def engine(sim: Sim) -> tuple[str, str, str]:
    """(host, path prefix before the query, title format with ``{query}``) of the persona's search engine."""
    b = search_bank(sim.persona.bank)
    hosts = " ".join(urlsplit(s.url).netloc for s in sim.persona.browsing)
    if "duckduckgo" in hosts:
        return "duckduckgo.com", "/?q=", "{query} at DuckDuckGo"
    if "bing.com" in hosts:
        return "www.bing.com", "/search?q=", "{query} - Search"
    return b["engine"]["host"], "/search?q=", b["engine"]["title"]


def search_url(sim: Sim, query: str) -> str:
    """The result page URL of ``query`` on the persona's engine (form-encoded: spaces as ``+``)."""
    host, prefix, _ = engine(sim)
    return f"https://{host}{prefix}{quote_plus(query)}"


def _who(sim: Sim, c) -> str | None:
    """How the persona names contact ``c`` in a gift search (``mom``, ``my sister``...), or None."""
    from .mail import parent_name

    words = search_bank(sim.persona.bank)["who"]
    # Mom/Dad when the given name tells the gender (English lists; also the home's for a home outside the locale's).
    abroad = sim.country if sim.country != territory(sim.persona.bank) else None
    guess = parent_name(c, "en_US", abroad)
    female = guess == "Mom"
    male = guess == "Dad"
    rel = c.relationship
    if rel == "parent":
        key = "mom" if female else "dad" if male else None
    elif rel == "sibling":
        key = "sister" if female else "brother" if male else None
    elif rel in ("partner", "spouse"):
        key = "girlfriend" if female and rel == "partner" else "boyfriend" if male and rel == "partner" else "partner"
    elif rel in ("friend", "roommate"):
        key = rel
    else:
        key = None
    return words.get(key) if key else None


def simulate_searches(sim: Sim) -> None:
    """Append ``web_visit`` events for search result pages and some result clicks (see module rules)."""
    p = sim.persona
    b = search_bank(p.bank)
    r = sim.rng("browsing/search")
    _, _, title_fmt = engine(sim)
    wake = int(p.routines.wake[:2])
    bed = int(p.routines.bedtime[:2])
    bed = bed if bed > wake else 23
    months = b.get("months") or _MONTHS_EN
    n = 0

    def fill(template: str, **ctx) -> str:
        return " ".join(template.format(**ctx).split())

    def typed(q: str) -> str:
        return q.lower() if r.random() < 0.75 else q

    def visit(at: dt.datetime, query: str, result: tuple[str, str] | None = None) -> None:
        nonlocal n
        if at > sim.now or at < sim.start:
            return
        n += 1
        sim.event(
            "web_visit",
            at,
            {
                "url": search_url(sim, query),
                "title": title_fmt.format(query=query),
                "transition": "typed",
                "site": urlsplit(search_url(sim, query)).netloc,
                "search_query": query,
            },
            key=("search", n),
        )
        if result:
            click = at + dt.timedelta(seconds=r.randint(6, 50))
            if click <= sim.now:
                sim.event(
                    "web_visit",
                    click,
                    {
                        "url": result[0],
                        "title": result[1],
                        "transition": "link",
                        "site": urlsplit(result[0]).netloc,
                        "search_result": True,
                    },
                    key=("search", n, "click"),
                )

    def waking(day: dt.date) -> dt.datetime:
        return dt.datetime.combine(day, dt.time(r.randint(wake, bed), r.randint(0, 59), r.randint(0, 59)))

    def result(kind: str, **ctx) -> tuple[str, str]:
        url, title = b["results"][kind]
        return url.format(**ctx), title.format(**ctx)

    # Trips: 2-4 searches 3-30 days before departure (after the booking, when there is one).
    hotels = {e.data.get("trip"): e for e in sim.of_kind("hotel_booking")}
    bookings = {e.data.get("trip"): e for e in sim.of_kind("flight_booking")}
    travel = p.travel
    for i, t in enumerate(travel.trips or [] if travel else []):
        lo = dt.datetime.combine(t.depart - dt.timedelta(days=30), dt.time(0, 0))
        if i in bookings:
            lo = max(lo, bookings[i].at)
        hi = dt.datetime.combine(t.depart - dt.timedelta(days=1), dt.time(23, 0))
        if hi < lo:
            continue
        hotel = hotels[i].data.get("hotel") if i in hotels else None
        templates = [q for q in b["trip"] if hotel or "{hotel}" not in q]
        dest_slug = ascii_slug(t.destination)
        from ..reference.locale import season as season_of

        ctx = dict(
            dest=t.destination,
            Dest=t.destination,
            month=months[t.depart.month - 1],
            hotel=hotel or "",
            season=b["season"][season_of(t.depart, p.identity.address.country if p.identity.address else "US")],
            slug=dest_slug,
            wiki=quote(t.destination.replace(" ", "_")),
        )
        # One query names the destination, within what has happened by now; 1-3 more anywhere in the window.
        named = [k for k, q in enumerate(templates) if "{dest}" in q]
        first = named[r.randrange(len(named))]
        rest = [k for k in range(len(templates)) if k != first]
        picks = [first] + r.sample(rest, k=min(len(rest), r.randint(1, 3)))
        span = max(1, int((hi - lo).total_seconds() // 86400))
        for k in picks:
            top = min(span, max(0, int((sim.now - lo).total_seconds() // 86400) - 1)) if k == first else span
            day = (lo + dt.timedelta(days=r.randint(0, top))).date()
            at = max(waking(day), lo + dt.timedelta(minutes=r.randint(5, 90)))
            if k == first and at > sim.now:
                at = sim.now - dt.timedelta(minutes=r.randint(20, 180))
            q = typed(fill(templates[k], **ctx))
            res = None
            if r.random() < 0.6:
                tmpl = templates[k]
                if "weather" in tmpl or "wetter" in tmpl:
                    res = result("weather", **ctx)
                elif "{hotel}" in tmpl and i in hotels and hotels[i].data.get("site_url"):
                    res = (hotels[i].data["site_url"], hotels[i].data.get("site_title") or hotel)
                elif "things" in tmpl or "sehensw" in tmpl or "machen" in tmpl:
                    res = result("things", **ctx)
                else:
                    res = result("guide", **ctx)
            visit(at, q, res)

    # Restaurants: a look at the place shortly before booking it.
    city = p.identity.address.city if p.identity.address else ""
    for e in sim.of_kind("restaurant_booking"):
        if r.random() >= 0.45:
            continue
        name = e.data.get("restaurant") or ""
        at = e.at - dt.timedelta(minutes=r.randint(3, 40), seconds=r.randint(0, 59))
        ctx = dict(
            restaurant=name, Restaurant=name, city=city, City=city, slug=f"{ascii_slug(name)}-{ascii_slug(city)}"
        )
        q = typed(fill(b["restaurant"][r.randrange(len(b["restaurant"]))], **ctx))
        visit(at, q, result("restaurant", **ctx) if r.random() < 0.5 else None)

    # Birthdays of close contacts: gift ideas a week or so before.
    from ..dates import birthday_in

    for c in p.contacts:
        who = _who(sim, c)
        if not who or not c.birthday or (c.closeness or 1) < 3:
            continue
        acts = c.shared_activities or []
        for year in range(sim.start.year, sim.now.year + 2):
            bday = birthday_in(c.birthday, year)
            day = bday - dt.timedelta(days=r.randint(4, 12))
            templates = [q for q in b["gift"] if acts or "{activity}" not in q]
            q = fill(
                templates[r.randrange(len(templates))],
                who=who,
                year=year,
                activity=acts[r.randrange(len(acts))] if acts else "",
            )
            visit(waking(day), typed(q))

    # Recipes of the persona's cuisines, about every ten days; a click on the persona's recipe site.
    cuisines = [c.lower() for c in (p.preferences.cuisines if p.preferences else [])] or ["default"]
    sites = [s for s in p.browsing if site_kind(s.url, s.title) == "recipes"]
    for day in sim.past_days():
        if r.random() >= 0.1:
            continue
        dishes = b["dishes"].get(cuisines[r.randrange(len(cuisines))]) or b["dishes"]["default"]
        dish = dishes[r.randrange(len(dishes))]
        templates = b["recipe"]
        q = typed(
            fill(
                templates[r.randrange(len(templates))], dish=dish, missing=b["missing"][r.randrange(len(b["missing"]))]
            )
        )
        res = None
        if sites and r.random() < 0.7:
            site = sites[r.randrange(len(sites))]
            users = b.get("users") or ["cook"]
            res = result(
                "recipe",
                host=urlsplit(site.url).netloc,
                id=r.randint(100000, 999999),
                slug=ascii_slug(dish),
                Dish=dish[:1].upper() + dish[1:],
                site=site.title,
                user=users[r.randrange(len(users))],
            )
        visit(
            dt.datetime.combine(day, dt.time(r.choice([11, 12, 16, 17, 18, 19]), r.randint(0, 59), r.randint(0, 59))),
            q,
            res,
        )

    # Bills: now and then, the payee's site or a question about a bill (spec recurring charges).
    for rc in (p.finances.recurring_charges or []) if p.finances else []:
        for day in sim.past_days():
            if day.day != min(rc.day, 28) or r.random() >= 0.08:
                continue
            templates = b["bill"]
            q = fill(
                templates[r.randrange(len(templates))],
                payee=rc.payee,
                bill=rc.name.lower() if b["bill_lowercase"] else rc.name,
            )
            visit(waking(day - dt.timedelta(days=r.randint(0, 3))), typed(q))
