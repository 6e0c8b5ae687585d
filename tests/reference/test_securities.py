"""builder/reference/securities: the broker's static data and rules, which the world's investing module and the
broker's seed both read."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from builder.reference import securities
from builder.reference.services import service


def test_broker_and_account_names():
    assert securities.BROKER == service("brokerage").title
    assert securities.COUNTERPARTY == f"{securities.BROKER} Securities"
    assert securities.account_name("en_GB") == "Stocks and Shares ISA"
    assert securities.account_name("fr_FR") == securities.account_name("en_US") == "Individual brokerage"


def test_listed():
    usd = securities.listed("USD")
    assert usd and all(s["currency"] == "USD" for s in usd)
    gbp_symbol = next(s["symbol"] for s in securities.listed("GBP"))
    extra = securities.listed("USD", ((usd[0]["symbol"], "1"), (gbp_symbol, "1"), ("ZZZZ", "100")))
    assert extra[: len(usd)] == usd and [s["symbol"] for s in extra[len(usd) :]] == [gbp_symbol, "ZZZZ"]
    assert extra[-2]["currency"] == "USD"
    assert extra[-1]["name"] == "ZZZZ Index Fund" and extra[-1]["price"] == 110.0


def test_split_and_amount():
    sec = {"symbol": "X", "split": {"date": dt.date(2026, 6, 10), "ratio": 4}}
    assert securities.split_of(sec, dt.date(2026, 1, 1)) == (dt.date(2026, 6, 10), 4)
    assert securities.split_of(sec, dt.date(2026, 6, 10)) is None
    assert securities.split_of({"symbol": "Y"}, dt.date(2026, 1, 1)) is None
    assert securities.amount_of(Decimal("1.5"), 3) == 5  # 4.5 cents, half up
