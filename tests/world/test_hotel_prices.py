"""One hotel price everywhere: the world's stays are Bramblestay listings priced with Bramblestay's own function.

For every shipped persona and every world hotel stay: the listing exists in the inventory with the same name,
address and point; the world's price (``data["price"]``, the hotel's currency) is ``builder.reference.lodging.rates.quote`` of
that listing, room and dates, and what the TypeScript ``web/lib/rates.ts`` computes; the folio's lines sum to
it; the Bramblestay booking holds it; the bank posting is it converted at the documented rate. Plus: listings
that carry a neighbourhood lie on its streets, near its centre; the world's stays are not all one chain.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import sqlite3
import subprocess
from decimal import Decimal

import pytest

from apps.stays import seed as stays_seed
from apps.stays.inventory import inventory
from builder.reference.lodging.inventory import catalog, city_info, city_properties
from builder.reference.lodging.rates import card_cents, quote
from builder.files import travel_docs
from builder.reference import fx, geo
from builder.reference.places import PER_USD
from builder.reference.places import reference_rate

from tests.conftest import PERSONAS, REPO, _world


def _stays(world):
    return [e for e in world.of_kind("hotel_checkout") if e.status == "done"]


def _listing(world, d):
    props = {p["slug"]: p for p in city_properties(world.seed, world.persona, d["city"])}
    return props[d["property"]]


@pytest.mark.parametrize("stem", PERSONAS)
def test_world_stay_is_the_bramblestay_price_and_the_bank_charge(stem):
    _, world = _world(stem)
    for e in _stays(world):
        d = e.data
        prop = _listing(world, d)
        info = city_info(d["city"])
        assert (prop["name"], prop["address"], prop["lat"], prop["lon"], prop["neighbourhood"]) == (
            d["hotel"],
            d["address"],
            d["lat"],
            d["lon"],
            d["neighbourhood"],
        )
        assert prop["chain"] == d["chain"] and prop["kind"] == d["kind"] and d["currency"] == info["currency"]
        room = next(r for r in prop["rooms"] if r["name"] == d["room"])
        assert room["sleeps"] >= d["guests"]
        price = quote(prop, room, info, dt.date.fromisoformat(d["check_in"]), d["nights"], "flexible")
        assert d["price"] == price, d["confirmation"]
        # The folio (hotel's currency) and the bank posting (card's currency, at the printed rate).
        assert sum(c for _, _, c in travel_docs.folio_lines(d)) == price["total_cents"]
        rate = Decimal(d["fx_rate"])
        if d["currency"] == world.currency:
            assert rate == 1 and d["total_cents"] == price["total_cents"]
        else:
            if d["currency"] in PER_USD and world.currency in PER_USD:
                ref, band = PER_USD[world.currency] / PER_USD[d["currency"]], Decimal("0.0151")
            else:  # the dated table's rate of the booking day; the card posts on a later day's, plus its fee
                ref, band = fx.rate(d["currency"], world.currency, e.at.date()), Decimal("0.05")
            assert abs(rate / ref - 1) <= band, (rate, ref)
            assert e.postings[0].memo.endswith(f"{d['currency']} @ {d['fx_rate']}")
        assert [(p.account, p.amount_cents) for p in e.postings] == [
            (d["account"], -card_cents(price["total_cents"], rate))
        ]
        assert (
            d["total_cents"] == card_cents(price["total_cents"], rate) == d["rate_cents"] * d["nights"] + d["tax_cents"]
        )


@pytest.mark.parametrize("stem", PERSONAS)
def test_bramblestay_bookings_hold_the_world_price(stem, tmp_path):
    _, world = _world(stem)
    path = stays_seed.seed(world, tmp_path / "stays.sqlite")
    db = sqlite3.connect(path)
    rows = {
        r[0]: r[1:]
        for r in db.execute(
            "SELECT b.confirmation, p.slug, p.name, p.address, r.name, b.nightly_cents, b.subtotal_cents, b.taxes_cents, "
            "b.fees_cents, b.total_cents FROM bookings b JOIN properties p ON p.id = b.property_id "
            "JOIN rooms r ON r.id = b.room_id"
        )
    }
    meta = dict(db.execute("SELECT key, value FROM meta"))
    currencies, rates = json.loads(meta["city_currencies"]), json.loads(meta["fx_rates"])
    for e in world.of_kind("hotel_booking"):
        d, p = e.data, e.data["price"]
        assert rows[d["confirmation"]] == (
            d["property"],
            d["hotel"],
            d["address"],
            d["room"],
            p["nightly_cents"],
            p["subtotal_cents"],
            p["taxes_cents"],
            p["fees_cents"],
            p["total_cents"],
        )
        assert currencies[city_info(d["city"])["name"]] == d["currency"]
        if d["currency"] in PER_USD and world.currency in PER_USD:  # the world's fixed table
            assert rates[d["currency"]] == str(reference_rate(d["currency"], world.currency))
        else:  # a currency only the dated table rates (a trip to Shanghai from Manchester)
            assert rates[d["currency"]] == str(fx.rate(d["currency"], world.currency, world.persona.as_of))
    db.close()


def test_listings_lie_in_their_neighbourhood():
    """A listing named after a neighbourhood is in it; every listing's street is one of its neighbourhood's, and its
    point (where geo puts the text a ride names) lies near the neighbourhood's centre: within 0.9 km, or for a
    district beyond geo's city disc, nearer to it than to any other district (Lisbon's "Alfama Lodge" is on an
    Alfama street, not on Rua Augusta in Baixa)."""
    _, world = _world(PERSONAS[0])
    cat = catalog()
    for c in inventory(world):
        if c["name"] not in cat["districts"]:
            continue
        hoods = c["districts"]
        for p in c["properties"]:
            named = [h for h in hoods if h.lower() in p["name"].lower()]
            if named:
                assert p["neighbourhood"] == max(named, key=len), (p["name"], p["neighbourhood"])
            d = hoods[p["neighbourhood"]]
            assert any(street in p["address"] for street in d["streets"]), (p["name"], p["address"])
            point = (p["lat"], p["lon"])
            assert point == geo.point(f"{p['name']}, {p['address']}", c["name"])
            km = geo.haversine_km(point, tuple(d["at"]))
            if geo.haversine_km(geo.centre(c["name"]), tuple(d["at"])) <= geo.RADIUS_KM - 0.9:
                assert km <= 0.9, (p["name"], km)
            else:
                assert km == min(geo.haversine_km(point, tuple(x["at"])) for x in hoods.values()), p["name"]
    lisbon = next(c for c in inventory(world) if c["name"] == "Lisbon")
    alfama = [p for p in lisbon["properties"] if p["neighbourhood"] == "Alfama"]
    assert alfama and all("Rua Augusta" not in p["address"] for p in alfama)


@pytest.mark.parametrize("stem", PERSONAS)
def test_rides_to_the_hotel_end_at_the_listing(stem):
    """The world's airport rides of a stay start or end at the listing's point (geo of the ride's text)."""
    _, world = _world(stem)
    stays = {e.data["trip"]: e.data for e in world.of_kind("hotel_booking")}
    for e in world.of_kind("ride"):
        d = stays.get(e.data.get("trip"))
        if not d:
            continue
        text = f"{d['hotel']}, {d['address']}"
        for end in ("pickup", "dropoff"):
            if e.data[end] == text:
                assert geo.point(text, d["city"]) == (d["lat"], d["lon"])


def test_stays_are_varied_and_local():
    """Across the shipped personas the world stays at several brands, independents and rentals; a city's
    currency is its country's."""
    seen = []
    for stem in PERSONAS:
        _, world = _world(stem)
        seen += [(e.data["kind"], e.data["chain"], e.data["hotel"]) for e in _stays(world)]
    assert len({h for _, _, h in seen}) >= 8
    assert any(k == "rental" for k, _, _ in seen) and any(k == "hotel" and c is None for k, c, _ in seen)
    assert sum(c is not None for _, c, _ in seen) < len(seen) / 2 + 1
    assert (
        city_info("Lisbon")["currency"],
        city_info("Lissabon")["currency"],
        city_info("London")["currency"],
        city_info("Tokyo")["currency"],
        city_info("Boston")["currency"],
    ) == ("EUR", "EUR", "GBP", "JPY", "USD")


def test_typescript_price_function_agrees(tmp_path):
    """``web/lib/rates.ts`` (transpiled with the workspace's tsc) prices every world stay of every persona as the
    world did."""
    tsc = REPO / "apps" / "node_modules" / ".bin" / "tsc"
    if not tsc.exists() or not shutil.which("node"):
        pytest.skip("tsc or node not installed")
    subprocess.run(
        [
            str(tsc),
            "--outDir",
            str(tmp_path),
            "--module",
            "es2022",
            "--target",
            "es2022",
            "--skipLibCheck",
            str(REPO / "apps" / "stays" / "web" / "lib" / "rates.ts"),
        ],
        check=True,
        capture_output=True,
    )
    (tmp_path / "package.json").write_text('{"type": "module"}')
    cases = []
    for stem in PERSONAS:
        _, world = _world(stem)
        for e in _stays(world):
            d = e.data
            prop = _listing(world, d)
            info = city_info(d["city"])
            room = next(r for r in prop["rooms"] if r["name"] == d["room"])
            cases.append(
                {
                    "id": d["confirmation"],
                    "currency": d["currency"],
                    "expect": d["price"],
                    "inputs": {
                        "base_rate_cents": prop["base_rate_cents"],
                        "factor_pct": room["factor_pct"],
                        "season": info["season"],
                        "tax_bp": info["tax_bp"],
                        "city_fee_cents": info["city_fee_cents"],
                        "kind": prop["kind"],
                        "cleaning_fee_cents": prop["cleaning_fee_cents"],
                        "currency": d["currency"],
                    },
                    "check_in": d["check_in"],
                    "check_out": d["check_out"],
                }
            )
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    script = tmp_path / "run.mjs"
    script.write_text(
        'import { quote } from "./rates.js";\nimport { readFileSync } from "node:fs";\n'
        'const cases = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url)));\n'
        "console.log(JSON.stringify(cases.map((c) => [c.id, c.currency, quote(c.inputs, c.check_in, c.check_out, "
        '"flexible")])));\n'
    )
    got = json.loads(subprocess.run(["node", str(script)], check=True, capture_output=True, text=True).stdout)
    assert len(got) == len(cases) > 10
    for case, (cid, cur, q) in zip(cases, got):
        exp = case["expect"]
        assert {k: q[k] for k in exp} == exp, (cid, cur, q, exp)


def test_a_hotel_and_a_flight_the_spec_names_are_listed_and_taken():
    """``Trip.hotel`` in the spec: Bramblestay lists that hotel in the trip's city and the world stays there;
    ``Trip.flight``: the outbound's first leg flies under that number, the return and other trips keep theirs."""
    from builder.world import simulate

    persona, world = _world("dana-whitfield")
    i = next(n for n, e in enumerate(persona.travel.trips) if e.destination == "Lisbon")
    trips = list(persona.travel.trips)
    trips[i] = trips[i].model_copy(update={"hotel": "Hotel Avenida Palace", "flight": "TP1357"})
    spec = persona.model_copy(update={"travel": persona.travel.model_copy(update={"trips": trips})})
    other = simulate(spec)
    legs = [
        (e.data["direction"], e.data["leg"], e.data["flight_number"])
        for e in other.of_kind("flight")
        if e.data["trip"] == i
    ]
    assert ("outbound", 1, "TP 1357") in legs and sum(n == "TP 1357" for *_, n in legs) == 1
    booking = next(e.data for e in other.of_kind("flight_booking") if e.data["trip"] == i)
    assert booking["flights"][0] == "TP 1357"
    assert [e.data["flight_number"] for e in other.of_kind("flight") if e.data["trip"] != i] == [
        e.data["flight_number"] for e in world.of_kind("flight") if e.data["trip"] != i
    ]
    stay = next(e.data for e in other.of_kind("hotel_booking") if e.data["trip"] == i)
    listing = _listing(other, stay)
    assert stay["hotel"] == listing["name"] == "Hotel Avenida Palace" and listing["kind"] == "hotel"
    assert stay["price"]["total_cents"] > 0 and stay["currency"] == "EUR"
    assert "Hotel Avenida Palace" not in {p["name"] for p in city_properties(world.seed, persona, "Lisbon")}


def _trip_to(destination: str, airport: str):
    """Dana's Lisbon trip sent to ``destination`` (via ``airport``): the world's stay there, its Bramblestay
    listing and the ride from the airport to it."""
    from builder.world import simulate

    persona, _ = _world("dana-whitfield")
    i = next(n for n, e in enumerate(persona.travel.trips) if e.destination == "Lisbon")
    trips = list(persona.travel.trips)
    trips[i] = trips[i].model_copy(update={"destination": destination, "airport": airport})
    spec = persona.model_copy(update={"travel": persona.travel.model_copy(update={"trips": trips})})
    other = simulate(spec)
    stay = next(e.data for e in other.of_kind("hotel_booking") if e.data["trip"] == i)
    ride = next(
        e.data
        for e in other.of_kind("ride")
        if e.data.get("trip") == i and e.data["dropoff"] == f"{stay['hotel']}, {stay['address']}"
    )
    return stay, _listing(other, stay), ride


def test_a_city_the_catalog_does_not_know():
    """A trip to a city outside the catalog that neither geo's centres nor the gazetteer know (Eldmoor, by Athens'
    airport) still stays at a Bramblestay listing, and the ride to it ends at the listing's point (geo centres such
    a city on its airport)."""
    stay, listing, ride = _trip_to("Eldmoor", "ATH")
    assert (listing["name"], listing["address"]) == (stay["hotel"], stay["address"])
    assert geo.estimate(ride["pickup"], ride["dropoff"], "Eldmoor")["dropoff_point"] == (stay["lat"], stay["lon"])
    assert geo.haversine_km((stay["lat"], stay["lon"]), (37.936, 23.947)) <= geo.RADIUS_KM + 0.01


def test_a_city_only_the_gazetteer_knows():
    """A trip to a city outside the catalog and geo's centres (Athens) stays at a Bramblestay listing in the city,
    within geo's radius of its GeoNames point (not around its airport, 20 km away), and the ride to it ends at the
    listing's point."""
    from builder.reference import gazetteer

    stay, listing, ride = _trip_to("Athens", "ATH")
    athens = gazetteer.find_city("Athens", "GR")
    assert (listing["name"], listing["address"]) == (stay["hotel"], stay["address"])
    assert geo.estimate(ride["pickup"], ride["dropoff"], "Athens")["dropoff_point"] == (stay["lat"], stay["lon"])
    assert geo.haversine_km((stay["lat"], stay["lon"]), (athens.latitude, athens.longitude)) <= geo.RADIUS_KM + 0.01
