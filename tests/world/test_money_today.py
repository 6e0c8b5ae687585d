"""Money on as_of (issue 26): accounts' ``balance``, today's holdings and ``finances.prediction_positions``.

Proves: a copy of the default persona whose accounts give their balances on as_of (checking, savings, the card, the
brokerage's cash), whose holdings are today's and who holds two Hunchline positions (one in a market of the world,
one in a market its question makes) gets a world in which the bank app's seeded balances, Tidewell's holdings, their
cost and its cash, and Hunchline's positions, their cost and their markets are exactly the spec's, bought before
as_of at the spec's price; what cannot be honoured is refused in one line naming the path: at load for what the spec
alone tells, at build for what only the world can (a market that resolved, an unknown ticker, balances the history's
pay and spending cannot reach).
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import sqlite3
import subprocess
import sys

import pytest

from builder.persona import Persona, SpecError, complete, load
from builder.world import SpecNotHonoured, forecasts, investing, simulate

from tests.conftest import DEFAULT_PERSONA, REPO

BALANCES = {"checking": "11874.19", "savings": "48230.55", "credit_card": "1187.42", "brokerage": "1234.56"}
HOLDINGS = [
    {"symbol": "TMIX", "shares": 30, "cost_basis": 205.10},
    {"symbol": "NWSC", "shares": 8, "cost_basis": 151.25},  # splits 4:1 within the history
]
NEW_QUESTION = "Will the Portland Timbers reach the MLS Cup final in 2026?"


def _open_question(spec: dict) -> str:
    """The question of an open market of the default persona's world (the markets are a function of the seed)."""
    p = complete(Persona.model_validate(spec))
    start = dt.date(2025, 5, 16)
    return next(m.question for m in forecasts.markets(p, start, p.as_of) if m.status == "open")


def today_spec() -> dict:
    """The default persona with balances on as_of, today's holdings, a brokerage account and two positions."""
    d = json.loads(DEFAULT_PERSONA.read_text())
    d["id"] = "dana-today"
    for a in d["finances"]["accounts"]:
        del a["opening_balance"]
        a["balance"] = BALANCES[a["kind"]]
    d["finances"]["accounts"].append({"kind": "brokerage", "name": "Tidewell Brokerage", "balance": "1234.56"})
    d["finances"]["investments"] = {"holdings": HOLDINGS, "monthly_contribution": 250, "contribution_symbol": "TMIX"}
    d["finances"]["prediction_positions"] = [
        {"market": _open_question(d), "side": "yes", "shares": 140, "price": 0.37},
        {"market": NEW_QUESTION, "side": "no", "shares": 250, "price": 0.62, "opened": "2026-10-28"},
    ]
    return d


@pytest.fixture(scope="module")
def today_world(tmp_path_factory):
    spec = today_spec()
    folder = tmp_path_factory.mktemp("today")
    path = folder / "dana-today.json"
    path.write_text(json.dumps(spec))
    persona = complete(load(path))
    return spec, persona, simulate(persona), folder


def _rows(path, sql: str) -> list[tuple]:
    con = sqlite3.connect(path)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_the_completed_spec_validates_again(today_world):
    """Completion keeps ``balance`` without an opening balance (the world works that out), so the completed spec,
    written out, is accepted again as it is."""
    _, persona, world, _ = today_world
    again = Persona.model_validate(json.loads(persona.model_dump_json(by_alias=True, exclude_none=True)))
    assert again == persona
    assert [a.opening_balance for a in persona.accounts] == [None] * 4
    assert all(a.opening_balance is not None for a in world.persona.accounts)


def test_bank_shows_each_balance_on_as_of(today_world):
    from apps.bank.seed import seed

    _, persona, world, folder = today_world
    db = seed(world, folder / "bank.sqlite")
    balances = dict(_rows(db, "SELECT kind, balance_cents FROM accounts"))
    assert balances == {"checking": 1187419, "savings": 4823055, "credit_card": -118742, "brokerage": 123456}
    # Each bank account's lines run from its opening balance (worked out, in the world's persona) to that balance.
    for kind, opening, balance in _rows(db, "SELECT kind, opening_balance_cents, balance_cents FROM accounts"):
        if kind == "brokerage":
            continue
        (moved,) = _rows(
            db,
            f"SELECT COALESCE(SUM(amount_cents), 0) FROM transactions t JOIN accounts a ON a.id = t.account_id "
            f"WHERE a.kind = '{kind}'",
        )[0]
        assert opening + moved == balance
        assert opening == world.opening_balance_cents(kind)
    completed = {a.kind: a for a in world.persona.accounts}
    assert completed["savings"].opening_balance is not None and completed["savings"].opening_balance >= 0
    # The last moves before now: an extra card payment and a transfer between checking and savings.
    late = [e for e in world.events if world.now - dt.timedelta(minutes=30) <= e.at <= world.now]
    assert {e.kind for e in late} >= {"card_payment", "transfer"}


