"""Completion: fill every field a spec leaves out, deterministically.

Each filled value comes from its own named stream (``complete/identity/phone``,
``complete/contact/2/birthday``...), so editing one field of the spec never changes
another filled value. Values the spec gives are kept as they are.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from ..dates import add_months
from ..names import ascii_slug
from ..reference import fx, gazetteer, household, people, phones, prices, read_yaml
from ..reference.locale import bank_currency, city_name, territory
from ..reference.services import service
from ..rng import faker, rng, token
from .model import (
    RESERVED_USERNAMES,
    name_key,
    Account,
    Address,
    Commute,
    Contact,
    Finances,
    Holding,
    Identity,
    Investments,
    Meeting,
    Persona,
    Preferences,
    RecurringCharge,
    Routines,
    Site,
    Travel,
    Trip,
    Work,
)
from . import facts
from .places import City, Town, destinations, flown


# Our own app clones every persona visits, by role, with their page title and visits a week (the bank is the
# first; others join as apps are added).
_APP_SITES = [("bank", "Accounts | {title}", 3)]

_CUISINES = [
    "Thai",
    "Italian",
    "Mexican",
    "Japanese",
    "Indian",
    "Vietnamese",
    "Ethiopian",
    "Greek",
    "Korean",
    "Lebanese",
    "Spanish",
    "Chinese",
]
_ACTIVITIES = [
    "climbing",
    "running",
    "board games",
    "hiking",
    "cooking",
    "concerts",
    "trivia night",
    "cycling",
    "book club",
    "film nights",
    "yoga",
    "football",
]
_EXERCISE = ["running", "climbing", "yoga", "cycling", "swimming", "weights"]


def _mailbox(text: str, seed: int, stream: str, sep: str = ".", limit: int = 40) -> str:
    """An email local part or domain label from ``text``; from the seed when ``text`` has no ASCII letters."""
    slug = ascii_slug(text, sep)[:limit].strip(sep)
    return slug or f"{stream.rsplit('/', 1)[-1]}{token(seed, 'complete/mailbox', stream, length=6)}"


def persona_id(p: Persona) -> str:
    """The spec's ``id``, else the name as an ASCII slug, else (a name with no ASCII letters) one from the seed.

    Always matches the spec's id pattern: never empty, no separators, safe as a folder name.
    """
    if p.id:
        return p.id
    slug = ascii_slug(p.identity.name, "-")[:40].strip("-")
    # Hash of the seed and the name: two such personas of one seed still get two folders.
    return slug if len(slug) >= 2 else f"persona-{token(p.seed, 'complete/id', p.identity.name, length=8)}"


def username(p: Persona) -> str:
    """The spec's username, else one derived from the name that is no system account (see RESERVED_USERNAMES)."""
    if p.identity.username:
        return p.identity.username
    words = p.identity.name.split()
    first, full = ascii_slug(words[0], "_"), ascii_slug(p.identity.name, "_")
    for candidate in (first, full, f"{full}_home" if full else ""):
        candidate = candidate[:30].strip("_")
        if re.fullmatch(r"[a-z][a-z0-9_]{1,30}", candidate) and candidate not in RESERVED_USERNAMES:
            return candidate
    return f"user{token(p.seed, 'complete/username', length=6)}"


def _phone(seed: int, stream: str, country: str) -> str:
    """A mobile number in ``country`` (:func:`builder.reference.phones.phone`: the fictional ranges in the US, the UK
    and Germany; elsewhere the country's calling code and numbering plan), drawn from the named ``stream``."""
    return phones.phone(rng(seed, stream), country)


#: A persona whose spec gives no address lives in one of its country's this many most populous cities.
HOME_POOL = 8
#: A city within this distance (km) of a more populous one is part of it (Brooklyn and Queens are New York).
PART_OF_KM = 25.0


def _distinct(cities) -> list:
    """``cities`` (most populous first) without those within :data:`PART_OF_KM` of an earlier one; stops at 50."""
    out: list = []
    for c in cities:
        if not any(gazetteer.distance_km(c.latitude, c.longitude, o.latitude, o.longitude) <= PART_OF_KM for o in out):
            out.append(c)
            if len(out) == 50:
                break
    return out


