"""Places and money every layer reads: airports, the trip destinations' cities, currencies and reference rates.

Public reference data (rounded coordinates, IANA zones, ISO 4217 codes); the world draws trips, stays and card
charges abroad from it and the apps (the airline's network, the stays inventory, the rides' airports) show the
same places. Plain dicts, read-only by convention.
"""

from __future__ import annotations

from decimal import Decimal

# code: (name, latitude, longitude, IANA zone). Public reference data (rounded coordinates).
AIRPORTS: dict[str, tuple[str, float, float, str]] = {
    "PDX": ("Portland International Airport", 45.589, -122.597, "America/Los_Angeles"),
    "SEA": ("Seattle-Tacoma International Airport", 47.450, -122.309, "America/Los_Angeles"),
    "SFO": ("San Francisco International Airport", 37.619, -122.375, "America/Los_Angeles"),
    "LAX": ("Los Angeles International Airport", 33.942, -118.408, "America/Los_Angeles"),
    "SAN": ("San Diego International Airport", 32.734, -117.190, "America/Los_Angeles"),
    "LAS": ("Harry Reid International Airport", 36.084, -115.154, "America/Los_Angeles"),
    "PHX": ("Phoenix Sky Harbor International Airport", 33.435, -112.008, "America/Phoenix"),
    "DEN": ("Denver International Airport", 39.856, -104.674, "America/Denver"),
    "SLC": ("Salt Lake City International Airport", 40.790, -111.979, "America/Denver"),
    "ORD": ("O'Hare International Airport", 41.978, -87.905, "America/Chicago"),
    "AUS": ("Austin-Bergstrom International Airport", 30.197, -97.666, "America/Chicago"),
    "DFW": ("Dallas/Fort Worth International Airport", 32.897, -97.038, "America/Chicago"),
    "MSP": ("Minneapolis-Saint Paul International Airport", 44.885, -93.222, "America/Chicago"),
    "MSY": ("Louis Armstrong New Orleans International Airport", 29.993, -90.258, "America/Chicago"),
    "BOS": ("Boston Logan International Airport", 42.366, -71.010, "America/New_York"),
    "JFK": ("John F. Kennedy International Airport", 40.641, -73.778, "America/New_York"),
    "PHL": ("Philadelphia International Airport", 39.874, -75.243, "America/New_York"),
    "IAD": ("Washington Dulles International Airport", 38.953, -77.456, "America/New_York"),
    "ATL": ("Hartsfield-Jackson Atlanta International Airport", 33.640, -84.427, "America/New_York"),
    "MIA": ("Miami International Airport", 25.796, -80.287, "America/New_York"),
    "DTW": ("Detroit Metropolitan Airport", 42.216, -83.355, "America/Detroit"),
    "HNL": ("Daniel K. Inouye International Airport", 21.319, -157.922, "Pacific/Honolulu"),
    "ANC": ("Ted Stevens Anchorage International Airport", 61.174, -149.996, "America/Anchorage"),
    "YYZ": ("Toronto Pearson International Airport", 43.677, -79.625, "America/Toronto"),
    "YVR": ("Vancouver International Airport", 49.195, -123.184, "America/Vancouver"),
    "MEX": ("Mexico City International Airport", 19.436, -99.072, "America/Mexico_City"),
    "LHR": ("London Heathrow Airport", 51.470, -0.454, "Europe/London"),
    "MAN": ("Manchester Airport", 53.354, -2.275, "Europe/London"),
    "BRS": ("Bristol Airport", 51.383, -2.719, "Europe/London"),
    "EDI": ("Edinburgh Airport", 55.950, -3.372, "Europe/London"),
    "LBA": ("Leeds Bradford Airport", 53.866, -1.661, "Europe/London"),
    "DUB": ("Dublin Airport", 53.421, -6.270, "Europe/Dublin"),
    "CDG": ("Paris Charles de Gaulle Airport", 49.010, 2.548, "Europe/Paris"),
    "AMS": ("Amsterdam Airport Schiphol", 52.310, 4.768, "Europe/Amsterdam"),
    "FRA": ("Frankfurt Airport", 50.038, 8.562, "Europe/Berlin"),
    "HAM": ("Hamburg Airport", 53.630, 9.988, "Europe/Berlin"),
    "CGN": ("Cologne Bonn Airport", 50.866, 7.143, "Europe/Berlin"),
    "LEJ": ("Leipzig/Halle Airport", 51.424, 12.236, "Europe/Berlin"),
    "MUC": ("Munich Airport", 48.354, 11.786, "Europe/Berlin"),
    "BER": ("Berlin Brandenburg Airport", 52.366, 13.503, "Europe/Berlin"),
    "ZRH": ("Zurich Airport", 47.458, 8.555, "Europe/Zurich"),
    "VIE": ("Vienna International Airport", 48.110, 16.570, "Europe/Vienna"),
    "CPH": ("Copenhagen Airport", 55.618, 12.656, "Europe/Copenhagen"),
    "LIS": ("Lisbon Humberto Delgado Airport", 38.774, -9.134, "Europe/Lisbon"),
    "MAD": ("Adolfo Suarez Madrid-Barajas Airport", 40.494, -3.567, "Europe/Madrid"),
    "BCN": ("Barcelona-El Prat Airport", 41.297, 2.083, "Europe/Madrid"),
    "FCO": ("Rome Fiumicino Airport", 41.800, 12.239, "Europe/Rome"),
    "ATH": ("Athens International Airport", 37.936, 23.947, "Europe/Athens"),
    "HND": ("Tokyo Haneda Airport", 35.549, 139.780, "Asia/Tokyo"),
}

