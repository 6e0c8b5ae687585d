"""Ledgerleaf Tax's rules (issue 24): the US preferential rates on qualified dividends and net long-term gains,
prefilled personal details present at review, strict parsing in the routes.

Every expected tax here is worked out in the test itself from the published figures, never by calling the code
under test: the 2025 single brackets (IRS Rev. Proc. 2024-40 § 3.01, Table 3), the 2025 standard deduction of
$15,750 (Public Law 119-21 § 70102) and the 2025 maximum zero rate amount ($48,350) and maximum 15-percent rate
amount ($533,400) for a single filer (Rev. Proc. 2024-40 § 3.03), through the lines of the Qualified Dividends and
Capital Gain Tax Worksheet of the 2025 Form 1040 instructions (line 16). The web tests post the figures through the
app's own routes on the production build and read what its review page says.
"""

from __future__ import annotations

import datetime as dt
import http.client
import json
import re
import sqlite3
import urllib.parse
from decimal import ROUND_HALF_UP, Decimal
from types import SimpleNamespace

import pytest

from builder.world import tax_year as ty

from tests.app_e2e import Served, post_form

HOST = "ledgerleaf.test"

# ---- the published 2025 figures (single filer), in dollars -------------------------------------------------------
BRACKETS_2025 = [(11_925, 10), (48_475, 12), (103_350, 22), (197_300, 24), (250_525, 32), (626_350, 35), (None, 37)]
STANDARD_2025 = Decimal(15750)
ZERO_MAX_2025 = Decimal(48350)
FIFTEEN_MAX_2025 = Decimal(533400)
LOSS_LIMIT = Decimal(3000)


def cents(x: Decimal) -> Decimal:
    return x.quantize(Decimal("0.01"), ROUND_HALF_UP)


def bracket_tax(taxable: Decimal) -> Decimal:
    """The ordinary tax of the 2025 single rate schedule."""
    tax, low = Decimal(0), Decimal(0)
    for top, pct in BRACKETS_2025:
        hi = taxable if top is None else min(taxable, Decimal(top))
        if hi > low:
            tax += (hi - low) * pct / 100
        if top is None or taxable <= top:
            break
        low = Decimal(top)
    return cents(tax)


def worksheet(wages, qualified, dividends, short, long, interest=0) -> dict[str, Decimal]:
    """Form 1040 for a single filer taking the standard deduction, line by line (dollars), with line 16 by the
    Qualified Dividends and Capital Gain Tax Worksheet. Returns taxable income, the worksheet tax and the
    tax the ordinary brackets alone would give."""
    wages, qualified, dividends, short, long, interest = map(
        Decimal, map(str, (wages, qualified, dividends, short, long, interest))
    )
    net = short + long  # Schedule D line 16
    total = wages + interest + dividends + max(net, -LOSS_LIMIT)  # Schedule D line 21 limits a net loss
    taxable = max(Decimal(0), total - STANDARD_2025)
    w1 = taxable
    w2 = qualified
    w3 = min(long, net) if long > 0 and net > 0 else Decimal(0)  # smaller of Schedule D lines 15 and 16
    w4 = w2 + w3
    w5 = max(Decimal(0), w1 - w4)
    w6 = ZERO_MAX_2025
    w7 = min(w1, w6)
    w8 = min(w5, w7)
    w9 = w7 - w8
    w10 = min(w1, w4)
    w11 = w9
    w12 = w10 - w11
    w13 = FIFTEEN_MAX_2025
    w14 = min(w1, w13)
    w15 = w5 + w9
    w16 = max(Decimal(0), w14 - w15)
    w17 = min(w12, w16)
    w18 = cents(w17 * Decimal("0.15"))
    w19 = w9 + w17
    w20 = w10 - w19
    w21 = cents(w20 * Decimal("0.20"))
    w22 = bracket_tax(w5)
    w23 = w18 + w21 + w22
    w24 = bracket_tax(w1)
    return {"taxable": taxable, "tax": min(w23, w24), "ordinary": w24, "at_0": w9, "at_15": w17, "at_20": w20}


