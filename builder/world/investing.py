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
- **Holdings**: the spec's ``finances.investments`` are today's holdings (on ``as_of``): the account is run so that
  its trades end at exactly those shares at exactly that average cost (:func:`_today`: the opening shares and cost
  are worked out; only the spec's symbols are bought and sold at will; a contribution that would add up to more
  shares than today's started later), and a spec ``balance`` of the ``brokerage`` account is its cash today (the
  opening cash is worked out, a last transfer before now lands it; the finished world's persona carries that
  opening cash as the account's ``opening_balance``). A persona with a job and a salary whose spec has none gets a
  starter portfolio here, held at the history's start (stream ``investing/complete``, not in
  ``persona/complete.py``, so nothing else that completes changes): an index fund, a bond fund and three large
  caps sized from salary and age, a monthly contribution of about 4 % of gross pay into the index fund. A persona
  without a job and without spec investments has an empty account (no events).

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
from .model import SpecNotHonoured

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
    """Holdings (symbol, shares, cost per share in cents): the spec's are today's (on as_of), a drawn starter
    portfolio's those at the start; opening cash; the monthly contribution."""

    holdings: tuple[tuple[str, Decimal, int], ...]
    cash_cents: int
    monthly_cents: int
    contribution_symbol: str | None
    account_number: str


def plan(sim) -> Plan | None:
    """The account from the spec's ``finances.investments`` (its holdings are today's) or, for a persona with a salaried
    job and none in its spec, a completed starter portfolio (stream ``investing/complete``; holdings at the start);
    None when the persona has no account. The opening cash is the spec's ``brokerage`` account's ``opening_balance``
    when it lists one, else drawn (a ``balance`` on as_of: the finished world's persona carries the opening cash the
    world worked out). ``sim`` is the Sim or the finished World (the same draws)."""
    from ..rng import rng

    p = sim.persona
    inv = p.finances.investments if p.finances else None
    r = rng(sim.seed, "world/investing/complete")
    number = "".join(str(r.randint(0, 9)) for _ in range(8))
    cash = prices.figure(r.randint(150, 1200) * 100, currency_of(p))
    account = next((a for a in p.finances.accounts if a.kind == "brokerage"), None) if p.finances else None
    if account is not None and account.opening_balance is not None:
        # The spec's brokerage account: its opening balance is the broker's cash at the start (with a ``balance``
        # on as_of the world works it out: the finished world's persona carries it, see simulate_investing).
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


@dataclass(frozen=True)
class _Opening:
    """The account at the history's start: ``holdings`` ``(symbol, shares, total cost in cents)``, ``cash`` cents."""

    holdings: tuple[tuple[str, Decimal, int], ...]
    cash: int


@dataclass(frozen=True)
class _Today:
    """How the account runs when the spec's holdings are today's (:func:`_today`): ``symbols`` the spec's (the only
    ones bought or sold at will, in a list that does not hang on what is held), ``skip`` the buys left out ((what,
    day) of the agenda: the first contributions or buys of a symbol the spec holds fewer shares of than they would
    add up to), ``splits`` symbol -> (day of its split in the history, ratio): a trade after it is a whole number of
    the split's new shares per 0.0001 held before, ``cash_move`` a last transfer in (> 0) or out shortly before now."""

    symbols: tuple[str, ...]
    skip: frozenset = frozenset()
    splits: tuple[tuple[str, dt.date, int], ...] = ()
    cash_move: int = 0


@dataclass
class _Run:
    """One run of the account: its events ``(kind, at, data, charges, key)`` in the order made, and per symbol the
    buys made by ``now``, earliest first: ``(what, day)`` (their agenda key) and the shares bought."""

    events: list
    buys: dict[str, list[tuple[str, dt.date, Decimal]]]

    def book(self, until: dt.datetime) -> Book:
        """The account replayed up to ``until`` (inclusive)."""
        book = Book()
        for kind, at, data, _, _ in sorted(self.events, key=lambda e: e[1]):
            if at <= until:
                book.apply(kind, data)
        return book


