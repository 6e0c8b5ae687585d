"""builder/world/investing.py: the Tidewell account's events obey the module's rules for every shipped persona."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

from builder.reference import securities
from builder.world import investing, simulate


def _brokerage(world):
    return [e for e in world.events if e.kind.startswith("brokerage_")]


def test_deterministic(any_world):
    persona, world = any_world
    again = simulate(persona)
    a = [json.dumps(e.to_json(), sort_keys=True) for e in _brokerage(world)]
    b = [json.dumps(e.to_json(), sort_keys=True) for e in _brokerage(again)]
    assert a == b and a
    symbol = world.of_kind("brokerage_opening")[0].data["holdings"][0]["symbol"]
    assert investing.price_history(world, symbol) == investing.price_history(again, symbol)


def test_prices_on_trading_days_only(any_world):
    persona, world = any_world
    from builder.world.calendar import public_holidays

    for sec in investing.universe(world)[:6]:
        hist = investing.price_history(world, sec["symbol"])
        assert hist[0][0] >= world.start.date() and hist[-1][0] <= world.end.date()
        assert all(d.weekday() < 5 and d not in public_holidays(persona.bank, d.year) for d, _ in hist)
        assert all(c >= 1 for _, c in hist)
        assert [d for d, _ in hist] == sorted({d for d, _ in hist})


def test_split_divides_price_and_multiplies_shares(world):
    sec = investing.security(world, "NWSC")
    day, ratio = securities.split_of(sec, world.start.date())
    hist = dict(investing.price_history(world, "NWSC"))
    before = max(d for d in hist if d < day)
    after = min(d for d in hist if d >= day)
    assert hist[after] * ratio / hist[before] < 1.5 and hist[before] / hist[after] > ratio / 1.5


def test_holdings_times_prices_plus_cash(any_world):
    """Replaying the events gives non-negative cash and shares; holdings + cash from a hand replay agree."""
    _, world = any_world
    cash, shares = 0, {}
    for e in sorted(_brokerage(world), key=lambda e: e.at):
        if e.at > world.now:
            continue
        d = e.data
        if e.kind == "brokerage_opening":
            cash = d["cash_cents"]
            shares = {h["symbol"]: Decimal(h["shares"]) for h in d["holdings"]}
        elif e.kind == "brokerage_transfer":
            cash += d["amount_cents"] * (1 if d["direction"] == "in" else -1)
        elif e.kind == "brokerage_dividend":
            assert Decimal(d["shares"]) == shares[d["symbol"]]
            assert d["amount_cents"] == int(
                (Decimal(d["shares"]) * Decimal(d["per_share"]) * 100).quantize(Decimal(1), "ROUND_HALF_UP")
            )
            cash += d["amount_cents"]
        elif e.kind == "brokerage_split":
            shares[d["symbol"]] *= d["ratio"]
        elif e.kind == "brokerage_trade":
            n = Decimal(d["shares"])
            assert d["price_cents"] == investing.close_on(world, d["symbol"], e.at.date())
            assert d["amount_cents"] == securities.amount_of(n, d["price_cents"])
            if d["side"] == "buy":
                cash -= d["amount_cents"]
                shares[d["symbol"]] = shares.get(d["symbol"], Decimal(0)) + n
            else:
                assert d["realised_gain_cents"] == d["amount_cents"] - d["cost_basis_cents"]
                cash += d["amount_cents"]
                shares[d["symbol"]] -= n
            assert d["tax_year"] == e.at.year
        assert cash >= 0 and all(v >= 0 for v in shares.values()), e.to_json()
    book = investing.replay(world)
    assert book.cash_cents == cash
    assert book.shares == {s: n for s, n in shares.items() if n}
    value = cash + sum(
        securities.amount_of(n, investing.close_on(world, s, world.now.date())) for s, n in shares.items()
    )
    assert investing.account_value_cents(world, world.now.date(), book) == value > 0


def test_transfers_appear_in_the_bank_ledger(any_world):
    _, world = any_world
    lines = {p.event_id: p for p in world.postings("checking")}
    transfers = [e for e in world.of_kind("brokerage_transfer") if e.status == "done"]
    assert transfers
    for e in transfers:
        line = lines[e.id]
        assert line.counterparty == securities.COUNTERPARTY and line.kind == "external_transfer"
        assert line.amount_cents == (-1 if e.data["direction"] == "in" else 1) * e.data["amount_cents"]
        assert securities.COUNTERPARTY.upper() in line.description
    recurring = [e for e in transfers if e.data["recurring"]]
    # One recurring transfer a month, each followed the same morning by its buy of the contribution symbol.
    assert len({(e.at.year, e.at.month) for e in recurring}) == len(recurring) >= 12
    buys = [e for e in world.of_kind("brokerage_trade") if e.data["recurring"] and e.status == "done"]
    assert sorted(e.at.date() for e in buys) == sorted(e.at.date() for e in recurring)


def test_sells_record_average_cost_gains(world):
    sells = [e for e in world.of_kind("brokerage_trade") if e.data["side"] == "sell"]
    assert sells, "the default persona sells something over the history"
    for e in sells:
        before = investing.replay(world, e.at - dt.timedelta(seconds=1))
        held = before.shares[e.data["symbol"]]
        n = Decimal(e.data["shares"])
        expected = int((Decimal(before.cost_cents[e.data["symbol"]]) * n / held).quantize(Decimal(1), "ROUND_HALF_UP"))
        assert e.data["cost_basis_cents"] == expected


def test_minimal_and_spec_investments():
    """A name-only spec builds (an account only if completion gave it a salaried job); a spec's own holdings, with a
    symbol Tidewell does not list, are the account's holdings today (those shares at that average cost, after the
    history's trades) and it buys its contribution symbol."""
    from builder.persona import Persona, complete

    p = complete(Persona.model_validate({"identity": {"name": "Ada Quill"}}))
    events = _brokerage(simulate(p))
    assert bool(events) == bool(p.work and p.work.salary)
    spec = {
        "identity": {"name": "Ada Quill"},
        "as_of": "2026-11-16",
        "finances": {
            "investments": {
                "holdings": [
                    {"symbol": "VTI", "shares": "12", "cost_basis": "210.00"},
                    {"symbol": "NWSC", "shares": "3.5", "cost_basis": "500"},
                ],
                "monthly_contribution": "150.00",
                "contribution_symbol": "VTI",
            }
        },
    }
    w = simulate(complete(Persona.model_validate(spec)))
    today = investing.replay(w)
    assert today.shares == {"VTI": Decimal("12"), "NWSC": Decimal("3.5")}
    assert today.cost_cents == {"VTI": 252000, "NWSC": 175000}
    assert investing.security(w, "VTI")["name"] == "VTI Index Fund"
    buys = [e for e in w.of_kind("brokerage_trade") if e.data["recurring"]]
    assert buys and all(e.data["symbol"] == "VTI" and e.data["amount_cents"] <= 15000 for e in buys)
    # NWSC splits 4:1 on 2026-06-10: the shares held that morning are multiplied by 4, the cost basis stays.
    (split,) = w.of_kind("brokerage_split")
    assert split.at.date() == dt.date(2026, 6, 10) and split.data["symbol"] == "NWSC" and split.data["ratio"] == 4
    before = investing.replay(w, split.at - dt.timedelta(seconds=1))
    after = investing.replay(w, split.at)
    assert Decimal(split.data["shares_before"]) == before.shares["NWSC"] > 0
    assert after.shares["NWSC"] == 4 * before.shares["NWSC"] == Decimal(split.data["shares_after"])
    assert after.cost_cents["NWSC"] == before.cost_cents["NWSC"]


