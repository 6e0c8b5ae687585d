"""Independent readers of Tidewell's own answer tasks (:mod:`builder.tasks.reader`): each answer derived from the
pages the persona sees signed in (the account overview, Transfers, Dividends, Orders, a security's page with its
closing prices), never from the world or the database. The helpers serve the scenarios homed in Tidewell and those
of other apps that check against it."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text
from builder.tasks.dates import day_in
from builder.tasks.seen import to_step, unit_cents

APP = "brokerage"


def _cells(tr) -> list[str]:
    return [visible_text(td) for td in tr.xpath("./td")]


def value(see: See) -> tuple[int, str]:
    """``(cents, as shown)``: the account's value, cash included, the overview's headline figure."""
    node = see.page(APP, "/").xpath('//*[@data-testid="portfolio-value"]')
    if not node:
        raise Unreadable("Tidewell's overview shows no account value")
    shown = visible_text(node[0])
    return parse_money(shown), shown


def cash(see: See) -> tuple[int, str]:
    """``(cents, as shown)``: the account's uninvested cash, the overview's "Cash" under Buying power."""
    node = see.page(APP, "/").xpath('//*[@data-testid="cash"]')
    if not node:
        raise Unreadable("Tidewell's overview shows no cash")
    shown = visible_text(node[0]).split(":", 1)[-1].split("·")[0].strip()
    return parse_money(shown), shown


def unit(see: See) -> int:
    """Cents of the smallest unit Tidewell writes money in (:func:`builder.tasks.seen.unit_cents` of the overview's
    account value as shown): 1 with decimals, 100 in whole units (``¥1,850``, ``F CFA 700,737``)."""
    return unit_cents(value(see)[1])


def holdings(see: See) -> list[dict]:
    """The overview's Holdings table: ``{symbol, shares (Decimal), price, value}`` (cents as shown)."""
    out = []
    for tr in see.page(APP, "/").xpath('//table[@data-testid="holdings"]/tbody/tr'):
        c = _cells(tr)
        out.append(
            {
                "symbol": visible_text(tr.xpath(".//strong")[0]),
                "shares": Decimal(c[1]),
                "price": parse_money(c[3]),
                "value": parse_money(c[4]),
            }
        )
    return out


def transfers(see: See) -> list[dict]:
    """The Transfer history of ``/transfers`` (newest first): ``{when, day, deposit, recurring, cents, amount}``
    (``deposit``: money from the bank; ``recurring``: the automatic investment's pill)."""
    out = []
    for tr in see.page(APP, "/transfers").xpath('//table[@data-testid="transfers"]/tbody/tr'):
        c = _cells(tr)
        out.append(
            {
                "when": c[0],
                "day": day_in(c[0]),
                "deposit": c[1].startswith(("Deposit from bank", "Einzahlung")),
                "recurring": bool(tr.xpath('.//*[contains(@class, "tw-pill")]')),
                "cents": parse_money(c[3]),
                "amount": c[3],
            }
        )
    return out


def dividends(see: See) -> list[dict]:
    """The rows of ``/dividends`` (newest first): ``{day, symbol, cents, amount}``."""
    out = []
    for tr in see.page(APP, "/dividends").xpath('//table[@data-testid="dividends"]/tbody/tr'):
        c = _cells(tr)
        out.append({"day": day_in(c[0]), "symbol": c[1], "cents": parse_money(c[4]), "amount": c[4]})
    return out


def orders(see: See) -> list[dict]:
    """The Order history of ``/orders`` (newest first): ``{day, symbol, buy, recurring, shares (Decimal), amount
    (cents or None), filled}``."""
    out = []
    for tr in see.page(APP, "/orders").xpath('//table[@data-testid="order-history"]/tbody/tr'):
        c = _cells(tr)
        out.append(
            {
                "day": day_in(c[0]),
                "symbol": c[1],
                "buy": c[2].startswith(("Buy", "Kauf")),
                "recurring": bool(tr.xpath('.//*[contains(@class, "tw-pill")]')),
                "shares": Decimal(c[3]),
                "amount": parse_money(c[5]) if c[5] else None,
                "filled": c[6] in ("Filled", "Ausgeführt"),
            }
        )
    return out


def price(see: See, symbol: str) -> tuple[int, str]:
    """``(cents, as shown)``: the last close of ``symbol`` (its page's price, the close of today)."""
    node = see.page(APP, f"/stocks/{symbol}").xpath('//*[@data-testid="price"]')
    if not node:
        raise Unreadable(f"Tidewell's page of {symbol} shows no price")
    shown = visible_text(node[0])
    return parse_money(shown), shown


