"""Completion that fits the person (issue 8, items 3, 7, 8) and the German persona.

Bounds hold on every shipped persona; the German one is checked by name as well.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest

from builder.persona import SpecError, complete, load
from builder.persona.facts import bank as facts_bank, orders
from builder.persona.model import Contact, Persona
from builder.persona.places import destinations
from builder.reference.addresses import GB_INWARD_LETTERS
from builder.reference import gazetteer
from builder.world import simulate
from builder.world.report import is_faker_title

from tests.conftest import PERSONAS, REPO

GERMAN = REPO / "personas" / "jana-petersen.json"
# Words of the English bio templates that a German bio never has.
_ENGLISH = re.compile(r"\b(at|Into|Based|based|Living|Weekends|Working|food|Always)\b")
FACTS = ("partner", "children", "pets", "job", "city")
POSTCODE = {
    "US": re.compile(r"^[0-9]{5}$"),
    "DE": re.compile(r"^[0-9]{5}$"),
    "GB": re.compile(r"^[A-Z]{1,2}[0-9]{1,2} [0-9][A-Z]{2}$"),
}


@pytest.fixture(scope="module", params=PERSONAS)
def completed(request) -> Persona:
    return complete(load(REPO / "personas" / f"{request.param}.json"))


def _addresses(p: Persona):
    yield "identity", p.identity.address
    yield "office", p.work.office_address
    for c in p.contacts:
        if c.address:
            yield c.name, c.address


def test_german_persona_validates_completes_and_simulates():
    spec = load(GERMAN)
    assert spec.locale == "de_DE" and spec.finances.currency == "EUR"
    p = complete(spec)
    assert p.travel.home_airport == "HAM" and p.identity.address.country == "DE"
    assert p.identity.phone.startswith("+49")
    assert {c.name for c in p.contacts} >= set(p.work.colleagues)
    # German bills and German sites.
    payees = {r.name for r in p.recurring_charges}
    assert {"Miete", "Strom", "Rundfunkbeitrag", "Deutschlandticket"} <= payees
    assert any("tagesschau.de" in s.url for s in p.browsing) and any("chefkoch.de" in s.url for s in p.browsing)
    # German bio, German usual order, German activities.
    assert not _ENGLISH.search(p.identity.bio), p.identity.bio
    world = simulate(p)
    assert world.of_kind("paycheck") and world.of_kind("email") and world.of_kind("flight")
    assert all(e.data["employer"] == p.work.employer for e in world.of_kind("paycheck"))


def test_contact_facts_filled_and_fit_the_relationship(completed):
    p = completed
    me = p.identity.name
    by_name = {c.name: c for c in p.contacts}
    for c in p.contacts:
        assert c.children is not None and c.pets is not None and c.job and c.city, c
        assert c.partner != c.name
        if c.relationship in ("partner", "spouse"):
            assert c.partner == me
        if c.relationship == "parent":
            assert me.split()[0] in c.children
        if c.partner in by_name and c.relationship == "parent" and by_name[c.partner].relationship == "parent":
            other = by_name[c.partner]
            assert other.partner == c.name, "parents are each other's partner"
            assert other.city == c.city and other.address == c.address, "and live together"
            assert other.pets == c.pets, "with the same pets"
        if c.address:
            assert c.address.city == c.city
    parents = [c for c in p.contacts if c.relationship == "parent"]
    if len(parents) >= 2:
        assert parents[0].partner == parents[1].name


def test_contact_facts_keep_what_the_spec_gives():
    p = complete(load(GERMAN))
    birgit = next(c for c in p.contacts if c.name == "Birgit Petersen")
    assert (birgit.job, birgit.city, birgit.partner) == ("Grundschullehrerin", "Lüneburg", "Uwe Petersen")
    assert birgit.address.city == "Lüneburg" and birgit.address.country == "DE"
    malte = next(c for c in p.contacts if c.name == "Malte Petersen")
    assert malte.children == ["Ida", "Ole"] and malte.city == "Kiel"


def test_contact_facts_stable_and_independent():
    spec = load(REPO / "personas" / "jordan-lee.json")
    a, b = complete(spec), complete(spec)
    assert [c.model_dump() for c in a.contacts] == [c.model_dump() for c in b.contacts]
    # Adding a friend at the end changes no one else's facts.
    given = list(a.contacts)
    bigger = spec.model_copy(
        update={"contacts": [Contact(name=c.name, relationship=c.relationship, closeness=c.closeness) for c in given]}
    )
    base = complete(bigger)
    more = complete(
        bigger.model_copy(
            update={
                "contacts": list(bigger.contacts) + [Contact(name="Quinn Ashby", relationship="friend", closeness=4)]
            }
        )
    )
    for x, y in zip(base.contacts, more.contacts):
        assert [getattr(x, f) for f in FACTS] == [getattr(y, f) for f in FACTS], x.name
        assert x.address == y.address
    assert more.contacts[-1].job and more.contacts[-1].city


def test_no_line_break_in_any_completed_address_and_valid_postcodes(completed):
    p = completed
    for who, a in _addresses(p):
        for field in ("street", "city", "region", "postal_code"):
            value = getattr(a, field) or ""
            assert "\n" not in value and "\r" not in value and value == value.strip(), (who, field, value)
        assert POSTCODE[a.country].match(a.postal_code), (who, a)
        if a.country == "GB" and who != "identity":
            assert a.postal_code[-2] in GB_INWARD_LETTERS and a.postal_code[-1] in GB_INWARD_LETTERS
        city = gazetteer.find_city(a.city, a.country, a.region)
        assert city is not None, (who, a)  # every town is a city of the gazetteer
        if a.country == "US":
            assert a.region == city.admin1, (who, a)  # in its own state
            if who != "identity":  # a ZIP code of that state (Faker's ranges per state)
                assert any(lo <= int(a.postal_code) <= hi for lo, hi in _zip_ranges(a.region)), (who, a)
        if who != "identity" and a.city == p.identity.address.city and a.country == p.identity.address.country:
            base = p.identity.address.postal_code  # neighbours share all but the last two digits
            assert _skeleton(a.postal_code) == _skeleton(base), (who, a)


def _skeleton(code: str) -> str:
    """What neighbours' postcodes share: a British one's outward code, else all but the last two digits."""
    if " " in code and re.fullmatch(r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}", code):
        return code.split(" ")[0]
    last = [i for i, ch in enumerate(code) if ch.isdigit()][-2:]
    return "".join("#" if i in last else ch for i, ch in enumerate(code))


def _zip_ranges(state: str) -> list[tuple[int, int]]:
    from faker.providers.address.en_US import Provider

    lo, hi = Provider.states_postcode[state]
    return [(lo, hi)]


def test_a_spec_without_an_address_lives_in_a_big_city_of_its_country():
    """No address: one of the country's most populous cities (the gazetteer's), its airport and zone."""
    from builder.persona.complete import HOME_POOL

    for seed, locale in [(1, "en_US"), (2, "en_GB"), (3, "de_DE"), (4, "ja_JP")]:
        p = complete(Persona.model_validate({"seed": seed, "locale": locale, "identity": {"name": "Sam Rivera"}}))
        a, country = p.identity.address, locale[-2:]
        assert a.country == country
        largest = gazetteer.cities_in(country)[:HOME_POOL]
        home = next(c for c in largest if c.name == a.city)
        assert p.timezone == home.timezone
        assert p.travel.home_airport == gazetteer.home_airport(home).iata


def test_colleagues_on_the_employer_domain_friends_on_personal_ones(completed):
    p = completed
    domain = p.work.email.split("@")[1]
    spec = load(REPO / "personas" / f"{p.id}.json")
    given = {c.name: c.email for c in (spec.contacts or [])}
    for c in p.contacts:
        if c.relationship == "colleague" and not given.get(c.name):
            assert c.email.endswith("@" + domain), c
        if c.relationship in ("parent", "sibling", "friend", "partner", "spouse", "child") and c.email:
            assert not c.email.endswith("@" + domain), c


_LOREM_HINTS = re.compile(r"\b(lorem|ipsum|dolor|amet)\b", re.IGNORECASE)


def test_bios_read_like_profile_lines(completed):
    bio = completed.identity.bio
    assert ".." not in bio
    assert bio and "\n" not in bio and not _LOREM_HINTS.search(bio)
    for sentence in re.split(r"(?<=[.!?])\s+", bio):
        assert not is_faker_title(sentence), sentence
    if completed.work.employer:
        assert (
            completed.work.employer in bio
            or completed.identity.bio == load(REPO / "personas" / f"{completed.id}.json").identity.bio
        )


def test_bios_vary_across_seeds_and_speak_the_locale():
    spec = load(REPO / "personas" / "jordan-lee.json")
    bios = {complete(spec.model_copy(update={"seed": s})).identity.bio for s in range(12)}
    assert len(bios) == 12
    de = complete(spec.model_copy(update={"locale": "de_DE", "language": "de", "seed": 5}))
    assert not _ENGLISH.search(de.identity.bio), de.identity.bio
    assert de.identity.address.country == "DE" and re.fullmatch(r"[0-9]{5}", de.identity.address.postal_code)
    assert all(a[0].isupper() for c in de.contacts for a in c.shared_activities), "German activities"


def test_usual_order_fits_the_cuisines():
    spec = load(REPO / "personas" / "jordan-lee.json")
    table = orders()
    for seed in range(8):
        p = complete(spec.model_copy(update={"seed": seed}))
        first = next(c for c in p.preferences.cuisines if c in table)
        uo = p.routines.usual_order
        assert uo.restaurant in table[first]["names"], (p.preferences.cuisines, uo)
        assert uo.items[0] in table[first]["en"]["mains"]
        assert Decimal("10") < uo.total < Decimal("60")
    de = complete(spec.model_copy(update={"locale": "de_DE", "language": "de", "seed": 3}))
    first = next(c for c in de.preferences.cuisines if c in table)
    assert de.routines.usual_order.items[0] in table[first]["de"]["mains"]


def test_spec_usual_order_is_kept():
    p = complete(load(REPO / "personas" / "dana-whitfield.json"))
    assert p.routines.usual_order.restaurant == "Thai Peacock"


def _revalidates(p: Persona) -> Persona:
    return Persona.model_validate(p.model_dump(mode="json", by_alias=True))


def test_completed_personas_validate_against_the_schema(completed):
    again = _revalidates(completed)
    assert again.contacts == completed.contacts


def test_completion_of_odd_contact_lists():
    """Many siblings, a one-word name, a city the tables lack, three parents, a spouse, a roommate, a child."""
    base = load(REPO / "personas" / "jordan-lee.json")
    contacts = [Contact(name=f"Sib{i} Lee", relationship="sibling", closeness=4) for i in range(10)]
    contacts += [
        Contact(name="Cher", relationship="friend", closeness=5),
        Contact(name="Ada Far", relationship="friend", closeness=5, city="Reykjavik"),
        Contact(name="Pa Lee", relationship="parent"),
        Contact(name="Ma Lee", relationship="parent"),
        Contact(name="Step Lee", relationship="parent", closeness=4),
        Contact(name="Sam Wed", relationship="spouse"),
        Contact(name="Roo Mate", relationship="roommate"),
        Contact(name="Kid Lee", relationship="child", birthday=base.as_of.replace(year=base.as_of.year - 9)),
    ]
    for loc in ("en_US", "en_GB", "de_DE"):
        p = _revalidates(complete(base.model_copy(update={"contacts": contacts, "locale": loc, "language": loc[:2]})))
        by = {c.name: c for c in p.contacts}
        assert by["Pa Lee"].partner == "Ma Lee" and by["Ma Lee"].partner == "Pa Lee"
        assert by["Step Lee"].partner != "Pa Lee"
        assert len(by["Pa Lee"].children) == 8
        assert by["Ada Far"].city == "Reykjavik" and by["Ada Far"].address is None
        assert by["Sam Wed"].partner == p.identity.name and by["Sam Wed"].address == p.identity.address
        assert by["Roo Mate"].address == p.identity.address and by["Roo Mate"].children == []
        assert by["Sam Wed"].children == ["Kid"]
        assert by["Kid Lee"].job == facts_bank(loc)["at_school"] and by["Kid Lee"].partner is None


def test_contact_gender_filled_and_agrees_with_the_name(completed):
    from builder.world.mail import gender_of as mail_gender

    for c in completed.contacts:
        assert c.gender in ("female", "male", "nonbinary")
        told = mail_gender(c.name, completed.bank)
        if told:
            assert c.gender[0] == told, c.name


def test_nonbinary_contact_completes():
    base = load(REPO / "personas" / "jordan-lee.json")
    p = complete(
        base.model_copy(
            update={
                "locale": "de_DE",
                "contacts": [
                    Contact(name="Robin Sommer", relationship="parent", gender="nonbinary"),
                    Contact(
                        name="Kim Sommer",
                        relationship="sibling",
                        gender="nonbinary",
                        birthday=base.as_of.replace(year=1980),
                    ),
                ],
            }
        )
    )
    assert [c.gender for c in p.contacts] == ["nonbinary", "nonbinary"]
    assert all(c.job for c in p.contacts)


def test_completed_family_trip_goes_where_the_family_lives():
    """A family trip flies to where a parent or sibling lives, and there is one only when one lives a flight away."""
    spec = load(REPO / "personas" / "jordan-lee.json")
    seen = 0
    for seed in range(8):
        p = complete(spec.model_copy(update={"seed": seed}))
        home = gazetteer.find_city(p.identity.address.city, p.identity.address.country)
        far = {
            c.city
            for c in p.contacts
            if c.relationship in ("parent", "sibling")
            and gazetteer.distance_km(
                home.latitude, home.longitude, *_point(gazetteer.find_city(c.city, p.identity.address.country))
            )
            >= 350
        }
        family = [t.destination for t in p.travel.trips if t.purpose == "family"]
        assert bool(family) == bool(far) and set(family) <= far, (seed, family, far)
        seen += bool(family)
    assert seen >= 2


def _point(city) -> tuple[float, float]:
    return city.latitude, city.longitude


def test_completed_favourites_are_merchants_the_world_visits():
    from collections import Counter

    spec = load(REPO / "personas" / "jordan-lee.json")
    for loc in ("en_US", "de_DE"):
        p = complete(spec.model_copy(update={"locale": loc, "language": loc[:2]}))
        assert len(p.preferences.favourite_merchants) == 2
        bought = Counter(e.data["merchant"] for e in simulate(p).of_kind("card_purchase"))
        assert all(bought[name] > 0 for name in p.preferences.favourite_merchants), p.preferences.favourite_merchants


def test_a_us_address_without_region_gets_its_state():
    """A spec's US address with no region is completed with the state of its city (the gazetteer's admin1 code, the
    state's two letters); a region the spec gives, an address outside the US and a city the gazetteer does not know
    stay as written."""
    from builder.reference.addresses import format_address

    def spec(address: dict, office: dict | None = None) -> Persona:
        work = {"work": {"office_address": office}} if office else {}
        return Persona.model_validate({"identity": {"name": "Rosa Lindqvist", "address": address}, **work})

    austin = {"street": "1204 E 6th St", "city": "Austin", "postal_code": "78702", "country": "US"}
    p = complete(spec(austin, {**austin, "street": "500 W 2nd St"}))
    assert (p.identity.address.region, p.work.office_address.region) == ("TX", "TX")
    assert format_address(p.identity.address) == "1204 E 6th St, Austin, TX 78702"
    assert complete(spec({**austin, "region": "Texas"})).identity.address.region == "Texas"
    assert complete(spec(austin, {**austin, "city": "Eldmoor"})).work.office_address.region is None
    leeds = {"street": "120 Princess Street", "city": "Leeds", "postal_code": "LS1 4AP", "country": "GB"}
    assert complete(spec(leeds)).identity.address.region is None


def test_a_home_anywhere_takes_its_zone_airport_and_postcodes_from_the_gazetteer():
    """An address city outside the locale's table is the gazetteer's city of that name, country (and US state): its
    zone, its home airport (the nearest large airport with scheduled service, else the nearest scheduled one), the
    office near the spec's postcode, contacts in the country's cities; trips never go home. Nothing is swapped for a city of the table."""

    def spec(city: str, postal_code: str, country: str, region: str | None = None) -> Persona:
        address = {"street": "1-2-3 Jingumae", "city": city, "postal_code": postal_code, "country": country}
        return Persona.model_validate(
            {"identity": {"name": "Rosa Lindqvist", "address": {**address, "region": region}}}
        )

    tokyo = complete(spec("Tokyo", "150-0001", "JP"))
    assert (tokyo.timezone, tokyo.travel.home_airport) == ("Asia/Tokyo", "HND")
    assert tokyo.work.office_address.city == "Tokyo" and tokyo.work.office_address.postal_code.startswith("150-00")
    assert "HND" not in {t.airport for t in tokyo.travel.trips}
    # Family and friends live in Japan: in Tokyo near the persona, or in other Japanese cities.
    assert all(gazetteer.find_city(c.city, "JP") for c in tokyo.contacts), [c.city for c in tokyo.contacts]
    assert {c.city for c in tokyo.contacts} - {"Tokyo"}, "nobody lives elsewhere"
    for c in tokyo.contacts:
        if c.address:
            assert c.address.country == "JP" and (c.city != "Tokyo" or c.address.postal_code.startswith("150-00"))
    # Trips: to big cities at home and nearby (and a few far away), from the home airport; nobody to visit, no
    # family trip.
    domestic = {d[1] for d in destinations(gazetteer.find_city("Tokyo", "JP"), "HND") if d[3] == "JP"}
    assert {t.airport for t in tokyo.travel.trips} & domestic, [t.airport for t in tokyo.travel.trips]
    assert all(gazetteer.airport(t.airport).kind == "large_airport" for t in tokyo.travel.trips)
    assert "family" not in {t.purpose for t in tokyo.travel.trips}
    # Trips are flights, never to a city a train reaches (Nagoya, 260 km; Sendai, 300 km).
    home = gazetteer.find_city("Tokyo", "JP")
    for d in destinations(home, "HND"):
        there = gazetteer.airport(d[1])
        assert gazetteer.distance_km(home.latitude, home.longitude, there.latitude, there.longitude) > 300, d
    lagos = complete(spec("Lagos", "100001", "NG"))
    assert (lagos.timezone, lagos.travel.home_airport) == ("Africa/Lagos", "LOS")
    assert "LOS" not in {t.airport for t in lagos.travel.trips}
    maine = complete(spec("Portland", "04101", "US", "ME"))
    assert (maine.timezone, maine.travel.home_airport) == ("America/New_York", "PWM")
    oregon = complete(spec("Portland", "97214", "US", "OR"))
    assert (oregon.timezone, oregon.travel.home_airport) == ("America/Los_Angeles", "PDX")
    assert complete(spec("Köln", "50667", "DE")).travel.home_airport == "CGN"


def test_a_home_city_the_gazetteer_does_not_know_is_refused(tmp_path):
    """A home in a town of fewer than 15,000 people, or a made-up one, is refused with one line naming the field,
    never replaced by a city drawn at random; so is a country code ISO does not assign."""

    for address, expected in (
        ({"city": "Eldmoor", "country": "GB"}, "no city of 15,000 people or more called 'Eldmoor' in GB"),
        ({"city": "Leeds", "country": "XX"}, "'XX' is not an ISO 3166-1 alpha-2 country code"),
    ):
        path = tmp_path / "p.json"
        full = {"street": "1 High Street", "postal_code": "LS1 4AP", **address}
        path.write_text(json.dumps({"identity": {"name": "Rosa Lindqvist", "address": full}}))
        with pytest.raises(SpecError) as err:
            load(path)
        assert len(err.value.lines) == 1 and "identity.address" in err.value.lines[0], err.value.lines
        assert expected in err.value.lines[0], err.value.lines


def test_everyday_customs_follow_the_country_the_persona_lives_in():
    """Tipping, the way to work and the sites read come from the home country (builder/reference/everyday.yaml), in
    the persona's language: an American in Tokyo tips nothing, takes the train and reads The Japan Times; a German
    speaker in Vienna reads ORF; a country the table lacks gets the default's."""

    def spec(city: str, postal_code: str, country: str, locale: str = "en_US") -> Persona:
        address = {"street": "1 Main Street", "city": city, "postal_code": postal_code, "country": country}
        return Persona.model_validate({"locale": locale, "identity": {"name": "Rosa Lindqvist", "address": address}})

    tokyo = complete(spec("Tokyo", "150-0001", "JP"))
    assert (tokyo.preferences.tipping_percent, tokyo.routines.commute.mode) == (0, "transit")
    assert "The Japan Times" in [s.title for s in tokyo.browsing]
    assert not {"The New York Times", "ESPN"} & {s.title for s in tokyo.browsing}
    vienna = complete(spec("Wien", "1010", "AT", "de_DE"))
    assert "ORF.at" in [s.title for s in vienna.browsing] and vienna.preferences.tipping_percent == 10
    lima = complete(spec("Lima", "15001", "PE"))
    assert "BBC News" in [s.title for s in lima.browsing]
    # A spec that says is honoured: a tip of 0 % stays 0 %.
    zero = Persona.model_validate({"identity": {"name": "Rosa Lindqvist"}, "preferences": {"tipping_percent": 0}})
    assert complete(zero).preferences.tipping_percent == 0


