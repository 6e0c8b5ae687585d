"""One price level: a US-dollar reference price in the persona's (or a place's) currency.

Every catalogue of the project holds US prices (cents) and turns them into the home currency through
:func:`local`; every table of amounts written per currency (a budget, a fare) through :func:`local_amount`.

* A catalogue keeps its own numbers for the currencies it was written for (its ``factors``: a pound or a euro buys
  a little more on a shelf than a dollar, and each catalogue has its own; USD, GBP and EUR) and its own way of
  writing a price (``written``: ending in 9, in .99, to a quarter...). The shipped worlds were made with those.
* **Any other currency: the US price at the currency's living rate** (:func:`living_rate`) **and rounded to the
  currency's precision** (:func:`builder.money.to_unit`: whole yen). Where :data:`WAGE_LEVEL` knows a country paid
  in the currency, the living rate is its pay over the US pay, so prices and pay keep their US proportion (the same
  basket for the same share of pay). Elsewhere it is the exchange rate times the country's **price level**
  (:func:`price_level`: the World Bank's purchasing-power-parity factor over the exchange rate of its year,
  ``ppp.csv``), so a Lagos coffee costs what coffee costs in Lagos, not a US coffee at the exchange rate; the
  exchange rate alone (:func:`builder.reference.fx.per_usd` on :data:`PRICED_ON`) where the table lacks the country.
  Pay is converted at the same rate (:func:`amount`, :func:`annual_pay`), so budgets keep their US proportions.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Callable, Mapping
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path

from ..money import to_unit
from . import fx, gazetteer

#: The day whose exchange rate prices a catalogue in a currency it was not written for (catalogues are undated).
PRICED_ON = dt.date(2026, 1, 1)


def living_rate(currency: str) -> Decimal:
    """Units of ``currency`` that buy what a US dollar buys in a life priced in it: where :data:`WAGE_LEVEL` has a
    country paid in ``currency``, its pay over the US pay (Japan: 4,600,000 / 61,984 = 74.2 yen), so that prices
    and pay keep the proportion they have in the US (at the exchange rate, 151 yen, a Japanese wage would buy half
    the US basket and every Tokyo budget ran a deficit); else the exchange rate of :data:`PRICED_ON`."""
    for pay, paid_in, _ in WAGE_LEVEL.values():
        if paid_in == currency and paid_in != "USD":
            return pay / WAGE_LEVEL["US"][0]
    if currency not in WRITTEN:
        country = principal_country(currency)
        level = price_level(country) if country else None
        if level is not None:
            return (level * fx.per_usd(currency, PRICED_ON)).quantize(Decimal("0.000001"))
    return fx.per_usd(currency, PRICED_ON)


_PPP = Path(__file__).with_name("ppp.csv")

#: A price level outside this band (relative to the US's 1) is taken for a unit mismatch between the PPP table and
#: the exchange rates (a redenominated currency one of them has not followed) and ignored. The World Bank's 2022
#: levels run from about 0.2 to 1.5.
LEVEL_BAND = (Decimal("0.15"), Decimal("2.0"))


@cache
def _ppp() -> dict[str, tuple[int, Decimal]]:
    """``ppp.csv``: country (ISO 3166-1 alpha-2) -> (year, local currency units per international dollar)."""
    with _PPP.open(encoding="utf-8") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return {r["country"]: (int(r["year"]), Decimal(r["lcu_per_intl_usd"])) for r in rows}


@cache
def price_level(country: str) -> Decimal | None:
    """``country``'s price level relative to the US (the US is 1): its purchasing-power-parity factor of the latest
    year ``ppp.csv`` has (World Bank, PA.NUS.PPP) over that year's mean exchange rate (twelve mid-month days of
    :mod:`builder.reference.fx`), six decimals: about 0.37 for Nigeria in 2022, 0.46 for Brazil. None where the
    table lacks the country, :mod:`builder.reference.fx` cannot rate its currency, or the level falls outside
    :data:`LEVEL_BAND`. The level, not the factor itself, is carried to :data:`PRICED_ON`: it moves far less than
    a currency with high inflation does."""
    row = _ppp().get(country.strip().upper())
    currency = gazetteer.currency(country, PRICED_ON)
    if row is None or currency is None or not fx.known(currency):
        return None
    year, factor = row
    mean = sum(fx.per_usd(currency, dt.date(year, month, 15)) for month in range(1, 13)) / 12
    level = (factor / mean).quantize(Decimal("0.000001"))
    return level if LEVEL_BAND[0] <= level <= LEVEL_BAND[1] else None


@cache
def principal_country(currency: str) -> str | None:
    """The most populous country whose legal tender on :data:`PRICED_ON` is ``currency`` (GeoNames' populations):
    the country whose price level stands for a currency several share (the CFA franc: Côte d'Ivoire's or
    Cameroon's), or None."""
    found = [
        (-gazetteer.population(code), code)
        for code in gazetteer.country_codes()
        if gazetteer.currency(code, PRICED_ON) == currency
    ]
    return min(found)[1] if found else None


def fx_price(usd_cents: int | float | Decimal, currency: str) -> int:
    """A US price (cents) in ``currency`` at :func:`living_rate`, rounded half-up to the currency's precision:
    ``fx_price(450, "JPY") == 33400`` (¥334 at 74.2 yen a US dollar's worth)."""
    value = Decimal(str(usd_cents)) if isinstance(usd_cents, float) else Decimal(usd_cents)
    return to_unit(value * living_rate(currency), currency)


def local(
    usd_cents: int | float,
    currency: str,
    factors: Mapping[str, float],
    written: Callable[[float], int] = round,
) -> int:
    """A catalogue's US price (cents) in ``currency`` (cents): for a currency of the catalogue's ``factors``,
    ``written(usd_cents * factor)`` (the catalogue's own numbers and rounding); for any other, :func:`fx_price`."""
    if currency in factors:
        return written(usd_cents * factors[currency])
    return fx_price(usd_cents, currency)


def factor(currency: str, factors: Mapping[str, float]) -> float:
    """The multiplier from US cents to cents of ``currency``: the catalogue's own ``factors`` where it has the
    currency, else :func:`living_rate` (a float, for catalogues that scale then round)."""
    if currency in factors:
        return factors[currency]
    return float(living_rate(currency))


def local_amount(amounts: Mapping[str, int], currency: str) -> int:
    """An amount a table writes per currency (``{"USD": 42_000, "GBP": 26_000, ...}``) in ``currency``: the
    table's own number, else its US number at the living rate (:func:`fx_price`)."""
    if currency in amounts:
        return amounts[currency]
    return fx_price(amounts["USD"], currency)


# The currencies the completion's tables (bills, balances, salaries: builder/persona/complete.py) are written in, one
# per locale, at par with each other (today's numbers: a $1,650 rent in en_US, £1,150 in en_GB, 980 € in de_DE).
WRITTEN = ("USD", "GBP", "EUR")

# Annual pay is not priced at the exchange rate: a country's wage level relative to the US one, where it is known.
# country -> (average or median annual pay of a full-time employee, currency, source). The US row is the anchor.
WAGE_LEVEL: dict[str, tuple[Decimal, str, str]] = {
    "US": (
        Decimal(61_984),
        "USD",
        "BLS, Usual Weekly Earnings of Wage and Salary Workers, Q4 2024: median full-time $1,192 a week x 52",
    ),
    "JP": (
        Decimal(4_600_000),
        "JPY",
        "National Tax Agency, Statistical Survey of Actual Status for Salary in the Private Sector 2023: average"
        " annual salary of a year-round employee 4.60 million yen",
    ),
}


def _to_currency(cents: Decimal, written: str, currency: str) -> int:
    """``cents`` of ``written`` in ``currency`` (cents) at the exchange rate of :data:`PRICED_ON`, to precision."""
    return fx_price(cents / fx.per_usd(written, PRICED_ON), currency)


def amount(value: Decimal, written: str, currency: str) -> Decimal:
    """A completed amount (major units, ``Decimal``) a table writes in ``written`` in the persona's ``currency``:
    unchanged when the currency is one the tables are written for (:data:`WRITTEN`: today's numbers), else at the
    living rate (:func:`living_rate`), rounded to the currency's precision (``amount(Decimal("1650.00"), "USD", "JPY") ==
    Decimal(122451)``)."""
    if currency == written or currency in WRITTEN:
        return value
    return Decimal(_to_currency(value * 100, written, currency)) / 100


def annual_pay(value: Decimal, written: str, currency: str, country: str | None) -> Decimal:
    """A completed annual salary written in ``written`` in ``currency``: as :func:`amount`, except that a country of
    :data:`WAGE_LEVEL` scales it by its pay relative to the US one (a $96,000 salary is 96,000 / 61,984 of the US
    level: about 7.1 million yen in Japan), rounded to 1,000 units of the currency."""
    if currency == written or currency in WRITTEN:
        return value
    level = WAGE_LEVEL.get((country or "").upper())
    if level is None or level[1] != currency:
        return amount(value, written, currency)
    us = WAGE_LEVEL["US"][0]
    usd = value / fx.per_usd(written, PRICED_ON) * fx.per_usd("USD", PRICED_ON)
    return (usd / us * level[0] / 1000).quantize(Decimal(1)) * 1000


def figure(usd_cents: int, currency: str) -> int:
    """An amount the code writes as a number of cents and uses as it is in USD, GBP and EUR (a budget's $50, a
    gift's range) in ``currency``: unchanged in those (today's numbers), else the dollar figure at the exchange
    rate (:func:`fx_price`): ``figure(2000, "GBP") == 2000``, ``figure(2000, "JPY") == 148400``."""
    if currency in WRITTEN:
        return usd_cents
    return fx_price(usd_cents, currency)


def round_figure(usd_cents: int, currency: str) -> int:
    """A round sum a person picks (a transfer, a gift), written in US cents, in ``currency``: unchanged in
    :data:`WRITTEN` (:func:`figure`), else the dollar figure at the living rate rounded to two significant digits of
    the major unit: ``round_figure(45000, "THB")`` is a sum like ``THB 15,000`` (1500000), never ``THB 14,872.37``."""
    if currency in WRITTEN:
        return usd_cents
    major = Decimal(fx_price(usd_cents, currency)) / 100
    if major <= 0:
        return 0
    step = Decimal(10) ** max(0, major.adjusted() - 1)
    return int((major / step).to_integral_value(rounding=ROUND_HALF_UP) * step * 100)
