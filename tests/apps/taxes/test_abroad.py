"""Ledgerleaf Tax for a persona living where it files no returns (issue 26): the Tokyo persona's database holds its
profile, no forms and no return, and an empty ``country`` the start page reads as "No return available for your
country"; no PDFs in its home and no taxes task."""

from __future__ import annotations

import sqlite3

import pytest

from apps.taxes import seed as taxes_seed
from apps.taxes.tasks import in_use
from builder.tasks.collect import app_tasks
from tests.conftest import REPO, tokyo_world


@pytest.fixture(scope="module")
def tokyo():
    return tokyo_world()


def test_the_seed_is_an_honest_empty_state(tokyo, tmp_path):
    persona, world = tokyo
    db = taxes_seed.seed(world, tmp_path / "taxes.sqlite")
    with sqlite3.connect(db) as c:
        meta = dict(c.execute("SELECT key, value FROM meta"))
        assert meta["country"] == "" and meta["tax_year"] == "2025" and meta["locale"] == "en-US"
        assert c.execute("SELECT COUNT(*) FROM issued_forms").fetchone() == (0,)
        assert c.execute("SELECT COUNT(*) FROM returns").fetchone() == (0,)
        assert c.execute("SELECT full_name, city FROM users").fetchone() == (persona.identity.name, "Tokyo")
    assert taxes_seed.home_files(world, tmp_path / "home") == []
    assert not (tmp_path / "home").exists()


def test_no_taxes_tasks_for_a_tokyo_home(tokyo):
    _, world = tokyo
    assert not in_use(world)
    assert app_tasks(world, "taxes") == []


def test_a_us_persona_still_has_taxes_tasks(world):
    tasks = app_tasks(world, "taxes")
    assert in_use(world) and len(tasks) >= 8
    assert any("W-2" in t.instruction for t in tasks)


def test_the_start_page_says_there_is_no_return_to_file():
    """The web side reads the empty country as no return (lib/context.ts ``supported``) and says so in its voice."""
    web = REPO / "apps" / "taxes" / "web"
    context = (web / "lib" / "context.ts").read_text(encoding="utf-8")
    assert 'meta.country === "US" || meta.country === "GB" || meta.country === "DE"' in context
    words = (web / "lib" / "words.ts").read_text(encoding="utf-8")
    assert 'noCountry: "No return available for your country.' in words
    page = (web / "app" / "page.tsx").read_text(encoding="utf-8")
    assert "!ctx.supported ?" in page and 't(ctx, "noCountry")' in page