def test_brokerage_holds_todays_holdings_and_cash(today_world):
    from apps.brokerage.seed import seed

    _, _, world, folder = today_world
    db = seed(world, folder / "brokerage.sqlite")
    held = {s: (n, c) for s, n, c in _rows(db, "SELECT symbol, shares_e4, cost_cents FROM holdings")}
    assert held == {"TMIX": (300000, 615300), "NWSC": (80000, 121000)}
    assert _rows(db, "SELECT SUM(amount_cents) FROM cash_ledger") == [(123456,)]
    book = investing.replay(world)
    assert book.cash_cents == 123456 and min(book.cash_cents, 0) == 0
    # Every moment of the history holds no negative shares or cash.
    for e in world.of_kind("brokerage_trade", "brokerage_transfer"):
        then = investing.replay(world, e.at)
        assert then.cash_cents >= 0 and all(n >= 0 for n in then.shares.values())
    # NWSC split 4:1 in the history: today's 8 shares are 2 held before it.
    (split,) = world.of_kind("brokerage_split")
    assert split.data["symbol"] == "NWSC" and split.at < world.now


def test_hunchline_holds_the_positions(today_world):
    from apps.markets.seed import seed

    spec, persona, world, folder = today_world
    db = seed(world, folder / "markets.sqlite")
    rows = _rows(
        db,
        "SELECT m.question, m.ticker, p.side, p.shares, p.cost_cents, m.close_date, m.status, m.rules "
        "FROM positions p JOIN markets m ON m.ticker = p.ticker WHERE p.shares > 0",
    )
    mine = {r[0]: r for r in rows}
    for pos in spec["finances"]["prediction_positions"]:
        question, ticker, side, shares, cost, close, status, _ = mine[pos["market"]]
        assert (side, shares, cost) == (pos["side"], pos["shares"], round(pos["shares"] * pos["price"] * 100))
        assert close > persona.as_of.isoformat() and status == "open"
    new = mine[NEW_QUESTION]
    assert new[1].startswith("PORTLAND-") and NEW_QUESTION in new[7]
    # Bought in one buy before as_of, at the market's price that day, on the day given.
    markets = {m.ticker: m for m in forecasts.markets(persona, world.start, world.now)}
    for pos in forecasts.spec_positions(persona, world.start, world.now):
        (buy,) = [e for e in world.of_kind("forecast_trade") if e.data["ticker"] == pos.ticker]
        yes = markets[pos.ticker].price_on(buy.at.date())
        assert buy.at < world.now and buy.data["price_cents"] == (yes if pos.side == "yes" else 100 - yes)
    assert {p.day for p in forecasts.spec_positions(persona, world.start, world.now)} >= {dt.date(2026, 10, 28)}
    # The account's cash never went below zero (deposits fund the buys).
    assert all(e.data["cash_after_cents"] >= 0 for e in world.of_kind("forecast_trade"))


def _path(tmp_path, spec: dict):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(spec))
    return path


