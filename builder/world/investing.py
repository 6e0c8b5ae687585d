"""Investing: the persona's account at Tidewell, the broker of the Brokerage app (``apps/brokerage``).

What it makes
-------------
- **Securities**: ``builder/reference/securities/securities.yaml`` (invented funds and companies, each with an asset
  class, sector, currency, start price, dividend yield and pay months, and for a few a split). The persona trades
  only those quoted in its own currency (USD, GBP for an ISA, EUR for a Depot); a symbol the spec holds that the
  catalogue lacks becomes an index fund of that name priced from the spec's cost basis. The catalogue, what the
  broker lists in a currency, the split rule, an order's rounding and the account's name per locale are reference
  data (:mod:`builder.reference.securities`); this module draws and simulates.
- **Prices** (:func:`price_history`): one close per trading day (weekdays that are not a public holiday of the
  persona's locale, ``calendar.public_holidays``) from the history's start to the horizon's end, a seeded
  geometric random walk per symbol (stream ``investing/prices/<symbol>``) with the drift and daily volatility of
  its asset class; a split divides every close from its date on by its ratio. Integer cents, never below 1 cent.
  Nothing of it is stored in events: the seed and the tasks call the function (cached).
- **Holdings at the start**: the spec's ``finances.investments``; a persona with a job and a salary whose spec has
  none gets a starter portfolio here (stream ``investing/complete``, not in ``persona/complete.py``, so nothing
  else that completes changes): an index fund, a bond fund and three large caps sized from salary and age, a
  monthly contribution of about 4 % of gross pay into the index fund. A persona without a job and without
  spec investments has an empty account (no events).

Event kinds (all keyed ``("investing", ...)``; ``at`` local time; money integer cents in the world's currency;
share counts are decimal strings with 4 places; ``tax_year`` is ``at.year``):

- ``brokerage_opening`` at the history's start: ``account_number``, ``account_last4``, ``account_name``,
  ``cash_cents``, ``holdings`` ``[{symbol, shares, cost_basis_cents}]`` (cost basis: the total paid).
- ``brokerage_transfer``: ``direction`` ``in`` (checking -> broker: a ``Charge`` of ``-amount_cents`` on
  checking, "ACH TRANSFER TO TIDEWELL SECURITIES") or ``out`` (broker -> checking, "ACH DEPOSIT FROM ..."),
  ``amount_cents``, ``reference`` (the app's transfer reference), ``recurring`` (bool), ``purpose``.
- ``brokerage_trade``: ``order_id``, ``symbol``, ``side`` (``buy`` | ``sell``), ``shares``, ``price_cents`` (that
  day's close, at which market orders fill), ``amount_cents`` (shares x price, rounded half up), ``recurring``,
  ``cost_basis_cents`` (of the shares sold, average cost; for a buy the amount), ``realised_gain_cents`` (sells:
  amount - cost basis; buys: 0), ``tax_year``.
- ``brokerage_dividend``: ``symbol``, ``shares`` (held on the day), ``per_share`` (decimal string, currency units,
  4 places), ``amount_cents`` (credited to the broker's cash), ``tax_year``.
- ``brokerage_split``: ``symbol``, ``ratio``, ``shares_before``, ``shares_after``.
- ``brokerage_watch``: ``symbol`` added to the watchlist.

Rules the output obeys: cash never goes below zero (a buy larger than the cash is funded by a transfer in the
same morning); shares never go below zero; replaying the events (:func:`replay`) gives the holdings and cash at
any time, and holdings x the day's closes + cash is the account value.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Any

from ..dates import add_months
from ..money import floor_unit, to_unit, unit_cents
from ..reference import prices
from ..reference.securities import BROKER, COUNTERPARTY, account_name, amount_of, catalogue, listed, split_of
from .context import Charge, Sim
from .engine import world_step

KINDS = (
    "brokerage_opening",
    "brokerage_transfer",
    "brokerage_trade",
    "brokerage_dividend",
    "brokerage_split",
    "brokerage_watch",
)
Q4 = Decimal("0.0001")


def _persona(world_or_sim):
    return world_or_sim.persona


def currency_of(persona) -> str:
    """The persona's currency (``finances.currency``; USD when unset)."""
    return (persona.finances.currency if persona.finances else None) or "USD"


def universe(world_or_sim) -> list[dict[str, Any]]:
    """The securities the persona can trade (:func:`builder.reference.securities.listed`): the catalogue's in its
    currency, then any symbol its holdings name that the catalogue lacks (an index fund of that name priced at 110 %
    of its cost basis). Each a dict of ``symbol, name, class, sector, currency, price (float units), yield
    (percent), pay (months), split?``."""
    p = _persona(world_or_sim)
    return list(listed(currency_of(p), _spec_symbols(p)))


