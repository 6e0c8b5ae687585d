"""Car registration plates in the form of the country they are registered in: US state styles, UK ``AB12 CDE``,
German ``HH-AB 1234`` and the usual formats of a few other countries. The world's rides and the rides app's fleet
draw plates with :func:`plate` from their own random streams."""

from __future__ import annotations


_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"
# German district codes (Unterscheidungszeichen) of the cities the world knows.
DE_CODES = {"Hamburg": "HH", "München": "M", "Köln": "K", "Leipzig": "L", "Berlin": "B", "Frankfurt": "F"}
_US_PLATES = {
    "OR": "{L3}{D3}",
    "WA": "{L3}{D4}",
    "CO": "{L3}-{D3}",
    "IL": "{L2} {D5}",
    "TX": "{L3}-{D4}",
    "MA": "{D1}{L3}{D2}",
    "PA": "{L3}-{D4}",
    "CA": "{D1}{L3}{D3}",
    "NY": "{L3}-{D4}",
    "HI": "{L3} {D3}",
}
_CITY_STATES = {
    "Portland": "OR",
    "Seattle": "WA",
    "Denver": "CO",
    "Chicago": "IL",
    "Austin": "TX",
    "Boston": "MA",
    "Philadelphia": "PA",
    "San Francisco": "CA",
    "New York": "NY",
    "Honolulu": "HI",
}


def plate(r, country: str, city: str = "") -> str:
    """A registration plate valid in form for ``country`` (ISO code): US state style, UK ``AB12 CDE``,
    German ``HH-AB 1234`` (district code of ``city``), and the usual formats of a few European countries."""

    def letters(n: int) -> str:
        return "".join(r.choice(_LETTERS) for _ in range(n))

    def digits(n: int) -> str:
        return str(r.randint(1, 9)) + "".join(str(r.randrange(10)) for _ in range(n - 1))

    if country == "GB":
        return f"{letters(2)}{r.choice(['21', '71', '22', '72', '23', '73', '24', '74', '25', '75'])} {letters(3)}"
    if country == "DE":
        return f"{DE_CODES.get(city, 'HH')}-{letters(r.randint(1, 2))} {digits(r.randint(2, 4))}"
    if country == "AT":
        return f"W-{digits(r.randint(3, 5))}{letters(1)}"
    if country == "ES":
        return f"{digits(4)} {''.join(r.choice('BCDFGHJKLMNPRSTVWXYZ') for _ in range(3))}"
    if country == "IT":
        return f"{letters(2)} {digits(3)}{letters(2)}"
    if country == "PT":
        return f"{letters(2)}-{digits(2)}-{letters(2)}"
    if country == "NL":
        return f"{letters(2)}-{digits(3)}-{letters(1)}"
    if country == "DK":
        return f"{letters(2)} {digits(2)} {digits(3)}"
    if country == "JP":
        return f"{r.choice(['品川', '練馬', '足立', '世田谷'])} {digits(3)} {r.choice('あいうえかきくけこさすせそたちつてとなにぬねのはひふほまみむめもやゆよらりるれろわ')} {digits(2)}-{digits(2)}"
    pattern = _US_PLATES.get(_CITY_STATES.get(city, ""), "{L3}{D3}") if country == "US" else "{L3}{D3}"
    out = pattern
    for token, fn in (
        ("{L3}", lambda: letters(3)),
        ("{L2}", lambda: letters(2)),
        ("{D5}", lambda: digits(5)),
        ("{D4}", lambda: digits(4)),
        ("{D3}", lambda: digits(3)),
        ("{D2}", lambda: digits(2)),
        ("{D1}", lambda: digits(1)),
    ):
        while token in out:
            out = out.replace(token, fn(), 1)
    return out