# ---- the worksheet by hand ----------------------------------------------------------------------------------------


def test_hand_worksheet_matches_the_published_examples():
    """The test's own worksheet, checked against figures worked out on paper from the 2025 tables."""
    # $120,000 wages, $3,000 dividends of which $2,000 qualified, $1,000 short-term and $5,000 long-term gain:
    # taxable 129,000 - 15,750 = 113,250; 7,000 at 15 % = 1,050.00; ordinary tax on 106,250 = 1,192.50 + 4,386.00
    # + 12,072.50 + 696.00 = 18,347.00; together 19,397.00 (the brackets alone: 20,027.00).
    a = worksheet(120_000, 2_000, 3_000, 1_000, 5_000)
    assert (a["taxable"], a["tax"], a["ordinary"], a["at_15"]) == (
        113_250,
        Decimal("19397.00"),
        Decimal("20027.00"),
        7_000,
    )
    # $40,000 wages, $5,000 qualified dividends, $10,000 long-term gain: taxable 39,250, all 15,000 under the
    # $48,350 zero-rate line; ordinary tax on 24,250 = 1,192.50 + 1,479.00 = 2,671.50 (brackets alone 4,471.50).
    b = worksheet(40_000, 5_000, 5_000, 0, 10_000)
    assert (b["tax"], b["ordinary"], b["at_0"]) == (Decimal("2671.50"), Decimal("4471.50"), 15_000)
    # $600,000 wages, $50,000 qualified dividends, $100,000 long-term gain: taxable 734,250; the 150,000 all above
    # $533,400 at 20 % = 30,000.00; ordinary tax on 584,250 = 174,034.75; together 204,034.75.
    c = worksheet(600_000, 50_000, 50_000, 0, 100_000)
    assert (c["tax"], c["at_20"]) == (Decimal("204034.75"), 150_000)


def _inputs(wages, qualified, dividends, short, long, withheld=0) -> dict[str, int]:
    c = lambda d: int(Decimal(str(d)) * 100)
    return {
        "wages": c(wages),
        "withheld": c(withheld),
        "interest": 0,
        "dividends": c(dividends),
        "qualified_dividends": c(qualified),
        "gains": c(short + long),
        "long_term_gains": c(long),
        "donations": 0,
        "state_tax": 0,
        "social": 0,
        "itemize": 0,
    }


@pytest.mark.parametrize(
    "wages,qualified,dividends,short,long",
    [
        (120_000, 2_000, 3_000, 1_000, 5_000),  # 15 % band
        (40_000, 5_000, 5_000, 0, 10_000),  # all at 0 %
        (45_000, 1_500, 2_000, 500, 8_000),  # straddles the zero-rate line
        (600_000, 50_000, 50_000, 0, 100_000),  # 20 %
        (520_000, 10_000, 12_000, 0, 20_000),  # straddles the 15 %/20 % line
        (90_000, 0, 0, -2_000, 5_000),  # short-term loss nets against the long-term gain
        (90_000, 1_000, 1_000, 4_000, -6_000),  # net loss: only the qualified dividends are preferential
        (90_000, 0, 0, 7_000, 0),  # short-term gain only: ordinary rates
        (10_000, 800, 800, 0, 300),  # taxable income below the deduction's reach
    ],
)
def test_world_rules_tax_by_the_worksheet(wages, qualified, dividends, short, long):
    """builder/world/tax_year.py (the tasks' and last year's return's side) gives the hand-worked tax."""
    want = worksheet(wages, qualified, dividends, short, long)
    got = ty.compute_return("US", "2025", _inputs(wages, qualified, dividends, short, long))
    assert got["taxable"] == int(want["taxable"] * 100)
    assert got["tax"] == int(want["tax"] * 100), (got, want)