def _spec_symbols(p) -> tuple[tuple[str, str], ...]:
    inv = p.finances.investments if p.finances else None
    out = [(h.symbol, str(h.cost_basis)) for h in (inv.holdings if inv else [])]
    if inv and inv.contribution_symbol:
        out.append((inv.contribution_symbol, "100"))
    return tuple(out)


def security(world_or_sim, symbol: str) -> dict[str, Any]:
    """The universe entry of ``symbol``. Raises ``KeyError`` for a symbol the persona cannot trade."""
    for s in universe(world_or_sim):
        if s["symbol"] == symbol:
            return s
    raise KeyError(f"{symbol} is not a security {BROKER} lists in {currency_of(_persona(world_or_sim))}")


@functools.lru_cache(maxsize=64)
def trading_days(locale: str, start: dt.date, end: dt.date) -> tuple[dt.date, ...]:
    """Weekdays in [start, end] that are not public holidays of ``locale`` (builder.world.calendar)."""
    from .calendar import public_holidays

    out, day = [], start
    while day <= end:
        if day.weekday() < 5 and day not in public_holidays(locale, day.year):
            out.append(day)
        day += dt.timedelta(days=1)
    return tuple(out)


def _days(world_or_sim) -> tuple[dt.date, ...]:
    p = _persona(world_or_sim)
    return trading_days(p.bank, world_or_sim.start.date(), world_or_sim.end.date())


def price_history(world_or_sim, symbol: str) -> list[tuple[dt.date, int]]:
    """``[(trading day, close cents)]`` of ``symbol`` from the history's start to the horizon's end (see module
    docstring). Deterministic in (seed, symbol, dates, locale); cached. Raises ``KeyError`` for an unknown symbol."""
    sec = security(world_or_sim, symbol)
    p = _persona(world_or_sim)
    classes = catalogue()["classes"]
    c = classes[sec["class"]]
    sp = split_of(sec, world_or_sim.start.date())
    return list(
        _walk(
            world_or_sim.seed,
            symbol,
            float(sec["price"]),
            float(c["drift"]),
            float(c["vol"]),
            sp,
            _days(world_or_sim),
            p.bank,
            unit_cents(currency_of(p)),
        )
    )


