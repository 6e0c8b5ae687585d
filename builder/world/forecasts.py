"""Forecasts: the persona's account at Hunchline, the prediction market (apps/markets).

**Markets** (:func:`markets`) are public yes/no questions drawn from the grammar
``builder/reference/forecasts/questions.yaml`` (weather and goings-on in the persona's own city, invented sports leagues,
economy releases, awards, tech launches), in the persona's language. They are a pure function of the seed, the
locale, the home city, the history start and the world's now (stream ``forecasts/markets``; one stream
``forecasts/prices/<ticker>`` per market's price walk), so the app's seed rebuilds the same list. Each market has a
ticker, question, rules, category, ``open``/``close``/``resolve`` dates, a ``status`` at the world's now
(``open``: trading; ``closed``: trading over, awaiting resolution; ``resolved``: ``outcome`` "yes" | "no") and a
daily ``history`` of the YES price in cents (1-99; NO costs 100 - YES), from ``open`` to ``min(close, now)``: a
seeded random walk in log-odds that, for markets whose close is past, converges to the outcome (≥ 97 or ≤ 3 at
close).

**The account.** Only a persona who would plausibly bet (:func:`has_account`: aged 21-65, with a job, living in
the US or the UK) trades; anyone else has a fresh, empty account in the app. Events (keys ``("forecasts", ...)``,
streams ``forecasts/account``, ``forecasts/trades``, ``forecasts/watch``):

- ``forecast_deposit``: ``{"reference", "amount_cents", "cash_after_cents"}``; money leaves checking as an ACH
  transfer to Hunchline (a ``Charge`` of kind ``external_transfer``, description as the bank writes one made in the app).
- ``forecast_trade``: ``{"reference", "ticker", "side": "yes"|"no", "action": "buy"|"sell", "shares",
  "price_cents" (per share, of that side), "amount_cents" (shares x price), "cash_after_cents"}``. No fees.
- ``forecast_payout``: ``{"reference", "ticker", "side", "shares", "amount_cents" (shares x 100),
  "cash_after_cents"}``, on the resolve day of a market the persona held winning shares of.
- ``forecast_watch``: ``{"ticker"}``: a market put on the watchlist (open markets the persona holds none of).

Rules the output obeys: the account's cash never goes below zero; cash = deposits - buys + sells + payouts;
a position (ticker, side) = shares bought - shares sold, never negative; trades happen only while a market is
open (``open`` <= day < ``close``), at that day's price; every activity is before the world's now.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from dataclasses import dataclass


from ..reference import forecasts as reference_forecasts
from ..reference.services import service
from ..rng import rng
from .engine import world_step
from .context import Charge, Sim
from .finance import label
from ..reference.forecasts import SHARE_PAYS_CENTS
from ..reference.locale import conventions, format_date

BRAND = service("prediction-market").title
MARKET_COUNT = 36


@functools.lru_cache(maxsize=1)
def grammar() -> dict:
    """The market grammar (:func:`builder.reference.forecasts.grammar`)."""
    return reference_forecasts.grammar()


@dataclass(frozen=True)
class Market:
    """One market. Dates are ``datetime.date``; ``history`` is ``((iso date, YES cents 1-99), ...)`` in date order;
    ``outcome`` "yes" | "no" for a resolved market, else None; ``status`` at the world's now."""

    ticker: str
    template: str
    category: str
    question: str
    rules: str
    open: dt.date
    close: dt.date
    resolve: dt.date
    status: str
    outcome: str | None
    history: tuple[tuple[str, int], ...]
    local: bool

    def price_on(self, day: dt.date) -> int:
        """The YES price in cents at the end of ``day`` (the last price before it when the day has none).
        Raises ``ValueError`` before the market opened."""
        iso = day.isoformat()
        last = None
        for d, p in self.history:
            if d > iso:
                break
            last = p
        if last is None:
            raise ValueError(f"{self.ticker} was not open on {day}")
        return last

    @property
    def last_price(self) -> int:
        """The latest YES price in cents."""
        return self.history[-1][1]


