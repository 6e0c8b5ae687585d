"""Real cities with their airports and time zones, used to complete and ground personas.

Facts (IATA airport codes, IANA zones) are public reference data.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class City:
    """A city with its main airport (IATA code) and IANA time zone; ``region`` is a state/county/Land."""

    name: str
    region: str | None
    country: str
    airport: str
    timezone: str
    postcode_prefix: str


HOME_CITIES: dict[str, list[City]] = {
    "en_US": [
        City("Portland", "OR", "US", "PDX", "America/Los_Angeles", "972"),
        City("Seattle", "WA", "US", "SEA", "America/Los_Angeles", "981"),
        City("Denver", "CO", "US", "DEN", "America/Denver", "802"),
        City("Chicago", "IL", "US", "ORD", "America/Chicago", "606"),
        City("Austin", "TX", "US", "AUS", "America/Chicago", "787"),
        City("Boston", "MA", "US", "BOS", "America/New_York", "021"),
        City("Philadelphia", "PA", "US", "PHL", "America/New_York", "191"),
    ],
    "en_GB": [
        City("Manchester", "Greater Manchester", "GB", "MAN", "Europe/London", "M"),
        City("Bristol", "Bristol", "GB", "BRS", "Europe/London", "BS"),
        City("Edinburgh", "City of Edinburgh", "GB", "EDI", "Europe/London", "EH"),
        City("Leeds", "West Yorkshire", "GB", "LBA", "Europe/London", "LS"),
    ],
    "de_DE": [
        City("Hamburg", "Hamburg", "DE", "HAM", "Europe/Berlin", "2"),
        City("Köln", "Nordrhein-Westfalen", "DE", "CGN", "Europe/Berlin", "5"),
        City("Leipzig", "Sachsen", "DE", "LEJ", "Europe/Berlin", "04"),
        City("München", "Bayern", "DE", "MUC", "Europe/Berlin", "8"),
    ],
}

# Trip destinations: (city, airport, IANA zone, country code).
DESTINATIONS: list[tuple[str, str, str, str]] = [
    ("New York", "JFK", "America/New_York", "US"),
    ("San Francisco", "SFO", "America/Los_Angeles", "US"),
    ("Chicago", "ORD", "America/Chicago", "US"),
    ("Austin", "AUS", "America/Chicago", "US"),
    ("Denver", "DEN", "America/Denver", "US"),
    ("Honolulu", "HNL", "Pacific/Honolulu", "US"),
    ("Mexico City", "MEX", "America/Mexico_City", "MX"),
    ("Toronto", "YYZ", "America/Toronto", "CA"),
    ("London", "LHR", "Europe/London", "GB"),
    ("Edinburgh", "EDI", "Europe/London", "GB"),
    ("Lisbon", "LIS", "Europe/Lisbon", "PT"),
    ("Barcelona", "BCN", "Europe/Madrid", "ES"),
    ("Rome", "FCO", "Europe/Rome", "IT"),
    ("Amsterdam", "AMS", "Europe/Amsterdam", "NL"),
    ("Vienna", "VIE", "Europe/Vienna", "AT"),
    ("Copenhagen", "CPH", "Europe/Copenhagen", "DK"),
    ("Berlin", "BER", "Europe/Berlin", "DE"),
    ("Tokyo", "HND", "Asia/Tokyo", "JP"),
]

AIRPORT_ZONES: dict[str, str] = {
    **{c.airport: c.timezone for cities in HOME_CITIES.values() for c in cities},
    **{code: zone for _, code, zone, _ in DESTINATIONS},
}

DEFAULT_ZONE = {"en_US": "America/New_York", "en_GB": "Europe/London", "de_DE": "Europe/Berlin"}
CURRENCY = {"en_US": "USD", "en_GB": "GBP", "de_DE": "EUR"}