@functools.lru_cache(maxsize=512)
def _walk(seed: int, symbol: str, price: float, drift: float, vol: float, split, days, locale, step: int = 1) -> tuple:
    from ..rng import rng

    r = rng(seed, f"world/investing/prices/{symbol}")
    mu = drift / 252 - vol * vol / 2
    level = price * math.exp(r.gauss(0, 0.04))  # where the walk stands at the history's start
    out = []
    for i, day in enumerate(days):
        if i:
            level *= math.exp(mu + vol * r.gauss(0, 1))
        ratio = split[1] if split and day >= split[0] else 1
        close = int(Decimal(str(level * 100 / ratio)).quantize(Decimal(1), ROUND_HALF_UP))
        if step > 1:  # a currency without cents quotes whole units
            close = (close + step // 2) // step * step
        out.append((day, max(step, close)))
    return tuple(out)


def close_on(world_or_sim, symbol: str, day: dt.date) -> int | None:
    """The last close of ``symbol`` at or before ``day`` (cents), None before the first trading day."""
    best = None
    for d, close in price_history(world_or_sim, symbol):
        if d > day:
            break
        best = close
    return best


# ---- the account's plan -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """Holdings at the start (symbol, shares, cost per share in cents), opening cash, the monthly contribution."""

    holdings: tuple[tuple[str, Decimal, int], ...]
    cash_cents: int
    monthly_cents: int
    contribution_symbol: str | None
    account_number: str


def plan(sim) -> Plan | None:
    """The account from the spec's ``finances.investments`` or, for a persona with a salaried job and none in its spec,
    a completed starter portfolio (stream ``investing/complete``); None when the persona has no account. The opening
    cash is the spec's ``brokerage`` account's ``opening_balance`` when it lists one, else drawn. ``sim`` is the Sim or
    the finished World (the same draws)."""
    from ..rng import rng

    p = sim.persona
    inv = p.finances.investments if p.finances else None
    r = rng(sim.seed, "world/investing/complete")
    number = "".join(str(r.randint(0, 9)) for _ in range(8))
    cash = prices.figure(r.randint(150, 1200) * 100, currency_of(p))
    account = next((a for a in p.finances.accounts if a.kind == "brokerage"), None) if p.finances else None
    if account is not None:  # the spec's brokerage account: its opening balance is the broker's cash at the start
        cash = to_unit(Decimal(account.opening_balance) * 100, currency_of(p))
    if inv is not None:
        holdings = tuple(
            (h.symbol, Decimal(h.shares).quantize(Q4), int(Decimal(h.cost_basis) * 100)) for h in inv.holdings
        )
        return Plan(holdings, cash, int(Decimal(inv.monthly_contribution) * 100), inv.contribution_symbol, number)
    if not p.work or not p.work.salary:
        return None
    salary = float(p.work.salary)
    age = (p.as_of - p.identity.birth_date).days // 365 if p.identity.birth_date else 35
    size = salary * min(1.6, max(0.15, (age - 22) * 0.07)) * r.uniform(0.8, 1.2)
    secs = [s for s in universe(sim)]
    index = [s for s in secs if s["class"] == "index_etf" and s["sector"] == "Broad market"]
    intl = [s for s in secs if s["class"] == "intl_etf"]
    bonds = [s for s in secs if s["class"] == "bond_fund"]
    stocks = [s for s in secs if s["class"] == "stock"]
    core = index[0] if index else (intl[0] if intl else secs[0])
    if currency_of(p) == "EUR" and intl:
        core = intl[0]  # a Depot's classic: one accumulating world ETF
    picks = [(core, 0.55)]
    if bonds:
        picks.append((r.choice(bonds), 0.15))
    for s in sorted(r.sample(stocks, min(3, len(stocks))), key=lambda s: s["symbol"]):
        picks.append((s, 0.10))
    holdings = []
    for sec, share in picks:
        start = price_history(sim, sec["symbol"])[0][1]
        paid = floor_unit(int(start * r.uniform(0.72, 0.97)), currency_of(p))
        shares = (Decimal(str(size * share * 100)) / start).quantize(
            Decimal("0.001") if sec["class"] == "stock" else Q4, ROUND_DOWN
        )
        holdings.append((sec["symbol"], shares.quantize(Q4), paid))
    monthly = max(50, int(salary * 0.04 / 12 / 25) * 25) * 100
    return Plan(tuple(holdings), cash, monthly, core["symbol"], number)


# ---- replay -------------------------------------------------------------------------------------------------------


@dataclass
class Book:
    """The account at a moment: ``shares`` and total ``cost_cents`` per symbol (symbols with shares only), cash."""

    cash_cents: int = 0
    shares: dict[str, Decimal] = field(default_factory=dict)
    cost_cents: dict[str, int] = field(default_factory=dict)

    def apply(self, kind: str, d: dict[str, Any]) -> None:
        """Apply one ``brokerage_*`` event's data (see module docstring)."""
        if kind == "brokerage_opening":
            self.cash_cents = d["cash_cents"]
            for h in d["holdings"]:
                self.shares[h["symbol"]] = self.shares.get(h["symbol"], Decimal(0)) + Decimal(h["shares"])
                self.cost_cents[h["symbol"]] = self.cost_cents.get(h["symbol"], 0) + h["cost_basis_cents"]
        elif kind == "brokerage_transfer":
            self.cash_cents += d["amount_cents"] if d["direction"] == "in" else -d["amount_cents"]
        elif kind == "brokerage_dividend":
            self.cash_cents += d["amount_cents"]
        elif kind == "brokerage_split":
            self.shares[d["symbol"]] = Decimal(d["shares_after"])
        elif kind == "brokerage_trade":
            s, n = d["symbol"], Decimal(d["shares"])
            if d["side"] == "buy":
                self.cash_cents -= d["amount_cents"]
                self.shares[s] = self.shares.get(s, Decimal(0)) + n
                self.cost_cents[s] = self.cost_cents.get(s, 0) + d["amount_cents"]
            else:
                self.cash_cents += d["amount_cents"]
                self.shares[s] -= n
                self.cost_cents[s] -= d["cost_basis_cents"]
                if self.shares[s] == 0:
                    del self.shares[s], self.cost_cents[s]

    def sell_cost(self, symbol: str, shares: Decimal) -> int:
        """Average-cost basis of selling ``shares`` of ``symbol`` (cents, half up; all of it for the whole position)."""
        held = self.shares[symbol]
        if shares == held:
            return self.cost_cents[symbol]
        return int((Decimal(self.cost_cents[symbol]) * shares / held).quantize(Decimal(1), ROUND_HALF_UP))


def replay(world_or_sim, until: dt.datetime | None = None) -> Book:
    """The account replayed from its events up to ``until`` (inclusive; default: the world's now)."""
    until = until or world_or_sim.now
    book = Book()
    for e in sorted((e for e in world_or_sim.events if e.kind in KINDS), key=lambda e: e.at):
        if e.at <= until:
            book.apply(e.kind, e.data)
    return book


def account_value_cents(world_or_sim, day: dt.date, book: Book) -> int:
    """Cash + every holding x its last close at or before ``day``."""
    return book.cash_cents + sum(amount_of(n, close_on(world_or_sim, s, day) or 0) for s, n in book.shares.items())


# ---- the simulation -----------------------------------------------------------------------------------------------


def _description(sim: Sim, direction: str) -> str:
    """The bank line's words, as the bank writes them for a transfer made in the app (finance.label ext_to/ext_from)."""
    from .finance import label

    return label(sim, "ext_to" if direction == "in" else "ext_from", COUNTERPARTY)


@world_step(
    rank=130,
    writes=(
        "brokerage_opening",
        "brokerage_transfer",
        "brokerage_trade",
        "brokerage_dividend",
        "brokerage_split",
        "brokerage_watch",
        "ledger",
    ),
)
def simulate_investing(sim: Sim) -> None:
    """Add the Tidewell account's events to ``sim`` (see module docstring). Streams ``investing/complete``,
    ``investing/prices/<symbol>``, ``investing/days``, ``investing/trades``, ``investing/watchlist``."""
    pl = plan(sim)
    if pl is None:
        return
    p = sim.persona
    cur = currency_of(p)
    has_checking = "checking" in [a.kind for a in p.accounts]
    locale = p.bank
    days = _days(sim)
    book = Book()
    seq = {"order": 0, "transfer": 0}

    def ev(kind: str, at: dt.datetime, data: dict, charges=(), key=()) -> None:
        sim.event(kind, at, data, list(charges), key=("investing", kind, *key))
        book.apply(kind, data)

    holdings = []
    for symbol, shares, per_share in pl.holdings:
        holdings.append(
            {"symbol": symbol, "shares": str(shares), "cost_basis_cents": amount_of(shares, per_share, cur)}
        )
    ev(
        "brokerage_opening",
        sim.start,
        {
            "account_number": pl.account_number,
            "account_last4": pl.account_number[-4:],
            "account_name": account_name(locale),
            "cash_cents": pl.cash_cents,
            "holdings": holdings,
        },
    )

    def transfer(at: dt.datetime, direction: str, amount: int, recurring: bool, purpose: str) -> None:
        seq["transfer"] += 1
        ref = f"TW-{at:%Y%m%d}-{seq['transfer']:03d}"
        sign = -1 if direction == "in" else 1
        charge = Charge(
            "checking",
            sign * amount,
            _description(sim, direction),
            COUNTERPARTY,
            "transfer",
            "external_transfer",
            memo=f"{BROKER} ****{pl.account_number[-4:]} {ref}",
        )
        ev(
            "brokerage_transfer",
            at,
            {
                "direction": direction,
                "amount_cents": amount,
                "reference": ref,
                "recurring": recurring,
                "purpose": purpose,
            },
            [charge],
            key=(ref,),
        )

    def trade(at: dt.datetime, symbol: str, side: str, shares: Decimal, recurring: bool) -> None:
        price = close_on(sim, symbol, at.date())
        amount = amount_of(shares, price, cur)
        basis = amount if side == "buy" else to_unit(book.sell_cost(symbol, shares), cur)
        seq["order"] += 1
        oid = f"{at:%y%m%d}{seq['order']:04d}"
        ev(
            "brokerage_trade",
            at,
            {
                "order_id": oid,
                "symbol": symbol,
                "side": side,
                "shares": str(shares),
                "price_cents": price,
                "amount_cents": amount,
                "recurring": recurring,
                "cost_basis_cents": basis,
                "realised_gain_cents": amount - basis if side == "sell" else 0,
                "tax_year": at.year,
            },
            key=(oid,),
        )

    # Calendar of things that happen on trading days: dividends (15th), contributions (5th), splits.
    secs = {s["symbol"]: s for s in universe(sim)}

    def trading_on_or_after(day: dt.date) -> dt.date | None:
        for d in days:
            if d >= day:
                return d
        return None

    agenda: list[tuple[dt.date, int, str, Any]] = []
    dr = sim.rng("investing/days")
    month = sim.start.date().replace(day=1)
    while month <= sim.end.date():
        for s in secs.values():
            for m in s.get("pay") or []:
                if m == month.month and s.get("yield"):
                    d = trading_on_or_after(month.replace(day=15))
                    if d and d.month == month.month:
                        agenda.append((d, 0, "dividend", s["symbol"]))
        d = trading_on_or_after(month.replace(day=5))
        if d and pl.monthly_cents > 0 and pl.contribution_symbol and has_checking:
            agenda.append((d, 2, "contribution", None))
        agenda.append((trading_on_or_after(month.replace(day=dr.randint(6, 26))) or month, 3, "discretionary", month))
        month = add_months(month, 1)
    for s in secs.values():
        sp = split_of(s, sim.start.date())
        if sp and sp[0] <= sim.end.date():
            d = trading_on_or_after(sp[0])
            if d:
                agenda.append((d, 1, "split", s["symbol"]))
    agenda = [
        a for a in sorted(agenda, key=lambda a: (a[0], a[1], str(a[3]))) if sim.start.date() < a[0] <= sim.end.date()
    ]

    r = sim.rng("investing/trades")
    for day, _, what, arg in agenda:
        if what == "dividend":
            n = book.shares.get(arg)
            if not n:
                continue
            s = secs[arg]
            price = close_on(sim, arg, day)
            per = (Decimal(price) / 100 * Decimal(str(s["yield"])) / 100 / len(s["pay"])).quantize(Q4, ROUND_HALF_UP)
            amount = to_unit(n * per * 100, cur)
            if amount > 0:
                ev(
                    "brokerage_dividend",
                    dt.datetime.combine(day, dt.time(6, 0)),
                    {
                        "symbol": arg,
                        "shares": str(n),
                        "per_share": str(per),
                        "amount_cents": amount,
                        "tax_year": day.year,
                    },
                    key=(arg,),
                )
        elif what == "split":
            n = book.shares.get(arg)
            if not n:
                continue
            ratio = int(secs[arg]["split"]["ratio"])
            ev(
                "brokerage_split",
                dt.datetime.combine(day, dt.time(5, 0)),
                {"symbol": arg, "ratio": ratio, "shares_before": str(n), "shares_after": str((n * ratio).quantize(Q4))},
                key=(arg,),
            )
        elif what == "contribution":
            at = dt.datetime.combine(day, dt.time(7, r.randint(0, 30)))
            transfer(at, "in", pl.monthly_cents, True, "recurring investment")
            price = close_on(sim, pl.contribution_symbol, day)
            shares = (Decimal(pl.monthly_cents) / price).quantize(Q4, ROUND_DOWN)
            if shares > 0:
                trade(at + dt.timedelta(hours=3), pl.contribution_symbol, "buy", shares, True)
        elif what == "discretionary" and isinstance(day, dt.date) and day in days:
            x = r.random()
            if x >= 0.3:
                continue
            at = dt.datetime.combine(day, dt.time(r.randint(10, 14), r.randint(0, 59)))
            stocks = sorted(s for s, n in book.shares.items() if secs.get(s, {}).get("class") == "stock" and n > 0)
            if x < 0.1 and stocks:
                symbol = r.choice(stocks)
                held = book.shares[symbol]
                part = (held * Decimal(str(round(r.uniform(0.25, 0.6), 2)))).quantize(Q4, ROUND_DOWN)
                if part <= 0:
                    continue
                trade(at, symbol, "sell", part, False)
                if has_checking and r.random() < 0.5 and book.cash_cents > 20000:
                    amount = book.cash_cents // 10000 * 10000 // 2 or 10000
                    transfer(at + dt.timedelta(hours=2), "out", amount, False, "withdrawal")
            else:
                choices = sorted(s["symbol"] for s in secs.values() if s["class"] in ("stock", "reit", "index_etf"))
                symbol = r.choice(choices)
                budget = r.randint(3, 20) * 10000
                price = close_on(sim, symbol, day)
                shares = (Decimal(budget) / price).quantize(Decimal("0.001"), ROUND_DOWN).quantize(Q4)
                if shares <= 0:
                    continue
                need = amount_of(shares, price) - book.cash_cents
                if need > 0:
                    if not has_checking:
                        continue
                    transfer(at - dt.timedelta(hours=2), "in", -(-need // 5000) * 5000, False, "buy " + symbol)
                trade(at, symbol, "buy", shares, False)

    # The watchlist: symbols looked at, not held at the start.
    wr = sim.rng("investing/watchlist")
    held = {h[0] for h in pl.holdings}
    candidates = sorted(s for s in secs if s not in held)
    for k, symbol in enumerate(sorted(wr.sample(candidates, min(5, len(candidates))))):
        at = sim.now - dt.timedelta(days=wr.randint(3, 300), minutes=wr.randint(0, 900))
        ev("brokerage_watch", max(at, sim.start), {"symbol": symbol}, key=(symbol,))