def _home_city(p: Persona) -> City:
    """Where the persona lives: the gazetteer's city of the address's name, country and region (its zone and
    :func:`~builder.reference.gazetteer.home_airport`), under the spec's own spelling. Without an address: one of the
    :data:`HOME_POOL` most populous cities of :func:`_home_country` (none part of another: :func:`_distinct`), drawn
    from stream ``complete/identity/city``."""
    a = p.identity.address
    if a is None:
        largest = _distinct(gazetteer.cities_in(_home_country(p)))[:HOME_POOL]
        found = largest[rng(p.seed, "complete/identity/city").randrange(len(largest))]
        region = (found.admin1 or None) if found.country == "US" else None
        return City(found.name, region, found.country, gazetteer.home_airport(found).iata, found.timezone)
    found = gazetteer.find_city(a.city, a.country, a.region)
    if found is None:  # the validator refuses such an address (model._known_city); a spec built by hand may not
        raise ValueError(f"identity.address.city: no city called {a.city!r} in {a.country}")
    airport = gazetteer.home_airport(found)
    return City(a.city, a.region, a.country, airport.iata, found.timezone, a.postal_code)


def _with_region(a: Address | None) -> Address | None:
    """A spec's US address without a region, with its city's state: the gazetteer's first-level division code of
    the US city of that name (GeoNames' admin1 of the US is the state's two-letter code); any other address, or a
    city the gazetteer does not know, as it is."""
    if a is None or a.region or a.country != "US":
        return a
    city = gazetteer.find_city(a.city, "US")
    return a.model_copy(update={"region": city.admin1}) if city and city.admin1 else a


def _address(seed: int, stream: str, locale: str, city: City) -> Address:
    """A one-line street address in the home ``city``, its postcode near the city's ``postcode`` (a spec's), else
    near the city's base (:func:`builder.reference.addresses.city_postcode`)."""
    return facts.address(seed, stream, locale, Town(city.name, city.region, city.country, city.postcode))


def _birthday(seed: int, stream: str, around: dt.date, spread_years: int) -> dt.date:
    r = rng(seed, stream)
    year = around.year + r.randint(-spread_years, spread_years)
    return dt.date(min(max(year, 1901), 9998), r.randint(1, 12), r.randint(1, 28))


def _home_country(p: Persona) -> str:
    """The country the persona lives in: its address's, else its locale's when the gazetteer has cities there (see
    :func:`_home_city`), else its phrase bank's."""
    if p.identity.address:
        return p.identity.address.country
    there = territory(p.locale)
    return there if gazetteer.cities_in(there) else territory(p.bank)


def _identity(p: Persona, city) -> Identity:
    """The persona's identity with every field the spec leaves out filled. Gender: the spec's; for a home outside the
    locale's country the one the name tells (:func:`builder.reference.people.gender_of`: Kenji in Tokyo is a man);
    else drawn (stream ``complete/identity/gender``, as at home, where the draw has always decided)."""
    seed, loc, ident = p.seed, p.bank, p.identity
    first, last = ident.name.split()[0], ident.name.split()[-1]
    country = _home_country(p)
    told = people.gender_of(ident.name, loc, country) if country != territory(loc) else None
    gender = ident.gender or told or rng(seed, "complete/identity/gender").choice(["female", "male", "nonbinary"])
    birth = ident.birth_date or (
        p.as_of - dt.timedelta(days=rng(seed, "complete/identity/birth_date").randint(25 * 365, 45 * 365))
    )
    return Identity(
        name=ident.name,
        birth_date=birth,
        gender=gender,
        pronouns=ident.pronouns or {"female": "she/her", "male": "he/him", "nonbinary": "they/them"}[gender],
        email=ident.email or f"{_mailbox(first + ' ' + last, seed, 'identity/me')}@{facts.email_domain(loc)}",
        phone=ident.phone or _phone(seed, "complete/identity/phone", country),
        address=_with_region(ident.address) or _address(seed, "complete/identity/address", loc, city),
        username=username(p),
        bio=ident.bio,  # filled from the completed work and routines in complete()
    )


