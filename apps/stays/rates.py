"""Bramblestay's price function in Python: the same rules as ``web/lib/rates.ts`` (tests and tasks use it to
predict what the app charges, independently of the app's database).

Per night: ``base_rate_cents x factor_pct / 100``, x 1.15 on Friday and Saturday nights, x 1.2 in the city's
high-season months, rounded to whole currency units; the non-refundable rate is 12 % less (rounded likewise).
Taxes: ``tax_bp`` basis points of the room subtotal. Fees: the city fee per night; rentals add the cleaning
fee and a 12 % service fee of the subtotal. All amounts are integer cents.
"""

from __future__ import annotations

import datetime as dt

WEEKEND = 1.15
HIGH_SEASON = 1.2
NONREFUNDABLE = 0.88
SERVICE_FEE = 0.12


def _round(x: float) -> int:
    """JavaScript's Math.round for the non-negative values here (halves up)."""
    return int(x + 0.5)


def _units(cents: float) -> int:
    return _round(cents / 100) * 100


def night_price(base_rate_cents: int, factor_pct: int, season: set[int], night: dt.date, plan: str) -> int:
    """The room price of one night in cents (see the module docstring)."""
    cents = base_rate_cents * factor_pct / 100
    if night.weekday() in (4, 5):
        cents *= WEEKEND
    if night.month in season:
        cents *= HIGH_SEASON
    cents = _units(cents)
    if plan == "nonrefundable":
        cents = _units(cents * NONREFUNDABLE)
    return cents


def quote(prop: dict, room: dict, city: dict, check_in: dt.date, nights: int, plan: str) -> dict[str, int]:
    """Price of a stay: ``{"subtotal_cents", "taxes_cents", "fees_cents", "total_cents"}``.

    ``prop`` has ``kind``, ``base_rate_cents``, ``cleaning_fee_cents``; ``room`` ``factor_pct``; ``city``
    ``season`` (comma-separated months), ``tax_bp``, ``city_fee_cents`` (the inventory's dicts).
    """
    season = {int(m) for m in str(city["season"]).split(",") if m}
    sub = sum(night_price(prop["base_rate_cents"], room["factor_pct"], season, check_in + dt.timedelta(days=n), plan)
              for n in range(nights))
    taxes = _round(sub * city["tax_bp"] / 10000)
    fees = city["city_fee_cents"] * nights
    if prop["kind"] == "rental":
        fees += prop["cleaning_fee_cents"] + _round(sub * SERVICE_FEE)
    return {"subtotal_cents": sub, "taxes_cents": taxes, "fees_cents": fees, "total_cents": sub + taxes + fees}
