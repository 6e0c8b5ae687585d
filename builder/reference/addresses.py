"""Postal addresses: one line in the order the address's country writes them (:func:`format_address`), and believable
street addresses for the places the world invents (:func:`street_address`, street names in ``addresses.yaml``).
Reference formatting, read by the world (ride pick-ups, bookings, restaurants and shops) and by the apps that show an
address (shop, grocery, delivery, rides)."""

from __future__ import annotations

from . import read_yaml


def region_postcode(region: str | None, postcode: str) -> str:
    """The last part of a North American address line: ``"OR 97214"``, or the postcode alone when there is no
    region (never ``"None 97214"``)."""
    return f"{region} {postcode}" if region else postcode


def format_address(a) -> str:
    """A one-line postal address (``street, city, region postal_code``; a missing region is left out)."""
    if a is None:
        return ""
    if a.country in ("US", "CA"):
        return f"{a.street}, {a.city}, {region_postcode(a.region, a.postal_code)}"
    if a.country == "GB":
        return f"{a.street}, {a.city} {a.postal_code}"
    return f"{a.street}, {a.postal_code} {a.city}"


def street_names(country: str) -> list[str]:
    """The street names of ``country`` (ISO code; US's for a country ``addresses.yaml`` lacks), read-only."""
    streets = read_yaml("addresses.yaml")["streets"]
    return streets.get(country, streets["US"])


def street_address(fake, home) -> str:
    """A believable street address in ``home``'s city (a persona address: ``country``, ``city``, ``region``; None:
    the street line alone, US style), numbered as the country writes it; the draws come from ``fake``'s seeded
    random (a street, then its number)."""
    country = home.country if home else "US"
    names = street_names(country)
    street = names[fake.random.randrange(len(names))]
    if country == "DE":
        line = f"{street} {fake.random.randint(1, 180)}"
    elif country == "GB":
        line = f"{fake.random.randint(1, 240)} {street}"
    else:
        line = f"{fake.random.randint(100, 3999)} {street}"
    if home is None:
        return line
    return f"{line}, {home.city}" + (f", {home.region}" if home.region and home.country == "US" else "")