def long_date(day: dt.date, locale: str) -> str:
    """``December 31, 2026`` (en_US) / ``31 December 2026`` (en_GB) / ``31. Dezember 2026`` (de_DE)."""
    return format_date(day, "full_date", locale)


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def _walk(r, lean: float, days: int, converge_to: str | None, closes_in: int) -> list[int]:
    """``days`` daily YES prices in cents: a log-odds random walk from about ``lean``; when ``converge_to`` is
    given the price is pulled to it so that it reaches ≥ 97 (yes) or ≤ 3 (no) on day ``closes_in``."""
    p0 = min(0.92, max(0.08, lean + r.gauss(0, 0.15)))
    x = math.log(p0 / (1 - p0))
    target = 4.6 if converge_to == "yes" else -4.6
    out = []
    for t in range(days):
        x += r.gauss(0, 0.16)
        if converge_to:
            w = min(1.0, (t + 1) / max(1, closes_in)) ** 3
            y = (1 - w) * x + w * target
        else:
            y = max(-3.0, min(3.0, x))
            x = y
        out.append(min(99, max(1, round(_sigmoid(y) * 100))))
    return out


def _fill(text: str, slots: dict[str, str]) -> str:
    return text.format(**slots)


@functools.lru_cache(maxsize=8)
def _markets(seed: int, locale: str, city: str, start: dt.date, today: dt.date) -> tuple[Market, ...]:
    g = grammar()
    lang = conventions(locale)["language"]
    marks = conventions(locale)["money_in"]
    number = str.maketrans({",": marks["group"], ".": marks["decimal"]})  # the grammar writes numbers in English
    r = rng(seed, "world/forecasts/markets")
    templates = g["templates"]
    agency = g["agencies"].get(locale, g["agencies"]["default"])
    out: list[Market] = []
    used: set[str] = set()
    # Status plan: 20 resolved, 4 closed awaiting resolution, 12 open, interleaved so every template gets each.
    plan = (["resolved"] * 5 + ["closed"] + ["open"] * 3) * 4
    for i in range(MARKET_COUNT):
        t = templates[(i * 5) % len(templates)] if i >= len(templates) else templates[i]
        status = plan[i]
        lo, hi = t["days"]
        length = r.randint(lo, hi)
        if status == "resolved":
            close = start + dt.timedelta(
                days=r.randint(length // 2 + 5, max(length // 2 + 6, (today - start).days - 4))
            )
            resolve = close + dt.timedelta(days=r.randint(0, 2))
            if resolve >= today:
                resolve = today - dt.timedelta(days=1)
                close = min(close, resolve)
        elif status == "closed":
            close = today - dt.timedelta(days=r.randint(1, 2))
            resolve = today + dt.timedelta(days=r.randint(2, 6))
        else:
            close = today + dt.timedelta(days=r.randint(4, 75))
            resolve = close + dt.timedelta(days=r.randint(0, 2))
        if "months" in t and close.month not in t["months"]:
            t = next(x for x in templates if x["key"] == ("rates" if i % 2 else "launch"))
        opened = close - dt.timedelta(days=length)
        if status == "open" and opened > today - dt.timedelta(days=3):
            opened = today - dt.timedelta(days=r.randint(3, 12))
        slots = {"city": city, "open": long_date(opened, locale), "close": long_date(close, locale), "agency": agency}
        if "n" in t:
            slots["n"] = str(r.choice(t["n"])).translate(number)
        league = g["leagues"][t["league"]] if "league" in t else r.choice(g["leagues"])
        a, b = r.sample(league["teams"], 2)
        slots.update(
            team=a,
            team2=b,
            league=league.get(lang, league["name"]),
            the_team=league["article"] + a,
            the_team2=league["article"] + b,
        )
        comp = r.choice(g["companies"])
        slots.update(company=comp["company"], product=comp["product"], product_de=comp["de"])
        aw = r.choice(g["awards"])
        slots.update(award=aw["award"], award_de=aw["de"], nominee=r.choice(aw["nominees"]))
        question = _fill(t[lang], slots)
        if question in used:  # the same question twice (a small grammar): skip this draw
            continue
        used.add(question)
        outcome = ("yes" if r.random() < t["lean"] else "no") if status == "resolved" else None
        hidden = outcome or ("yes" if r.random() < t["lean"] else "no")
        ticker = f"{t['key'].upper().replace('-', '')}-{close:%y%m%d}"
        while ticker in {m.ticker for m in out}:
            ticker += "X"
        pr = rng(seed, f"world/forecasts/prices/{ticker}")
        last = min(close, today)
        days = (last - opened).days + 1
        converge = hidden if status != "open" else None
        prices = _walk(pr, t["lean"], days, converge, (close - opened).days + 1)
        history = tuple(((opened + dt.timedelta(days=k)).isoformat(), prices[k]) for k in range(days))
        out.append(
            Market(
                ticker=ticker,
                template=t["key"],
                category=t["category"],
                question=question,
                rules=_fill(t[f"rules_{lang}"], slots),
                open=opened,
                close=close,
                resolve=resolve,
                status=status,
                outcome=outcome,
                history=history,
                local=bool(t.get("local")),
            )
        )
    return tuple(sorted(out, key=lambda m: (m.close, m.ticker)))


def markets(persona, start: dt.datetime | dt.date, now: dt.datetime | dt.date) -> tuple[Market, ...]:
    """Every Hunchline market of the persona's world, by close date then ticker (see the module docstring).

    ``start``/``now``: the world's history start and now (a ``World``'s or ``Sim``'s)."""
    city = (
        persona.identity.address.city
        if persona.identity and persona.identity.address
        else grammar()["no_city"][conventions(persona.bank)["language"]]
    )
    as_date = lambda d: d.date() if isinstance(d, dt.datetime) else d  # noqa: E731
    return _markets(persona.seed, persona.bank, city, as_date(start), as_date(now))


def has_account(persona, today: dt.date) -> bool:
    """Whether the persona trades on Hunchline: aged 21-65 on ``today``, with a job (an employer or a role), and
    living in the US or the UK (where these markets are open to residents)."""
    ident = persona.identity
    if not ident or not ident.birth_date or not persona.work or not (persona.work.employer or persona.work.role):
        return False
    b = ident.birth_date
    age = today.year - b.year - ((today.month, today.day) < (b.month, b.day))
    country = ident.address.country if ident.address else "US"
    return 21 <= age <= 65 and country in ("US", "GB")


def _at(r, day: dt.date, lo: int = 7, hi: int = 22) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(r.randint(lo, hi), r.randint(0, 59), r.randint(0, 59)))


