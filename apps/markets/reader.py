"""Independent readers of Hunchline's own answer tasks (:mod:`builder.tasks.reader`): each answer derived from the
pages the persona sees signed in (Portfolio, Activity, Resolved, the market list), never from the world or the
database. The helpers serve the scenarios homed in Hunchline too."""

from __future__ import annotations

import re

from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text
from builder.tasks.dates import day_in

APP = "markets"
PAGE = 50  # rows of an Activity page


def _cell(row, i: int) -> str:
    cells = row.xpath("./td")
    return visible_text(cells[i]) if i < len(cells) else ""


def cash(see: See) -> tuple[int, str]:
    """``(cents, as shown)`` of the Cash card of ``/portfolio``."""
    card = see.page(APP, "/portfolio").xpath('//*[@data-testid="cash"]')
    if not card:
        raise Unreadable("Hunchline's Portfolio shows no Cash card")
    shown = visible_text(card[0].xpath(".//b")[0])
    return parse_money(shown), shown


def activity(see: See, kind: str) -> list[dict]:
    """Every row of ``/activity?kind=<kind>`` (all pages, newest first): ``{when, day, details, reference, cents,
    amount}`` (``day`` the date the row shows, ``cents`` the signed amount as shown)."""
    out: list[dict] = []
    page = 1
    while True:
        doc = see.page(APP, "/activity", {"kind": kind, **({"page": str(page)} if page > 1 else {})})
        for tr in doc.xpath('//tr[@data-testid="activity"]'):
            when, amount = _cell(tr, 0), _cell(tr, 4)
            out.append(
                {
                    "when": when,
                    "day": day_in(when),
                    "details": _cell(tr, 2),
                    "reference": _cell(tr, 3),
                    "cents": parse_money(amount),
                    "amount": amount,
                }
            )
        if not doc.xpath('//*[@data-testid="next-page"]'):
            return out
        page += 1


def resolved(see: See) -> list[dict]:
    """The rows of ``/resolved``: ``{question, result ('YES'/'NO' as shown, JA/NEIN too), shares {side: n},
    payout (cents, 0 when blank)}``; ``shares`` reads the "Your shares" cell (``418 Yes``, ``35 Yes, 2 No``)."""
    out = []
    for tr in see.page(APP, "/resolved").xpath('//tr[@data-testid="resolved"]'):
        held: dict[str, int] = {}
        for n, side in re.findall(r"(\d+)\s+(Yes|No|Ja|Nein)\b", _cell(tr, 3)):
            key = "yes" if side in ("Yes", "Ja") else "no"
            held[key] = held.get(key, 0) + int(n)
        pay = _cell(tr, 4)
        out.append(
            {
                "question": _cell(tr, 0),
                "result": {"YES": "yes", "JA": "yes", "NO": "no", "NEIN": "no"}.get(_cell(tr, 1).upper(), ""),
                "shares": held,
                "payout": parse_money(pay) if pay else 0,
                "payout_shown": pay,
            }
        )
    return out


def open_markets(see: See) -> list[dict]:
    """The markets of the market list (``/``, open markets, every category): ``{question, chance, no}`` with the
    chance as shown (``45%``) and the NO share's price as shown (``55¢``)."""
    out = []
    for li in see.page(APP, "/", {"state": "open"}).xpath('//li[@data-testid="market"]'):
        q = visible_text(li.xpath('.//a[contains(@class, "hl-q")]')[0])
        chance = "".join(li.xpath('.//*[contains(@class, "hl-chance")]/b')[0].itertext()).strip()  # "45%", one word
        no = visible_text(li.xpath('.//a[contains(@class, "hl-no")]')[0])
        out.append({"question": q, "chance": chance, "no": re.sub(r"^(No|Nein)\s+", "", no)})
    return out


def the(rows: list[dict], question: str, where: str) -> dict:
    """The one row of ``rows`` whose question is ``question``. Raises :class:`Unreadable` when none or several."""
    hit = [r for r in rows if r["question"] == question]
    if len(hit) != 1:
        raise Unreadable(f"{len(hit)} rows for “{question}” on {where}")
    return hit[0]


def deposits_in(see: See, year: int) -> tuple[list[dict], list[str]]:
    """``(rows, steps)``: the Deposit rows of Activity dated in ``year``."""
    rows = [r for r in activity(see, "deposit") if r["day"].year == year]
    steps = [
        f"Hunchline Activity, Deposit: {len(rows)} row(s) in {year}: "
        + ", ".join(f"{r['day']} {r['amount']}" for r in rows)
    ]
    return rows, steps


