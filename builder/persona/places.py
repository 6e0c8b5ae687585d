"""Real cities with their airports and time zones, used to complete and ground personas.

Facts (IATA airport codes, IANA zones) are public reference data.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..reference import gazetteer


@dataclass(frozen=True)
class City:
    """A city with its main airport (IATA code) and IANA time zone; ``region`` is a state/county/Land."""

    name: str
    region: str | None
    country: str
    airport: str
    timezone: str
    postcode_prefix: str
    postcode: str | None = None  # a postcode of the city (a spec's address): others are drawn near it


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


@dataclass(frozen=True)
class Town:
    """A place a contact may live, with the postcodes it really has.

    ``postcodes``: US and DE, a ``(low, high)`` range of five-digit codes, or a tuple of such ranges; GB,
    ``(area, low, high)``: the outward code's letters and its district numbers (the inward part is drawn); a string,
    a postcode of the place, near which others are drawn (its last two digits); None, a postcode Faker writes for
    the country (:func:`builder.persona.facts.postcode`).
    """

    name: str
    region: str | None
    country: str
    postcodes: tuple | str | None


# Home cities first (same names as HOME_CITIES), then towns where parents, siblings and old friends live.
TOWNS: dict[str, list[Town]] = {
    "en_US": [
        Town("Portland", "OR", "US", (97201, 97239)),
        Town("Seattle", "WA", "US", (98101, 98199)),
        Town("Denver", "CO", "US", (80202, 80249)),
        Town("Chicago", "IL", "US", (60601, 60661)),
        Town("Austin", "TX", "US", (78701, 78759)),
        Town("Boston", "MA", "US", (2108, 2137)),
        Town("Philadelphia", "PA", "US", (19102, 19154)),
        Town("Eugene", "OR", "US", (97401, 97405)),
        Town("Spokane", "WA", "US", (99201, 99224)),
        Town("Sacramento", "CA", "US", (95811, 95838)),
        Town("Boise", "ID", "US", (83702, 83716)),
        Town("Columbus", "OH", "US", (43201, 43235)),
        Town("Madison", "WI", "US", (53703, 53726)),
        Town("Tucson", "AZ", "US", (85701, 85750)),
        Town("Albany", "NY", "US", (12203, 12210)),
        Town("Richmond", "VA", "US", (23219, 23236)),
        Town("Ann Arbor", "MI", "US", (48103, 48109)),
    ],
    "en_GB": [
        Town("Manchester", "Greater Manchester", "GB", ("M", 1, 40)),
        Town("Bristol", "Bristol", "GB", ("BS", 1, 16)),
        Town("Edinburgh", "City of Edinburgh", "GB", ("EH", 1, 17)),
        Town("Leeds", "West Yorkshire", "GB", ("LS", 1, 29)),
        Town("York", "North Yorkshire", "GB", ("YO", 10, 32)),
        Town("Sheffield", "South Yorkshire", "GB", ("S", 1, 36)),
        Town("Norwich", "Norfolk", "GB", ("NR", 1, 14)),
        Town("Cardiff", "Cardiff", "GB", ("CF", 10, 24)),
        Town("Nottingham", "Nottinghamshire", "GB", ("NG", 1, 11)),
        Town("Brighton", "East Sussex", "GB", ("BN", 1, 3)),
        Town("Newcastle upon Tyne", "Tyne and Wear", "GB", ("NE", 1, 15)),
        Town("Exeter", "Devon", "GB", ("EX", 1, 4)),
        Town("Glasgow", "Glasgow City", "GB", ("G", 1, 34)),
        Town("Chester", "Cheshire", "GB", ("CH", 1, 4)),
    ],
    "de_DE": [
        Town("Hamburg", "Hamburg", "DE", ((20095, 21149), (22041, 22769))),
        Town("Köln", "Nordrhein-Westfalen", "DE", (50667, 51149)),
        Town("Leipzig", "Sachsen", "DE", (4103, 4357)),
        Town("München", "Bayern", "DE", (80331, 81929)),
        Town("Lüneburg", "Niedersachsen", "DE", (21335, 21339)),
        Town("Kiel", "Schleswig-Holstein", "DE", (24103, 24159)),
        Town("Bremen", "Bremen", "DE", (28195, 28779)),
        Town("Hannover", "Niedersachsen", "DE", (30159, 30669)),
        Town("Münster", "Nordrhein-Westfalen", "DE", (48143, 48167)),
        Town("Freiburg im Breisgau", "Baden-Württemberg", "DE", (79098, 79117)),
        Town("Dresden", "Sachsen", "DE", (1067, 1328)),
        Town("Nürnberg", "Bayern", "DE", (90402, 90491)),
        Town("Rostock", "Mecklenburg-Vorpommern", "DE", (18055, 18147)),
        Town("Kassel", "Hessen", "DE", (34117, 34134)),
        Town("Osnabrück", "Niedersachsen", "DE", (49074, 49090)),
    ],
}

# The letters a UK inward code's last two characters may use (never C I K M O V).
GB_INWARD_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"


def town(locale: str, name: str) -> Town | None:
    """The town of ``locale`` called ``name`` (home cities included), or None if the tables do not have it."""
    return next((t for t in TOWNS.get(locale, []) if t.name == name), None)


#: Trips are flights: a place nearer than this (km, great circle) is one people reach by train or car (Tokyo to
#: Nagoya, 260 km; London to Paris, 344 km), so it is no trip destination for a home the tables do not cover.
MIN_FLIGHT_KM = 350.0


def flown(home: gazetteer.City, there: gazetteer.City) -> bool:
    """Whether a trip from ``home`` to ``there`` is one people fly: at least :data:`MIN_FLIGHT_KM` apart."""
    return gazetteer.distance_km(home.latitude, home.longitude, there.latitude, there.longitude) >= MIN_FLIGHT_KM


def destinations(home: gazetteer.City, home_airport: str) -> list[tuple[str, str, str, str]]:
    """Trip destinations for a home the locale's tables do not cover, as :data:`DESTINATIONS` writes them (city,
    IATA, IANA zone, country): the country's six most populous big cities, the eight big cities abroad that draw
    most (population over distance: Shanghai and Seoul from Tokyo before nearer Harbin), two a country at most, then up to four of :data:`DESTINATIONS` in countries not yet named, in that order. Big cities are
    :func:`~builder.reference.gazetteer.big_cities` (a large airport near them) that are :func:`flown` to; never one
    flown from ``home_airport``."""
    big = [(c, a) for c, a in gazetteer.big_cities() if a.iata != home_airport and c != home and flown(home, c)]
    domestic = [x for x in big if x[0].country == home.country][:6]
    drawn = sorted(
        (x for x in big if x[0].country != home.country),
        key=lambda x: (
            -x[0].population / gazetteer.distance_km(home.latitude, home.longitude, x[0].latitude, x[0].longitude),
            x[1].iata,
        ),
    )
    abroad = [x for i, x in enumerate(drawn) if sum(y[0].country == x[0].country for y in drawn[:i]) < 2][:8]
    out = [(c.name, a.iata, c.timezone, c.country) for c, a in domestic + abroad]
    taken, countries = {home_airport} | {d[1] for d in out}, {home.country} | {d[3] for d in out}
    for d in DESTINATIONS:
        if len(out) == len(domestic) + len(abroad) + 4:
            break
        if d[1] not in taken and d[3] not in countries:
            out.append(d)
            countries.add(d[3])
    return out
