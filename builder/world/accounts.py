"""Account and card numbers: what the bank shows and every shop keeps as the "card on file".

The bank (``apps/bank``) projects these numbers into its accounts; any other app that takes a
payment stores the card's brand and last four digits from :func:`payment_cards`, so a card
masked as "Visa •••• 4821" in a shop is the bank's card ending 4821, and the charge it makes
through the platform's card network lands on that bank account.
"""

from __future__ import annotations

from ..rng import rng
from .model import World


def _routing_number(r) -> str:
    """A 9-digit ABA routing number with a valid check digit (weights 3, 7, 1)."""
    digits = [r.randint(0, 9) for _ in range(8)]
    digits[0] = r.choice([1, 2, 3])
    total = sum(d * w for d, w in zip(digits, [3, 7, 1, 3, 7, 1, 3, 7]))
    return "".join(map(str, digits)) + str((10 - total % 10) % 10)


def iban(country: str, bban: str) -> str:
    """An IBAN with valid ISO 13616 check digits (mod 97-10, ISO 7064) for ``country`` and ``bban``."""
    digits = "".join(str(int(ch, 36)) for ch in bban + country + "00")
    return f"{country}{98 - int(digits) % 97:02d}{bban}"


def _digits(r, n: int) -> str:
    return "".join(str(r.randint(0, 9)) for _ in range(n))


def luhn_complete(prefix: str) -> str:
    """``prefix`` plus the Luhn (ISO/IEC 7812-1) check digit."""
    total = 0
    for i, ch in enumerate(reversed(prefix)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return prefix + str((10 - total % 10) % 10)


def account_numbers(world: World) -> dict[str, tuple[str, str | None, str | None]]:
    """Account kind -> (number, routing number / sort code / BLZ, IBAN), from the stream ``bank/accounts``.

    US: 10-digit account and ABA routing number, no IBAN. UK: 8-digit account, sort code
    ``NN-NN-NN``, IBAN ``GBkk LARK <sort code> <account>``. Germany: 10-digit Kontonummer,
    8-digit BLZ, IBAN ``DEkk <BLZ> <Konto>``. Cards: 16-digit Visa numbers.
    """
    r = rng(world.seed, "bank/accounts")
    country = world.persona.identity.address.country
    routing = {"GB": lambda: f"{_digits(r, 2)}-{_digits(r, 2)}-{_digits(r, 2)}", "DE": lambda: "7" + _digits(r, 7)}.get(
        country, lambda: _routing_number(r)
    )()
    out = {}
    for kind in world.account_kinds():
        if kind == "credit_card":
            out[kind] = ("4" + _digits(r, 15), None, None)
        elif country == "GB":
            number = _digits(r, 8)
            out[kind] = (number, routing, iban("GB", "LARK" + routing.replace("-", "") + number))
        elif country == "DE":
            number = _digits(r, 10)
            out[kind] = (number, routing, iban("DE", routing + number))
        else:
            out[kind] = (_digits(r, 10), routing, None)
    return out


def card_numbers(world: World) -> dict[str, str]:
    """Account kind -> the 16-digit number of the card that spends from it: the credit card's own
    number, and for checking the debit card (Visa Debit, Luhn-valid, stream ``bank/debit-card``).
    Savings accounts have no card."""
    numbers = account_numbers(world)
    out = {}
    if "credit_card" in numbers:
        out["credit_card"] = numbers["credit_card"][0]
    if "checking" in numbers:
        r = rng(world.seed, "bank/debit-card")
        out["checking"] = luhn_complete("4" + _digits(r, 14))
    return out


def payment_cards(world: World) -> list[dict[str, str]]:
    """The persona's cards as a shop keeps them on file, the card everyday spending goes to first.

    Each: ``{"account": kind ("credit_card" | "checking"), "brand": "Visa" | "Visa Debit",
    "last4": "4821", "holder": the persona's name, "expiry": "MM/YY", "label": "Visa •••• 4821"}``.
    The expiry is the month of the history's start, 4 years on.
    """
    numbers = card_numbers(world)
    order = sorted(numbers, key=lambda k: (k != "credit_card", k))
    month, year = world.start.month, (world.start.year + 4) % 100
    out = []
    for kind in order:
        brand = "Visa" if kind == "credit_card" else "Visa Debit"
        last4 = numbers[kind][-4:]
        out.append(
            {
                "account": kind,
                "brand": brand,
                "last4": last4,
                "holder": world.persona.identity.name,
                "expiry": f"{month:02d}/{year:02d}",
                "label": f"{brand} •••• {last4}",
            }
        )
    return out


def default_card(world: World) -> dict[str, str]:
    """The card the world's everyday charges go to (:meth:`Sim.card`): the first of :func:`payment_cards`."""
    return payment_cards(world)[0]