def test_holding_period_splits_gains_first_in_first_out():
    """A sale under the average basis is of the shares acquired first (Treas. Reg. § 1.1012-1(e)); shares held
    more than a year (the day after the first anniversary on) are long term, positions held when the history
    starts count as long term; a split keeps each lot's date."""
    at = lambda s: dt.datetime.fromisoformat(s)
    ev = lambda i, kind, when, **d: SimpleNamespace(id=i, kind=kind, at=at(when), data=d)
    events = [
        ev(
            "o",
            "brokerage_opening",
            "2025-05-16T00:00",
            cash_cents=0,
            holdings=[{"symbol": "AAA", "shares": "10", "cost_basis_cents": 100000}],
        ),
        ev(
            "b1",
            "brokerage_trade",
            "2025-06-02T10:00",
            symbol="AAA",
            side="buy",
            shares="10",
            amount_cents=120000,
            cost_basis_cents=120000,
            realised_gain_cents=0,
        ),
        ev(
            "s1",
            "brokerage_trade",
            "2025-09-01T10:00",
            symbol="AAA",
            side="sell",
            shares="15",
            amount_cents=195000,
            cost_basis_cents=165000,
            realised_gain_cents=30000,
        ),
        ev("x", "brokerage_split", "2025-10-01T05:00", symbol="AAA", ratio=2, shares_before="5", shares_after="10"),
        ev(
            "s2",
            "brokerage_trade",
            "2026-06-02T10:00",
            symbol="AAA",
            side="sell",
            shares="4",
            amount_cents=40000,
            cost_basis_cents=24000,
            realised_gain_cents=16000,
        ),
        ev(
            "s3",
            "brokerage_trade",
            "2026-06-03T10:00",
            symbol="AAA",
            side="sell",
            shares="6",
            amount_cents=60000,
            cost_basis_cents=36000,
            realised_gain_cents=24000,
        ),
    ]
    terms = ty.sales_by_term(events)
    # s1: 10 opening shares (long) + 5 bought on 2025-06-02 (short): 2/3 of 300.00 long.
    assert terms["s1"] == (10000, 20000)
    # s2 on the anniversary of the buy: still short; s3 the day after: long.
    assert terms["s2"] == (16000, 0) and terms["s3"] == (0, 24000)


def test_world_forms_and_expected_refund(world):
    """The default persona's 1099s: box 1b the stock and stock-fund dividends, the 1099-B's short and long parts
    adding up to its gain; the import task's expected refund is the hand-worked tax of those forms."""
    from apps.taxes.tasks import imported_result

    year = ty.tax_year(world.persona)
    forms = {f["form"]: f["boxes"] for f in ty.tax_forms(world)}
    divs = [e for e in world.of_kind("brokerage_dividend") if year.holds(e.at)]
    assert forms["1099-DIV"]["1a"] == sum(e.data["amount_cents"] for e in divs)
    assert forms["1099-DIV"]["1b"] == sum(
        e.data["amount_cents"] for e in divs if ty.security_class(e.data["symbol"]) not in ("bond_fund", "reit")
    )
    b = forms["1099-B"]
    assert b["gain_st"] + b["gain_lt"] == b["gain"]
    w2 = forms["W-2"]
    d = lambda c: Decimal(c) / 100
    want = worksheet(
        d(w2["1"]),
        d(forms["1099-DIV"]["1b"]),
        d(forms["1099-DIV"]["1a"]),
        d(b["gain_st"]),
        d(b["gain_lt"]),
        interest=d(forms["1099-INT"]["1"]),
    )
    got = imported_result(world)
    assert got["tax"] == int(want["tax"] * 100) and got["refund"] == w2["2"] - got["tax"]
    assert want["tax"] < want["ordinary"]  # the preferential rates lower this persona's tax


# ---- through the served site --------------------------------------------------------------------------------------