def share_pays(see: See) -> int:
    """What one winning share pays, in cents, as the Payout rows show it (``197 × No @ 100¢``). Raises
    :class:`Unreadable` without a payout row or when the rows disagree."""
    seen = {int(m.group(1)) for r in activity(see, "payout") for m in [re.search(r"@\s*(\d+)\s*¢", r["details"])] if m}
    if len(seen) != 1:
        raise Unreadable(f"the Payout rows show {sorted(seen)} as a winning share's price")
    return seen.pop()


@reader()
def cash_balance(see: See, given: dict) -> Reading:
    """The Cash card of Portfolio."""
    cents, shown = cash(see)
    return Reading(values={"cash": cents}, steps=[f"Portfolio: Cash {shown}"])


@reader("question")
def market_payout(see: See, given: dict) -> Reading:
    """The Payout column of the market's row on Resolved."""
    row = the(resolved(see), given["question"], "Hunchline's Resolved page")
    if not row["payout"]:
        raise Unreadable(f"Resolved shows no payout for “{given['question']}”")
    return Reading(
        values={"payout": row["payout"]},
        steps=[f"Resolved: “{given['question']}” paid {row['payout_shown']} on {row['shares']} share(s)"],
    )


@reader()
def total_payouts(see: See, given: dict) -> Reading:
    """The Payout rows of Activity, added up."""
    rows = activity(see, "payout")
    total = sum(r["cents"] for r in rows)
    return Reading(
        values={"total": total},
        steps=[
            f"Activity, Payout: {len(rows)} row(s): " + ", ".join(r["amount"] for r in rows),
            f"sum {total} cents",
        ],
    )


@reader("question")
def market_odds(see: See, given: dict) -> Reading:
    """The market's chance and NO price on the list of open markets."""
    row = the(open_markets(see), given["question"], "Hunchline's open markets")
    return Reading(
        values={"chance": row["chance"], "no": row["no"]},
        steps=[f"Markets (open): “{given['question']}” shows {row['chance']} chance, No {row['no']}"],
    )


@reader("question", "outcome")
def cf_other_outcome(see: See, given: dict) -> Reading:
    """The shares held on the losing side (Resolved's "Your shares") times what a winning share pays (the Payout rows), against the payout received."""
    row = the(resolved(see), given["question"], "Hunchline's Resolved page")
    if row["result"] != given["outcome"]:
        raise Unreadable(f"Resolved shows “{given['question']}” resolved {row['result']!r}, not {given['outcome']!r}")
    other = "no" if given["outcome"] == "yes" else "yes"
    per = share_pays(see)
    would = row["shares"].get(other, 0) * per
    return Reading(
        values={"would": would, "actual": row["payout"]},
        steps=[
            f"Resolved: “{given['question']}” resolved {given['outcome'].upper()}; your shares {row['shares']}, "
            f"payout {row['payout_shown'] or 'none'}",
            f"a winning share pays {per}¢ (Payout rows); {row['shares'].get(other, 0)} {other.upper()} share(s) "
            f"would have paid {would} cents",
        ],
    )


@reader("year")
def deposited_this_year(see: See, given: dict) -> Reading:
    """The Deposit rows of Activity dated in the year, added up."""
    rows, steps = deposits_in(see, int(given["year"]))
    total = sum(r["cents"] for r in rows)
    return Reading(values={"total": total}, steps=[*steps, f"sum {total} cents in {len(rows)} transfer(s)"])


@reader()
def net_deposited(see: See, given: dict) -> Reading:
    """Every Deposit row of Activity, added up (and the Cash card beside it)."""
    rows = activity(see, "deposit")
    total = sum(r["cents"] for r in rows)
    cents, shown = cash(see)
    return Reading(
        values={"total": total},
        steps=[
            f"Activity, Deposit: {len(rows)} row(s), sum {total} cents",
            f"Portfolio: Cash {shown}, {'above' if cents > total else 'below'} the deposits",
        ],
    )


READERS = {
    "cash-balance": cash_balance,
    "market-payout": market_payout,
    "total-payouts": total_payouts,
    "market-odds": market_odds,
    "cf-other-outcome": cf_other_outcome,
}