@world_step(rank=140, writes=("forecast_deposit", "forecast_trade", "forecast_payout", "forecast_watch", "ledger"))
def simulate_forecasts(sim: Sim) -> None:
    """Add the persona's Hunchline deposits, trades, payouts and watchlist (see the module docstring)."""
    p = sim.persona
    today = sim.now.date()
    if not has_account(p, today):
        return
    all_markets = markets(p, sim.start, sim.now)
    ar = sim.rng("forecasts/account")
    tr = sim.rng("forecasts/trades")
    first = sim.start.date() + dt.timedelta(days=ar.randint(8, 30))
    last_day = today - dt.timedelta(days=1)
    if first >= last_day - dt.timedelta(days=20):
        return
    deposit_days = [first]
    d = first
    while True:
        d += dt.timedelta(days=ar.randint(40, 85))
        if d > last_day:
            break
        deposit_days.append(d)
    span = (last_day - first).days
    trade_days = {first + dt.timedelta(days=k) for k in tr.sample(range(1, span + 1), min(span, tr.randint(16, 22)))}
    # The markets open now opened in the last weeks: a few trades there too.
    trade_days |= {last_day - dt.timedelta(days=k) for k in tr.sample(range(0, 21), 4)}
    cash = 0
    held: dict[tuple[str, str], int] = {}
    paid: set[str] = set()
    n_dep = n_trade = n_pay = 0

    def pay_out(day: dt.date) -> None:
        nonlocal cash, n_pay
        for m in all_markets:
            if m.status != "resolved" or m.resolve != day or m.ticker in paid:
                continue
            paid.add(m.ticker)
            shares = held.get((m.ticker, m.outcome), 0)
            if shares <= 0:
                continue
            n_pay += 1
            amount = shares * SHARE_PAYS_CENTS
            cash += amount
            sim.event(
                "forecast_payout",
                dt.datetime.combine(day, dt.time(6, 0, n_pay % 60)),
                {
                    "reference": f"HL-PAY-{n_pay:04d}",
                    "ticker": m.ticker,
                    "side": m.outcome,
                    "shares": shares,
                    "amount_cents": amount,
                    "cash_after_cents": cash,
                },
                key=("forecasts", "payout", m.ticker),
            )

    day = first
    while day <= last_day:
        pay_out(day)
        if day in deposit_days:
            amount = ar.choice([50, 75, 100, 100, 150, 200]) * 100
            n_dep += 1
            cash += amount
            ref = f"HL-DEP-{n_dep:04d}"
            sim.event(
                "forecast_deposit",
                _at(ar, day, 7, 10),
                {"reference": ref, "amount_cents": amount, "cash_after_cents": cash},
                [
                    Charge(
                        "checking",
                        -amount,
                        label(sim, "ext_to", BRAND),
                        BRAND,
                        "transfer",
                        "external_transfer",
                        memo=f"{BRAND} deposit {ref}",
                    )
                ],
                key=("forecasts", "deposit", ref),
            )
        if day in trade_days:
            live = [m for m in all_markets if m.open <= day < m.close]
            at = _at(tr, day, 12, 21)
            for _ in range(tr.randint(1, 2)):
                at += dt.timedelta(minutes=tr.randint(5, 50))
                if not live:
                    break
                mine = [(t, s) for (t, s), n in sorted(held.items()) if n > 0 and any(m.ticker == t for m in live)]
                if mine and tr.random() < 0.3:
                    ticker, side = tr.choice(mine)
                    m = next(x for x in live if x.ticker == ticker)
                    shares = max(1, held[(ticker, side)] // 2)
                    action = "sell"
                else:
                    m = tr.choice(live)
                    yes = m.price_on(day)
                    side = "yes" if tr.random() < (0.15 + 0.7 * (yes / 100)) else "no"
                    for s in ("yes", "no"):  # one keeps adding to the side one already backs
                        if held.get((m.ticker, s), 0) > 0:
                            side = s
                    action = "buy"
                price = m.price_on(day) if side == "yes" else 100 - m.price_on(day)
                if action == "buy":
                    shares = int(cash * tr.uniform(0.08, 0.22)) // price
                    if shares < 1:
                        continue
                amount = shares * price
                cash += amount if action == "sell" else -amount
                held[(m.ticker, side)] = held.get((m.ticker, side), 0) + (shares if action == "buy" else -shares)
                n_trade += 1
                ref = f"HL-TRD-{n_trade:04d}"
                sim.event(
                    "forecast_trade",
                    at,
                    {
                        "reference": ref,
                        "ticker": m.ticker,
                        "side": side,
                        "action": action,
                        "shares": shares,
                        "price_cents": price,
                        "amount_cents": amount,
                        "cash_after_cents": cash,
                    },
                    key=("forecasts", "trade", ref),
                )
        day += dt.timedelta(days=1)
    # The watchlist: open markets the persona holds none of, added on past days.
    wr = sim.rng("forecasts/watch")
    candidates = [
        m for m in all_markets if m.status == "open" and not any(held.get((m.ticker, s)) for s in ("yes", "no"))
    ]
    for m in sorted(wr.sample(candidates, min(4, len(candidates))), key=lambda m: m.ticker):
        added = max(m.open, first)
        at = _at(wr, added + dt.timedelta(days=wr.randint(0, max(0, (last_day - added).days))), 8, 22)
        sim.event("forecast_watch", at, {"ticker": m.ticker}, key=("forecasts", "watch", m.ticker))


def account(world) -> dict:
    """The Hunchline account as the world leaves it at now: ``{"cash_cents", "deposits_cents", "buys_cents",
    "sells_cents", "payouts_cents", "positions": {(ticker, side): shares > 0}, "cost": {(ticker, side): cents paid
    for the shares still held, at average cost}, "watchlist": [ticker, ...]}``."""
    out = {"cash_cents": 0, "deposits_cents": 0, "buys_cents": 0, "sells_cents": 0, "payouts_cents": 0}
    held: dict[tuple[str, str], int] = {}
    cost: dict[tuple[str, str], int] = {}
    for e in world.events:
        d = e.data
        if e.kind == "forecast_deposit":
            out["deposits_cents"] += d["amount_cents"]
        elif e.kind == "forecast_trade":
            k = (d["ticker"], d["side"])
            if d["action"] == "buy":
                out["buys_cents"] += d["amount_cents"]
                held[k] = held.get(k, 0) + d["shares"]
                cost[k] = cost.get(k, 0) + d["amount_cents"]
            else:
                out["sells_cents"] += d["amount_cents"]
                before = held[k]
                cost[k] -= round(cost[k] * d["shares"] / before)
                held[k] = before - d["shares"]
        elif e.kind == "forecast_payout":
            out["payouts_cents"] += d["amount_cents"]
    out["cash_cents"] = out["deposits_cents"] - out["buys_cents"] + out["sells_cents"] + out["payouts_cents"]
    out["positions"] = {k: n for k, n in sorted(held.items()) if n > 0}
    out["cost"] = {k: cost[k] for k in out["positions"]}
    out["watchlist"] = sorted(e.data["ticker"] for e in world.of_kind("forecast_watch"))
    return out
