"""A persona from anywhere is paid, charged and priced in its own currency (issue 26 steps 12-15): a Tokyo home
completes to yen and its world's every amount is whole yen, with a salary and a rent a Tokyo resident could have."""

from __future__ import annotations

from tests.conftest import tokyo_world

from decimal import Decimal
from pathlib import Path

import pytest


TOKYO = Path(__file__).resolve().parents[1] / "data" / "tokyo-persona.json"


@pytest.fixture(scope="module")
def tokyo():
    return tokyo_world()


def _amounts(data, path=""):
    """Every integer money field (``*_cents``, ``cents``) of an event's data, with its path; a hotel's quote in a
    foreign currency (``price`` beside ``currency``) is the hotel's, not the persona's."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "price" and isinstance(v, dict) and data.get("currency") not in (None, "JPY"):
                continue
            yield from _amounts(v, f"{path}.{k}")
    elif isinstance(data, list):
        for v in data:
            yield from _amounts(v, f"{path}[]")
    elif isinstance(data, int) and not isinstance(data, bool) and path.rsplit(".", 1)[-1].endswith("cents"):
        yield path, data


def test_a_tokyo_home_completes_to_yen(tokyo):
    persona, _ = tokyo
    assert persona.finances.currency == "JPY"
    assert Decimal(5_000_000) <= persona.work.salary <= Decimal(9_000_000)
    rent = next(b for b in persona.finances.recurring_charges if b.category == "housing")
    assert Decimal(100_000) <= rent.amount <= Decimal(250_000)
    assert all(b.amount == b.amount.to_integral_value() for b in persona.finances.recurring_charges)


def test_every_amount_of_a_yen_world_is_whole_yen(tokyo):
    _, world = tokyo
    assert world.currency == "JPY"
    # A quote's nightly_cents is the average night (subtotal / nights, as the stays app shows it and as the shipped
    # worlds' yen hotels carry it), not an amount anyone pays: the charged rate is rate_cents.
    odd = sorted(
        {(e.kind, path) for e in world.events for path, v in _amounts(e.data) if v % 100}
        - {(k, ".price.nightly_cents") for k in ("hotel_booking", "hotel_stay", "hotel_checkout")}
    )
    assert not odd, odd
    postings = sorted({e.kind for e in world.events for p in e.postings if p.amount_cents % 100})
    assert not postings, postings


def test_a_yen_coffee_costs_yen(tokyo):
    _, world = tokyo
    coffee = [e.data["amount_cents"] for e in world.of_kind("card_purchase") if e.data.get("category") == "coffee"]
    assert coffee and 20_000 <= sorted(coffee)[len(coffee) // 2] <= 150_000  # ¥200-1,500


def test_trips_abroad_charge_in_the_countrys_currency_and_at_home_at_homes_prices(tokyo):
    """A trip to a country outside the fixed rate table is charged in its currency where the ECB publishes it (a
    Seoul dinner in won, converted on the card), not as if at home; a domestic trip's meals are priced like home's
    (a Fukuoka ramen in the hundreds or low thousands of yen, not at the exchange rate of a US price)."""
    persona, world = tokyo
    buys = [e.data for e in world.of_kind("card_purchase") if e.data.get("trip") is not None]
    seoul = [d for d in buys if d.get("city") == "Seoul"]
    assert "Seoul" in {t.destination for t in persona.travel.trips} and seoul
    assert {d.get("foreign_currency") for d in seoul} == {"KRW"}
    fukuoka = [d for d in buys if d.get("city") == "Fukuoka" and d["category"] == "restaurants"]
    assert fukuoka and all("foreign_currency" not in d for d in fukuoka)
    assert max(d["amount_cents"] for d in fukuoka) < 1_500_000  # under ¥15,000 for a meal, party included


def test_shop_signs_of_a_home_abroad_are_the_country_s_not_the_reader_s():
    """A German speaker in Harare (new-persona population 50, seed 1) bought groceries at "EDEKA Cook": the shops of
    a home abroad are named as its residents name them; a persona at home keeps its own bank's names."""
    from builder.persona import complete
    from builder.persona.generate import persona, resolve_city
    from builder.persona.model import Persona
    from builder.world.finance import make_merchants, sign_bank

    spec, _ = persona(resolve_city("Harare"), 7, language="de")
    p = complete(Persona.model_validate(spec))
    assert p.bank == "de_DE" and sign_bank(p) == "en_GB"
    names = [m.name for m in make_merchants(p)]
    assert not [n for n in names if any(w in n for w in ("EDEKA", "Bäckerei", "Apotheke", "Wochenmarkt"))], names
    vienna, _ = persona(resolve_city("Vienna"), 7, language="en")
    assert sign_bank(complete(Persona.model_validate(vienna))) == "de_DE"
    hamburg, _ = persona(resolve_city("Hamburg", "DE"), 7)
    assert sign_bank(complete(Persona.model_validate(hamburg))) == "de_DE"
