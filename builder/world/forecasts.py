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

**The spec's positions** (``finances.prediction_positions``, :func:`spec_positions`): each is held on ``as_of``
exactly: its market is the one of that ticker or question (not yet resolved), or a market of its own made from the
question (template ``spec``: open until 14-75 days after now; streams ``forecasts/spec/<i>``); it is bought in one
buy, on ``opened`` or a drawn day, at the market's price that day, which is the spec's average price (the market's
price that day is set to it), late in the morning (stream ``forecasts/positions``), after a deposit when the cash
falls short. The world's own trades leave those markets alone.

**The account.** Only a persona who would plausibly bet (:func:`has_account`: aged 21-65, with a job, living in
the US or the UK) trades at will; a persona with spec positions and no such account holds just those; anyone else
has a fresh, empty account in the app. Events (keys ``("forecasts", ...)``,
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

import dataclasses
import datetime as dt
import functools
import math
import re
import unicodedata
from dataclasses import dataclass


from ..reference import forecasts as reference_forecasts
from ..reference.services import service
from ..rng import rng
from .engine import world_step
from .context import Charge, Sim
from .finance import label
from .model import SpecNotHonoured
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
def _markets(
    seed: int, locale: str, city: str, start: dt.date, today: dt.date, positions: tuple = ()
) -> tuple[tuple[Market, ...], tuple["Position", ...]]:
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
    held: tuple[Position, ...] = ()
    if positions:
        out, held = _spec_markets(seed, locale, city, start, today, out, positions)
    return tuple(sorted(out, key=lambda m: (m.close, m.ticker))), held


@dataclass(frozen=True)
class Position:
    """A spec position (``finances.prediction_positions[index]``) as the world buys it: ``shares`` of ``side`` of
    the market ``ticker`` at ``price_cents`` a share (of that side), on ``day`` (the market's price that day)."""

    index: int
    ticker: str
    side: str
    shares: int
    price_cents: int
    day: dt.date


# A spec market written as a ticker (``RAIN-261201``) rather than a question.
TICKER = re.compile(r"^[A-Z0-9]+(-[A-Z0-9]+)+$")


def _words(text: str) -> list[str]:
    """The words of ``text``, lower case, letters and digits only."""
    return [w for w in re.split(r"[^\w]+", text.casefold()) if w]


def ticker_of(question: str, close: dt.date) -> str:
    """A ticker for a market asking ``question`` that closes on ``close``: its first word of three letters or more
    that the grammar's ``spec_market.ticker_skip`` lists not, in ASCII capitals (at most 10), then ``-YYMMDD`` as the
    templates' tickers (``Will the Portland Timbers win the cup?`` -> ``PORTLAND-261215``); ``Q-YYMMDD`` when no
    word is left."""
    skip = set(grammar()["spec_market"]["ticker_skip"])
    for word in _words(question):
        ascii_word = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().upper()
        ascii_word = re.sub(r"[^A-Z0-9]", "", ascii_word)
        if word not in skip and len(ascii_word) >= 3 and not ascii_word.isdigit():
            return f"{ascii_word[:10]}-{close:%y%m%d}"
    return f"Q-{close:%y%m%d}"


def _category(question: str, city: str) -> str:
    """The category of a spec market: the first of the grammar's ``spec_market.categories`` with a word of the
    question, ``local`` when it names the home city, else ``spec_market.default``."""
    spec = grammar()["spec_market"]
    words = set(_words(question))
    for key, keywords in spec["categories"].items():
        if words & set(keywords):
            return key
    if city.casefold() in question.casefold():
        return "local"
    return spec["default"]


def _spec_markets(
    seed: int, locale: str, city: str, start: dt.date, today: dt.date, out: list[Market], positions: tuple
) -> tuple[list[Market], tuple[Position, ...]]:
    """The markets with the spec's positions honoured, and the positions as the world buys them (see
    :func:`spec_positions`). ``positions``: ``(market, side, shares, price in cents, opened or None)`` per spec
    position. Streams ``forecasts/spec/<i>`` (one per position). Raises :class:`SpecNotHonoured` for a market that
    resolved before today, a ticker no market has, an ``opened`` day the market did not trade on, and two positions
    in one market."""
    from ..persona.model import name_key

    lang = conventions(locale)["language"]
    spec = grammar()["spec_market"]
    out = list(out)
    held: list[Position] = []
    taken: dict[str, int] = {}
    for i, (text, side, shares, price, opened) in enumerate(positions):
        path = f"finances.prediction_positions[{i}]"
        r = rng(seed, f"world/forecasts/spec/{i}")
        k = name_key(text)
        found = next((n for n, m in enumerate(out) if m.ticker.casefold() == text.casefold()), None)
        if found is None:
            found = next((n for n, m in enumerate(out) if name_key(m.question) == k), None)
        yes = price if side == "yes" else SHARE_PAYS_CENTS - price
        if found is not None:
            m = out[found]
            if m.status == "resolved":
                raise SpecNotHonoured(
                    f"{path}.market", f"{m.ticker} resolved on {m.resolve}, before as_of: no shares are held"
                )
            last = min(m.close, today) - dt.timedelta(days=1)
            first = max(m.open, start)
            if opened is not None and not first <= opened <= last:
                raise SpecNotHonoured(f"{path}.opened", f"{m.ticker} traded from {first} to {last}")
            if first > last:
                raise SpecNotHonoured(f"{path}.market", f"{m.ticker} has no trading day in the history before as_of")
            day = opened or first + dt.timedelta(days=r.randint(0, (last - first).days))
        elif TICKER.match(text):
            raise SpecNotHonoured(f"{path}.market", f"no market has the ticker {text}: write its question to make one")
        else:
            day = opened or max(start, today - dt.timedelta(days=r.randint(1, 60)))
            close = today + dt.timedelta(days=r.randint(14, 75))
            resolve = close + dt.timedelta(days=r.randint(0, 2))
            opens = max(day - dt.timedelta(days=r.randint(2, 20)), start - dt.timedelta(days=30))
            ticker = ticker_of(text, close)
            while ticker in {m.ticker for m in out}:
                ticker += "X"
            length = (today - opens).days + 1
            walk = _walk(
                rng(seed, f"world/forecasts/prices/{ticker}"), yes / 100, length, None, (close - opens).days + 1
            )
            history = tuple(((opens + dt.timedelta(days=n)).isoformat(), walk[n]) for n in range(length))
            rules = spec[f"rules_{lang}"].format(question=text, close=long_date(close, locale))
            local = city.casefold() in text.casefold()
            out.append(
                Market(
                    ticker,
                    "spec",
                    _category(text, city),
                    text,
                    rules,
                    opens,
                    close,
                    resolve,
                    "open",
                    None,
                    history,
                    local,
                )
            )
            found = len(out) - 1
        m = out[found]
        if m.ticker in taken:
            raise SpecNotHonoured(
                f"{path}.market",
                f"the market of prediction_positions[{taken[m.ticker]}] ({m.ticker}): one position a market",
            )
        taken[m.ticker] = i
        # The buy fills at the day's price: the market stood at the spec's price that day.
        history = tuple((d, yes if d == day.isoformat() else p) for d, p in m.history)
        out[found] = dataclasses.replace(m, history=history)
        held.append(Position(i, m.ticker, side, shares, price, day))
    return out, tuple(held)


def _positions_key(persona) -> tuple:
    f = persona.finances
    return tuple(
        (pos.market, pos.side, pos.shares, int(pos.price * 100), pos.opened)
        for pos in ((f.prediction_positions or []) if f else [])
    )


def _city(persona) -> str:
    return (
        persona.identity.address.city
        if persona.identity and persona.identity.address
        else grammar()["no_city"][conventions(persona.bank)["language"]]
    )


def _dates(start, now) -> tuple[dt.date, dt.date]:
    as_date = lambda d: d.date() if isinstance(d, dt.datetime) else d  # noqa: E731
    return as_date(start), as_date(now)


def markets(persona, start: dt.datetime | dt.date, now: dt.datetime | dt.date) -> tuple[Market, ...]:
    """Every Hunchline market of the persona's world, by close date then ticker (see the module docstring): with
    the markets of the spec's ``finances.prediction_positions`` (:func:`spec_positions`).

    ``start``/``now``: the world's history start and now (a ``World``'s or ``Sim``'s). Raises
    :class:`~builder.world.model.SpecNotHonoured` for a spec position no market can hold (:func:`spec_positions`)."""
    day0, today = _dates(start, now)
    return _markets(persona.seed, persona.bank, _city(persona), day0, today, _positions_key(persona))[0]


def spec_positions(persona, start: dt.datetime | dt.date, now: dt.datetime | dt.date) -> tuple[Position, ...]:
    """The spec's ``finances.prediction_positions`` as the world buys them, in spec order. A position's ``market``
    is a market's ticker or question (compared as names are: case and spacing aside) among those not yet resolved,
    or a question no market asks: then a market of its own (template ``spec``: its ticker from
    :func:`ticker_of`, category by its words, rules from the grammar's ``spec_market``, open from before the buy to
    14-75 days after today, a price walk about the spec's price). It is bought on ``opened`` (else a day drawn
    within the market's trading days in the history, at most 60 days back for a new market), in one buy at the
    market's price that day, which is the spec's price (that day's price of the market is set to it).

    Raises :class:`~builder.world.model.SpecNotHonoured` for a market that resolved before today, a ticker no market
    has, an ``opened`` day the market did not trade on, or a second position in one market."""
    day0, today = _dates(start, now)
    return _markets(persona.seed, persona.bank, _city(persona), day0, today, _positions_key(persona))[1]


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
    spec = spec_positions(p, sim.start, sim.now)
    trading = has_account(p, today)
    if not trading and not spec:
        return
    all_markets = markets(p, sim.start, sim.now)
    ar = sim.rng("forecasts/account")
    tr = sim.rng("forecasts/trades")
    first = sim.start.date() + dt.timedelta(days=ar.randint(8, 30))
    last_day = today - dt.timedelta(days=1)
    if first >= last_day - dt.timedelta(days=20):
        if not spec:
            return
        trading = False
    deposit_days: list[dt.date] = []
    trade_days: set[dt.date] = set()
    if trading:
        deposit_days = [first]
        d = first
        while True:
            d += dt.timedelta(days=ar.randint(40, 85))
            if d > last_day:
                break
            deposit_days.append(d)
        span = (last_day - first).days
        trade_days = {
            first + dt.timedelta(days=k) for k in tr.sample(range(1, span + 1), min(span, tr.randint(16, 22)))
        }
        # The markets open now opened in the last weeks: a few trades there too.
        trade_days |= {last_day - dt.timedelta(days=k) for k in tr.sample(range(0, 21), 4)}
    # The spec's positions: bought late in the morning of their day (after the day's deposit, before its trades),
    # in markets the world's own trades leave alone; a deposit first when the cash falls short.
    spec_markets = {pos.ticker for pos in spec}
    pr = sim.rng("forecasts/positions")
    buys: dict[dt.date, list[tuple[dt.datetime, Position]]] = {}
    for pos in spec:
        at = dt.datetime.combine(pos.day, dt.time(11, pr.randint(10, 59), pr.randint(0, 59)))
        buys.setdefault(pos.day, []).append((at, pos))
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

    def deposit(at: dt.datetime, amount: int) -> None:
        nonlocal cash, n_dep
        n_dep += 1
        cash += amount
        ref = f"HL-DEP-{n_dep:04d}"
        sim.event(
            "forecast_deposit",
            at,
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

    def trade(at: dt.datetime, ticker: str, side: str, action: str, shares: int, price: int) -> None:
        nonlocal cash, n_trade
        amount = shares * price
        cash += amount if action == "sell" else -amount
        held[(ticker, side)] = held.get((ticker, side), 0) + (shares if action == "buy" else -shares)
        n_trade += 1
        ref = f"HL-TRD-{n_trade:04d}"
        sim.event(
            "forecast_trade",
            at,
            {
                "reference": ref,
                "ticker": ticker,
                "side": side,
                "action": action,
                "shares": shares,
                "price_cents": price,
                "amount_cents": amount,
                "cash_after_cents": cash,
            },
            key=("forecasts", "trade", ref),
        )

    day = min([first, *buys])
    while day <= last_day:
        pay_out(day)
        if day in deposit_days:
            amount = ar.choice([50, 75, 100, 100, 150, 200]) * 100
            deposit(_at(ar, day, 7, 10), amount)
        for at, pos in sorted(buys.get(day, []), key=lambda b: (b[0], b[1].index)):
            cost = pos.shares * pos.price_cents
            if cash < cost:
                deposit(at - dt.timedelta(minutes=4), -(-(cost - cash) // 5000) * 5000)
            trade(at, pos.ticker, pos.side, "buy", pos.shares, pos.price_cents)
        if day in trade_days:
            live = [m for m in all_markets if m.open <= day < m.close and m.ticker not in spec_markets]
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
                trade(at, m.ticker, side, action, shares, price)
        day += dt.timedelta(days=1)
    if not trading:  # an account only for the spec's positions: no watchlist of the world's own
        return
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
