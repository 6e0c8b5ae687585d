"""Phone numbers by country: a person's mobile, a business's landline, in the country's own format.

* The US, the UK and Germany keep the fictional ranges the persona banks always drew from (:func:`fictional`:
  ``+1 NXX-555-01XX``, Ofcom's drama range ``+44 7700 900XXX``, ``+49 176 ...``), for people and businesses alike.
* Every other country gets its calling code and a number its numbering plan accepts, written as the ITU's
  international format (``+81 90-4821-0937``, ``+234 803 118 2264``, ``+55 11 97012-3344``): the `phonenumbers`
  package's metadata (Google's libphonenumber, pinned): a mobile keeps the first two digits of the plan's example
  mobile number, a landline the area code of the business's city when the plan's geocoding data names it
  (``+81 6-...`` in Osaka), else the example's; the other digits are drawn until the plan calls the number valid
  and of that kind.

Every draw comes from the caller's ``random.Random`` (a named stream): the same stream gives the same number.
"""

from __future__ import annotations

import random
import unicodedata
from functools import cache

from .locale import territory


@cache
def fictional() -> dict[str, tuple[str, tuple[tuple[int, int], ...]]]:
    """The fictional formats the persona banks give (``phone``: a format and the ranges its fields draw from, in
    ``builder/world/templates/persona/<locale>.yaml``), by the country of the bank's locale: the US, the UK and
    Germany."""
    from ..persona.facts import TEMPLATES, bank

    out = {}
    for path in sorted(TEMPLATES.glob("*_*.yaml")):
        spec = bank(path.stem).get("phone")
        if spec:
            out[territory(path.stem)] = (spec["format"], tuple(tuple(x) for x in spec["ranges"]))
    return out


# Draws of a number before the plan's own example number is taken instead.
_TRIES = 200


def calling_code(country: str) -> int | None:
    """The country's international calling code (81 for ``JP``), None for a code the numbering plans lack."""
    import phonenumbers

    return phonenumbers.country_code_for_region(country.strip().upper()) or None


def _plain(text: str) -> str:
    """``text`` folded for comparison: lower case, no accents (``São Paulo`` -> ``sao paulo``)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


@cache
def _area_prefixes(country: str, city: str) -> tuple[str, ...]:
    """The national-number prefixes whose place the plan's geocoding data names ``city`` (its English description,
    up to a comma or a dash: ``Osaka, Osaka`` and ``São Paulo - SP`` name Osaka and São Paulo), the most specific
    ones, shortest first."""
    import phonenumbers
    from phonenumbers.geodata import GEOCODE_DATA

    code = str(phonenumbers.country_code_for_region(country))
    want = _plain(city)
    found = []
    for prefix, names in GEOCODE_DATA.items():
        if prefix.startswith(code) and len(prefix) > len(code):
            place = names.get("en", "").split(",")[0].split(" - ")[0]
            if _plain(place) == want:
                found.append(prefix[len(code) :])
    # A prefix that longer ones of the same place extend names the wider region (Brazil's 1: the state of São Paulo).
    narrow = [p for p in found if not any(q != p and q.startswith(p) for q in found)]
    return tuple(sorted(narrow, key=lambda p: (len(p), p)))


def _number(r: random.Random, country: str, kind: str, city: str | None) -> str | None:
    """A valid number of ``kind`` (``mobile``/``fixed``) in ``country``'s plan, internationally formatted; None for
    a country the plans lack."""
    import phonenumbers
    from phonenumbers import PhoneNumberFormat, PhoneNumberType

    wanted = PhoneNumberType.MOBILE if kind == "mobile" else PhoneNumberType.FIXED_LINE
    example = phonenumbers.example_number_for_type(country, wanted) or phonenumbers.example_number(country)
    if example is None:
        return None
    digits = str(example.national_number)
    areas = _area_prefixes(country, city) if city and kind != "mobile" else ()
    generic = digits[: max(0, min(2, len(digits) - 4))]
    kinds = (wanted, PhoneNumberType.FIXED_LINE_OR_MOBILE)
    for attempt in range(_TRIES):
        # The city's area codes first (half the draws), then the example's first digits.
        start = areas[attempt % len(areas)] if areas and attempt < _TRIES // 2 else generic
        rest = "".join(str(r.randrange(10)) for _ in range(max(1, len(digits) - len(start))))
        n = phonenumbers.PhoneNumber(country_code=example.country_code, national_number=int(start + rest))
        if example.italian_leading_zero:
            n.italian_leading_zero = True
        if phonenumbers.is_valid_number_for_region(n, country) and phonenumbers.number_type(n) in kinds:
            return phonenumbers.format_number(n, PhoneNumberFormat.INTERNATIONAL)
    return phonenumbers.format_number(example, PhoneNumberFormat.INTERNATIONAL)


def phone(r: random.Random, country: str, kind: str = "mobile", city: str | None = None) -> str:
    """A phone number in ``country``: a person's (``kind="mobile"``) or a business's (``"fixed"``, in ``city`` when
    the plan knows its area code), drawn from ``r``. The US, the UK and Germany: their :func:`fictional` format
    (either kind; exactly the draws the persona banks made); a country the numbering plans lack: the US format."""
    code = country.strip().upper()
    if code not in fictional():
        drawn = _number(r, code, kind, city)
        if drawn is not None:
            return drawn
        code = "US"
    fmt, ranges = fictional()[code]
    return fmt.format(*(r.randint(lo, hi) for lo, hi in ranges))


def service_line(r: random.Random, country: str, city: str | None = None) -> str:
    """A company's customer-service number in ``country`` (a bank's, an airline's), drawn from ``r``: in the US a
    toll-free ``1-800-555-01XX`` (the 555-01XX numbers are fictional), in the UK Ofcom's drama range of freephone
    numbers (``+44 808 157 0XXX``, Ofcom's "numbers for TV and radio drama"), elsewhere a landline the country's
    numbering plan accepts, in ``city``'s area when the plan names it (Germany included, whose fictional format
    is a mobile's)."""
    code = country.strip().upper()
    if code == "US":
        return f"1-800-555-01{r.randint(0, 99):02d}"
    if code == "GB":
        return f"+44 808 157 0{r.randint(0, 999):03d}"
    drawn = _number(r, code, "fixed", city)
    return drawn if drawn is not None else f"1-800-555-01{r.randint(0, 99):02d}"
