"""Geography of the world's addresses (builder/reference/geo.py): the gazetteer's centres for any city, a clear error
for a city it does not know."""

from __future__ import annotations

import pytest

from builder.reference import gazetteer, geo


def test_a_city_is_centred_on_its_geonames_point_by_any_of_its_names():
    """A city's centre is GeoNames' point of the most populous city of that name (of the country, when given), by any
    name the gazetteer gives it (where the stays catalogue lists neighbourhoods, their middle); an address in the caller's city written with another of its names stays there."""
    lagos = gazetteer.find_city("Lagos", "NG")
    assert geo.centre("Lagos") == geo.centre("Lagos", "NG") == (lagos.latitude, lagos.longitude)
    assert geo.centre("Portland") == geo.centre("Portland", "US")  # the middle of the stays catalogue's neighbourhoods
    assert geo.centre("Munich") == geo.centre("München")
    assert geo.centre("Birmingham", "US") != geo.centre("Birmingham", "GB")
    pt = geo.point("2418 SE Alder Street, Portland, OR 97214", "Portland")
    assert geo.haversine_km(pt, geo.centre("Portland")) <= geo.RADIUS_KM
    assert geo.city_of("Rua Augusta 12, Lisboa", "Lisbon") == "Lisbon"
    assert geo.city_of("Rua Augusta 12, Lisbon, Portugal", "Portland") == "Lisbon"
    assert geo.city_of("12 Hamra Street, Beirut, Lebanon") == "Beirut"  # the country, not Lebanon, Pennsylvania


@pytest.mark.parametrize(
    "address, city, country",
    [
        ("14 Admiralty Way, Lekki Phase 1, Lagos", "Lagos", "NG"),
        ("Rua Augusta 1200, 01304-001 São Paulo", "São Paulo", "BR"),
        ("42 Bourke Street, Surry Hills, Sydney 2010", "Sydney", "AU"),
        ("Hotel Berlin Kyoto, City Centre Street 30, Kyoto, ", "Kyoto", "JP"),
        ("Cambridge Street 4, Cambridge", "Cambridge", "US"),
    ],
)
def test_a_city_only_the_gazetteer_knows_lands_in_its_radius(address, city, country):
    """An address in a city with no hand centre lies within geo's radius of the GeoNames point of that city (in the
    given country), even when an earlier part of the text names another city (``Hotel Berlin``)."""
    known = gazetteer.find_city(city, country)
    pt = geo.point(address, city, country=country)
    assert geo.haversine_km(pt, (known.latitude, known.longitude)) <= geo.RADIUS_KM + 0.01
    assert geo.city_of(address, city) == city
    # The same text gives the same point (it depends on the text alone), and a ride across town stays in town.
    assert geo.point(address, city, country=country) == pt
    ride = geo.estimate(address, f"1 Market Street, {city}", city, country)
    assert ride["distance_miles"] <= 2 * geo.RADIUS_KM * geo.CIRCUITY / geo.KM_PER_MILE + 0.1


def test_the_gazetteer_comes_before_an_airport_near_by():
    """``near`` (the airport at a ride's other end) is only the centre of a city neither knows: a home in Lagos is
    in Lagos on the ride to the airport too, the same point as on a ride across town."""
    home = "14 Admiralty Way, Lagos"
    to_airport = geo.estimate(home, "DEN", "Lagos", "NG")  # the airport a default en_US completion gives today
    across = geo.estimate(home, "1 Broad Street, Lagos", "Lagos", "NG")
    assert to_airport["pickup_point"] == across["pickup_point"] == geo.point(home, "Lagos", (0.0, 0.0), "NG")
    hnd = geo.point("HND")
    kyoto = geo.point("Lanternfield, City Centre Street 30, Kyoto, ", "Kyoto", hnd, "JP")
    assert geo.haversine_km(kyoto, hnd) > 300  # in Kyoto, not around Haneda
    assert geo.haversine_km(geo.point("1 Main St, Eldmoor", "Eldmoor", hnd), hnd) <= geo.RADIUS_KM + 0.01


def test_an_unknown_city_raises_with_its_name():
    with pytest.raises(ValueError, match="'Eldmoor'"):
        geo.point("1 Main St, Eldmoor", "Eldmoor")
    with pytest.raises(ValueError, match="Eldmoor"):
        geo.estimate("1 Main St, Eldmoor", "2 Main St, Eldmoor", "Eldmoor", "US")
