"""A home outside the countries with tax rules (issue 26): the Tokyo persona's world has no US tax year: no W-2,
1099 or IRS anywhere, no tax_form events and no filed return; its charity gifts remain (they are card spending)."""

from __future__ import annotations

import json
import re

import pytest

from builder.reference.tax import regime
from builder.world import tax_year as ty
from tests.conftest import tokyo_world

US_TAX = re.compile(r"\bW-2\b|\b1099-(?:INT|DIV|B)\b|\bIRS\b|Internal Revenue|\bP60\b|Lohnsteuerbescheinigung")
TAX_KINDS = ("tax_form", "tax_return_filed", "tax_refund", "tax_payment")


@pytest.fixture(scope="module")
def tokyo():
    return tokyo_world()


def test_a_tokyo_home_has_no_tax_year_but_its_gifts(tokyo):
    persona, world = tokyo
    assert regime(persona) is None
    assert ty.tax_forms(world) == [] and ty.filed_return(world) is None
    assert {e.kind for e in world.events} & set(TAX_KINDS) == set()
    assert not [x for x in world.postings() if x.category == "taxes"]
    assert world.of_kind("donation")  # still giving to charity, on the card


def test_no_us_tax_words_in_the_tokyo_world(tokyo):
    _, world = tokyo
    found = [(e.kind, m.group()) for e in world.events for m in [US_TAX.search(json.dumps(e.data, default=str))] if m]
    assert not found, found[:5]
    mail = [e.data for e in world.of_kind("email")]
    assert mail and not [d["subject"] for d in mail if US_TAX.search(d["subject"] + d["body"])]


def test_a_us_world_still_has_its_forms(world):
    """The default persona (US) keeps its W-2 and its filed return."""
    assert regime(world.persona) == "US"
    assert "W-2" in {f["form"] for f in ty.tax_forms(world)}
    assert {e.data["form"] for e in world.of_kind("tax_form")} >= {"W-2"}
