"""The previous tax year computed from the ledger (Ledgerleaf Tax, ``apps/taxes``): wages and withholding,
interest, dividends and realised gains, donations; the year-end tax forms and last year's filed return.

What it makes
-------------
- **The tax year** (:func:`tax_year`): the last one that ended before ``as_of``: the calendar year for the US
  and German personas, 6 April to 5 April for the British one; the regime follows the home country
  (:func:`builder.reference.tax.regime`: US, GB or DE, else none). :func:`tax_year` with ``back=1`` is the year
  before it (last year's filed return).
- **A home without a regime** (Tokyo, São Paulo...): donations only; no forms, no ``tax_form`` events and no filed
  return, refund or payment (the app has no rules to file under there).
- **Payroll** (:func:`payroll`): every payday of the year by the employer's schedule
  (:func:`builder.world.finance.pay_dates`); those inside the history are the world's ``paycheck`` events (their
  ``gross_cents`` and ``net_cents``), those before it have the same figures (the schedule and salary are the
  same). Each period's gross minus its net is split into withholding by :func:`payroll_split` (US: social
  security 6.2 %, Medicare 1.45 %, the state's share of the rest, federal the remainder; UK: employee NI 8 %
  between the primary threshold and the upper earnings limit, 2 % above it, PAYE the remainder; DE: KV/PV/RV/AV employee shares, Lohnsteuer and Soli the
  remainder), so ``gross - withholding == net`` exactly for every paycheck, and a form's boxes are sums of them.
- **Donations**: 3-6 gifts a year to invented charities (``builder/reference/tax/charities.yaml``) on the persona's
  card, together at most 1 % of a year's net pay (the spending budget of builder/world/finance.py leaves no room
  for more), inside the history and before ``now``: events ``donation`` (key ``("tax_year", "donation", year, i)``,
  stream ``tax_year/donations``) with ``charity``, ``amount_cents``, ``tax_year`` (calendar year) and a ``Charge``
  of ``-amount_cents`` (category ``charity``).
- **Forms** (:func:`tax_forms`, computed from the finished world since savings interest is what
  ``finance.settle`` posts after every module): W-2 and, when there is something to report, 1099-INT (the
  savings interest postings of the year), 1099-DIV (``brokerage_dividend``; box 1b the qualified ones, those not
  of a bond fund or REIT) and 1099-B (``brokerage_trade`` sells, ``realised_gain_cents``, split into short and
  long term by the shares' holding period, :func:`sales_by_term`) for a US persona; a P60 for the British one; a Lohnsteuerbescheinigung for the
  German one. An event ``tax_form`` (key ``("tax_year", "form", form)``) marks the day each is made available
  (W-2 on 30 January, 1099s on 14 February, P60 on 29 May, Lohnsteuerbescheinigung on 27 February after the
  year), when that day is inside the history and not after ``now``: ``form``, ``issuer``, ``tax_year``.
- **Last year's return** (:func:`compute_return` on the year before): an event ``tax_return_filed`` (key
  ``("tax_year", "return")``, stream ``tax_year/filing``) on a day of the rules' filing window, with the
  return's lines (``lines``: ``wages_cents``, ``withheld_cents``, ``tax_cents``, ``refund_cents`` (> 0 a
  refund, < 0 owed) ...), ``confirmation``, ``tax_year``; a refund arrives as a deposit from the tax authority on
  checking some days later (event ``tax_refund``, a ``Charge`` of ``+refund_cents``, kind ``deposit``); an amount
  owed leaves checking (event ``tax_payment``, a ``Charge`` of ``refund_cents``, kind ``bill_payment``) minutes
  after filing (US, UK) or when the Finanzamt's assessment asks for it (DE, as many days later as a refund). Neither is made when
  its day falls before the history or after ``now``. Last year's return counts wages, brokerage income and
  donations (the world's savings interest is only known after settlement; see ``simplifications``).

The rules (brackets, allowances, the Grundfreibetrag and tariff) are data in ``builder/reference/tax/rules.json``
with their sources; the web app computes with the same file (``lib/taxcalc.ts``), so both agree to the cent.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import Any


from ..money import to_unit
from ..dates import add_months
from ..reference import prices
from ..reference import tax as reference_tax
from ..reference.tax import TaxYear, regime, tax_year
from ..reference.services import service
from ..rng import derived_id
from .engine import world_step
from .context import Charge, Sim
from .finance import budget

PERIODS = {"biweekly": 26, "semimonthly": 24, "monthly": 12}


@lru_cache(maxsize=1)
def rules() -> dict[str, Any]:
    """The rule sets of ``rules.json``: ``{country: {"years": {year: {...}}, ...}}``."""
    return reference_tax.rules()


@lru_cache(maxsize=1)
def charities() -> dict[str, list[dict[str, str]]]:
    """Invented charities per locale: ``{locale: [{"name", "kind"}]}``."""
    return reference_tax.charities()


def _half_up(x: float) -> int:
    return int(Decimal(repr(x)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def payroll_split(persona, gross_cents: int, net_cents: int) -> dict[str, int]:
    """One paycheck's withholding by component (cents, each >= 0, summing to ``gross - net``).

    US: ``social_security``, ``medicare``, ``state``, ``federal``; GB: ``ni``, ``paye``; DE: ``kv``, ``pv``,
    ``rv``, ``av``, ``soli``, ``lohnsteuer``. See the module docstring for the rule.
    """
    country = regime(persona)
    pay = rules()[country]["payroll"]
    taken = gross_cents - net_cents
    periods = PERIODS[persona.work.pay_schedule]
    if country == "US":
        ss, med = _half_up(gross_cents * pay["social_security_rate"]), _half_up(gross_cents * pay["medicare_rate"])
        rest = taken - ss - med
        if rest < 0:  # a take-home ratio above 92.35 %: FICA is all that was withheld
            ss = taken * 62 // 76
            return {"social_security": ss, "medicare": taken - ss, "state": 0, "federal": 0}
        share = pay["state_share"].get(persona.identity.address.region or "", pay["state_share"][""])
        state = _half_up(rest * share)
        return {"social_security": ss, "medicare": med, "state": state, "federal": rest - state}
    if country == "GB":
        low, high = pay["ni_primary_threshold"] / periods, pay["ni_upper_limit"] / periods
        ni = _half_up(
            max(0, min(gross_cents, high) - low) * pay["ni_rate"] + max(0, gross_cents - high) * pay["ni_upper_rate"]
        )
        ni = min(ni, taken)
        return {"ni": ni, "paye": taken - ni}
    parts = {k: _half_up(gross_cents * pay[f"{k}_rate"]) for k in ("kv", "pv", "rv", "av")}
    if sum(parts.values()) > taken:  # scale the social contributions down to what was withheld
        total = sum(parts.values())
        scaled = {k: v * taken // total for k, v in parts.items()}
        scaled["kv"] += taken - sum(scaled.values())
        return {**scaled, "soli": 0, "lohnsteuer": 0}
    rest = taken - sum(parts.values())
    year = rules()["DE"]["years"].get(tax_year(persona).key) or list(rules()["DE"]["years"].values())[-1]
    soli = _half_up(rest * 0.055 / 1.055) if rest * periods > year["soli_freigrenze"] * 1.055 else 0
    return {**parts, "soli": soli, "lohnsteuer": rest - soli}


@dataclass(frozen=True)
class Paycheck:
    """One payday of a tax year: ``day``, ``gross_cents``, ``net_cents``, ``withheld`` (see :func:`payroll_split`),
    ``event_id`` (the world's ``paycheck`` event, None before the history)."""

    day: dt.date
    gross_cents: int
    net_cents: int
    withheld: dict[str, int]
    event_id: str | None


def payroll(persona, events, year: TaxYear) -> list[Paycheck]:
    """The year's paychecks in date order (see module docstring); ``events`` are the world's (or the sim's)."""
    from .finance import cents, pay_dates

    if not persona.work.salary or not persona.work.employer:
        return []
    periods = PERIODS[persona.work.pay_schedule]
    gross = cents(persona.work.salary / periods)
    net = cents(persona.work.salary / periods * persona.work.net_ratio)
    seen = {e.at.date(): e for e in events if e.kind == "paycheck" and year.holds(e.at)}
    out = []
    for day in pay_dates(persona, year.start, year.end):
        e = seen.get(day)
        g, n = (e.data["gross_cents"], e.data["net_cents"]) if e else (gross, net)
        out.append(Paycheck(day, g, n, payroll_split(persona, g, n), e.id if e else None))
    return out


def _sum(checks: list[Paycheck], part: str) -> int:
    return sum(c.withheld[part] for c in checks)


# Dividends of these classes are not qualified dividends (IRC § 1(h)(11)): a bond fund pays out interest, a REIT's
# ordinary dividends are not from a qualified corporation's earnings (Form 1099-DIV instructions, box 1b).
NOT_QUALIFIED = ("bond_fund", "reit")


def security_class(symbol: str) -> str:
    """The catalogue class of ``symbol``; a symbol the catalogue lacks is an index fund (``investing.universe``)."""
    from ..reference.securities import catalogue

    return next((s["class"] for s in catalogue()["securities"] if s["symbol"] == symbol), "index_etf")


def long_term(acquired: dt.date | None, sold: dt.date) -> bool:
    """Whether shares acquired on ``acquired`` and sold on ``sold`` were held more than one year (IRS Publication
    550: the holding period starts the day after acquisition, so a sale on the first anniversary is still short
    term). ``None`` is a position held when the history starts: counted as held more than a year."""
    return acquired is None or sold > add_months(acquired, 12)


def sales_by_term(events) -> dict[str, tuple[int, int]]:
    """Every ``brokerage_trade`` sell's realised gain split into ``(short_term, long_term)`` cents, by event id.

    The broker's basis is the average cost (``investing.Book.sell_cost``), so every share sold carries the same
    gain; which shares were sold, for the holding period, is first in, first out (Treas. Reg. § 1.1012-1(e): shares
    sold under the average basis method are those acquired first). Lots: the opening holdings (acquired before the
    history: long term, see :func:`long_term`), every buy on its day; a split multiplies a lot's shares."""
    from .investing import KINDS

    lots: dict[str, list[list]] = {}
    out: dict[str, tuple[int, int]] = {}
    for e in sorted((e for e in events if e.kind in KINDS), key=lambda e: e.at):
        d = e.data
        if e.kind == "brokerage_opening":
            for h in d["holdings"]:
                lots.setdefault(h["symbol"], []).append([None, Decimal(h["shares"])])
        elif e.kind == "brokerage_split":
            for lot in lots.get(d["symbol"], []):
                lot[1] *= int(d["ratio"])
        elif e.kind == "brokerage_trade" and d["side"] == "buy":
            lots.setdefault(d["symbol"], []).append([e.at.date(), Decimal(d["shares"])])
        elif e.kind == "brokerage_trade":
            left, held_long = Decimal(d["shares"]), Decimal(0)
            queue = lots.get(d["symbol"], [])
            while left > 0 and queue:
                take = min(left, queue[0][1])
                if long_term(queue[0][0], e.at.date()):
                    held_long += take
                left -= take
                queue[0][1] -= take
                if queue[0][1] <= 0:
                    queue.pop(0)
            gain = int(d.get("realised_gain_cents", 0))
            lt = int((Decimal(gain) * held_long / Decimal(d["shares"])).quantize(Decimal(1), ROUND_HALF_UP))
            out[e.id] = (gain - lt, lt)
    return out


def investment_income(events, year: TaxYear) -> dict[str, int]:
    """Brokerage income of the year: ``dividends_cents``, ``qualified_dividends_cents`` (those not of a
    :data:`NOT_QUALIFIED` class), ``proceeds_cents``, ``cost_basis_cents``, ``gains_cents`` (realised, sells only;
    negative for a loss) split into ``short_term_cents`` and ``long_term_cents`` (:func:`sales_by_term`), ``sales``
    (count). Zero without investing events."""
    divs = [e for e in events if e.kind == "brokerage_dividend" and year.holds(e.at)]
    div = sum(e.data["amount_cents"] for e in divs)
    qualified = sum(e.data["amount_cents"] for e in divs if security_class(e.data["symbol"]) not in NOT_QUALIFIED)
    sells = [e for e in events if e.kind == "brokerage_trade" and e.data.get("side") == "sell" and year.holds(e.at)]
    terms = sales_by_term(events) if sells else {}
    return {
        "dividends_cents": div,
        "qualified_dividends_cents": qualified,
        "proceeds_cents": sum(e.data["amount_cents"] for e in sells),
        "cost_basis_cents": sum(e.data.get("cost_basis_cents", 0) for e in sells),
        "gains_cents": sum(e.data.get("realised_gain_cents", 0) for e in sells),
        "short_term_cents": sum(terms[e.id][0] for e in sells),
        "long_term_cents": sum(terms[e.id][1] for e in sells),
        "sales": len(sells),
    }


def savings_interest(events, year: TaxYear) -> int:
    """Interest the savings account earned in the year (the bank's ``interest`` postings), cents."""
    return sum(
        e.data["amount_cents"]
        for e in events
        if e.kind == "interest" and e.data.get("account") == "savings" and year.holds(e.at)
    )


def donations(events, year: TaxYear) -> list[dict[str, Any]]:
    """The year's gifts: ``[{"charity", "amount_cents", "day"}]`` in date order."""
    return [
        {"charity": e.data["charity"], "amount_cents": e.data["amount_cents"], "day": e.at.date().isoformat()}
        for e in sorted(events, key=lambda e: e.at)
        if e.kind == "donation" and year.holds(e.at)
    ]


# ---------------------------------------------------------------------------------------------------------------
# The return (mirrored in apps/taxes/web/lib/taxcalc.ts; tests/world/test_tax_year.py runs both on the same input)


def _brackets(amount: int, brackets: list) -> int:
    tax, low = 0.0, 0
    for top, rate in brackets:
        if amount <= low:
            break
        part = (amount if top is None else min(amount, top)) - low
        tax += part * rate
        if top is None:
            break
        low = top
    return math.floor(tax + 0.5)


def _percent(cents: int, pct: int) -> int:
    """``pct`` percent of ``cents``, rounded half up (exact: an integer over 100)."""
    return math.floor(cents * pct / 100 + 0.5)


def us_tax(
    year_key: str, taxable: int, qualified_dividends: int, long_term: int, net_gain: int, status: str | None = None
) -> int:
    """The federal income tax on ``taxable`` (cents) by the Qualified Dividends and Capital Gain Tax Worksheet of
    the Form 1040 instructions (line 16), for ``status`` (default the rules' ``filing_status``).

    ``qualified_dividends``: Form 1040 line 3a; ``long_term`` and ``net_gain``: Schedule D line 15 (net long-term
    gain or loss) and line 16 (net gain or loss, short plus long, before the $3,000 loss limit). The 0 %, 15 % and
    20 % thresholds are the year's ``capital_gains`` in rules.json (IRS Rev. Proc. 2023-34 § 3.03 for 2024,
    2024-40 § 3.03 for 2025, 2025-32 § 4.03 for 2026). With neither qualified dividends nor a net long-term gain
    it is the ordinary bracket tax. Mirrored in apps/taxes/web/lib/taxcalc.ts ``usTax``."""
    us = rules()["US"]
    r = us["years"][year_key]
    cg = r["capital_gains"]
    status = status or us["filing_status"]
    low, mid, high = cg["rates_percent"]
    line1 = taxable
    line2 = max(0, qualified_dividends)
    line3 = min(long_term, net_gain) if long_term > 0 and net_gain > 0 else 0
    line4 = line2 + line3
    line5 = max(0, line1 - line4)
    line6 = cg["zero_max"][status]
    line7 = min(line1, line6)
    line8 = min(line5, line7)
    line9 = line7 - line8  # taxed at 0 %
    line10 = min(line1, line4)
    line12 = line10 - line9
    line13 = cg["fifteen_max"][status]
    line14 = min(line1, line13)
    line15 = line5 + line9
    line16 = max(0, line14 - line15)
    line17 = min(line12, line16)  # taxed at 15 %
    line18 = _percent(line17, mid)
    line19 = line9 + line17
    line20 = line10 - line19  # taxed at 20 %
    line21 = _percent(line20, high)
    line22 = _brackets(line5, r["brackets"])
    line23 = _percent(line9, low) + line18 + line21 + line22
    line24 = _brackets(line1, r["brackets"])
    return min(line23, line24)


def compute_return(country: str, year_key: str, inc: dict[str, int]) -> dict[str, int]:
    """A simplified return from its inputs (cents): ``wages``, ``withheld`` (income tax withheld: federal, PAYE,
    Lohnsteuer + Soli), ``interest``, ``dividends``, ``qualified_dividends`` (US: the part of ``dividends`` that is
    qualified, 1099-DIV box 1b), ``gains`` (net realised gain or loss), ``long_term_gains`` (US: its long-term
    part), ``donations``, ``state_tax`` (US, for itemising), ``social`` (DE: employee social contributions),
    ``itemize`` (US: 1 to itemise instead of the standard deduction). Returns ``total_income``, ``deduction``,
    ``taxable``, ``tax``, ``withheld``, ``refund`` (> 0 a refund, < 0 owed). Raises ``KeyError`` for a year the
    rules lack. US: qualified dividends and net long-term gain at the 0/15/20 % rates (:func:`us_tax`), the rest
    (short-term gains included) at the ordinary brackets."""
    r = rules()[country]["years"][year_key]
    g = lambda k: int(inc.get(k) or 0)
    withheld = g("withheld")
    if country == "US":
        gains = max(g("gains"), -r["capital_loss_limit"])
        total = g("wages") + g("interest") + g("dividends") + gains
        itemised = g("donations") + min(g("state_tax"), r["salt_cap"])
        deduction = itemised if g("itemize") else r["standard_deduction"]
        taxable = max(0, total - deduction)
        qualified = min(g("qualified_dividends"), max(0, g("dividends")))
        tax = us_tax(year_key, taxable, qualified, g("long_term_gains"), g("gains"))
    elif country == "GB":
        pa = r["personal_allowance"]
        non_savings = g("wages")
        adjusted = non_savings + g("interest") + g("dividends")
        if adjusted > r["taper_from"]:
            pa = max(0, pa - (adjusted - r["taper_from"]) // 2)
        band_tops = [pa + r["basic_band"], r["higher_limit"]]
        taxable_ns = max(0, non_savings - pa)
        bands = [[r["basic_band"], r["rates"][0]], [r["higher_limit"] - pa, r["rates"][1]], [None, r["rates"][2]]]
        tax_ns = _brackets(taxable_ns, bands)
        level = (
            0
            if non_savings + g("interest") <= band_tops[0]
            else 1
            if non_savings + g("interest") <= band_tops[1]
            else 2
        )
        psa = r["savings_allowance"][level]
        savings_taxed = max(0, g("interest") - psa)
        rate_s = r["rates"][0 if non_savings <= band_tops[0] else 1 if non_savings <= band_tops[1] else 2]
        level_d = 0 if adjusted <= band_tops[0] else 1 if adjusted <= band_tops[1] else 2
        div_taxed = max(0, g("dividends") - r["dividend_allowance"])
        cgt_taxed = max(0, g("gains") - r["cgt_exempt"])
        tax = (
            tax_ns
            + math.floor(savings_taxed * rate_s + 0.5)
            + math.floor(div_taxed * r["dividend_rates"][level_d] + 0.5)
            + math.floor(cgt_taxed * r["cgt_rates"][0 if level_d == 0 else 1] + 0.5)
        )
        total = adjusted + max(0, g("gains"))
        deduction = (
            pa
            + min(psa, g("interest"))
            + min(r["dividend_allowance"], g("dividends"))
            + min(r["cgt_exempt"], max(0, g("gains")))
        )
        taxable = max(0, total - deduction)
    else:
        wk = r["werbungskosten_pauschbetrag"]
        deduction = wk + g("social") + g("donations") + r["sonderausgaben_pauschbetrag"]
        total = g("wages")
        taxable = max(0, total - deduction)
        x = taxable // 100  # zvE in whole euros
        if x <= r["grundfreibetrag"] // 100:
            est = 0
        elif x <= r["zone2_end"] // 100:
            y = (x - r["grundfreibetrag"] // 100) / 10000
            est = math.floor((r["zone2"][0] * y + r["zone2"][1]) * y)
        elif x <= r["zone3_end"] // 100:
            z = (x - r["zone2_end"] // 100) / 10000
            est = math.floor((r["zone3"][0] * z + r["zone3"][1]) * z + r["zone3"][2])
        elif x <= r["zone4_end"] // 100:
            est = math.floor(r["zone4"][0] * x - r["zone4"][1])
        else:
            est = math.floor(r["zone5"][0] * x - r["zone5"][1])
        est *= 100
        free = r["soli_freigrenze"]
        soli = 0 if est <= free else min(math.floor(est * 0.055 + 0.5), math.floor((est - free) * 0.119 + 0.5))
        tax = est + soli
    return {
        "total_income": total,
        "deduction": deduction,
        "taxable": taxable,
        "tax": tax,
        "withheld": withheld,
        "refund": withheld - tax,
    }


def return_inputs(persona, events, year: TaxYear, *, interest: int | None = None) -> dict[str, int]:
    """The inputs of :func:`compute_return` as the year's forms give them (the standard deduction for the US
    unless itemising is larger). ``interest`` defaults to the savings interest postings among ``events``."""
    country = regime(persona)
    checks = payroll(persona, events, year)
    inv = investment_income(events, year)
    gifts = sum(d["amount_cents"] for d in donations(events, year))
    wages = sum(c.gross_cents for c in checks)
    interest = savings_interest(events, year) if interest is None else interest
    if country == "US":
        withheld, state, social = _sum(checks, "federal"), _sum(checks, "state"), 0
    elif country == "GB":
        withheld, state, social = _sum(checks, "paye"), 0, 0
        inv = {"dividends_cents": 0, "gains_cents": 0}  # the broker account is an ISA: tax-free
    else:
        withheld, state = _sum(checks, "lohnsteuer") + _sum(checks, "soli"), 0
        social = sum(_sum(checks, k) for k in ("kv", "pv", "rv", "av"))
        inv = {"dividends_cents": 0, "gains_cents": 0}  # Abgeltungsteuer at source
        interest = 0
    inc = {
        "wages": wages,
        "withheld": withheld,
        "interest": interest,
        "dividends": inv["dividends_cents"],
        "qualified_dividends": inv.get("qualified_dividends_cents", 0),
        "gains": inv["gains_cents"],
        "long_term_gains": inv.get("long_term_cents", 0),
        "donations": gifts,
        "state_tax": state,
        "social": social,
        "itemize": 0,
    }
    if country == "US" and year.key in rules()["US"]["years"]:
        r = rules()["US"]["years"][year.key]
        inc["itemize"] = int(gifts + min(state, r["salt_cap"]) > r["standard_deduction"])
    return inc


# ---------------------------------------------------------------------------------------------------------------
# Forms

ISSUE_DAYS = {
    "W-2": (1, 30),
    "1099-INT": (2, 14),
    "1099-DIV": (2, 14),
    "1099-B": (2, 14),
    "P60": (5, 29),
    "Lohnsteuerbescheinigung": (2, 27),
}


def _bank_name() -> str:
    return service("bank").title


def _broker_name() -> str:
    from ..reference.securities import COUNTERPARTY

    return COUNTERPARTY


def form_issued(form: str, year: TaxYear) -> dt.datetime:
    """When ``form`` for ``year`` is made available (naive local, 07:00)."""
    month, day = ISSUE_DAYS[form]
    return dt.datetime(year.end.year + 1 if form != "P60" else year.end.year, month, day, 7, 0)


def _forms_of(persona, events, year: TaxYear, interest: int | None) -> list[dict[str, Any]]:
    country = regime(persona)
    if country is None:
        return []  # a home outside the regimes: no year-end forms
    checks = payroll(persona, events, year)
    employer = persona.work.employer
    forms: list[dict[str, Any]] = []
    wages = sum(c.gross_cents for c in checks)
    if country == "US":
        if checks:
            forms.append(
                {
                    "form": "W-2",
                    "issuer": employer,
                    "boxes": {
                        "1": wages,
                        "2": _sum(checks, "federal"),
                        "3": wages,
                        "4": _sum(checks, "social_security"),
                        "5": wages,
                        "6": _sum(checks, "medicare"),
                        "15": persona.identity.address.region or "",
                        "16": wages,
                        "17": _sum(checks, "state"),
                    },
                }
            )
        if "savings" in [a.kind for a in persona.accounts] and (interest is None or interest > 0):
            forms.append({"form": "1099-INT", "issuer": _bank_name(), "boxes": {"1": interest}})
        inv = investment_income(events, year)
        if inv["dividends_cents"]:
            forms.append(
                {
                    "form": "1099-DIV",
                    "issuer": _broker_name(),
                    "boxes": {"1a": inv["dividends_cents"], "1b": inv["qualified_dividends_cents"]},
                }
            )
        if inv["sales"]:
            forms.append(
                {
                    "form": "1099-B",
                    "issuer": _broker_name(),
                    "boxes": {
                        "1d": inv["proceeds_cents"],
                        "1e": inv["cost_basis_cents"],
                        "gain": inv["gains_cents"],
                        "gain_st": inv["short_term_cents"],
                        "gain_lt": inv["long_term_cents"],
                        "sales": inv["sales"],
                    },
                }
            )
    elif country == "GB":
        if checks:
            forms.append(
                {
                    "form": "P60",
                    "issuer": employer,
                    "boxes": {"pay": wages, "tax": _sum(checks, "paye"), "ni": _sum(checks, "ni")},
                }
            )
    elif checks:
        forms.append(
            {
                "form": "Lohnsteuerbescheinigung",
                "issuer": employer,
                "boxes": {
                    "3": wages,
                    "4": _sum(checks, "lohnsteuer"),
                    "5": _sum(checks, "soli"),
                    "23a": _sum(checks, "rv"),
                    "25": _sum(checks, "kv"),
                    "26": _sum(checks, "pv"),
                    "27": _sum(checks, "av"),
                    "periods": len(checks),
                },
            }
        )
    for f in forms:
        f["tax_year"] = year.label
        f["issued"] = form_issued(f["form"], year)
    return forms


def tax_forms(world) -> list[dict[str, Any]]:
    """The forms issued for the world's tax year: ``[{"form", "issuer", "tax_year" (label), "issued" (datetime),
    "boxes" {box: cents | text}}]`` (W-2 boxes ``1``..``17``; 1099-INT ``1``; 1099-DIV ``1a`` (all) / ``1b``
    (qualified); 1099-B ``1d`` proceeds, ``1e`` cost basis, ``gain`` (net) = ``gain_st`` (short-term) + ``gain_lt``
    (long-term); P60 ``pay``, ``tax``, ``ni``; Lohnsteuerbescheinigung lines ``3``, ``4``,
    ``5``, ``23a``, ``25``, ``26``, ``27``)."""
    year = tax_year(world.persona)
    return _forms_of(world.persona, world.events, year, savings_interest(world.events, year))


def filed_return(world) -> dict[str, Any] | None:
    """Last year's filed return: the ``tax_return_filed`` event's data, or None when the world has none."""
    found = world.of_kind("tax_return_filed")
    return found[0].data if found else None


# ---------------------------------------------------------------------------------------------------------------


def _donate(sim: Sim) -> None:
    p = sim.persona
    names = charities().get(p.bank) or charities()["en_US"]
    r = sim.rng("tax_year/donations")
    favourite = r.sample(range(len(names)), k=min(3, len(names)))
    card = sim.card()
    yearly = budget(sim).net * 12 // 100  # 1 % of a year's net pay, cents
    cur = p.finances.currency
    for year in range(sim.start.year, sim.now.year + 1):
        count = r.randint(3, 6)
        left = yearly
        for i in range(count):
            c = names[favourite[i % len(favourite)] if r.random() < 0.7 else r.randrange(len(names))]
            day = (
                dt.date(year, 12, r.randint(1, 28))
                if i == count - 1
                else dt.date(year, r.randint(1, 11), r.randint(1, 28))
            )
            at = dt.datetime.combine(day, dt.time(r.randint(8, 21), r.choice((0, 15, 30, 45))))
            gift = prices.figure(r.choice((2500, 3000, 5000, 5000, 7500, 10000, 15000, 25000)), cur)
            amount = min(gift, left // 500 * 500)
            if amount < prices.figure(1000, cur) or not sim.start <= at <= sim.now:
                continue
            left -= amount
            sim.event(
                "donation",
                at,
                {
                    "charity": c["name"],
                    "charity_kind": c["kind"],
                    "amount_cents": amount,
                    "account": card,
                    "tax_year": year,
                },
                [Charge(card, -amount, c["name"].upper()[:40], c["name"], "charity")],
                key=("tax_year", "donation", year, i),
            )


@world_step(
    rank=150,
    reads=("paycheck", "brokerage_opening", "brokerage_split", "brokerage_trade", "brokerage_dividend"),
    writes=("donation", "tax_form", "tax_payment", "tax_refund", "tax_return_filed", "ledger"),
)
def simulate_tax_year(sim: Sim) -> None:
    """Add the tax year's events to ``sim`` (see module docstring): donations, ``tax_form`` days, last year's
    ``tax_return_filed`` with its refund (``tax_refund``) or payment (``tax_payment``). Streams ``tax_year/donations``,
    ``tax_year/filing``."""
    p = sim.persona
    _donate(sim)
    year = tax_year(p)
    for f in _forms_of(p, sim.events, year, interest=None):
        if sim.start <= f["issued"] <= sim.now:
            sim.event(
                "tax_form",
                f["issued"],
                {"form": f["form"], "issuer": f["issuer"], "tax_year": year.label},
                key=("tax_year", "form", f["form"]),
            )
    prev = tax_year(p, back=1)
    country = regime(p)
    if country is None or prev.key not in rules()[country]["years"] or not payroll(p, sim.events, prev):
        return
    rs = rules()[country]
    w = rs["filing"]
    r = sim.rng("tax_year/filing")
    # The filing window's year: the calendar year after a US or German year; a UK year ending 5 April files from
    # the autumn of the year it ends in.
    first = dt.date(prev.end.year + (0 if country == "GB" else w["year_offset"]), w["month_from"], w["day_from"])
    last = first.replace(month=w["month_to"], day=w["day_to"])
    day = first + dt.timedelta(days=r.randint(0, (last - first).days))
    at = dt.datetime.combine(day, dt.time(r.randint(19, 22), r.choice((5, 20, 35, 50))))
    inc = return_inputs(p, sim.events, prev, interest=0)
    lines = compute_return(country, prev.key, inc)
    confirmation = derived_id(sim.seed, "tax_year/return", prev.key).replace("-", "")[:12].upper()
    refund = to_unit(lines["refund"], p.finances.currency)  # whole yen in a currency without cents
    data = {
        "tax_year": prev.label,
        "year_key": prev.key,
        "country": country,
        "authority": rs["authority"],
        "confirmation": confirmation,
        "note": w["note"],
        "inputs": inc,
        "lines": lines,
        "refund_cents": refund,
    }
    if not sim.start <= at <= sim.now:
        return
    sim.event("tax_return_filed", at, data, key=("tax_year", "return"))
    if refund == 0:
        return
    lo, hi = w["refund_days"]
    # A refund arrives some days after filing; an amount owed is paid with the return (US, UK) or when the
    # Finanzamt's assessment asks for it (DE), the same number of days later.
    later = dt.datetime.combine(day + dt.timedelta(days=r.randint(lo, hi)), dt.time(5, 30))
    while later.weekday() >= 5:
        later += dt.timedelta(days=1)
    if refund > 0:
        kind, when, desc, cat_kind = "tax_refund", later, rs["refund_description"], "deposit"
    else:
        kind, when, desc, cat_kind = (
            "tax_payment",
            later if country == "DE" else at + dt.timedelta(minutes=3),
            rs["payment_description"],
            "bill_payment",
        )
    if when <= sim.now:
        sim.event(
            kind,
            when,
            {
                "tax_year": prev.label,
                "amount_cents": abs(refund),
                "authority": rs["authority"],
                "confirmation": confirmation,
            },
            [Charge("checking", refund, desc, rs["authority"], "taxes", cat_kind)],
            key=("tax_year", kind),
        )