def _refusals():
    def with_(change):
        def mutate(d):
            change(d)
            return d

        return mutate

    def position(**fields):
        return {"market": NEW_QUESTION, "side": "yes", "shares": 10, "price": 0.5, **fields}

    return [
        (
            with_(lambda d: d["finances"]["accounts"][0].update(balance=100)),
            "finances.accounts[0].balance: give balance (on as_of) or opening_balance",
        ),
        (
            with_(lambda d: d["finances"]["accounts"][2].update(balance=8100.01, opening_balance=None)),
            "finances.accounts[2].balance: more than 90% of the card's credit_limit (9000",
        ),
        (
            with_(lambda d: d["finances"]["accounts"][2].update(balance=-1, opening_balance=None)),
            "finances.accounts[2].balance: a credit card's balance is what is owed on as_of: 0 or more",
        ),
        (
            with_(lambda d: d["finances"]["accounts"][1].update(balance=-5, opening_balance=None)),
            "finances.accounts[1].balance: a savings account cannot be overdrawn",
        ),
        (
            with_(lambda d: d["finances"].update(prediction_positions=[position(), position(side="no")])),
            "finances.prediction_positions[1].market: also prediction_positions[0]'s market",
        ),
        (
            with_(lambda d: d["finances"].update(prediction_positions=[position(opened="2026-11-16")])),
            "finances.prediction_positions[0].opened: must be a day of the history",
        ),
        (
            with_(lambda d: d["finances"].update(prediction_positions=[position(price=1)])),
            "finances.prediction_positions[0].price: input should be less than or equal to 0.99",
        ),
        (
            with_(lambda d: d["finances"].update(prediction_positions=[position(shares=0)])),
            "finances.prediction_positions[0].shares: input should be greater than or equal to 1",
        ),
        (
            with_(
                lambda d: d["finances"].update(
                    investments={"holdings": HOLDINGS, "monthly_contribution": 100, "contribution_symbol": "LCAP"}
                )
            ),
            "finances.investments.contribution_symbol: the monthly investment buys it",
        ),
        (
            with_(lambda d: d["finances"].update(investments={"holdings": [{**HOLDINGS[1], "shares": 8.0001}]})),
            "finances.investments.holdings[0].shares: NWSC splits 4:1 on 2026-06-10",
        ),
        (
            with_(lambda d: d["finances"].update(investments={"holdings": [HOLDINGS[0], HOLDINGS[0]]})),
            "finances.investments.holdings[1].symbol: also holdings[0]'s symbol",
        ),
    ]


@pytest.mark.parametrize("mutate, expected", _refusals())
def test_what_the_spec_cannot_hold_is_refused_at_load(tmp_path, mutate, expected):
    spec = mutate(json.loads(DEFAULT_PERSONA.read_text()))
    for a in spec["finances"]["accounts"]:
        if a.get("opening_balance", 0) is None:
            del a["opening_balance"]
    path = _path(tmp_path, spec)
    with pytest.raises(SpecError) as err:
        load(path)
    assert len(err.value.lines) == 1
    assert err.value.lines[0].startswith(f"{path}: {expected}"), err.value.lines[0]


def test_markets_the_world_cannot_hold_are_refused():
    """A resolved market, a ticker no market has, a day the market did not trade: one error naming the path."""
    base = json.loads(DEFAULT_PERSONA.read_text())
    p = complete(Persona.model_validate(base))
    start = dt.date(2025, 5, 16)
    ms = forecasts.markets(p, start, p.as_of)
    resolved = next(m for m in ms if m.status == "resolved")
    opened = next(m for m in ms if m.status == "open")
    cases = [
        ({"market": resolved.question}, f"finances.prediction_positions[0].market: {resolved.ticker} resolved on"),
        ({"market": "ZZZ-990101"}, "finances.prediction_positions[0].market: no market has the ticker ZZZ-990101"),
        (
            {"market": opened.ticker, "opened": (opened.open - dt.timedelta(days=1)).isoformat()},
            f"finances.prediction_positions[0].opened: {opened.ticker} traded from",
        ),
        (
            {"market": opened.question.upper()},
            None,  # a question is matched as names are (case and spacing aside): held in that market
        ),
    ]
    for fields, expected in cases:
        spec = copy.deepcopy(base)
        spec["finances"]["prediction_positions"] = [{"side": "no", "shares": 5, "price": 0.2, **fields}]
        q = complete(Persona.model_validate(spec))
        if expected is None:
            (pos,) = forecasts.spec_positions(q, start, q.as_of)
            assert pos.ticker == opened.ticker
            continue
        with pytest.raises(SpecNotHonoured) as err:
            forecasts.spec_positions(q, start, q.as_of)
        assert str(err.value).startswith(expected), str(err.value)


def test_balances_the_history_cannot_reach_are_refused_in_one_line(tmp_path):
    """Savings today below what the history's pay and spending leave in it from an opening of 0: build-image
    prints one line naming the file and the path, and exits 2."""
    spec = json.loads(DEFAULT_PERSONA.read_text())
    spec["finances"]["accounts"][1] = {"kind": "savings", "balance": 100, "apr": 3.75}
    path = _path(tmp_path, spec)
    run = subprocess.run(
        [sys.executable, "-m", "builder.cli", str(path), "--out", str(tmp_path / "out"), "--until", "world"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert run.returncode == 2, run.stderr[-2000:]
    lines = run.stderr.strip().splitlines()
    assert lines[-1].startswith(f"{path}: finances.accounts[1].balance: the history's pay, spending and bills leave")
    assert not (tmp_path / "out" / "dana-whitfield").exists()
