"""The bank's pages as the persona reads them, for the independent readers (:mod:`builder.tasks.reader`) of the
scenarios homed in Hunchline, Tidewell and Ledgerleaf that check an answer against the bank: the accounts with
their balances, an account's transaction history. Only the pages, signed in; never the bank's database."""

from __future__ import annotations

import datetime as dt
import re

from builder.tasks.reader import See, Unreadable, parse_money, visible_text
from builder.tasks.dates import day_in
from builder.tasks.seen import unit_cents

BANK = "bank"
# The eyebrow the account page shows for each kind (apps/bank/web/lib/labels.ts kindLabel, every locale).
KINDS = {
    "Checking": "checking",
    "Current account": "checking",
    "Girokonto": "checking",
    "Savings": "savings",
    "Credit card": "credit_card",
    # The broker's account the bank lists beside its own (its balance the broker's cash).
    "Investment account": "brokerage",
    "Depot": "brokerage",
}


def accounts(see: See) -> list[dict]:
    """The accounts linked from ``/accounts``, by their pages: ``{id, kind, name, balance, shown}`` with
    ``balance`` the "Current balance" in cents (what a card owes counted negative) and ``shown`` as the page shows
    it; ``kind`` is ``checking``, ``savings``, ``credit_card`` or ``brokerage`` (the broker's account the bank lists
    with the broker's cash). Raises :class:`Unreadable` for a page without an account kind the reader knows."""
    ids = sorted(
        {
            int(m.group(1))
            for a in see.page(BANK, "/accounts").xpath("//a/@href")
            for m in [re.fullmatch(r"/accounts/(\d+)", a)]
            if m
        }
    )
    out = []
    for i in ids:
        doc = see.page(BANK, f"/accounts/{i}")
        eyebrow = visible_text(doc.xpath('//*[contains(@class, "pui-eyebrow")]')[0])
        kind = KINDS.get(eyebrow)
        if kind is None:
            raise Unreadable(f"account {i} is of a kind {eyebrow!r} the reader does not know")
        figures = {
            visible_text(f.xpath('./*[@class="label"]')[0]): visible_text(f.xpath('./*[contains(@class, "value")]')[0])
            for f in doc.xpath('//*[contains(@class, "lb-summary")]/div')
        }
        if "Current balance" not in figures:
            raise Unreadable(f"account {i} shows no Current balance")
        shown = figures["Current balance"]
        cents = abs(parse_money(shown))
        out.append(
            {
                "id": i,
                "kind": kind,
                "name": visible_text(doc.xpath("//h1")[0]),
                "balance": -cents if kind == "credit_card" else parse_money(shown),
                "shown": shown,
            }
        )
    return out


def unit(see: See) -> int:
    """Cents of the smallest unit the bank writes money in (:func:`builder.tasks.seen.unit_cents` of the first
    account's Current balance): 1 with decimals, 100 in whole units (``PKR 71,949``)."""
    found = accounts(see)
    if not found:
        raise Unreadable("the bank lists no account")
    return unit_cents(found[0]["shown"])


def account_of(see: See, kind: str) -> dict:
    """The one account of ``kind`` (``checking``, ``savings``, ``credit_card``, ``brokerage``). Raises
    :class:`Unreadable` when there is none or several."""
    hit = [a for a in accounts(see) if a["kind"] == kind]
    if len(hit) != 1:
        raise Unreadable(f"{len(hit)} {kind} accounts at the bank")
    return hit[0]


def lines(see: See, account: int, start: dt.date | None = None, end: dt.date | None = None, q: str = "") -> list[dict]:
    """Every line of account ``account``'s history between ``start`` and ``end`` (inclusive; the page's own From
    and To filter), matching the search ``q``, all pages: ``{day, description, category, cents, amount}``."""
    params = {k: v for k, v in (("q", q), ("from", start and start.isoformat()), ("to", end and end.isoformat())) if v}
    out: list[dict] = []
    page = 1
    while True:
        doc = see.page(BANK, f"/accounts/{account}", {**params, **({"page": str(page)} if page > 1 else {})})
        for tr in doc.xpath('//tr[@data-testid="txn-row"]'):
            cells = tr.xpath("./td")
            amount = visible_text(cells[3])
            out.append(
                {
                    "day": day_in(visible_text(cells[0])),
                    "description": visible_text(cells[1].xpath('.//*[@class="lb-desc"]')[0]),
                    "category": visible_text(cells[2]),
                    "cents": parse_money(amount),
                    "amount": amount,
                }
            )
        if not doc.xpath('//nav[contains(@class, "pui-pagination")]//a[@rel="next"]'):
            return out
        page += 1
