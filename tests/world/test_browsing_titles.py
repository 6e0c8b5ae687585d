"""Web page titles come from the phrase banks in builder/world/templates/browsing, never from lorem text."""

from __future__ import annotations

import re
from functools import cache

from builder.persona import complete
from builder.persona.model import Persona
from builder.world import simulate
from builder.world.browsing import APP_PAGES, site_kind

# Latin lorem (en_GB's Faker) and odd words frequent in the old Faker en_US lorem titles.
LOREM = {
    "lorem",
    "ipsum",
    "dolor",
    "amet",
    "consectetur",
    "eius",
    "repellat",
    "assumenda",
    "maiores",
    "harum",
    "laboriosam",
    "doloremque",
    "voluptas",
    "voluptatum",
    "mollitia",
    "asperiores",
    "reiciendis",
    "tenetur",
    "corrupti",
    "saepe",
    "whom",
    "participant",
    "however",
    "clearly",
    "certainly",
    "perhaps",
    "indeed",
    "reflect",
    "nation",
    "western",
}
GERMAN = {
    "der",
    "die",
    "das",
    "und",
    "mit",
    "für",
    "von",
    "nach",
    "im",
    "in",
    "am",
    "zum",
    "ist",
    "wie",
    "was",
    "ein",
    "eine",
    "einen",
    "gegen",
    "auf",
    "zwischen",
    "aus",
    "hbf",
    "rezepte",
    "wetter",
    "tage",
    "liste",
    "geschichte",
    "bahnhof",
    "–",
}


@cache
def _german_world():
    persona = complete(
        Persona.model_validate(
            {"seed": 4242, "as_of": "2025-11-20", "locale": "de_DE", "identity": {"name": "Lena Hoffmann"}}
        )
    )
    return persona, simulate(persona)


def _titles(world, *, pages_only: bool = False) -> list[str]:
    out = []
    for e in world.events:
        if e.kind == "web_visit":
            if pages_only and (e.data["transition"] != "link" or e.data["site"] in APP_PAGES):
                continue
            out.append(e.data["title"])
        elif e.kind == "bookmark" and not pages_only:
            out.append(e.data["title"])
    return out


def _words(title: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]+|–", title)}


def test_no_lorem_words_in_titles(any_world):
    _, world = any_world
    bad = [t for t in _titles(world) if _words(t) & LOREM]
    assert not bad, bad[:10]


def test_page_titles_mostly_distinct(any_world):
    _, world = any_world
    titles = _titles(world, pages_only=True)
    assert len(titles) > 1000
    assert len(set(titles)) / len(titles) >= 0.6


def test_german_titles_look_german():
    _, world = _german_world()
    titles = _titles(world, pages_only=True)
    assert not [t for t in titles if _words(t) & LOREM]
    german = [t for t in titles if _words(t) & GERMAN]
    assert len(german) / len(titles) >= 0.8
    assert len(set(titles)) / len(titles) >= 0.5
    assert any(t.endswith(" – Wikipedia") for t in titles)


def test_british_titles_use_british_forms(any_world):
    persona, world = any_world
    text = "\n".join(_titles(world, pages_only=True))
    british = ["Help centre", "favourite", "Organising", "colour", "lorry", "Railcard", "flat"]
    american = ["Help center", "favorite", "Organizing", "color ", "Store locator", "Gas prices"]
    if persona.bank == "en_GB":
        assert sum(w in text for w in british) >= 3
        assert not [w for w in american if w in text]
    elif persona.bank == "en_US":
        assert not [w for w in ["Help centre", "Organising", "Railcard"] if w in text]


def test_url_shapes_per_site(any_world):
    _, world = any_world
    visits = [
        e.data
        for e in world.events
        if e.kind == "web_visit" and e.data["transition"] == "link" and not e.data.get("search_result")
    ]  # a search result has its own site's shape (test_planted)
    for d in visits:
        url, site = d["url"], d["site"]
        if "wikipedia" in site:
            assert re.fullmatch(r"https://[a-z.]+/wiki/[^ ]+", url) and d["title"].endswith("Wikipedia"), d
        elif "youtube" in site:
            assert re.fullmatch(r"https://www\.youtube\.com/watch\?v=[\w-]{11}", url), d
        elif "reddit" in site:
            assert re.fullmatch(r"https://www\.reddit\.com/r/\w+/comments/[a-z0-9]{6}/[a-z0-9-]*/", url), d
            assert " : r/" in d["title"]
        elif site not in APP_PAGES:
            assert re.fullmatch(r"https://[^/]+/\d{4}/\d{2}/\d{2}/[a-z0-9-]{1,70}", url), d


def test_site_kinds():
    assert site_kind("https://en.wikipedia.org/wiki/Main_Page") == "encyclopedia"
    assert site_kind("https://www.metoffice.gov.uk/", "Met Office") == "weather"
    assert site_kind("https://www.bahn.de/", "Deutsche Bahn") == "rail"
    assert site_kind("https://www.chefkoch.de/") == "recipes"
    assert site_kind("https://www.kicker.de/") == "sports"
    assert site_kind("https://www.bbc.co.uk/news", "BBC News") == "news"
    assert site_kind("https://github.com/") == "code"
    assert site_kind("http://meridianair.test/", "Meridian Air") == "travel"
    assert site_kind("https://example.org/", "My Blog") == "generic"


def test_no_heat_wave_in_winter(any_world):
    _, world = any_world
    for e in world.events:
        if e.kind == "web_visit" and e.at.month in (12, 1, 2):
            assert not re.search(r"heat ?wave|Hitzewelle|Heat advisory", e.data["title"], re.IGNORECASE), e.data[
                "title"
            ]


def test_screen_hours_set_how_deep_sessions_go(persona):
    """``routines.screen_hours_per_day`` bounds the links a session follows: none at 0 hours, up to 4 at the default
    3, up to 24 at 18 (only the browsing step runs: the sessions of the persona's own sites need no other module)."""
    from decimal import Decimal

    from builder.world.engine import plan, run_steps
    from builder.world.simulate import begin

    step = [s for s in plan() if s.name == "browsing.simulate_browsing"]
    links, pages = {}, {}
    for hours in ("0", "3", "18"):
        routines = persona.routines.model_copy(update={"screen_hours_per_day": Decimal(hours)})
        sim = begin(persona.model_copy(update={"routines": routines}))
        run_steps(sim, step)
        visits = [e for e in sim.events if e.kind == "web_visit" and "search_result" not in e.data]
        links[hours] = sum(e.data["transition"] == "link" for e in visits)
        pages[hours] = len(visits) - links[hours]
    # About as many sessions (the hours do not set how often a site is opened); on average 2 links each at 3 hours,
    # 12 at 18.
    assert min(pages.values()) > 0.95 * max(pages.values()) and pages["3"] > 50
    assert links["0"] == 0 and 1.5 < links["3"] / pages["3"] < 2.5 and 10 < links["18"] / pages["18"] < 14
