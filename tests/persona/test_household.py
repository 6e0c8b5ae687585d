"""Completion gives a persona the household of the country it lives in (issue 26): a Tokyo or São Paulo home pays a
landlord and an electricity supplier in its own currency, not Maple Row Apartments and GEICO in dollars."""

from __future__ import annotations

from decimal import Decimal

import pytest

from builder.persona import load
from builder.persona.complete import complete
from builder.persona.model import Persona
from tests.conftest import REPO
from tests.reference.test_household import NATIONAL_BRANDS

SAO_PAULO = {
    "locale": "en_US",
    "identity": {
        "name": "Lucas Oliveira",
        "address": {"street": "Rua Augusta, 1200", "city": "São Paulo", "postal_code": "01304-001", "country": "BR"},
    },
}


@pytest.fixture(scope="module")
def sao_paulo() -> Persona:
    return complete(Persona.model_validate(SAO_PAULO))


def _spent_on(p: Persona) -> dict[str, tuple[str, Decimal]]:
    return {b.name: (b.payee, b.amount) for b in p.finances.recurring_charges}


def test_a_sao_paulo_home_pays_a_generic_household_in_reais(sao_paulo):
    p = sao_paulo
    assert p.finances.currency == "BRL"
    bills = _spent_on(p)
    assert {n: payee for n, (payee, _) in bills.items() if n != "Transit pass"} == {
        "Rent": "Landlord",
        "Electricity": "Electricity supplier",
        "Internet": "Internet provider",
        "Mobile plan": "Mobile operator",
        "Video streaming": "Netflix",
        "Gym membership": "Gym",
    }
    assert not {payee for payee, _ in bills.values()} & NATIONAL_BRANDS
    # Priced from the table's dollars at the real's rate (builder/reference/prices.py), in whole centavos.
    rent = bills["Rent"][1]
    assert rent > Decimal(1650) and rent == rent.quantize(Decimal("0.01"))
    assert [a.name for a in p.finances.accounts] == ["Current Account", "Savings Account", "Credit Card"]


def test_a_german_speaker_in_sao_paulo_reads_german_bill_names():
    p = complete(Persona.model_validate({**SAO_PAULO, "locale": "de_DE"}))
    bills = _spent_on(p)
    assert bills["Miete"][0] == "Vermieter" and bills["Strom"][0] == "Stromanbieter" and "Handyvertrag" in bills
    assert p.finances.accounts[0].name == "Girokonto"


def test_a_tokyo_home_pays_no_american_brand():
    p = complete(load(REPO / "tests" / "data" / "tokyo-persona.json"))
    payees = {b.payee for b in p.finances.recurring_charges}
    assert "Landlord" in payees and "Netflix" in payees
    assert not payees & NATIONAL_BRANDS and not any("Transit" in x for x in payees)
    assert all(b.amount == b.amount.to_integral_value() for b in p.finances.recurring_charges)  # whole yen


def test_the_shipped_households_are_their_countries():
    jordan = complete(load(REPO / "personas" / "jordan-lee.json"))  # no address: the locale's country, the US
    assert {"Maple Row Apartments", "Lemonade Insurance"} <= {b.payee for b in jordan.finances.recurring_charges}
    callum = complete(load(REPO / "personas" / "callum-brierley.json"))
    assert {"Council Tax", "TV Licence"} <= {b.name for b in callum.finances.recurring_charges}
    jana = complete(load(REPO / "personas" / "jana-petersen.json"))
    assert "Rundfunkbeitrag" in {b.name for b in jana.finances.recurring_charges}