def _contacts(p: Persona, identity: Identity, city) -> list[Contact]:
    seed, loc = p.seed, p.bank
    given = list(p.contacts or [])
    if not given:
        plan = [
            ("parent", 4),
            ("parent", 4),
            ("sibling", 5),
            ("friend", 5),
            ("friend", 4),
            ("friend", 4),
            ("friend", 3),
            ("friend", 2),
            ("colleague", 3),
            ("colleague", 3),
            ("colleague", 2),
            ("colleague", 2),
            ("neighbor", 1),
        ]
        last = identity.name.split()[-1]
        taken = {name_key(identity.name)}
        # Everyone lives in the persona's country (facts.contact_facts): named as its people are (reference.people).
        country = _home_country(p)
        for i, (rel, closeness) in enumerate(plan):
            fake = people.names(seed, f"complete/contact/{i}/name", loc, country)
            surname = last if rel in ("parent", "sibling") else fake.last_name()
            name, attempt = f"{fake.first_name()} {surname}", 0
            # Never the persona's own name, a name twice, or past the 80-character cap (a very long surname).
            while len(name) > 80 or name_key(name) in taken:
                attempt += 1
                fake = people.names(seed, f"complete/contact/{i}/name/{attempt}", loc, country)
                name = f"{fake.first_name()} {fake.last_name()}"
            taken.add(name_key(name))
            given.append(Contact(name=name, relationship=rel, closeness=closeness))
    out = []
    age_anchor = identity.birth_date
    home = _home_country(p)
    for i, c in enumerate(given):
        s = f"complete/contact/{i}"
        closeness = c.closeness or {
            "partner": 5,
            "spouse": 5,
            "parent": 4,
            "sibling": 4,
            "child": 5,
            "friend": 3,
            "roommate": 4,
            "colleague": 2,
            "neighbor": 1,
        }.get(c.relationship, 1)
        around = {"parent": add_months(age_anchor, -29 * 12), "child": add_months(age_anchor, 28 * 12)}.get(
            c.relationship, age_anchor
        )
        style = c.messaging_style or rng(seed, f"{s}/style").choice(
            {"parent": ["formal", "brief"], "colleague": ["brief", "formal"], "neighbor": ["brief"]}.get(
                c.relationship, ["chatty", "emoji", "brief"]
            )
        )
        apps = c.apps or (["mail", "calendar", "chat"] if c.relationship == "colleague" else ["chat", "mail", "bank"])
        out.append(
            Contact(
                name=c.name,
                relationship=c.relationship,
                closeness=closeness,
                email=c.email or f"{_mailbox(c.name, seed, f'contact/c{i}')}@{facts.email_domain(loc)}",
                # Where the contact lives: the spec's address's country, else the persona's (facts.contact_facts).
                phone=c.phone or _phone(seed, f"{s}/phone", c.address.country if c.address else home),
                # Born before today: a child of a very young persona is at most a few months old.
                birthday=c.birthday
                or min(_birthday(seed, f"{s}/birthday", around, 6), p.as_of - dt.timedelta(days=90)),
                # Drawn by facts.contact_facts, in the contact's own city.
                address=_with_region(c.address),
                shared_activities=c.shared_activities
                if c.shared_activities is not None
                else rng(seed, f"{s}/activities").sample(facts.bank(loc).get("activities") or _ACTIVITIES, 2),
                apps=apps,
                messaging_style=style,
                conversations=c.conversations,
                language=c.language,
                # The contact's own life: what the spec gives; facts.contact_facts fills the rest.
                gender=c.gender,
                partner=c.partner,
                children=c.children,
                pets=c.pets,
                job=c.job,
                city=c.city,
            )
        )
    return out