def _cookie(world) -> str:
    from apps.taxes.seed import credentials

    return f"ll_session={credentials(world)['session_token']}"


def _request(
    served: Served, method: str, path: str, cookie: str, body: bytes | None = None, headers: dict | None = None
) -> tuple[int, dict, str]:
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
    try:
        conn.request(method, path, body=body, headers={"Host": HOST, "Cookie": cookie, **(headers or {})})
        res = conn.getresponse()
        return res.status, {k.lower(): v for k, v in res.getheaders()}, res.read().decode("utf-8", "replace")
    finally:
        conn.close()


def _money(text: str) -> int:
    """Cents of "$19,397.00"."""
    m = re.fullmatch(r"\$([\d,]+)\.(\d\d)", text.strip())
    assert m, text
    return int(m.group(1).replace(",", "")) * 100 + int(m.group(2))


def _cell(html: str, testid: str) -> str:
    m = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</td>', html, re.DOTALL)
    assert m, f"no {testid} on the page"
    return re.sub(r"<[^>]+>", "", m.group(1)).strip()


def _snapshot(db) -> list:
    con = sqlite3.connect(db)
    out = [
        con.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in ("returns", "return_values", "form_imports")
    ]
    con.close()
    return out


def test_review_taxes_qualified_dividends_and_long_term_gains_preferentially(
    site_build, world, default_layer, tmp_path
):
    """Typed figures (case A of the hand worksheet: $120,000 wages, $20,000 withheld, $3,000 dividends of which
    $2,000 qualified, $1,000 short-term and $5,000 long-term gain) give the worksheet's $19,397.00 of tax on the
    review page and a $603.00 refund, not the $20,027.00 (owing $27.00) of the ordinary brackets; filing stores it
    (once, however often the same form is posted)."""
    cookie = _cookie(world)
    want = worksheet(120_000, 2_000, 3_000, 1_000, 5_000)
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        status, location = post_form(
            served,
            HOST,
            "/api/return/save",
            [
                ("step", "income"),
                ("go", "next"),
                ("w2_employer", "Example Employer"),
                ("w2_1", "120,000.00"),
                ("w2_2", "20000"),
                ("w2_16", ""),
                ("w2_17", ""),
                ("int_1", ""),
                ("div_1a", "3,000.00"),
                ("div_1b", "2000.00"),
                ("b_gain_st", "1000"),
                ("b_gain_lt", "5,000.00"),
            ],
            cookie,
        )
        assert status == 303 and "error=" not in location, location
        status, location = post_form(
            served,
            HOST,
            "/api/return/save",
            [("step", "deductions"), ("go", "next"), ("itemize", "standard"), ("donations", "")],
            cookie,
        )
        assert status == 303 and location.startswith("/return/review"), location
        status, _, html = _request(served, "GET", "/return/review", cookie)
        assert status == 200
        assert _money(_cell(html, "line-taxable")) == int(want["taxable"] * 100) == 11_325_000
        assert _money(_cell(html, "line-preferential")) == 700_000
        assert _money(_cell(html, "line-tax")) == int(want["tax"] * 100) == 1_939_700
        assert _money(_cell(html, "result")) == 2_000_000 - 1_939_700  # a refund of $603.00
        assert "Refund" in html or "refund" in html
        # Filing stores the same figures (the profile's details were stored with the draft: nothing missing).
        # Filed once, with the form's one-time token; the same form again (a double click) gets the same answer.
        filing = [("_idem", "file-once-1234"), ("consent", "yes"), ("signature", world.persona.identity.name)]
        for _ in range(2):
            status, location = post_form(served, HOST, "/api/return/file", filing, cookie)
            assert status == 303 and location == "/return/file?done=filed", location
        con = sqlite3.connect(served.database("taxes"))
        assert con.execute("SELECT tax_cents, refund_cents FROM returns WHERE world_ref IS NULL").fetchall() == [
            (1_939_700, 60_300)
        ]
        con.close()


