"""The forecasts world module (builder/world/forecasts.py): Hunchline's markets and the persona's account.

Proves: the markets and the account are deterministic (a second simulation in a fresh cache gives the same
events and markets); prices stay in 1-99 and resolved markets converge to their outcome; trades happen only while
their market is open, at that day's price; positions are the sum of the trades; cash = deposits - buys + sells +
payouts and never goes below zero; every deposit is an ACH line in the bank ledger; payouts pay 100 cents per
winning share held at resolution.
"""

from __future__ import annotations

import datetime as dt
import json

from builder.world import forecasts, simulate


def test_markets_are_deterministic_and_well_formed(any_world):
    persona, world = any_world
    ms = forecasts.markets(persona, world.start, world.now)
    forecasts._markets.cache_clear()
    again = forecasts.markets(persona, world.start, world.now)
    assert ms == again
    assert len(ms) >= 30 and len({m.ticker for m in ms}) == len(ms)
    assert {m.status for m in ms} == {"open", "closed", "resolved"}
    assert len({m.category for m in ms}) >= 5
    today = world.now.date()
    city = persona.identity.address.city
    assert any(m.local and city in m.question for m in ms)
    for m in ms:
        assert m.open <= today and m.open < m.close <= m.resolve, m
        assert all(1 <= p <= 99 for _, p in m.history)
        days = [dt.date.fromisoformat(d) for d, _ in m.history]
        assert days[0] == m.open and days[-1] == min(m.close, today)
        assert all((b - a).days == 1 for a, b in zip(days, days[1:]))
        assert "{" not in m.question and "{" not in m.rules
        if m.status == "resolved":
            assert m.resolve < today and m.outcome in ("yes", "no")
            assert (m.last_price >= 97) if m.outcome == "yes" else (m.last_price <= 3)
        elif m.status == "closed":
            assert m.close <= today < m.resolve and m.outcome is None
        else:
            assert today < m.close and m.outcome is None


def test_account_events_are_deterministic(world, persona):
    forecasts._markets.cache_clear()
    again = simulate(persona)
    kinds = ("forecast_deposit", "forecast_trade", "forecast_payout", "forecast_watch")
    ours = [json.dumps(e.to_json(), sort_keys=True) for e in world.events if e.kind in kinds]
    theirs = [json.dumps(e.to_json(), sort_keys=True) for e in again.events if e.kind in kinds]
    assert ours and ours == theirs


def test_positions_cash_and_bank_agree(any_world):
    persona, world = any_world
    acc = forecasts.account(world)
    if not forecasts.has_account(persona, world.now.date()):
        assert not [e for e in world.events if e.kind.startswith("forecast_")]
        assert acc["cash_cents"] == 0 and acc["positions"] == {}
        return
    ms = {m.ticker: m for m in forecasts.markets(persona, world.start, world.now)}
    deposits = world.of_kind("forecast_deposit")
    trades = world.of_kind("forecast_trade")
    payouts = world.of_kind("forecast_payout")
    assert deposits and len(trades) >= 10
    if persona.id == "dana-whitfield":  # the default persona's app shows resolved markets that paid
        assert payouts
    held: dict = {}
    cash = 0
    for e in sorted(deposits + trades + payouts, key=lambda e: (e.at, e.id)):
        d = e.data
        assert e.status == "done" and e.at < world.now
        if e.kind == "forecast_deposit":
            cash += d["amount_cents"]
        elif e.kind == "forecast_trade":
            m = ms[d["ticker"]]
            assert m.open <= e.at.date() < m.close, (d, m.open, m.close)
            yes = m.price_on(e.at.date())
            assert d["price_cents"] == (yes if d["side"] == "yes" else 100 - yes)
            assert d["amount_cents"] == d["shares"] * d["price_cents"] and d["shares"] > 0
            k = (d["ticker"], d["side"])
            held[k] = held.get(k, 0) + (d["shares"] if d["action"] == "buy" else -d["shares"])
            assert held[k] >= 0
            cash += d["amount_cents"] if d["action"] == "sell" else -d["amount_cents"]
        else:
            m = ms[d["ticker"]]
            assert m.status == "resolved" and d["side"] == m.outcome and e.at.date() == m.resolve
            assert d["shares"] == held[(d["ticker"], d["side"])] and d["amount_cents"] == 100 * d["shares"]
            cash += d["amount_cents"]
        assert cash >= 0 and d.get("cash_after_cents", cash) == cash
    assert acc["positions"] == {k: n for k, n in sorted(held.items()) if n > 0}
    assert (
        acc["cash_cents"]
        == cash
        == (acc["deposits_cents"] - acc["buys_cents"] + acc["sells_cents"] + acc["payouts_cents"])
    )
    # Every resolved market with winning shares held paid out.
    for (ticker, side), n in held.items():
        m = ms[ticker]
        if m.status == "resolved" and side == m.outcome and n > 0:
            assert any(p.data["ticker"] == ticker for p in payouts)
    # Deposits are ACH lines out of checking in the bank's ledger, naming Hunchline.
    lines = [p for p in world.postings("checking") if p.counterparty == forecasts.BRAND]
    assert sorted((p.event_id, -p.amount_cents) for p in lines) == sorted(
        (e.id, e.data["amount_cents"]) for e in deposits
    )
    assert all(p.kind == "external_transfer" and "HUNCHLINE" in p.description for p in lines)
    assert len(acc["watchlist"]) >= 3 and all(ms[t].status == "open" for t in acc["watchlist"])