def test_read_api(any_world):
    """The world's published read functions (builder.world) answer what the module computes."""
    import builder.world as W

    _, world = any_world
    assert W.INVESTING_KINDS == investing.KINDS
    assert W.securities(world) == investing.universe(world)
    symbol = W.securities(world)[0]["symbol"]
    assert W.security(world, symbol) == investing.security(world, symbol)
    hist = W.price_history(world, symbol)
    assert hist == investing.price_history(world, symbol)
    assert W.closing_price(world, symbol, hist[-1][0]) == hist[-1][1]
    book, then = W.brokerage_book(world), world.start + dt.timedelta(days=40)
    assert isinstance(book, W.BrokerageBook) and book == investing.replay(world)
    assert W.brokerage_book(world, then) == investing.replay(world, then)
    day = world.now.date()
    assert W.brokerage_value_cents(world, day, book) == investing.account_value_cents(world, day, book)
    plan = W.investment_plan(world)
    assert plan == investing.plan(world) and (plan is None or isinstance(plan, W.InvestmentPlan))


def test_a_brokerage_accounts_opening_balance_is_the_brokers_cash(persona):
    """The spec's ``brokerage`` account's ``opening_balance`` is the broker's cash at the history's start (it was
    drawn at random whatever the spec said); a persona without one keeps the drawn cash."""
    from decimal import Decimal

    from builder.persona.model import Account
    from builder.world.investing import plan
    from builder.world.simulate import begin

    drawn = plan(begin(persona))
    accounts = [*persona.finances.accounts, Account(kind="brokerage", opening_balance=Decimal("2345.67"))]
    spec = persona.model_copy(update={"finances": persona.finances.model_copy(update={"accounts": accounts})})
    given = plan(begin(spec))
    assert given.cash_cents == 234_567 != drawn.cash_cents
    assert (given.holdings, given.monthly_cents) == (drawn.holdings, drawn.monthly_cents)