def _work(p: Persona, contacts: list[Contact], city) -> Work:
    """The completed work section, fitted to the persona's occupation (:mod:`builder.persona.occupations`).

    A missing role is Faker's job if that is a plain title naming a known job family, else one of a family's roles; a
    missing employer is named after the family's patterns (a freelance artist's own studio); missing
    meetings are the family's series with the colleagues. Side effect, on purpose: colleague contacts
    whose spec gives no email get one at the employer's domain (``contacts`` is updated in place), so
    work mail, calendar invites and work chat all come from the employer's domain.
    """
    from .occupations import FALLBACK, data, family_keys, match, occupation

    seed, loc = p.seed, p.bank
    w = p.work or Work()
    role = w.role
    if not role:
        drawn = faker(seed, "complete/work/role", loc).job()[:60]
        # Faker's plain job titles ("Artist") name a family well; its "Engineer, civil" forms do not.
        if match(drawn) != FALLBACK and "," not in drawn and "(" not in drawn:
            role = drawn
        else:
            keys = [k for k in family_keys(loc) if k != FALLBACK]
            r = rng(seed, "complete/work/family")
            roles = data(loc)["families"][keys[r.randrange(len(keys))]]["roles"]
            role = roles[r.randrange(len(roles))]
    occ = occupation(role, loc)
    fake = faker(seed, "complete/work/employer", loc)
    if w.employer:
        employer = w.employer
    else:
        patterns = occ.get("employers") or ["{company}"]
        pattern = patterns[rng(seed, "complete/work/employer/pattern").randrange(len(patterns))]
        # Surnames of the home's people (reference.people); at home the employer's own Faker draws them, as always.
        country = _home_country(p)
        surnames = (
            fake if country == territory(loc) else people.names(seed, "complete/work/employer/surnames", loc, country)
        )
        last, last2 = surnames.last_name(), surnames.last_name()
        employer = pattern.format(last=last, last2=last2, full=p.identity.name, company=fake.company())[:100]
    colleagues = w.colleagues or [c.name for c in contacts if c.relationship == "colleague"]
    email = w.email or (
        f"{_mailbox(p.identity.name, seed, 'work/me')}@{_mailbox(employer, seed, 'work/employer', '-', 30)}.test"
    )
    domain = email.split("@", 1)[1]
    given = {c.name: c.email for c in (p.contacts or [])}
    for i, c in enumerate(contacts):
        if (c.name in colleagues or c.relationship == "colleague") and not given.get(c.name):
            contacts[i] = c.model_copy(update={"email": f"{_mailbox(c.name, seed, f'contact/c{i}')}@{domain}"})
    meetings = w.meetings
    if meetings is None:
        meetings = []
        one_on_one = occ.mail.get("one_on_one", "1:1 with {first}")
        for m in occ.get("series") or []:
            invited = {"all": colleagues, "one": colleagues[:1], "some": colleagues[1:3] or colleagues[:1]}[
                m.get("with", "all")
            ]
            if m.get("with", "all") != "all" and not invited:
                continue
            title = (
                m["title"].replace("{one_on_one}", one_on_one).format(first=invited[0].split()[0] if invited else "")
            )
            meetings.append(
                Meeting(
                    title=title[:120],
                    days=list(m["days"]),
                    time=m["time"],
                    duration_minutes=m.get("minutes", 30),
                    every_weeks=m.get("every", 1),
                    attendees=list(invited),
                )
            )
    return Work(
        employer=employer,
        role=role,
        salary=w.salary
        or prices.annual_pay(
            Decimal(rng(seed, "complete/work/salary").randrange(52_000, 140_000, 500)),
            bank_currency(loc),
            currency(p),
            _home_country(p),
        ),
        pay_schedule=w.pay_schedule,
        net_ratio=w.net_ratio,
        office_address=_with_region(w.office_address) or _address(seed, "complete/work/office", loc, city),
        email=email,
        colleagues=colleagues,
        meetings=meetings,
        office_days=w.office_days,
        projects=w.projects,
    )


def _country(p: Persona) -> str | None:
    """The country of the spec's home address (ISO 3166-1 alpha-2), None for a spec without one."""
    a = p.identity.address if p.identity else None
    return a.country.upper() if a and a.country else None


def currency(p: Persona) -> str:
    """The persona's currency: the spec's, else the legal tender of its home address's country on ``as_of``
    (:func:`builder.reference.gazetteer.currency`) when :mod:`builder.reference.fx` can rate it; a spec without an
    address, its locale's country's (USD for en_US, JPY for ja_JP); else the phrase bank's table's."""
    if p.finances and p.finances.currency:
        return p.finances.currency
    country = _country(p) or _home_country(p)
    found = gazetteer.currency(country, p.as_of) if country else None
    return found if found and fx.known(found) else bank_currency(p.bank)


