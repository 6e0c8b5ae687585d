"""The stays app's price function in Python: the same rules as ``apps/stays/web/lib/rates.ts`` (tests and tasks
use it to predict what the app charges, independently of the app's database).

Per night: ``base_rate_cents x factor_pct / 100``, x 1.15 on Friday and Saturday nights, x 1.2 in the city's
high-season months, rounded to whole currency units; the non-refundable rate is 12 % less (rounded likewise).
Taxes: ``tax_bp`` basis points of the room subtotal (rounded to the cent; to whole units in a currency without
minor units, the yen). Fees: the city fee per night; rentals add the cleaning
fee and a 12 % service fee of the subtotal. All amounts are integer cents of the city's own currency
(``inventory.city_info(city)["currency"]``: EUR in Lisbon); what a card in another currency is charged is
the world's business (``builder.world.travel.hotel_fx_rate``, :func:`card_cents`).

The world's hotel stays are priced with this same function (builder/world/travel.py), so a world stay, its
Bramblestay booking and its folio agree to the cent.
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from ...money import to_unit, unit_cents

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


def quote(prop: dict, room: dict, city: dict, check_in: dt.date, nights: int, plan: str) -> dict:
    """Price of a stay, as ``web/lib/rates.ts`` ``quote`` computes it: ``{"nights": [{"night": "YYYY-MM-DD",
    "cents"}], "subtotal_cents", "taxes_cents", "city_fee_cents", "cleaning_fee_cents", "service_fee_cents",
    "fees_cents", "total_cents", "nightly_cents"}`` (cents of the city's currency; ``nightly_cents`` the
    average nightly room price, rounded).

    ``prop`` has ``kind``, ``base_rate_cents``, ``cleaning_fee_cents``; ``room`` ``factor_pct``; ``city``
    ``season`` (comma-separated months), ``tax_bp``, ``city_fee_cents`` (the inventory's dicts).
    """
    season = {int(m) for m in str(city["season"]).split(",") if m}
    per_night = [
        {
            "night": (check_in + dt.timedelta(days=n)).isoformat(),
            "cents": night_price(
                prop["base_rate_cents"], room["factor_pct"], season, check_in + dt.timedelta(days=n), plan
            ),
        }
        for n in range(nights)
    ]
    sub = sum(x["cents"] for x in per_night)
    # A currency without minor units (yen) rounds taxes and the service fee to whole units too.
    part = _units if unit_cents(city.get("currency") or "USD") == 100 else _round
    taxes = part(sub * city["tax_bp"] / 10000)
    city_fee = city["city_fee_cents"] * nights
    cleaning = prop["cleaning_fee_cents"] if prop["kind"] == "rental" else 0
    service = part(sub * SERVICE_FEE) if prop["kind"] == "rental" else 0
    fees = city_fee + cleaning + service
    return {
        "nights": per_night,
        "subtotal_cents": sub,
        "taxes_cents": taxes,
        "city_fee_cents": city_fee,
        "cleaning_fee_cents": cleaning,
        "service_fee_cents": service,
        "fees_cents": fees,
        "total_cents": sub + taxes + fees,
        "nightly_cents": _round(sub / nights) if nights else 0,
    }


def card_cents(local_cents: int, fx_rate: str | Decimal, card_currency: str = "USD") -> int:
    """``local_cents`` (the hotel's currency) in the card's currency at ``fx_rate`` (card units per local unit,
    a decimal string such as ``"1.086957"``), rounded half up to the cent (to the card currency's smallest unit:
    whole yen): ``card_cents(100000, "1.086957") == 108696``."""
    if unit_cents(card_currency) != 1:
        return to_unit(Decimal(local_cents) * Decimal(fx_rate), card_currency)
    return int((Decimal(local_cents) * Decimal(fx_rate)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
