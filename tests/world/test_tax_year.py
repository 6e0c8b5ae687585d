"""The tax year (builder/world/tax_year.py): forms that add up to the paychecks, PDFs that say so, determinism.

Expected values come from the world's own events (paychecks, interest postings, brokerage events, donations)
and the persona's pay schedule, never from the module's totals.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess

import pytest

from builder.world import tax_year as ty
from builder.world.finance import pay_dates


def test_form_wages_and_withholding_are_the_paychecks_sums(any_world):
    """Every payday of the tax year is counted once; those in the history are the world's paycheck events with
    their gross and net; each paycheck's withholding is gross - net; the employer's form sums them."""
    persona, world = any_world
    year = ty.tax_year(persona)
    checks = ty.payroll(persona, world.events, year)
    assert [c.day for c in checks] == pay_dates(persona, year.start, year.end)
    in_history = [e for e in world.of_kind("paycheck") if year.holds(e.at)]
    assert {c.event_id for c in checks if c.event_id} == {e.id for e in in_history} and in_history
    events = {e.id: e for e in in_history}
    for c in checks:
        assert sum(c.withheld.values()) == c.gross_cents - c.net_cents and min(c.withheld.values()) >= 0
        if c.event_id:
            e = events[c.event_id]
            assert (c.gross_cents, c.net_cents) == (e.data["gross_cents"], e.data["net_cents"])
            assert e.postings[0].amount_cents == c.net_cents  # the deposit the bank shows
    gross = sum(c.gross_cents for c in checks)
    taken = sum(c.gross_cents - c.net_cents for c in checks)
    forms = {f["form"]: f for f in ty.tax_forms(world)}
    country = ty.regime(persona)
    if country == "US":
        b = forms["W-2"]["boxes"]
        assert b["1"] == b["3"] == b["5"] == b["16"] == gross
        assert b["2"] + b["4"] + b["6"] + b["17"] == taken
        assert b["4"] == sum(round(c.gross_cents * 0.062) for c in checks)
    elif country == "GB":
        b = forms["P60"]["boxes"]
        assert b["pay"] == gross and b["tax"] + b["ni"] == taken
    else:
        b = forms["Lohnsteuerbescheinigung"]["boxes"]
        assert b["3"] == gross and b["4"] + b["5"] + b["23a"] + b["25"] + b["26"] + b["27"] == taken
        assert b["periods"] == len(checks)


def test_interest_and_brokerage_forms_match_the_ledger(world):
    """The 1099-INT is the bank's savings interest postings of the year; 1099-DIV and 1099-B the broker's events."""
    year = ty.tax_year(world.persona)
    forms = {f["form"]: f for f in ty.tax_forms(world)}
    interest = sum(p.amount_cents for p in world.postings("savings") if p.kind == "interest" and year.holds(p.at))
    assert interest > 0 and forms["1099-INT"]["boxes"]["1"] == interest
    div = sum(e.data["amount_cents"] for e in world.of_kind("brokerage_dividend") if e.at.year == 2025)
    if div:
        assert forms["1099-DIV"]["boxes"]["1a"] == div
    sells = [e for e in world.of_kind("brokerage_trade") if e.data["side"] == "sell" and e.at.year == 2025]
    if sells:
        assert forms["1099-B"]["boxes"]["gain"] == sum(e.data["realised_gain_cents"] for e in sells)


def test_form_pdfs_hold_the_numbers(any_world, tmp_path):
    """pdftotext of each form PDF shows its issuer and every amount as the locale writes it; file times are the
    days the forms were issued; last year's return PDF shows its result."""
    from apps.taxes.seed import home_files
    from builder.reference.locale import Fmt

    persona, world = any_world
    fmt = Fmt(persona)
    paths = home_files(world, tmp_path)
    forms = ty.tax_forms(world)
    assert len(paths) == len(forms) + (1 if ty.filed_return(world) else 0) and forms
    for path, form in zip(paths, forms):
        text = subprocess.run(
            ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert form["issuer"] in text
        for box, value in form["boxes"].items():
            if isinstance(value, int) and box not in ("sales", "periods"):
                assert fmt.money(value) in text, (form["form"], box, fmt.money(value))
        assert dt.datetime.fromtimestamp(path.stat().st_mtime).date() in (
            form["issued"].date(),
            form["issued"].date() - dt.timedelta(days=1),
            form["issued"].date() + dt.timedelta(days=1),
        )
    filed = ty.filed_return(world)
    if filed:
        text = subprocess.run(["pdftotext", str(paths[-1]), "-"], capture_output=True, text=True, check=True).stdout
        assert fmt.money(abs(filed["lines"]["refund"])) in text and filed["confirmation"] in text


def test_last_years_return_moves_its_money(any_world):
    """The filed return's refund arrives on checking from the tax authority (or the amount owed leaves it), and
    its lines are compute_return of its inputs."""
    persona, world = any_world
    filed = ty.filed_return(world)
    assert filed is not None
    assert filed["lines"] == ty.compute_return(filed["country"], filed["year_key"], filed["inputs"])
    refund = filed["refund_cents"]
    kind = "tax_refund" if refund > 0 else "tax_payment"
    (money_event,) = world.of_kind(kind)
    assert money_event.postings[0].account == "checking" and money_event.postings[0].amount_cents == refund
    assert money_event.at >= world.of_kind("tax_return_filed")[0].at


def test_donations_are_card_charges_of_the_year(world):
    year = ty.tax_year(world.persona)
    gifts = ty.donations(world.events, year)
    card = [p for p in world.postings() if p.category == "charity" and year.holds(p.at)]
    assert gifts and sum(g["amount_cents"] for g in gifts) == -sum(p.amount_cents for p in card)


@pytest.mark.parametrize(
    "country,year,inc,tax",
    [
        # US 2025 single: 50,000 wages - 15,750 = 34,250 taxable: 10% of 11,925 + 12% of 22,325 = 1,192.50 + 2,679.00
        ("US", "2025", {"wages": 5_000_000}, 387_150),
        # UK 2025-26: 30,000 pay - 12,570 = 17,430 at 20 %
        ("GB", "2025", {"wages": 3_000_000}, 348_600),
        # DE 2025: a zvE of exactly the Grundfreibetrag (wages less the 1,230 € and 36 € lump sums) pays nothing
        ("DE", "2025", {"wages": 1_209_600 + 123_000 + 3_600}, 0),
    ],
)
def test_rules_give_the_published_figures(country, year, inc, tax):
    full = {
        k: 0
        for k in ("wages", "withheld", "interest", "dividends", "gains", "donations", "state_tax", "social", "itemize")
    } | inc
    assert ty.compute_return(country, year, full)["tax"] == tax


def test_de_tariff_zone_three(tmp_path):
    """§ 32a EStG 2025 at zvE 40,000 €: z = (40,000 - 17,443) / 10,000; (176.64 z + 2,397) z + 1,015.13, rounded down."""
    z = (40_000 - 17_443) / 10_000
    expected = int((176.64 * z + 2397) * z + 1015.13) * 100
    inc = {k: 0 for k in ("withheld", "interest", "dividends", "gains", "donations", "state_tax", "social", "itemize")}
    inc["wages"] = 4_000_000 + 123_000 + 3_600
    assert ty.compute_return("DE", "2025", inc)["tax"] == expected


def test_tax_year_is_deterministic(persona):
    from builder.world import simulate

    a, b = simulate(persona), simulate(persona)
    pick = lambda w: json.dumps(
        [
            e.to_json()
            for e in w.events
            if e.kind  # noqa: E731
            in ("tax_form", "tax_return_filed", "tax_refund", "tax_payment", "donation")
        ],
        sort_keys=True,
        default=str,
    )
    assert pick(a) == pick(b) and json.dumps(ty.tax_forms(a), default=str) == json.dumps(ty.tax_forms(b), default=str)


def test_uk_tax_year_runs_april_to_april(any_world):
    persona, _ = any_world
    year = ty.tax_year(persona)
    if ty.regime(persona) == "GB":
        assert (year.start, year.end, year.label) == (dt.date(2025, 4, 6), dt.date(2026, 4, 5), "2025-26")
    else:
        assert (year.start, year.end) == (dt.date(2025, 1, 1), dt.date(2025, 12, 31))