def _finances(p: Persona, routines: Routines | None = None, city=None) -> Finances:
    seed, loc = p.seed, p.bank
    f = p.finances or Finances()
    cur, written = currency(p), bank_currency(loc)

    def money(text: str | int) -> Decimal:
        """An amount the tables write in the locale's currency, in the persona's (builder.reference.prices)."""
        return prices.amount(Decimal(text), written, cur)

    accounts = list(f.accounts)
    if not accounts:
        r = rng(seed, "complete/finances/balances")
        accounts = [
            Account(kind="checking", opening_balance=money(r.randrange(1500, 4500))),
            Account(kind="savings", opening_balance=money(r.randrange(4000, 20000, 50)), apr=Decimal("3.50")),
            Account(
                kind="credit_card",
                opening_balance=money(r.randrange(150, 900)),
                credit_limit=money(r.randrange(3000, 12000, 500)),
                apr=Decimal("22.99"),
            ),
        ]
    home = _home_country(p)
    names = household.account_names(home, loc)
    accounts = [a if a.name else a.model_copy(update={"name": names[a.kind]}) for a in accounts]
    # Neither balance given: the history starts at 0. With ``balance`` (on as_of) the world works the opening out.
    accounts = [
        a
        if a.opening_balance is not None or a.balance is not None
        else a.model_copy(update={"opening_balance": Decimal("0.00")})
        for a in accounts
    ]
    bills = f.recurring_charges
    if bills is None:
        # The household of the home country, in the persona's words (builder/reference/household.yaml).
        rows = household.bills(home, loc)
        extra = household.commute_bill(home, loc, routines.commute.mode) if routines and routines.commute else None
        if extra:
            rows.append(extra._replace(payee=extra.payee.format(city=city.name if city else "")))
        bill_currency = household.written(home)
        bills = [
            RecurringCharge(
                name=b.name,
                amount=prices.amount(Decimal(b.amount), bill_currency, cur),
                payee=b.payee,
                day=b.day,
                method=b.method,
                category=b.category,
            )
            for b in rows
        ]
    # A loan is repaid every month: a debt whose lender no recurring charge pays gets its payment as one (by autopay,
    # on a day of stream complete/finances/debt/<i>).
    paid = {b.payee.casefold() for b in bills}
    for i, debt in enumerate(f.debts):
        if debt.lender.casefold() not in paid:
            day = rng(seed, f"complete/finances/debt/{i}").randint(1, 28)
            charge = RecurringCharge(
                name=debt.name, amount=debt.monthly_payment, payee=debt.lender, day=day, category="loans"
            )
            bills, paid = [*bills, charge], paid | {debt.lender.casefold()}
    investments = f.investments
    if investments is None and any(a.kind == "brokerage" for a in accounts):
        investments = Investments(
            holdings=[Holding(symbol="VTI", shares=Decimal("12"), cost_basis=money("210.00"))],
            monthly_contribution=money("200.00"),
            contribution_symbol="VTI",
        )
    return Finances(
        currency=cur,
        accounts=accounts,
        recurring_charges=bills,
        debts=f.debts,
        investments=investments,
        prediction_positions=f.prediction_positions,
    )


def _travel(p: Persona, city, contacts: list[Contact]) -> Travel:
    seed = p.seed
    t = p.travel or Travel()
    trips = t.trips
    if trips is None:
        r = rng(seed, "complete/travel/trips")
        here = gazetteer.find_city(city.name, city.country, city.region)
        places = destinations(here, city.airport)
        towns = {c.city: gazetteer.find_city(c.city, city.country) for c in contacts if c.city}
        # Family a train or car ride away is visited without a flight: no family trip for it.
        airports = {name: gazetteer.home_airport(t).iata for name, t in towns.items() if t and flown(here, t)}
        friends = [
            c.name for c in contacts if c.relationship in ("friend", "partner", "spouse") and (c.closeness or 0) >= 4
        ]
        family = [
            (c.city, airports[c.city])
            for c in contacts
            if c.relationship in ("parent", "sibling")
            and c.city in airports
            and c.city != city.name
            and airports[c.city] != city.airport
        ]
        start = p.as_of - dt.timedelta(days=30 * p.history_months)
        trips = []
        segment = (p.as_of - start).days // 4
        for i, purpose in enumerate(["leisure", "business", "family", "leisure"]):
            depart = start + dt.timedelta(days=segment * i + r.randint(10, max(11, segment - 20)))
            dest = places[r.randrange(len(places))]
            if purpose == "family" and family:
                dest = family[0]  # where the family lives, when it has an airport the world knows
            elif purpose == "family":
                purpose = "leisure"  # the family all lives at home: nobody to fly to
            trips.append(
                Trip(
                    destination=city_name(dest[0], dest[2] if len(dest) > 2 else None, p.bank),
                    airport=dest[1],
                    depart=depart,
                    **{"return": depart + dt.timedelta(days=r.randint(3, 7))},
                    purpose=purpose,
                    companions=friends[:1] if purpose == "leisure" else [],
                )
            )
        depart = p.as_of + dt.timedelta(days=r.randint(18, max(19, min(45, p.horizon_days - 8))))
        dest = places[r.randrange(len(places))]
        trips.append(
            Trip(
                destination=city_name(dest[0], dest[2] if len(dest) > 2 else None, p.bank),
                airport=dest[1],
                depart=depart,
                **{"return": depart + dt.timedelta(days=r.randint(3, 6))},
                purpose="leisure",
            )
        )
    r = rng(seed, "complete/travel/loyalty")
    airline = t.airline or service("airline").title
    chain = t.hotel_chain or "Harbor & Pine Hotels"
    drawn = [
        {"program": f"{airline} Miles", "number": f"MR{r.randint(10**8, 10**9 - 1)}"},
        {"program": "Harbor & Pine Rewards", "number": f"HP{r.randint(10**7, 10**8 - 1)}"},
    ]
    # The spec's programmes as written, then the airline's when it lists none of its (every flight booking carries
    # the member number: the airline's site signs in with it); at most 20 (the schema's cap: the last gives way).
    loyalty = list(t.loyalty) or drawn
    if t.loyalty and not any(airline.lower() in lo.program.lower() for lo in t.loyalty):
        loyalty = [*loyalty[:19], drawn[0]]
    seat = t.seat or (
        p.preferences.seat
        if p.preferences and p.preferences.seat
        else rng(seed, "complete/travel/seat").choice(["window", "aisle"])
    )
    return Travel(
        home_airport=t.home_airport or city.airport,
        airline=airline,
        hotel_chain=chain,
        seat=seat,
        loyalty=loyalty,
        trips=trips,
    )