def close_on(see: See, symbol: str, day: dt.date) -> tuple[int, str]:
    """``(cents, as shown)``: the close of ``symbol`` on ``day`` in the closing prices its page lists under the
    chart (range 1Y: the last year). Raises :class:`Unreadable` when the list has no close that day."""
    for tr in see.page(APP, f"/stocks/{symbol}", {"range": "1Y"}).xpath(
        '//table[@data-testid="price-history"]/tbody/tr'
    ):
        c = _cells(tr)
        if day_in(c[0]) == day:
            return parse_money(c[1]), c[1]
    raise Unreadable(f"Tidewell's page of {symbol} lists no close on {day}")


def worth(shares: Decimal, price_cents: int, step: int = 1) -> int:
    """Cents of ``shares`` at ``price_cents`` a share, half up to ``step`` cents (:func:`unit`: 1, to the cent, as
    the holdings table rounds; 100 in a currency the pages write in whole units, as they show it)."""
    return to_step(shares * price_cents, step)


def dividends_in(see: See, year: int) -> tuple[list[dict], list[str]]:
    """``(rows, steps)``: the dividends paid in ``year``."""
    rows = [r for r in dividends(see) if r["day"].year == year]
    total = sum(r["cents"] for r in rows)
    return rows, [f"Tidewell Dividends: {len(rows)} payment(s) in {year}, sum {total} cents"]


def deposits_in(see: See, year: int) -> tuple[list[dict], list[str]]:
    """``(rows, steps)``: the transfers from the bank dated in ``year``."""
    rows = [r for r in transfers(see) if r["deposit"] and r["day"].year == year]
    total = sum(r["cents"] for r in rows)
    return rows, [f"Tidewell Transfers: {len(rows)} deposit(s) from the bank in {year}, sum {total} cents"]


@reader()
def portfolio_value(see: See, given: dict) -> Reading:
    """The overview's account value (cash included)."""
    cents, shown = value(see)
    return Reading(values={"value": cents}, steps=[f"Tidewell overview: account value {shown}"])


@reader("year", unique=True)
def dividends_this_year(see: See, given: dict) -> Reading:
    """The year's dividends added up, and the holding with the largest single one (margin: its lead over the next holding's largest, cents)."""
    rows, steps = dividends_in(see, int(given["year"]))
    if not rows:
        raise Unreadable(f"no dividend paid in {given['year']}")
    best: dict[str, int] = {}
    for r in rows:
        best[r["symbol"]] = max(best.get(r["symbol"], 0), r["cents"])
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    margin = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0)
    return Reading(
        values={"total": sum(r["cents"] for r in rows), "top": ranked[0][0]},
        steps=[*steps, "largest single dividend by holding: " + ", ".join(f"{s} {c}" for s, c in ranked[:4])],
        margin=margin,
    )


@reader("year")
def cf_no_recurring(see: See, given: dict) -> Reading:
    """The year's recurring buys on Orders: what they cost against their shares at today's close."""
    year = int(given["year"])
    buys = [o for o in orders(see) if o["recurring"] and o["buy"] and o["filled"] and o["day"].year == year]
    if not buys:
        raise Unreadable(f"no automatic purchase in {year} on Tidewell's Orders")
    paid = sum(o["amount"] for o in buys)
    step = unit(see)
    now = sum(worth(o["shares"], price(see, o["symbol"])[0], step) for o in buys)
    prices = {o["symbol"]: price(see, o["symbol"])[1] for o in buys}
    return Reading(
        values={"gain": now - paid, "paid": paid, "worth": now},
        steps=[
            f"Orders: {len(buys)} recurring buys in {year}, cost {paid} cents",
            f"today's close {prices}: each purchase's shares at it, "
            f"{'to the cent' if step == 1 else 'in whole units as the pages write money'}, sum {now} cents",
        ],
    )


@reader("symbol", "day")
def cf_sold_earlier(see: See, given: dict) -> Reading:
    """The holding's shares at the close of the day (the page's closing prices) against their market value today."""
    sym, day = given["symbol"], dt.date.fromisoformat(given["day"])
    held = [h for h in holdings(see) if h["symbol"] == sym]
    if not held:
        raise Unreadable(f"no {sym} among Tidewell's holdings")
    shares = held[0]["shares"]
    then_price, then_shown = close_on(see, sym, day)
    then, now = worth(shares, then_price, unit(see)), held[0]["value"]
    return Reading(
        values={"then": then, "now": now, "difference": then - now},
        steps=[
            f"Holdings: {shares} {sym}, market value {now} cents at today's close",
            f"price history: close {then_shown} on {day}; {shares} shares then {then} cents",
        ],
    )


READERS = {
    "portfolio-value": portfolio_value,
    "dividends-this-year": dividends_this_year,
    "cf-no-recurring": cf_no_recurring,
    "cf-sold-earlier": cf_sold_earlier,
}