def test_prefilled_details_count_at_review(site_build, world, default_layer, tmp_path):
    """A return started by importing the forms (the personal step never saved) holds the profile's details: the
    review lists nothing missing, the personal fields are stored (source 'profile'), and filing needs no detour."""
    from apps.taxes.tasks import imported_result

    cookie = _cookie(world)
    p = world.persona
    first, *rest = p.identity.name.split()
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        db = served.database("taxes")
        con = sqlite3.connect(db)
        form_ids = [r[0] for r in con.execute("SELECT id FROM issued_forms ORDER BY id")]
        con.close()
        for fid in form_ids:
            status, location = post_form(served, HOST, "/api/return/import", [("form", str(fid))], cookie)
            assert status == 303 and "error=" not in location, location
        status, _, html = _request(served, "GET", "/return/review", cookie)
        assert status == 200
        assert 'data-testid="missing"' not in html, re.search(r'data-testid="missing".*?</ul>', html, re.DOTALL).group(
            0
        )
        assert _money(_cell(html, "result")) == abs(imported_result(world)["refund"])
        con = sqlite3.connect(db)
        stored = dict(
            con.execute(
                "SELECT v.name, v.value || '|' || v.source FROM return_values v JOIN returns r "
                "ON r.id = v.return_id WHERE r.world_ref IS NULL"
            ).fetchall()
        )
        con.close()
        a = p.identity.address
        assert stored["first_name"] == f"{' '.join([first, *rest][:-1]) or first}|profile"
        assert stored["last_name"] == f"{rest[-1]}|profile"
        assert stored["street"] == f"{a.street}|profile" and stored["city"] == f"{a.city}|profile"
        assert stored["region"] == f"{a.region}|profile" and stored["postal_code"] == f"{a.postal_code}|profile"
        status, location = post_form(
            served, HOST, "/api/return/file", [("consent", "yes"), ("signature", p.identity.name)], cookie
        )
        assert "done=filed" in location, urllib.parse.unquote_plus(location)