def _routines(p: Persona, preferences: Preferences) -> Routines:
    seed = p.seed
    ro = p.routines or Routines()
    r = rng(seed, "complete/routines")
    commute = ro.commute or Commute(mode=everyday(p)["commute"])
    # From the persona's cuisines (a Thai place for a Thai lover), never a fixed dish.
    usual = ro.usual_order
    if usual is None:
        usual = facts.usual_order(p, preferences.cuisines)
        usual = usual.model_copy(update={"total": prices.amount(usual.total, bank_currency(p.bank), currency(p))})
    return ro.model_copy(
        update={"commute": commute, "usual_order": usual, "exercise": ro.exercise or r.choice(_EXERCISE)}
    )


def _preferences(p: Persona) -> Preferences:
    pr = p.preferences or Preferences(tipping_percent=everyday(p)["tipping_percent"])
    r = rng(p.seed, "complete/preferences/cuisines")
    update = {"cuisines": pr.cuisines or r.sample(_CUISINES, 3)}
    if p.preferences is None:
        # A spec with no preferences gets a favourite cafe and shop (the world makes them merchants).
        update["favourite_merchants"] = facts.favourites(p)
    return pr.model_copy(update=update)


def everyday(p: Persona) -> dict:
    """The everyday customs of the country ``p`` lives in (its address's, else its locale's), from
    ``builder/reference/everyday.yaml``: ``tipping_percent`` (int), ``commute`` (a :class:`Commute` mode) and
    ``sites`` (``[url, title, visits a week]`` rows in ``p``'s text language: the country's, else the default's for
    that language, else the default's English ones). A fresh dict."""
    data = read_yaml("everyday.yaml")
    country = _home_country(p)
    here, default = data["countries"].get(country, {}), data["default"]
    language = p.bank.split("_")[0]
    sites = here.get("sites", {}).get(language) or default["sites"].get(language) or default["sites"]["en"]
    return {
        "tipping_percent": here.get("tipping_percent", default["tipping_percent"]),
        "commute": here.get("commute", default["commute"]),
        "sites": [list(row) for row in sites],
    }


def _browsing(p: Persona) -> list[Site]:
    if p.browsing is not None:
        return list(p.browsing)
    sites = [
        Site(url=service(role).url, title=t.format(title=service(role).title), per_week=Decimal(n), bookmarked=True)
        for role, t, n in _APP_SITES
    ]
    sites += [
        Site(url=u, title=t, per_week=Decimal(n), bookmarked=i < 4) for i, (u, t, n) in enumerate(everyday(p)["sites"])
    ]
    return sites


def complete(p: Persona) -> Persona:
    """Return ``p`` with every section filled in (``id``, ``timezone``, identity, work, finances, contacts,
    travel, routines, preferences, browsing). The result validates against the same schema."""
    city = _home_city(p)
    identity = _identity(p, city)
    contacts = facts.contact_facts(p, identity, _contacts(p, identity, city), city.name)
    preferences = _preferences(p)
    work, routines = _work(p, contacts, city), _routines(p, preferences)
    travel = _travel(p, city, contacts)
    if identity.bio is None:
        identity = identity.model_copy(
            update={"bio": facts.bio(p, city.name, work, routines, preferences, contacts, travel)}
        )
    return p.model_copy(
        update={
            "id": persona_id(p),
            "timezone": p.timezone or city.timezone,
            "identity": identity,
            "contacts": contacts,
            "work": work,
            "finances": _finances(p, routines, city),
            "travel": travel,
            "routines": routines,
            "preferences": preferences,
            "browsing": _browsing(p),
        }
    )