# At most this many runs of the account to find the history that ends at the spec's holdings (``_today``).
MAX_RUNS = 1500
# The last transfer that lands the broker's cash on the spec's ``balance``: this long before the world's now.
CASH_MOVE_BEFORE_NOW = dt.timedelta(minutes=20)


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
    ``investing/prices/<symbol>``, ``investing/days``, ``investing/trades``, ``investing/watchlist``.

    The spec's holdings (``finances.investments``) are today's: the account is run as :func:`_today` finds it; a
    spec ``balance`` of the brokerage account is its cash today (its opening cash goes to ``sim.openings``)."""
    pl = plan(sim)
    if pl is None:
        return
    p = sim.persona
    cur = currency_of(p)
    if p.finances.investments is None:
        holdings = tuple(
            (symbol, shares, amount_of(shares, per_share, cur)) for symbol, shares, per_share in pl.holdings
        )
        run = _run(sim, pl, _Opening(holdings, pl.cash_cents), None)
    else:
        opening, today = _today(sim, pl)
        run = _run(sim, pl, opening, today)
        account = next((a for a in p.accounts if a.kind == "brokerage"), None)
        if account is not None and account.balance is not None:
            sim.openings["brokerage"] = opening.cash
    for kind, at, data, charges, key in run.events:
        sim.event(kind, at, data, list(charges), key=("investing", kind, *key))
    if any(a.kind == "brokerage" for a in p.accounts):  # what the bank lists for the account: the cash today
        sim.closings["brokerage"] = run.book(sim.now).cash_cents

    # The watchlist: symbols looked at, not held at the start.
    secs = {s["symbol"]: s for s in universe(sim)}
    wr = sim.rng("investing/watchlist")
    held = {h[0] for h in pl.holdings}
    candidates = sorted(s for s in secs if s not in held)
    for k, symbol in enumerate(sorted(wr.sample(candidates, min(5, len(candidates))))):
        at = sim.now - dt.timedelta(days=wr.randint(3, 300), minutes=wr.randint(0, 900))
        sim.event(
            "brokerage_watch", max(at, sim.start), {"symbol": symbol}, key=("investing", "brokerage_watch", symbol)
        )


def _today(sim: Sim, pl: Plan) -> tuple[_Opening, _Today]:
    """The opening account and the run with which the world's trades end at the spec's holdings on ``as_of``: each
    symbol's shares exactly, at its average cost exactly (total cost = shares x cost per share, rounded as an order
    is), and, with a ``balance`` of the brokerage account, the cash exactly.

    The world's habits stay (monthly contributions, a few buys and sells at will, dividends, splits); only the
    spec's symbols are traded. Each symbol's opening shares and cost are solved for (a run is monotone in them); where
    the history's buys alone would add up to more shares than today's, or to a higher cost than today's average
    allows (an opening lot at under a quarter of the first close), its earliest buys are left out (a contribution
    that started later) until an opening of 0 or more fits. The cash: the opening cash is moved by what the run misses,
    then a last transfer in or out before now lands it. Raises :class:`~builder.world.model.SpecNotHonoured` when no
    history fits."""
    p = sim.persona
    cur = currency_of(p)
    symbols = tuple(sorted({h[0] for h in pl.holdings}))
    want = {symbol: shares for symbol, shares, _ in pl.holdings}
    want_cost = {symbol: amount_of(shares, per_share, cur) for symbol, shares, per_share in pl.holdings}
    splits = []
    for symbol in symbols:
        sp = split_of(security(sim, symbol), sim.start.date())
        day = next((d for d in _days(sim) if sp and d >= sp[0]), None)
        if sp and day:
            splits.append((symbol, day, sp[1]))
    ratio = {symbol: r for symbol, day, r in splits if day <= sim.now.date()}
    today = _Today(symbols, splits=tuple(splits))
    first_close = {symbol: price_history(sim, symbol)[0][1] for symbol in symbols}
    shares = {symbol: (want[symbol] / ratio.get(symbol, 1)).quantize(Q4, ROUND_DOWN) for symbol in symbols}
    cost = dict(want_cost)
    account = next((a for a in p.accounts if a.kind == "brokerage"), None)
    target_cash = to_unit(Decimal(account.balance) * 100, cur) if account and account.balance is not None else None
    cash = pl.cash_cents

    runs = [0]

    def run_(opening: _Opening, how: _Today) -> _Run:
        # One run of the account; a budget of them keeps a spec no history fits from searching for long.
        runs[0] += 1
        if runs[0] > MAX_RUNS:
            raise SpecNotHonoured("finances.investments.holdings", "no history of the account ends at them")
        return _run(sim, pl, opening, how)

    def today_shares(symbol: str, day: dt.date, n: Decimal) -> int:
        # 0.0001 shares of ``symbol`` held today for ``n`` bought on ``day`` (times a split's ratio after it).
        day_ratio = next((r for s, d, r in splits if s == symbol and day < d <= sim.now.date()), 1)
        return int(n * 10000) * day_ratio

    def solve(values: str, targets: dict[str, int], start: dict[str, int]) -> tuple[dict[str, int], _Run, list[str]]:
        # Per symbol a root of "value today" over "value at the start" (a run is monotone in it), all symbols at
        # once (one symbol's trades hang on nothing of another's). ``values``: "shares" (0.0001 shares) or "cost"
        # (cents, the shares fixed). Returns the roots, the last run and the symbols without one.
        roots = {s: _Root(targets[s], start[s]) for s in symbols}
        at = dict(start)
        for _ in range(200):
            if values == "shares":
                run = run_(opening_of(at_shares(at), cash), today)
                got = {s: int(n * 10000) for s, n in run.book(sim.now).shares.items()}
            else:
                run = run_(opening_of(shares, cash, at), today)
                got = run.book(sim.now).cost_cents
            pending = False
            for s in symbols:
                x = roots[s].next(got.get(s, 0))
                if x is not None:
                    at[s] = x
                    pending = True
            if not pending:
                break
        return at, run, [s for s in symbols if not roots[s].found]

    def at_shares(ticks: dict[str, int]) -> dict[str, Decimal]:
        return {s: (Decimal(ticks[s]) / 10000).quantize(Q4) for s in symbols}

    def opening_of(n: dict[str, Decimal], money: int, total: dict[str, int] | None = None) -> _Opening:
        total = total if total is not None else cost
        return _Opening(tuple((s, n[s], total[s]) for s in symbols if n[s] > 0 or total[s] > 0), money)

    for _ in range(100):  # each round leaves out more buys; the buys are finite
        start = {s: int(want[s] * 10000) // ratio.get(s, 1) for s in symbols}
        ticks, run, short = solve("shares", {s: int(want[s] * 10000) for s in symbols}, start)
        shares = at_shares(ticks)
        skip = set(today.skip)
        if short:
            # Too many shares bought in the history even from an opening of 0: leave out its earliest buys, enough.
            book = run_(opening_of({s: Decimal(0) for s in symbols}, cash), today).book(sim.now)
            for s in short:
                excess = int(book.shares.get(s, Decimal(0)) * 10000) - int(want[s] * 10000)
                left = [b for b in run.buys.get(s, []) if b[:2] not in skip]
                if not left:
                    raise _not_reached(p, s, want[s], want_cost[s])
                for k, (what, day, n) in enumerate(left):
                    if k and excess <= 0:
                        break
                    skip.add((what, day))
                    excess -= today_shares(s, day, n)
            today = _Today(symbols, frozenset(skip), today.splits)
            continue
        cost, run, short = solve("cost", want_cost, dict(want_cost))
        short += [
            s
            for s in symbols
            if s not in short
            and (
                (shares[s] == 0) != (cost[s] == 0)
                or (shares[s] > 0 and cost[s] < amount_of(shares[s], first_close[s] // 4))
            )
        ]
        if not short:
            break
        # An opening lot's cost would fall under a quarter of the first close: leave out the earliest buy.
        for s in short:
            left = run.buys.get(s, [])
            if not left:
                raise _not_reached(p, s, want[s], want_cost[s])
            skip.add(left[0][:2])
        cost = dict(want_cost)
        today = _Today(symbols, frozenset(skip), today.splits)
    else:
        raise _not_reached(p, symbols[0], want[symbols[0]], want_cost[symbols[0]])
    if target_cash is not None:
        # Cash: the opening cash moved by what the run misses (twice: transfers that fund a buy answer to it), then a
        # last transfer in or out.
        for _ in range(2):
            got = run.book(sim.now).cash_cents
            if got == target_cash:
                break
            cash = max(0, cash + target_cash - got)
            run = run_(opening_of(shares, cash), today)
        move = target_cash - run.book(sim.now).cash_cents
        if move:
            today = _Today(symbols, today.skip, today.splits, move)
            run = run_(opening_of(shares, cash), today)
    book = run.book(sim.now)
    for s in symbols:
        if book.shares.get(s) != want[s] or book.cost_cents.get(s) != want_cost[s]:
            raise _not_reached(p, s, want[s], want_cost[s])
    if target_cash is not None and book.cash_cents != target_cash:
        raise SpecNotHonoured(_account_path(p, "brokerage"), "the account's history did not land its cash on it")
    return opening_of(shares, cash), today


def _account_path(p, kind: str) -> str:
    """``finances.accounts[i].balance`` of the spec account of ``kind``."""
    i = next(i for i, a in enumerate(p.finances.accounts) if a.kind == kind)
    return f"finances.accounts[{i}].balance"


def _not_reached(p, symbol: str, shares: Decimal, cost: int) -> "SpecNotHonoured":
    i = next(i for i, h in enumerate(p.finances.investments.holdings) if h.symbol == symbol)
    return SpecNotHonoured(
        f"finances.investments.holdings[{i}]",
        f"no history of the account ends at {shares} {symbol} at that average cost (total {cost} cents)",
    )


class _Root:
    """An integer ``x >= 0`` at which a nondecreasing function (a run: shares or cost today over shares or cost at
    the start) takes ``target``: give :meth:`next` the value at the last ``x`` tried; it answers the next ``x`` to
    try, or None once :attr:`found` or :attr:`failed` (no ``x >= 0`` gives it: even 0 gives more, or the function
    steps over it)."""

    def __init__(self, target: int, x: int):
        self.target, self.x = target, x
        self.lo: tuple[int, int] | None = None  # (x, value) below the target
        self.hi: tuple[int, int] | None = None  # (x, value) above it
        self.prev: tuple[int, int] | None = None
        self.found = self.failed = False

    def next(self, value: int) -> int | None:
        """The next ``x`` to try after the function gave ``value`` at the last one; None when done."""
        if self.found or self.failed:
            return None
        if value == self.target:
            self.found = True
            return None
        x = self.x
        if value < self.target:
            self.lo = (x, value)
        else:
            self.hi = (x, value)
        lo, hi = self.lo, self.hi
        if hi and hi[0] == 0:
            self.failed = True
            return None
        if lo and hi:
            if hi[0] - lo[0] <= 1:
                self.failed = True
                return None
            guess = lo[0] + (self.target - lo[1]) * (hi[0] - lo[0]) // (hi[1] - lo[1])
            guess = min(max(guess, lo[0] + 1), hi[0] - 1)
        else:
            # One side only: step by the gap, then by the slope of the last two points (overshooting brackets it).
            gap = self.target - value
            guess = x + gap
            if self.prev and self.prev[0] != x and self.prev[1] != value:
                slope = (value - self.prev[1]) / (x - self.prev[0])
                if slope > 0:
                    guess = x + int(gap / slope) + (1 if gap > 0 else -1)
            guess = max(0, guess)
        self.prev = (x, value)
        self.x = guess
        return guess


def _run(sim: Sim, pl: Plan, opening: _Opening, today: _Today | None) -> _Run:
    """The account's events from ``opening`` (see module docstring), made into a list, not into ``sim``: the
    drawn starter portfolio's when ``today`` is None, else as :class:`_Today` says."""
    p = sim.persona
    cur = currency_of(p)
    has_checking = "checking" in [a.kind for a in p.accounts]
    locale = p.bank
    days = _days(sim)
    book = Book()
    seq = {"order": 0, "transfer": 0}
    out: list = []
    buys: dict[str, list[tuple[str, dt.date, Decimal]]] = {}
    skip = today.skip if today else frozenset()
    split_after = {symbol: (day, ratio) for symbol, day, ratio in today.splits} if today else {}

    def ev(kind: str, at: dt.datetime, data: dict, charges=(), key=()) -> None:
        out.append((kind, at, data, tuple(charges), tuple(key)))
        book.apply(kind, data)

    ev(
        "brokerage_opening",
        sim.start,
        {
            "account_number": pl.account_number,
            "account_last4": pl.account_number[-4:],
            "account_name": account_name(locale),
            "cash_cents": opening.cash,
            "holdings": [
                {"symbol": symbol, "shares": str(shares), "cost_basis_cents": total}
                for symbol, shares, total in opening.holdings
            ],
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

    def lot(symbol: str, day: dt.date, shares: Decimal) -> Decimal:
        # After a split in the history, a spec symbol trades whole multiples of its new shares per 0.0001 before.
        if symbol in split_after and day >= split_after[symbol][0]:
            step = Q4 * split_after[symbol][1]
            return (shares / step).to_integral_value(ROUND_DOWN) * step
        return shares

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

    agenda: list[tuple[dt.date, float, str, Any]] = []
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
    if today and today.cash_move:
        at = sim.now - CASH_MOVE_BEFORE_NOW
        agenda.append((at.date(), 2.5, "cash", at))  # after the morning's dividends and contribution transfer
        agenda.sort(key=lambda a: (a[0], a[1], str(a[3])))

    def bought(symbol: str, what: str, day: dt.date, at: dt.datetime, shares: Decimal) -> None:
        if at <= sim.now:
            buys.setdefault(symbol, []).append((what, day, shares))

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
            if ("contribution", day) in skip:
                continue
            transfer(at, "in", pl.monthly_cents, True, "recurring investment")
            price = close_on(sim, pl.contribution_symbol, day)
            shares = lot(pl.contribution_symbol, day, (Decimal(pl.monthly_cents) / price).quantize(Q4, ROUND_DOWN))
            if shares > 0:
                trade(at + dt.timedelta(hours=3), pl.contribution_symbol, "buy", shares, True)
                bought(pl.contribution_symbol, what, day, at + dt.timedelta(hours=3), shares)
        elif what == "cash":
            if today.cash_move > 0:
                transfer(arg, "in", today.cash_move, False, "deposit")
            else:
                transfer(arg, "out", -today.cash_move, False, "withdrawal")
        elif what == "discretionary" and isinstance(day, dt.date) and day in days:
            x = r.random()
            if x >= 0.3:
                continue
            at = dt.datetime.combine(day, dt.time(r.randint(10, 14), r.randint(0, 59)))
            if today:
                stocks = [s for s in today.symbols if secs[s]["class"] == "stock"]
            else:
                stocks = sorted(s for s, n in book.shares.items() if secs.get(s, {}).get("class") == "stock" and n > 0)
            if x < 0.1 and stocks:
                symbol = r.choice(stocks)
                held = book.shares.get(symbol, Decimal(0))
                part = lot(symbol, day, (held * Decimal(str(round(r.uniform(0.25, 0.6), 2)))).quantize(Q4, ROUND_DOWN))
                if part <= 0:
                    continue
                trade(at, symbol, "sell", part, False)
                if has_checking and r.random() < 0.5 and book.cash_cents > 20000:
                    amount = book.cash_cents // 10000 * 10000 // 2 or 10000
                    transfer(at + dt.timedelta(hours=2), "out", amount, False, "withdrawal")
            else:
                if today:
                    choices = [s for s in today.symbols if secs[s]["class"] in ("stock", "reit", "index_etf")]
                else:
                    choices = sorted(s["symbol"] for s in secs.values() if s["class"] in ("stock", "reit", "index_etf"))
                if not choices:
                    continue
                symbol = r.choice(choices)
                budget = r.randint(3, 20) * 10000
                price = close_on(sim, symbol, day)
                shares = lot(symbol, day, (Decimal(budget) / price).quantize(Decimal("0.001"), ROUND_DOWN).quantize(Q4))
                if shares <= 0 or ("discretionary", day) in skip:
                    continue
                need = amount_of(shares, price) - book.cash_cents
                if need > 0:
                    if not has_checking:
                        continue
                    transfer(at - dt.timedelta(hours=2), "in", -(-need // 5000) * 5000, False, "buy " + symbol)
                trade(at, symbol, "buy", shares, False)
                bought(symbol, what, day, at, shares)
    return _Run(out, buys)
