"""The Tokyo persona's world pays a generic household and gets its parcels from Japanese carriers (issue 26)."""

from __future__ import annotations

from builder.world.orders import CARRIERS
from tests.conftest import tokyo_world
from tests.reference.test_household import NATIONAL_BRANDS


def test_bills_go_to_generic_payees_in_yen():
    _, world = tokyo_world()
    paid = [e.data for e in world.of_kind("autopay", "bill_payment") if e.data.get("recurring")]
    payees = {d.get("payee") or d.get("merchant") for d in paid}
    assert {"Landlord", "Electricity supplier", "Internet provider"} <= payees
    assert not payees & NATIONAL_BRANDS
    rent = [d["amount_cents"] for d in paid if d.get("payee") == "Landlord"]
    assert rent and len(set(rent)) == 1 and rent[0] % 100 == 0  # one rent, whole yen
    senders = {e.data["from"]["name"] for e in world.of_kind("email") if e.data.get("series") == "bill"}
    assert not senders & NATIONAL_BRANDS


def test_parcels_come_with_japanese_carriers():
    _, world = tokyo_world()
    orders = [e.data for e in world.of_kind("retail_order")]
    assert orders and {d["carrier"] for d in orders} <= set(CARRIERS["JP"])
    assert all(len(d["tracking_number"]) == 12 and d["tracking_number"].isdigit() for d in orders)