def test_a_debt_without_a_payment_gets_one():
    """``finances.debts``: a loan whose lender no recurring charge pays is repaid monthly by autopay (its monthly
    payment to its lender); one the spec already pays (Dana's Nelnet charge) is left alone."""
    spec = {
        "identity": {"name": "Rosa Lindqvist"},
        "finances": {
            "debts": [
                {
                    "name": "Car loan",
                    "lender": "Northwind Auto Finance",
                    "balance": 9200,
                    "apr": 6.9,
                    "monthly_payment": 289.5,
                },
                {"name": "Student loan", "lender": "Nelnet", "balance": 4000, "apr": 4.5, "monthly_payment": 120},
            ],
            "recurring_charges": [
                {"name": "Student loan", "amount": 120, "payee": "Nelnet", "day": 28, "method": "bill_pay"}
            ],
        },
    }
    p = complete(Persona.model_validate(spec))
    loans = [b for b in p.finances.recurring_charges if b.payee in ("Northwind Auto Finance", "Nelnet")]
    assert [(b.name, b.amount, b.method, b.category) for b in loans] == [
        ("Student loan", Decimal("120.00"), "bill_pay", "bills"),
        ("Car loan", Decimal("289.50"), "autopay", "loans"),
    ]
    assert 1 <= loans[1].day <= 28
