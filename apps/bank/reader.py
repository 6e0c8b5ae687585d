"""Independent readers of Larkspur Bank's own answer tasks (:mod:`builder.tasks.reader`): each answer derived again
from the bank's pages the persona sees, signed in (the accounts overview, an account's activity with its search and
date filters, the statements list); never from the world or the database. The helpers here (:func:`accounts`,
:func:`ledger`) serve the bank's scenario readers too (``scenarios/pairs/bank.py``,
``scenarios/recaps/bank.py``)."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import Counter
from functools import cache

from apps.bank.spending import specialist_shop
from builder.reference.banking import statement_words
from builder.tasks.dates import day_in
from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text

APP = "bank"

# An amount as a page or a mail writes it: a sign, a currency of one or two words before it ("$", "PKR", "F CFA",
# "R$") or after it ("€", "CHF"), the number with its groups.
_MONEY_AT = r"([-\u2212]?\s*(?:(?:[A-Z]{2,3}|[^\s\d]{1,3})\s?){0,2}\d(?:[\d.,\u00a0\u202f]*\d)?(?:\s?(?:€|[A-Z]{3}))?)"


def amount_after(text: str, *labels: str) -> int:
    """The amount written right after the first of ``labels`` found in ``text`` (``Shipping : $4.99``,
    ``Subtotal $22.00``, ``Tip (20%) $4.40``, ``Rechnungsbetrag: 44,00 €``), in cents. Raises :class:`Unreadable`
    when none is there."""
    for label in labels:
        m = re.search(rf"(?<!\w){re.escape(label)}(?:\s*\([^)]*\))?\s*:?\s*{_MONEY_AT}", text)
        if m:
            return parse_money(m.group(1))
    raise Unreadable(f"none of {labels} with an amount in {text[:200]!r}")


def accounts(see: See) -> dict[str, dict]:
    """The overview's account cards by kind (``checking``, ``savings``, ``credit_card``): ``{id, name, balance}``
    (the card's balance in cents: the available balance of a cash account, what a card owes)."""
    page = see.page(APP, "/")
    out = {}
    for a in page.xpath("//a[@data-account-id]"):
        kind = (a.get("data-testid") or "").removeprefix("account-card-")
        name = visible_text(a.xpath('.//*[@class="name"]')[0])
        bal = parse_money(visible_text(a.xpath('.//*[@data-testid="balance"]')[0]))
        out[kind] = {"id": a.get("data-account-id"), "name": name, "balance": bal}
    if not out:
        raise Unreadable("the bank's overview shows no accounts")
    return out


def currency_mark(see: See) -> str:
    """How the bank writes the persona's currency beside a number (``$``, ``PKR``, ``F CFA``, ``€``): the checking
    (else first) account's balance on the overview without its number and sign, white space folded."""
    page = see.page(APP, "/")
    cards = page.xpath('//a[@data-testid="account-card-checking"]') or page.xpath("//a[@data-account-id]")
    if not cards:
        raise Unreadable("the bank's overview shows no accounts")
    text = visible_text(cards[0].xpath('.//*[@data-testid="balance"]')[0])
    mark = " ".join(re.sub(r"[-\u2212\d.,'\u2019]", " ", text).split())
    if not mark:
        raise Unreadable(f"no currency beside the balance {text!r}")
    return mark


@cache
def _currency_words() -> str:
    """A pattern of every currency sign (Unicode category Sc) and ISO 4217 code."""
    from babel.numbers import list_currencies

    signs = "".join(chr(i) for i in range(0x110000) if unicodedata.category(chr(i)) == "Sc")
    codes = "|".join(sorted(list_currencies()))
    return rf"[{re.escape(signs)}]|\b(?:{codes})\b"


def money_beside(text: str, mark: str) -> int | None:
    """The first amount in ``text`` written with a currency before or after it: the bank's ``mark``
    (:func:`currency_mark`), any currency sign or ISO code (a friend writes ``571,17 THB`` where the bank writes
    ``฿``): ``PKR 1,639``, ``F CFA7,339``, ``12,50 €``, in cents; ``None`` when no number there has a currency (a
    time, ``18:30``, is no money)."""
    cur = r"\s*".join(map(re.escape, mark.split())) + "|" + _currency_words()
    num = r"\d(?:[\d.,'\u00a0\u202f ]*\d)?"
    m = re.search(rf"(?:{cur})\s*({num})|({num})\s*(?:{cur})", text)
    return parse_money(m.group(1) or m.group(2)) if m else None


def account_named(see: See, name: str) -> dict:
    """The overview's account called ``name`` (with its ``kind``). Raises :class:`Unreadable` when none is."""
    for kind, a in accounts(see).items():
        if a["name"].upper() == name.upper():
            return {**a, "kind": kind}
    raise Unreadable(f"no account called {name!r} on the overview")


def ledger(see: See, kind: str, start: dt.date | None = None, end: dt.date | None = None, q: str = "") -> list[dict]:
    """Every line of one account's activity (``/accounts/<id>``, all pages) posted from ``start`` to ``end``
    (both included) and matching the search ``q``, newest first: ``{day, description, memo, category, cents}``
    (``cents`` signed as the page signs it, money in positive)."""
    acct = accounts(see).get(kind)
    if acct is None:
        raise Unreadable(f"no {kind} account on the bank's overview")
    params = {k: v for k, v in (("q", q), ("from", start and start.isoformat()), ("to", end and end.isoformat())) if v}
    out: list[dict] = []
    page_no = 1
    while True:
        page = see.page(APP, f"/accounts/{acct['id']}", {**params, **({"page": str(page_no)} if page_no > 1 else {})})
        total = int(page.xpath('//*[@data-testid="result-count"]')[0].get("data-total"))
        for tr in page.xpath('//tr[@data-testid="txn-row"]'):
            cells = tr.xpath("./td")
            desc = cells[1].xpath('.//*[@class="lb-desc"]')
            memo = [visible_text(d).removeprefix("Memo:").strip() for d in cells[1].xpath('.//*[@class="lb-desc-sub"]')]
            out.append(
                {
                    "day": day_in(visible_text(cells[0])),
                    "description": visible_text(desc[0]) if desc else visible_text(cells[1]),
                    "memo": " ".join(memo),
                    "category": visible_text(cells[2]),
                    "cents": parse_money(visible_text(cells[3])),
                    "account": kind,
                }
            )
        if len(out) >= total or not page.xpath('//tr[@data-testid="txn-row"]'):
            break
        page_no += 1
    return out


# The words a statement line starts with when it is a debit card purchase from checking (the bank's wording of any
# country: builder/reference/banking/banking.yaml ``debit``: "DEBIT CARD ", "CARD PURCHASE "...); a credit card's
# purchases carry none.
DEBIT_PREFIXES = tuple(w.split("{}")[0] for w in statement_words("debit"))
# Credit card lines that are no purchase: its fees and interest and the payments and transfers that settle it.
NOT_PURCHASES = ("Fees", "Interest", "Transfer", "Person to person", "Income")


def merchant(line: dict) -> str:
    """The merchant a purchase line names: its description without the debit card's prefix."""
    d = line["description"]
    for p in DEBIT_PREFIXES:
        if d.startswith(p):
            return d[len(p) :].strip()
    return d


def card_kinds(see: See) -> list[str]:
    """The accounts the persona's cards charge, as the overview lists them: the credit card, and checking (its
    debit card); a persona without a credit card pays by debit card only."""
    acc = accounts(see)
    return [k for k in ("credit_card", "checking") if k in acc]


def fees(see: See, start: dt.date, end: dt.date) -> list[dict]:
    """The cards' fee lines (category Fees: the foreign transaction fees) from ``start`` to ``end``, on the credit
    card and on checking (a debit card's)."""
    return [
        r for k in card_kinds(see) for r in ledger(see, k, start, end) if r["category"] == "Fees" and r["cents"] < 0
    ]


def purchases(see: See, start: dt.date, end: dt.date) -> list[dict]:
    """The card purchases from ``start`` to ``end``: every charge on the credit card that is no fee or payment,
    and the debit card's lines on checking (their description starts with the debit card's words)."""
    out = []
    acc = accounts(see)
    if "credit_card" in acc:
        out += [
            r for r in ledger(see, "credit_card", start, end) if r["cents"] < 0 and r["category"] not in NOT_PURCHASES
        ]
    if "checking" in acc:
        out += [
            r
            for r in ledger(see, "checking", start, end)
            if r["cents"] < 0 and r["description"].startswith(DEBIT_PREFIXES)
        ]
    return out


def month_bounds(month: str) -> tuple[dt.date, dt.date]:
    """First and last day of ``YYYY-MM``."""
    y, m = map(int, month.split("-"))
    first = dt.date(y, m, 1)
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return first, nxt - dt.timedelta(days=1)


def ranked(counts: Counter, what: str) -> tuple[str, int, float, list[str]]:
    """``(winner, count, margin, steps)`` of a tally: the most counted and its lead over the next (0: a tie)."""
    top = counts.most_common()
    if not top:
        raise Unreadable(f"no {what} to count")
    name, n = top[0]
    margin = n - (top[1][1] if len(top) > 1 else 0)
    return name, n, margin, [f"{what}: " + ", ".join(f"{k} {v}" for k, v in top[:4])]


@reader("account")
def checking_balance(see: See, given: dict) -> Reading:
    a = account_named(see, given["account"])
    page = see.page(APP, f"/accounts/{a['id']}")
    figure = page.xpath('//*[@class="label"][normalize-space()="Current balance"]/following-sibling::*[1]')
    if not figure:
        raise Unreadable(f"{a['name']}'s page shows no current balance")
    cents = parse_money(visible_text(figure[0]))
    return Reading(values={"amount": cents}, steps=[f"{a['name']}'s page: current balance {cents} cents"])


@reader(unique=True)
def last_paycheck(see: See, given: dict) -> Reading:
    pay = [r for r in ledger(see, "checking") if r["category"] == "Income" and r["cents"] > 0]
    if not pay:
        raise Unreadable("no income line on checking")
    pay.sort(key=lambda r: r["day"], reverse=True)
    last = pay[0]
    margin = (last["day"] - pay[1]["day"]).days if len(pay) > 1 else 1
    return Reading(
        values={"date": last["day"].isoformat(), "amount": last["cents"]},
        steps=[f"Checking, category Income: {len(pay)} deposits; the newest {last['description']} on {last['day']}"],
        margin=margin,
    )


@reader("month")
def coffee_last_month(see: See, given: dict) -> Reading:
    start, end = month_bounds(given["month"])
    lines = [r for r in purchases(see, start, end) if r["category"] == "Coffee"]
    total = -sum(r["cents"] for r in lines)
    return Reading(
        values={"total": total},
        steps=[f"Credit card and debit card lines of {given['month']} in category Coffee: {len(lines)}, {total} cents"],
    )


@reader("account", "month")
def card_statement(see: See, given: dict) -> Reading:
    a = account_named(see, given["account"])
    page = see.page(APP, "/statements", {"account": a["id"]})
    start, end = month_bounds(given["month"])
    for tr in page.xpath('//tr[@data-testid="statement-row"]'):
        cells = [visible_text(td) for td in tr.xpath("./td")]
        period = tr.xpath("./td[1]//*[@class='lb-desc-sub']")
        last = day_in(visible_text(period[0]).split("–")[-1]) if period else None
        if last and start <= last <= end:
            return Reading(
                values={"payments": parse_money(cells[2]), "charges": parse_money(cells[3])},
                steps=[f"Statements of {a['name']}: the period ending {last}: {' | '.join(cells[:5])}"],
            )
    raise Unreadable(f"no statement of {a['name']} ends in {given['month']}")


@reader("contact", "year")
def p2p_total(see: See, given: dict) -> Reading:
    name, year = given["contact"], int(given["year"])
    lines = [
        r
        for r in ledger(see, "checking", dt.date(year, 1, 1), dt.date(year, 12, 31), q=name)
        if r["category"] == "Person to person" and r["cents"] < 0 and name.upper() in r["description"].upper()
    ]
    total = -sum(r["cents"] for r in lines)
    return Reading(
        values={"total": total},
        steps=[f"Checking searched for {name!r} in {year}: {len(lines)} payments out, {total} cents"],
    )


@reader("month", unique=True)
def largest_purchase(see: See, given: dict) -> Reading:
    start, end = month_bounds(given["month"])
    lines = sorted(purchases(see, start, end), key=lambda r: r["cents"])
    if not lines:
        raise Unreadable(f"no card purchase in {given['month']}")
    top = lines[0]
    margin = (lines[1]["cents"] - top["cents"]) if len(lines) > 1 else top["cents"]
    return Reading(
        values={"merchant": merchant(top), "amount": -top["cents"], "date": top["day"].isoformat()},
        steps=[
            f"{len(lines)} card purchases in {given['month']}; the largest {merchant(top)} {-top['cents']} cents "
            f"on {top['day']}, next {-lines[1]['cents'] if len(lines) > 1 else 0}"
        ],
        margin=margin,
    )


def _usual(see: See, since: str, category: str, exclude=lambda m: False) -> tuple[str, int, float, list[str]]:
    """The merchant with the most purchase lines of ``category`` from ``since`` (ISO day) to today."""
    today = see.now.date()
    since = dt.date.fromisoformat(since)
    lines = [r for r in purchases(see, since, today) if r["category"] == category and not exclude(merchant(r))]
    name, n, margin, steps = ranked(Counter(merchant(r) for r in lines), f"{category} purchases {since}..{today}")
    return name, n, margin, steps


@reader("since", unique=True)
def pref_coffee_place(see: See, given: dict) -> Reading:
    name, n, margin, steps = _usual(see, given["since"], "Coffee")
    return Reading(values={"place": name, "visits": n}, steps=steps, margin=margin)


@reader("since", unique=True)
def pref_grocery_store(see: See, given: dict) -> Reading:
    # In person: not an order from Basketful, the grocery delivery app (its lines read BASKETFUL*<order>); a grocery
    # store: not a butcher, baker, greengrocer or deli.
    name, n, margin, steps = _usual(
        see, given["since"], "Groceries", exclude=lambda m: m.startswith("BASKETFUL") or specialist_shop(m)
    )
    return Reading(values={"store": name, "visits": n}, steps=steps, margin=margin)


READERS = {
    "checking-balance": checking_balance,
    "last-paycheck": last_paycheck,
    "coffee-last-month": coffee_last_month,
    "card-statement": card_statement,
    "p2p-total": p2p_total,
    "largest-purchase": largest_purchase,
    "pref-coffee-place": pref_coffee_place,
    "pref-grocery-store": pref_grocery_store,
}