def test_malformed_requests_answer_4xx_and_change_nothing(site_build, world, default_layer, tmp_path):
    """Every malformed request to the taxes routes answers 4xx with a message, never 500, and the database is as
    it was; a bad amount from the browser's form answers 303 back with the message (400 for a JSON client)."""
    cookie = _cookie(world)
    form = "application/x-www-form-urlencoded"
    with Served(default_layer, tmp_path, now=world.now.isoformat()) as served:
        db = served.database("taxes")
        before = _snapshot(db)

        def send(path, body, ctype=form, method="POST", accept=None):
            headers = {"Content-Type": ctype} if ctype else {}
            if accept:
                headers["Accept"] = accept
            data = (
                body
                if isinstance(body, bytes)
                else urllib.parse.urlencode(body).encode()
                if isinstance(body, list)
                else (body or "").encode()
            )
            return _request(served, method, path, cookie, data, headers)

        income = [("step", "income"), ("go", "next"), ("w2_employer", "X"), ("w2_2", "10")]
        refused = [
            ("/api/return/save", b"", form),  # empty
            ("/api/return/save", json.dumps({"step": "income"}).encode(), "application/json"),  # not a form
            ("/api/return/save", b"\x00\xff\xfe", "text/plain"),  # garbage
            ("/api/return/save", [("go", "next"), ("w2_1", "5")], form),  # no step
            ("/api/return/save", [("step", "review"), ("go", "next")], form),  # a step with nothing to save
            ("/api/return/save", [("step", "taxes"), ("go", "next")], form),  # unknown step
            ("/api/return/save", [("step", "income"), ("go", "sideways")], form),
            ("/api/return/save", [("step", "income")], form),  # no go
            ("/api/return/save", [*income, ("w2_1", "5"), ("w2_1", "6")], form),  # a field twice
            ("/api/return/import", [("form", "1e0")], form),
            ("/api/return/import", [("form", "-1")], form),
            ("/api/return/import", [("form", " 1")], form),
            ("/api/return/import", [("form", "1.0")], form),
            ("/api/return/import", [("form", "0x1")], form),
            ("/api/return/import", [("form", "")], form),
            ("/api/return/import", [("form", "99999999999999999999")], form),
            ("/api/return/import", [("other", "1")], form),
            ("/api/return/file", [("consent", "maybe"), ("signature", world.persona.identity.name)], form),
            ("/api/return/file", [("consent", "yes")], form),  # no signature
        ]
        for path, body, ctype in refused:
            status, _, text = send(path, body, ctype)
            assert 400 <= status < 500, (path, body, status, text[:300])
            assert json.loads(text)["error"], (path, body, text)
        # A file where a field belongs (multipart).
        boundary = "----tb"
        multipart = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="step"\r\n\r\nincome\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="go"\r\n\r\nnext\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="w2_1"; filename="w2.txt"\r\n'
            f"Content-Type: text/plain\r\n\r\n100\r\n--{boundary}--\r\n"
        ).encode()
        status, _, text = send("/api/return/save", multipart, f"multipart/form-data; boundary={boundary}")
        assert status == 400 and "file" in json.loads(text)["error"], text
        # Too large a body.
        status, _, text = send("/api/return/save", [*income, ("w2_employer", "x" * 300_000)])
        assert status == 413, (status, text[:200])
        # Ids in the PDF path: digits only (400), a return that is not there (404).
        for bad in ("1e0", "-1", "0x1", "1.0", "abc"):
            status, _, text = send(f"/api/returns/{bad}/pdf", None, None, method="GET")
            assert status == 400 and json.loads(text)["error"], (bad, status)
        status, _, text = send("/api/returns/999/pdf", None, None, method="GET")
        assert status == 404
        # Amounts: decimal strings in range, else refused: 303 back with the message for the browser's form, 400
        # for a JSON client.
        for amount in (
            "12x",
            "1,2,3",
            "1.234",
            "1 000",
            "--5",
            "1e5",
            "0x10",
            "Infinity",
            "NaN",
            "(50",
            "$1$2",
            "5-",
            "+5",
            "١٢",
            "100000000.01",
            "99999999999",
            "-50.00",
            ".5.",
            "1,00.00",
        ):
            status, location = post_form(served, HOST, "/api/return/save", [*income, ("w2_1", amount)], cookie)
            assert status == 303 and "error=" in location, (amount, location)
            status, _, text = send("/api/return/save", [*income, ("w2_1", amount)], accept="application/json")
            assert status == 400 and json.loads(text)["field"] == "w2_1", (amount, status, text)
        # Qualified dividends above the total.
        status, location = post_form(
            served, HOST, "/api/return/save", [*income, ("w2_1", "5"), ("div_1a", "10"), ("div_1b", "10.01")], cookie
        )
        assert "error=" in location and "field=div_1b" in location, location
        # A one-line text field with a line break.
        status, location = post_form(
            served, HOST, "/api/return/save", [("step", "personal"), ("go", "next"), ("city", "Port\nland")], cookie
        )
        assert "error=" in location and "field=city" in location, location
        assert _snapshot(db) == before
        # Well-formed amounts are taken: grouping, a currency sign, a loss in parentheses.
        status, location = post_form(
            served,
            HOST,
            "/api/return/save",
            [*income, ("w2_1", "$1,234.5"), ("b_gain_lt", "($250.00)"), ("b_gain_st", "-10")],
            cookie,
        )
        assert status == 303 and "error=" not in location, location
        con = sqlite3.connect(db)
        got = dict(
            con.execute("SELECT name, value FROM return_values WHERE name IN ('w2_1', 'b_gain_lt', 'b_gain_st')")
        )
        con.close()
        assert got == {"w2_1": "123450", "b_gain_lt": "-25000", "b_gain_st": "-1000"}