# city: (region or None, country name, nightly base rate in US cents (the stays inventory converts it to the
# city's currency at PER_USD), streets near the centre (the inventory's fallback where its catalog has no districts))
CITIES: dict[str, tuple[str | None, str, int, tuple[str, ...]]] = {
    "New York": ("NY", "United States", 32900, ("W 44th St", "Lexington Ave", "Broadway")),
    "San Francisco": ("CA", "United States", 27900, ("Market St", "Sutter St", "Mission St")),
    "Chicago": ("IL", "United States", 22900, ("N Michigan Ave", "W Wacker Dr", "S Wabash Ave")),
    "Austin": ("TX", "United States", 21900, ("Congress Ave", "E 6th St", "Red River St")),
    "Denver": ("CO", "United States", 19900, ("17th St", "Larimer St", "Wynkoop St")),
    "Honolulu": ("HI", "United States", 30900, ("Kalakaua Ave", "Kuhio Ave", "Ala Moana Blvd")),
    "Boston": ("MA", "United States", 26900, ("Boylston St", "Tremont St", "Atlantic Ave")),
    "Seattle": ("WA", "United States", 23900, ("Pike St", "4th Ave", "Western Ave")),
    "Portland": ("OR", "United States", 18900, ("SW Broadway", "NW Couch St", "SW Morrison St")),
    "Philadelphia": ("PA", "United States", 19900, ("Chestnut St", "Walnut St", "Market St")),
    "Mexico City": (None, "Mexico", 14900, ("Paseo de la Reforma", "Calle de Madero", "Avenida Alvaro Obregon")),
    "Toronto": ("ON", "Canada", 20900, ("King St W", "Queen St W", "Front St W")),
    "London": (None, "United Kingdom", 25900, ("Southampton Row", "Strand", "Great Portland Street")),
    "Edinburgh": (None, "United Kingdom", 18900, ("Princes Street", "George Street", "Leith Walk")),
    "Manchester": (None, "United Kingdom", 15900, ("Deansgate", "Portland Street", "Oxford Road")),
    "Bristol": (None, "United Kingdom", 14900, ("Queen Square", "Victoria Street", "Park Street")),
    "Leeds": (None, "United Kingdom", 13900, ("Wellington Street", "Briggate", "The Headrow")),
    "Lisbon": (None, "Portugal", 16900, ("Rua Augusta", "Avenida da Liberdade", "Rua do Alecrim")),
    "Barcelona": (None, "Spain", 19900, ("Carrer de Pau Claris", "Passeig de Gracia", "Carrer de Balmes")),
    "Rome": (None, "Italy", 20900, ("Via del Corso", "Via Nazionale", "Via Vittorio Veneto")),
    "Amsterdam": (None, "Netherlands", 23900, ("Damrak", "Prinsengracht", "Rokin")),
    "Vienna": (None, "Austria", 17900, ("Kärntner Straße", "Mariahilfer Straße", "Operngasse")),
    "Copenhagen": (None, "Denmark", 22900, ("Vesterbrogade", "Bredgade", "Store Kongensgade")),
    "Berlin": (None, "Germany", 16900, ("Friedrichstraße", "Invalidenstraße", "Kurfürstendamm")),
    "Hamburg": (None, "Germany", 15900, ("Jungfernstieg", "Steindamm", "Große Elbstraße")),
    "München": (None, "Germany", 18900, ("Sonnenstraße", "Maximilianstraße", "Bayerstraße")),
    "Köln": (None, "Germany", 14900, ("Hohe Straße", "Domkloster", "Komödienstraße")),
    "Leipzig": (None, "Germany", 12900, ("Grimmaische Straße", "Petersstraße", "Brühl")),
    "Tokyo": (None, "Japan", 21900, ("Nihonbashi, Chuo City", "Ginza, Chuo City", "Shibuya, Shibuya City")),
}

# Units per US dollar of 8 currencies: the fixed reference table the shipped worlds were made with (a trip's days
# jitter it; builder.reference.fx reads it first).
PER_USD = {
    "USD": Decimal(1),
    "EUR": Decimal("0.92"),
    "GBP": Decimal("0.79"),
    "CAD": Decimal("1.37"),
    "MXN": Decimal("18.2"),
    "DKK": Decimal("6.87"),
    "JPY": Decimal(151),
    "CHF": Decimal("0.88"),
}


def reference_rate(currency: str, home_currency: str) -> Decimal:
    """Units of ``home_currency`` per unit of ``currency`` at the fixed reference table :data:`PER_USD`, six
    decimals (1 for the same currency or one the table lacks): ``reference_rate("EUR", "USD") == Decimal("1.086957")``."""
    if currency == home_currency or currency not in PER_USD or home_currency not in PER_USD:
        return Decimal(1)
    return (PER_USD[home_currency] / PER_USD[currency]).quantize(Decimal("0.000001"))
