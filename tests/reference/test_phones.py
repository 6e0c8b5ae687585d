"""builder.reference.phones: the US, UK and German fictional ranges as the persona banks drew them; elsewhere the
country's calling code and a number its numbering plan calls valid, of the kind asked for."""

from __future__ import annotations

import random

import phonenumbers
import pytest
from phonenumbers import PhoneNumberType

import builder.persona  # noqa: F401  (the reference package's import order: persona first)
from builder.reference import phones

# The persona banks' phone entries before they moved here (format, ranges), by locale.
BANKS = {
    "US": ("+1 {0}-555-{1:04d}", [[201, 989], [100, 199]]),
    "GB": ("+44 7700 900{0:03d}", [[0, 999]]),
    "DE": ("+49 176 {0}", [[1000000, 9999999]]),
}


@pytest.mark.parametrize("country", sorted(BANKS))
def test_fictional_ranges_draw_as_the_banks_did(country):
    fmt, ranges = BANKS[country]
    for seed in range(50):
        r, old = random.Random(seed), random.Random(seed)
        for kind in ("mobile", "fixed"):
            assert phones.phone(r, country, kind) == fmt.format(*(old.randint(lo, hi) for lo, hi in ranges))


@pytest.mark.parametrize("country, city", [("JP", "Tokyo"), ("NG", "Lagos"), ("BR", "São Paulo"), ("AU", "Sydney")])
def test_other_countries_dial_their_own_code_and_plan(country, city):
    code = phones.calling_code(country)
    r = random.Random(1)
    mobiles = [phones.phone(r, country) for _ in range(20)]
    landlines = [phones.phone(r, country, "fixed", city) for _ in range(20)]
    assert len(set(mobiles)) == 20 and len(set(landlines)) == 20
    for number, kinds in [(m, (PhoneNumberType.MOBILE,)) for m in mobiles] + [
        (x, (PhoneNumberType.FIXED_LINE,)) for x in landlines
    ]:
        assert number.startswith(f"+{code} "), number
        parsed = phonenumbers.parse(number)
        assert phonenumbers.is_valid_number_for_region(parsed, country), number
        assert phonenumbers.number_type(parsed) in (*kinds, PhoneNumberType.FIXED_LINE_OR_MOBILE), number
    assert all(x.startswith("+81 3-") for x in landlines) if country == "JP" else True  # Tokyo's area code
    assert [phones.phone(random.Random(1), country) for _ in range(2)] == [mobiles[0]] * 2  # the stream decides


def test_osaka_dials_osaka():
    assert {phones.phone(random.Random(i), "JP", "fixed", "Osaka")[:6] for i in range(10)} == {"+81 6-"}


@pytest.mark.parametrize(
    "country, city, pattern",
    [
        ("US", "Portland", r"^1-800-555-01\d\d$"),
        ("GB", "Manchester", r"^\+44 808 157 0\d{3}$"),
        ("DE", "Hamburg", r"^\+49 40 "),
        ("JP", "Osaka", r"^\+81 6-"),
        ("BR", "São Paulo", r"^\+55 11 "),
    ],
)
def test_service_line_is_a_company_number_of_the_country(country, city, pattern):
    import re

    for seed in range(20):
        number = phones.service_line(random.Random(seed), country, city)
        assert re.match(pattern, number), number
        if country not in ("US", "GB"):
            parsed = phonenumbers.parse(number)
            assert phonenumbers.is_valid_number_for_region(parsed, country), number
            assert phonenumbers.number_type(parsed) in (
                PhoneNumberType.FIXED_LINE,
                PhoneNumberType.FIXED_LINE_OR_MOBILE,
            ), number
    assert phones.service_line(random.Random(1), "DE", "Hamburg") == phones.service_line(
        random.Random(1), "DE", "Hamburg"
    )
