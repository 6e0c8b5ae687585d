"""Any airport with an IATA code is known: the hand table's entries as they were, every other one from the data."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from builder.reference import geo
from builder.reference.airports import (
    airport_country,
    airport_facts,
    airport_label,
    airport_tz,
    airport_zone,
    block_minutes,
    distance_km,
    known_airport,
)
from builder.reference.places import AIRPORTS


def test_the_hand_tables_airports_keep_their_names_points_and_zones():
    for code, facts in AIRPORTS.items():
        assert airport_facts(code) == facts
        assert airport_label(code) == f"{code} {facts[0]}"


def test_an_airport_outside_the_hand_table_comes_from_the_data():
    assert "KEF" not in AIRPORTS and "RDM" not in AIRPORTS
    name, lat, lon, zone = airport_facts("KEF")
    assert "Keflavik" in name and zone == "Atlantic/Reykjavik" and 63 < lat < 65 and -23 < lon < -22
    assert airport_label("KEF") == f"KEF {name}"
    assert airport_zone("KEF", "UTC") == "Atlantic/Reykjavik"
    assert airport_tz("KEF") == ZoneInfo("Atlantic/Reykjavik")
    assert airport_country("KEF") == "IS" and airport_country("RDM") == "US"
    assert 3_400 < distance_km("KEF", "JFK") < 4_300
    assert block_minutes("KEF", "JFK") > block_minutes("JFK", "KEF")  # westbound against the jet stream
    assert geo.point("KEF") == (lat, lon) and geo.point(f"KEF {name}") == (lat, lon)


def test_the_countries_the_zone_rule_got_wrong_are_the_datas():
    assert [airport_country(c) for c in ("CDG", "FRA", "YVR", "ZRH", "DUB")] == ["FR", "DE", "CA", "CH", "IE"]


def test_unknown_codes_stay_unknown():
    for code in ("ZZZ", "", "kef", "KEFL"):
        assert not known_airport(code) and airport_facts(code) is None
    assert airport_label("ZZZ") == "ZZZ Airport" and airport_zone("ZZZ", "UTC") == "UTC"
