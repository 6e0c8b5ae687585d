"""Completion: fill every field a spec leaves out, deterministically.

Each filled value comes from its own named stream (``complete/identity/phone``,
``complete/contact/2/email``...), so editing one field of the spec never changes
another filled value.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from decimal import Decimal

from ..rng import faker, rng
from .model import Account, Address, Contact, Employer, Identity, Persona

_COUNTRY = {"en_US": "US", "en_GB": "GB", "de_DE": "DE"}
_EMAIL_DOMAIN = {"en_US": "mailbox.test", "en_GB": "post.test", "de_DE": "postfach.test"}


def _ascii_slug(text: str, sep: str = ".") -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", sep, plain).strip(sep)


def _phone(seed: int, stream: str, locale: str) -> str:
    r = rng(seed, stream)
    if locale == "en_US":
        return f"+1 {r.randint(201, 989)}-555-{r.randint(100, 199):04d}"  # 555-01xx: fictional numbers
    if locale == "en_GB":
        return f"+44 7700 900{r.randint(0, 999):03d}"  # Ofcom drama range
    return f"+49 176 {r.randint(1000000, 9999999)}"


def complete(p: Persona) -> Persona:
    """Return ``p`` with identity, employer, contacts and accounts filled in.

    The result validates against the same schema; values the spec gives are kept as they are.
    """
    seed, loc = p.seed, p.locale
    ident = p.identity
    first = ident.name.split()[0]
    last = ident.name.split()[-1]

    fake = faker(seed, "complete/identity/address", loc)
    address = ident.address or Address(
        street=fake.street_address(),
        city=fake.city(),
        region=(fake.state_abbr() if loc == "en_US" else None),
        postal_code=fake.postcode(),
        country=_COUNTRY[loc],
    )
    r = rng(seed, "complete/identity/birth_date")
    birth = ident.birth_date or (p.as_of - dt.timedelta(days=r.randint(25 * 365, 45 * 365)))
    identity = Identity(
        name=ident.name,
        birth_date=birth,
        email=ident.email or f"{_ascii_slug(first)}.{_ascii_slug(last)}@{_EMAIL_DOMAIN[loc]}",
        phone=ident.phone or _phone(seed, "complete/identity/phone", loc),
        address=address,
        username=ident.username or _ascii_slug(first, "_")[:30] or "user",
    )

    employer = p.employer
    if employer is None:
        fake = faker(seed, "complete/employer", loc)
        r = rng(seed, "complete/employer/salary")
        employer = Employer(name=fake.company(), role=fake.job()[:60],
                            salary=Decimal(r.randrange(52_000, 140_000, 500)), pay_schedule="biweekly")

    contacts = []
    for i, c in enumerate(p.contacts):
        contacts.append(Contact(
            name=c.name, relationship=c.relationship,
            email=c.email or f"{_ascii_slug(c.name)}@{_EMAIL_DOMAIN[loc]}",
            phone=c.phone or _phone(seed, f"complete/contact/{i}/phone", loc),
        ))
    if not contacts:
        for i, rel in enumerate(["friend", "sibling", "colleague", "friend"]):
            fake = faker(seed, f"complete/contact/{i}", loc)
            name = f"{fake.first_name()} {fake.last_name()}"
            contacts.append(Contact(name=name, relationship=rel, email=f"{_ascii_slug(name)}@{_EMAIL_DOMAIN[loc]}",
                                    phone=_phone(seed, f"complete/contact/{i}/phone", loc)))

    accounts = list(p.accounts) or [
        Account(kind="checking", opening_balance=Decimal("2400.00")),
        Account(kind="savings", opening_balance=Decimal("8000.00"), apr=Decimal("3.50")),
        Account(kind="credit_card", opening_balance=Decimal("350.00"), credit_limit=Decimal("6000.00"),
                apr=Decimal("24.99")),
    ]
    names = {"checking": "Everyday Checking", "savings": "High-Yield Savings", "credit_card": "Rewards Visa"}
    accounts = [a if a.name else a.model_copy(update={"name": names[a.kind]}) for a in accounts]

    return p.model_copy(update={"identity": identity, "employer": employer, "contacts": contacts,
                                "accounts": accounts})
