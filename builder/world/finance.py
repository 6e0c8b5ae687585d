"""Money: paychecks, bills, a monthly budget, everyday card spending, P2P payments, and the settlement.

Rules (tasks and tests depend on them):

* Paychecks: biweekly on Fridays (anchored on 2024-01-05), semimonthly on the 15th and
  the month's last day, or monthly on the last day; a weekend moves a paycheck to the
  previous Friday.
* A recurring charge falls on its ``day``; in a shorter month on the last day; a
  Saturday or Sunday moves it to the following Monday.
* Budget (:func:`budget`): monthly net pay minus fixed costs (every recurring charge), the
  household's groceries, the spec's routines (orders, dining, rides, coffee, commute) and the
  trips of the history give what is left; optional everyday spending (shopping, outings,
  pharmacy) scales to it, and the standing savings transfer is what is left over (never more
  than 25 % of net pay, 0 when nothing is).
* Merchants are named from the banks in ``templates/money/merchants.yaml`` of the home's shop signs
  (:func:`sign_bank`: the persona's own bank at home, its residents' abroad; surnames from Faker only inside patterns); the spec's ``favourite_merchants`` are merchants too, visited
  every 10-24 days (a per-favourite rhythm, give or take two days); a favourite brand Shopwell does not sell
  (``preferences.brands``) is its own store in the city, visited every 45-120 days for 40-180 (in US dollars at
  the country's price level: clothes, gear, a kitchen tool), from stream ``finance/everyday/brands`` so no other
  draw moves. Home-city everyday spending stops from a trip's departure day to its
  return day (travel.py spends at the destination instead).
* Commute mode drives transport: ``transit`` buys a monthly pass (3+ office days) or pays fares
  on office days; ``car`` buys fuel every 9-16 days and parks on some office days; ``bike`` a rare
  bike shop; ``walk`` and ``rideshare`` nothing here (rideshare commutes are ZipRide rides).
* Birthday gifts: a P2P payment (memo ``birthday gift``) to close family and friends 1-4 days
  before their birthday, most years.
* Settlement (run after every other module, so it sees all their card charges), in time order:
  - the card statement closes at each month's end; on the 20th (business-day adjusted) checking
    pays what the statement owes less what was paid since, as far as checking can spare above a
    reserve (a month's bills plus a cushion), topped up from savings when checking cannot;
  - a charge that would take the card past 90 % of its limit is preceded by a pay-down (a
    ``card_payment`` with ``paydown`` true, to 40 % of the limit after the charge) from checking
    (or savings) a few minutes before;
  - a statement not paid in full by its due date accrues interest: APR / 365 on each day's
    balance of that month, posted as an ``interest`` event on the card on the 1st of the next
    month at 00:01 (negative posting of kind ``interest``);
  - on the 3rd (business-day adjusted) the budget's savings amount moves to savings if checking
    stays above the reserve plus what the card owes after it; then whatever checking holds beyond
    the reserve, the card balance and half a month's net pay is swept to savings (``sweep`` true,
    not recurring), so money topped up from savings goes back when it is not needed;
  - savings interest (APR / 12 on the month-end balance, half-up to the cent) posts on the
    month's last day at 23:00.
  Only months that ended before ``as_of`` are settled; a card payment due after ``now`` is
  ``scheduled``.
* Balances on ``as_of`` (an account's spec ``balance``): settlement lands each such account there exactly
  (:func:`solve_balances`): the opening balance is worked out; checking, when savings takes what it holds beyond
  its needs, by a last transfer between checking and savings ten minutes before ``now``; the card, owing more, by
  statement payments that keep part back (interest follows), owing less, by an extra payment ten minutes before
  ``now``. The finished world's persona carries the opening balances as the accounts' ``opening_balance``.
"""

from __future__ import annotations

import calendar
from collections import Counter
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from builder import yamlfile

from ..dates import add_months
from ..money import cents, floor_unit, money, to_unit
from ..persona import Persona
from ..reference import prices
from ..reference.banking import statement_labels
from ..reference.services import service
from ..rng import derived_id
from .context import Charge, Sim
from .engine import world_step
from .mail import BANK, automated_bank, domain_of, fill_slots, mailbox, render, site_domain
from .model import Merchant, SpecNotHonoured

CUSHION_CENTS = 150_000  # checking keeps at least this much after voluntary moves
TEMPLATES = Path(__file__).parent / "templates" / "money"

# category: (min cents, max cents) of one everyday purchase (same figures in USD, GBP and EUR).
MERCHANT_KINDS: dict[str, tuple[int, int]] = {
    "groceries": (600, 3200),  # a top-up shop; the weekly shop is sized by the household budget
    "coffee": (325, 875),
    "restaurants": (1400, 6800),
    "transport": (1200, 6500),
    "health": (650, 3800),
    "shopping": (1200, 8500),
    "entertainment": (1100, 4800),
}
# How many merchants of each bank category a persona's city has.
_MERCHANT_COUNTS = {
    "groceries": 4,
    "coffee": 4,
    "restaurants": 6,
    "health": 3,
    "shopping": 5,
    "entertainment": 3,
    "bike": 1,
    "fuel": 2,
    "parking": 1,
}
_BANK_CATEGORY = {"bike": "shopping", "fuel": "transport", "parking": "transport"}
# What one adult's groceries cost a month, by currency (cents), and a transit monthly pass.
GROCERY_PER_ADULT = {"USD": 42_000, "GBP": 26_000, "EUR": 28_000}
TRANSIT_PASS = {"USD": 10_000, "GBP": 8_400, "EUR": 5_800}
TRANSIT_FARE = {"USD": 250, "GBP": 200, "EUR": 340}


@lru_cache(maxsize=1)
def bank() -> dict:
    """The merchant name banks (``templates/money/merchants.yaml``)."""
    return yamlfile.safe_load((TEMPLATES / "merchants.yaml").read_text(encoding="utf-8"))


def fill(pattern: str, r, words: dict, surname, city: str) -> str:
    """A name from ``pattern``: ``{surname}`` from ``surname()``, ``{area}``/``{thing}``/``{thing2}`` from ``words``."""
    things = r.sample(words["thing"], 2)
    return pattern.format(
        surname=surname() if "{surname}" in pattern else "",
        area=r.choice(words["area"]),
        thing=things[0],
        thing2=things[1],
        city=city,
    )


P2P_MEMOS = {
    "partner": ["groceries", "utilities split", "date night"],
    "spouse": ["groceries", "utilities split", "date night"],
    "parent": ["flowers", "holiday travel", "phone bill"],
    "sibling": ["concert tickets", "pizza night", "mom's present split"],
    "child": ["allowance", "school trip"],
    "friend": ["dinner split", "concert tickets", "brunch", "day pass", "cabin weekend"],
    "colleague": ["team lunch", "leaving gift", "coffee run"],
    "roommate": ["utilities split", "household supplies", "internet share"],
    "neighbor": ["package holding thanks", "block party"],
    "other": ["thanks!"],
}
# The same memos as people in Britain and Germany type them.
P2P_MEMOS_LOCALE = {
    "en_GB": {
        "partner": ["food shop", "bills split", "date night"],
        "spouse": ["food shop", "bills split", "date night"],
        "parent": ["flowers", "train tickets home", "phone bill"],
        "sibling": ["gig tickets", "takeaway", "mum's present split"],
        "child": ["pocket money", "school trip"],
        "friend": ["dinner split", "gig tickets", "brunch", "day out", "cottage weekend", "pub quiz round"],
        "colleague": ["team lunch", "leaving do", "coffee run"],
        "roommate": ["bills split", "household bits", "broadband share"],
        "neighbour": ["parcel thanks"],
        "neighbor": ["parcel thanks", "street party"],
        "other": ["cheers!"],
    },
    "de_DE": {
        "partner": ["Einkauf", "Nebenkosten", "Essen gehen"],
        "spouse": ["Einkauf", "Nebenkosten", "Essen gehen"],
        "parent": ["Blumen", "Bahntickets", "Handyrechnung"],
        "sibling": ["Konzertkarten", "Pizzaabend", "Geschenk für Mama"],
        "child": ["Taschengeld", "Klassenfahrt"],
        "friend": ["Abendessen", "Konzertkarten", "Brunch", "Tagesausflug", "Hüttenwochenende", "Kinoabend"],
        "colleague": ["Teamessen", "Abschiedsgeschenk", "Kaffee"],
        "roommate": ["Nebenkosten", "Haushaltskram", "Internet"],
        "neighbor": ["Danke fürs Paket", "Straßenfest"],
        "other": ["Danke!"],
    },
}


@lru_cache(maxsize=None)
def _statement_words(locale: str, country: str) -> dict[str, object]:
    return statement_labels(locale, country)


def label(sim: Sim, key: str, name: str = "") -> str:
    """The ledger description of a line of kind ``key`` as the persona's bank words it (upper case): the bank of its
    home country for its locale (:func:`builder.reference.banking.statement_labels`: ``ZELLE TO {}`` in the US,
    ``PIX TO {}`` for an English speaker in Brazil). ``ext_to`` / ``ext_from`` name a transfer between checking and
    an account at another firm (a broker, a prediction market): the same words the bank writes for one made in an
    app (@persona/platform/transfers)."""
    p = sim.persona
    return str(_statement_words(p.bank, p.identity.address.country)[key]).format(name.upper())


def next_business_day(day: dt.date) -> dt.date:
    """``day`` or the Monday after it if it is a Saturday or Sunday."""
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day


def prev_business_day(day: dt.date) -> dt.date:
    """``day`` or the Friday before it if it is a Saturday or Sunday."""
    while day.weekday() >= 5:
        day -= dt.timedelta(days=1)
    return day


def on_day(year: int, month: int, day: int) -> dt.date:
    """The ``day`` of a month, clamped to its last day (31 -> 30 Nov, 28/29 Feb)."""
    return dt.date(year, month, min(day, calendar.monthrange(year, month)[1]))


def month_end(day: dt.date) -> dt.date:
    """The last day of ``day``'s month."""
    return on_day(day.year, day.month, 31)


def _favourite_category(name: str) -> str:
    low = name.lower()
    for words, category in (
        (("coffee", "café", "cafe", "roast", "espresso", "kaffee"), "coffee"),
        (("market", "grocer", "foods", "co-op", "bakery", "bäckerei", "deli"), "groceries"),
        (
            (
                "kitchen",
                "pizza",
                "grill",
                "diner",
                "tavern",
                "pub",
                "restaurant",
                "bistro",
                "noodle",
                "taqueria",
                "gasthaus",
            ),
            "restaurants",
        ),
        (("pharmacy", "apotheke", "chemist"), "health"),
        (("cinema", "kino", "theatre", "theater", "music hall", "bowl"), "entertainment"),
    ):
        if any(w in low for w in words):
            return category
    return "shopping"


@lru_cache(maxsize=8)
def _home_names(seed: int, city: str, locale: str, country: str | None = None) -> tuple[tuple[str, str], ...]:
    """(bank category, name) of the persona's city merchants, from the stream ``places/<city>/merchants``; the
    surnames they are named after are those of the people of ``country`` (:func:`builder.reference.people.names`:
    the locale's at home)."""
    from ..reference import people
    from ..rng import rng

    fake = people.names(seed, f"places/{city}/merchants", locale, country)
    r = rng(seed, f"places/{city}/merchants/names")
    banks = bank()["home"].get(locale) or bank()["home"]["en_US"]
    words = bank()["words"].get(locale) or bank()["words"]["en_US"]
    out, seen = [], set()
    for category, n in _MERCHANT_COUNTS.items():
        patterns = list(banks[category])
        r.shuffle(patterns)
        for pattern in patterns:
            if sum(c == category for c, _ in out) >= n:
                break
            name = fill(pattern, r, words, fake.last_name, city)
            if name not in seen:
                seen.add(name)
                out.append((category, name))
    transit = bank()["transit"].get(city) or [f"{city} Transit"]
    out.append(("transit", transit[0]))
    return tuple(out)


def sign_bank(p: Persona) -> str:
    """The phrase bank the home city's shop signs are named from: the persona's own at home, else the bank its
    residents read (:func:`builder.reference.locale.bank_of` of the country's likely locale and that locale's
    language): a German speaker in Harare shops at stores with English names, not at an EDEKA."""
    from ..reference.locale import bank_of, default_language, default_locale, territory

    country = p.identity.address.country if p.identity.address else None
    if not country or country.upper() == territory(p.bank):
        return p.bank
    local = default_locale(country)
    return bank_of(local, default_language(local))


def make_merchants(p: Persona) -> list[Merchant]:
    """Merchants in the persona's city: names from the bank of its shop signs (:func:`sign_bank`; see module rules),
    then the favourites."""
    city = p.identity.address.city
    out, seen = [], set()
    for category, name in _home_names(p.seed, city, sign_bank(p), p.identity.address.country):
        seen.add(name)
        out.append(
            Merchant(
                derived_id(p.seed, "merchant", name),
                name,
                "transport" if category == "transit" else _BANK_CATEGORY.get(category, category),
                city,
            )
        )
    for name in p.preferences.favourite_merchants:
        if name not in seen:
            seen.add(name)
            out.append(Merchant(derived_id(p.seed, "merchant", name), name, _favourite_category(name), city))
    for name in brand_stores(p):
        if name not in seen:
            seen.add(name)
            out.append(Merchant(derived_id(p.seed, "merchant", name), name, "shopping", city))
    return out


def brand_stores(p: Persona) -> list[str]:
    """The persona's favourite brands (``preferences.brands``) that Shopwell does not sell (:mod:`world.retail`):
    each is a store of its own in the home city, where the persona shops now and then."""
    from ..reference.retail.catalogue import catalogue

    sold = {x["brand"].casefold() for x in catalogue()}
    return [b for b in p.preferences.brands if b.casefold() not in sold]


def home_kind(p: Persona, merchant: Merchant) -> str:
    """A merchant's bank category (``fuel``, ``parking``, ``bike``, ``transit``... or its category)."""
    for category, name in _home_names(p.seed, p.identity.address.city, sign_bank(p), p.identity.address.country):
        if name == merchant.name:
            return category
    return merchant.category


def household_size(p: Persona) -> int:
    """People who eat from the persona's shopping: the persona, a partner or spouse at the same address, children."""
    home = p.identity.address
    n = 1
    for c in p.contacts:
        if (
            c.relationship in ("partner", "spouse")
            and (c.address is None or home is None or c.address.street == home.street)
            or c.relationship == "child"
            and c.birthday
            and (p.as_of - c.birthday).days < 18 * 365
        ):
            n += 1
    return n


def away_days(p: Persona) -> set[dt.date]:
    """Days the persona is travelling (a trip's ``depart`` through its ``return``, inclusive)."""
    out: set[dt.date] = set()
    for t in (p.travel.trips or []) if p.travel else []:
        d = t.depart
        while d <= t.return_:
            out.add(d)
            d += dt.timedelta(days=1)
    return out


@dataclass(frozen=True)
class Budget:
    """A persona's month in cents: ``net`` pay, ``fixed`` bills, ``groceries`` for the household, ``planned``
    spending the spec fixes (orders, dining, rides, coffee, commute, trips, P2P), the optional everyday
    ``scale`` (0.2-1.3 times the nominal rate of shopping, outings and pharmacy) and ``savings`` (the
    standing transfer, a multiple of 50 units, possibly 0). ``squeeze`` (0.4-1) scales the routines'
    order and dining rates down when net pay cannot carry fixed costs, groceries and the plan (1 when it can)."""

    net: int
    fixed: int
    groceries: int
    planned: int
    optional: int
    scale: float
    savings: int
    squeeze: float = 1.0


def _trip_cost(p: Persona, trip) -> int:
    """A rough cost of one trip in cents (fares, hotel, a visitor's days, rides), for the budget."""

    from ..reference.airports import distance_km, known_airport

    home = p.travel.home_airport
    km = distance_km(home, trip.airport) if known_airport(home) and known_airport(trip.airport) else 2000
    people = 1 + len(trip.companions)
    nights = max(1, (trip.return_ - trip.depart).days)
    payers = people if trip.purpose == "business" else 1  # companions pay their fare and hotel share back
    fare = (9000 + 14 * km) * 1.05 * payers
    usd = int(fare + 21700 * nights * payers / people + 9250 * nights * (1 + 0.7 * (people - 1)) + 16000)
    return prices.figure(usd, p.finances.currency)


_BUDGETS: list[tuple[Persona, Budget]] = []  # the last few personas asked about (specs are not hashable)


def _budget(p: Persona) -> Budget:
    for q, b in _BUDGETS:
        if q is p:
            return b
    b = _compute_budget(p)
    _BUDGETS[:] = [*_BUDGETS[-3:], (p, b)]
    return b


def _compute_budget(p: Persona) -> Budget:
    ro = p.routines
    net = monthly_net_cents(p)
    fixed = sum(cents(c.amount) for c in p.recurring_charges)
    groceries = prices.local_amount(GROCERY_PER_ADULT, p.finances.currency) * household_size(p)
    cur = p.finances.currency

    def f(usd_cents: int) -> int:
        """A figure written in dollars (used as it is in pounds and euros) in the persona's currency."""
        return prices.figure(usd_cents, cur)

    usual = cents(ro.usual_order.total) if ro.usual_order else f(5000)
    # The spec's routines at their average ticket (orders.py and travel.py draw around these).
    orders = int(
        ro.food_delivery_per_month * (usual + f(5000)) / 2
        + ro.dining_out_per_month * f(5500)
        + ro.online_orders_per_month * f(6000)
        + ro.rides_per_month * f(2600)
    )
    planned = int(orders + ro.coffee_per_week * 52 / 12 * f(600) + 30.44 * 0.1 * f(1900))
    if ro.grocery_delivery:
        planned += groceries * 15 // 100  # delivery fees and tips on top of the food
    mode = ro.commute.mode if ro.commute else "transit"
    planned += {"car": f(20000), "transit": prices.local_amount(TRANSIT_PASS, cur)}.get(mode, f(500))
    months = max(1, p.history_months)
    start = add_months(p.as_of, -p.history_months)
    trips = [t for t in (p.travel.trips or []) if start < t.depart <= p.as_of] if p.travel else []
    planned += sum(_trip_cost(p, t) for t in trips) // months
    planned += f(15000)  # P2P, net of what comes back
    optional_nominal = int(30.44 * (0.04 * f(2200) + 0.1 * f(4800) + 0.05 * f(3000)))
    left = net - fixed - groceries - planned
    # Optional spending takes up to 70 % of what is left; the rest is saved (in steps of 50).
    scale = min(1.3, max(0.2, left * 0.7 / optional_nominal)) if optional_nominal else 1.0
    optional = int(optional_nominal * scale)
    surplus = left - optional
    savings = max(0, min(net // 4, int(surplus * 0.8))) // 5000 * 5000
    squeeze = 1.0
    if surplus < 0 and orders > 0:
        # The spec spends more than it earns: order, dine out and ride less (never below 40 % of the spec).
        squeeze = max(0.4, min(1.0, 1 + surplus / orders))
    return Budget(net, fixed, groceries, planned, optional, round(scale, 3), savings, round(squeeze, 3))


def budget(sim_or_persona) -> Budget:
    """The persona's monthly :class:`Budget` (see module rules); a pure function of the spec."""
    return _budget(getattr(sim_or_persona, "persona", sim_or_persona))


def pay_dates(p: Persona, start: dt.date, end: dt.date) -> list[dt.date]:
    """Paydays in [start, end] per the employer's schedule (see module rules)."""
    schedule = p.work.pay_schedule
    days: list[dt.date] = []
    if schedule == "biweekly":
        # The fortnightly grid through 2024-01-05, reaching back or forward to ``start`` (any year).
        d = dt.date(2024, 1, 5)
        d += dt.timedelta(days=14 * ((start - d).days // 14))
        while d <= end:
            if d >= start:
                days.append(d)
            d += dt.timedelta(days=14)
        return days
    month = start.replace(day=1)
    while month <= end:
        last = calendar.monthrange(month.year, month.month)[1]
        for day in [15, last] if schedule == "semimonthly" else [last]:
            d = prev_business_day(month.replace(day=day))
            if start <= d <= end:
                days.append(d)
        month = add_months(month, 1)
    return days


def monthly_net_cents(p: Persona) -> int:
    """Average monthly take-home pay in cents."""
    periods = {"biweekly": 26, "semimonthly": 24, "monthly": 12}[p.work.pay_schedule]
    return cents(p.work.salary / periods * p.work.net_ratio, p.finances.currency) * periods // 12


@world_step(rank=10, writes=("paycheck", "bill_payment", "autopay", "card_purchase", "ledger"))
def simulate_income_and_bills(sim: Sim) -> None:
    """Paychecks into checking and every recurring charge on its day, through the horizon."""
    p = sim.persona
    work = p.work
    periods = {"biweekly": 26, "semimonthly": 24, "monthly": 12}[work.pay_schedule]
    cur = p.finances.currency
    net = cents(work.salary / periods * work.net_ratio, cur)
    gross = cents(work.salary / periods, cur)
    kinds = [a.kind for a in p.accounts]
    for day in pay_dates(p, sim.start.date(), sim.end.date()):
        sim.event(
            "paycheck",
            dt.datetime.combine(day, dt.time(6, 0)),
            {"employer": work.employer, "gross_cents": gross, "net_cents": net, "recurring": True},
            [Charge("checking", net, label(sim, "pay", work.employer), work.employer, "income", "paycheck")],
        )
    for i, charge in enumerate(p.recurring_charges):
        amount = cents(charge.amount, cur)
        month = sim.start.date().replace(day=1)
        while month <= sim.end.date():
            due = next_business_day(on_day(month.year, month.month, charge.day))
            month = add_months(month, 1)
            if not sim.start.date() <= due <= sim.end.date():
                continue
            at = dt.datetime.combine(due, dt.time(7, 0)) + dt.timedelta(minutes=7 * i)
            data = {
                "name": charge.name,
                "payee": charge.payee,
                "amount_cents": amount,
                "method": charge.method,
                "category": charge.category,
                "recurring": True,
            }
            if charge.method == "card" and "credit_card" in kinds:
                sim.event(
                    "card_purchase",
                    at,
                    {**data, "merchant": charge.payee, "account": "credit_card"},
                    [Charge("credit_card", -amount, charge.payee.upper(), charge.payee, charge.category)],
                    i,
                )
            elif charge.method == "bill_pay":
                sim.event(
                    "bill_payment",
                    at,
                    data,
                    [
                        Charge(
                            "checking",
                            -amount,
                            label(sim, "bill_pay", charge.payee),
                            charge.payee,
                            charge.category,
                            "bill_payment",
                        )
                    ],
                    i,
                )
            else:
                sim.event(
                    "autopay",
                    at,
                    data,
                    [
                        Charge(
                            "checking",
                            -amount,
                            label(sim, "autopay", charge.payee),
                            charge.payee,
                            charge.category,
                            "autopay",
                        )
                    ],
                    i,
                )


def purchase(
    sim: Sim,
    at: dt.datetime,
    merchant: Merchant,
    amount: int,
    key: object,
    account: str | None = None,
    memo: str | None = None,
    **extra,
) -> None:
    """Record an in-person card purchase of ``amount`` cents at ``merchant`` (the everyday card, :meth:`Sim.card`,
    unless ``account`` says otherwise); ``memo`` is the bank line's note, ``extra`` more fields of the event."""
    account = account or sim.card()
    text = merchant.name.upper() if account == "credit_card" else label(sim, "debit", merchant.name)
    sim.event(
        "card_purchase",
        at,
        {
            "merchant": merchant.name,
            "merchant_id": merchant.id,
            "category": merchant.category,
            "amount_cents": amount,
            "account": account,
            "city": merchant.city,
            **extra,
        },
        [Charge(account, -amount, text, merchant.name, merchant.category, memo=memo)],
        key,
    )


@world_step(rank=20, writes=("card_purchase", "ledger"))
def simulate_everyday_spending(sim: Sim) -> None:
    """Coffee, in-store groceries, commute, pharmacy, shopping, outings and favourites at city merchants, up to now.

    Nothing on the days the persona is away (see module rules); optional categories scale with :func:`budget`.
    """
    p = sim.persona
    ro = p.routines
    r = sim.rng("finance/everyday")
    times = sim.rng("finance/everyday/times")
    plan_r = sim.rng("finance/everyday/plan")
    cur = p.finances.currency
    b = budget(sim)
    kinds = {m.id: home_kind(p, m) for m in sim.merchants}
    own = set(p.preferences.favourite_merchants) | set(brand_stores(p))  # visited on their own rhythm
    by = {
        c: [m for m in sim.merchants if kinds[m.id] == c and m.name not in own]
        for c in (*MERCHANT_KINDS, "fuel", "parking", "bike", "transit")
    }
    fav = [m for m in sim.merchants if m.name in p.preferences.favourite_merchants]
    gone = away_days(p)
    mode = ro.commute.mode if ro.commute else "transit"
    office = set(p.work.office_days) if p.work else set()
    depart = ro.commute.depart if ro.commute else "08:10"
    dh, dm = (int(x) for x in str(depart).split(":")[:2])
    weekly_shop = b.groceries * 12 // 52  # the in-store weekly shop when nothing is delivered
    next_fuel = sim.start.date() + dt.timedelta(days=plan_r.randint(0, 9))
    fav_next = {m.id: sim.start.date() + dt.timedelta(days=plan_r.randint(0, 12)) for m in fav}
    fav_gap = {m.id: plan_r.randint(10, 24) for m in fav}
    pass_months: set[tuple[int, int]] = set()
    # A pass the household pays as a bill (a transport recurring charge) is not bought again at the counter; its
    # plan entry stays, so every later draw stays where it was.
    pass_bill = any(c.category == "transport" for c in p.recurring_charges or [])
    for day in sim.past_days():
        wd = sim.weekday(day)
        draws = [r.random() for _ in range(8)]  # a fixed number per day keeps later days' draws in place
        if day in gone:
            continue
        plan = []
        if draws[0] < ro.coffee_per_week / 7:
            plan.append(("coffee", dt.time(times.randint(7, 10), times.randint(0, 59)), None))
        if not ro.grocery_delivery and wd == ro.groceries_day:
            amount = to_unit(int(weekly_shop * r.uniform(0.8, 1.2)), cur)
            plan.append(("groceries", dt.time(times.randint(10, 17), times.randint(0, 59)), amount))
        if draws[1] < (0.08 if ro.grocery_delivery else 0.1):
            plan.append(("groceries", dt.time(times.randint(17, 20), times.randint(0, 59)), None))
        # The commute.
        if mode == "transit":
            if len(office) >= 3:
                if (day.year, day.month) not in pass_months:
                    pass_months.add((day.year, day.month))
                    plan.append(("transit_pass", dt.time(dh, dm), prices.local_amount(TRANSIT_PASS, cur)))
            elif wd in office:
                plan.append(("transit", dt.time(dh, dm), 2 * prices.local_amount(TRANSIT_FARE, cur)))
            if draws[2] < 0.08 and wd in ("sat", "sun") and len(office) < 3:
                plan.append(
                    (
                        "transit",
                        dt.time(times.randint(11, 19), times.randint(0, 59)),
                        2 * prices.local_amount(TRANSIT_FARE, cur),
                    )
                )
        elif mode == "car":
            if day >= next_fuel:
                plan.append(("fuel", dt.time(times.randint(7, 19), times.randint(0, 59)), None))
                next_fuel = day + dt.timedelta(days=plan_r.randint(9, 16))
            if wd in office and draws[2] < 0.3:
                plan.append(("parking", dt.time(dh, dm), None))
        elif mode == "bike" and draws[2] < 0.012:
            plan.append(("bike", dt.time(times.randint(10, 18), times.randint(0, 59)), None))
        for k, (category, chance) in enumerate((("health", 0.04), ("shopping", 0.1), ("entertainment", 0.05))):
            if draws[3 + k] < chance * b.scale:
                plan.append((category, dt.time(times.randint(11, 20), times.randint(0, 59)), None))
        for m in fav:
            if day >= fav_next[m.id]:
                fav_next[m.id] = day + dt.timedelta(days=fav_gap[m.id] + plan_r.randint(-2, 2))
                plan.append((m, dt.time(times.randint(10, 19), times.randint(0, 59)), None))
        for n, (category, time, amount) in enumerate(plan):
            if isinstance(category, Merchant):
                merchant, category = category, category.category
            else:
                choices = (
                    by.get("transit" if category.startswith("transit") else category)
                    or by.get(_BANK_CATEGORY.get(category, category))
                    or by["shopping"]
                )
                merchant = choices[r.randrange(len(choices))]
            lo, hi = {"fuel": (3200, 6800), "parking": (600, 2400), "bike": (1500, 9500)}.get(
                category, MERCHANT_KINDS.get(merchant.category, (1000, 5000))
            )
            if amount is None:
                amount = prices.figure(r.randint(lo, hi), cur)
            # Small coffee buys go on the debit card half the time; everything else on the credit card.
            account = "checking" if (r.random() < 0.5 and merchant.category == "coffee") else None
            at = dt.datetime.combine(day, time)
            if at <= sim.now and not (category == "transit_pass" and pass_bill):
                extra = {"pass": True} if category == "transit_pass" else {}
                purchase(sim, at, merchant, amount, ("everyday", n), account, **extra)
    _brand_visits(sim, gone)


def _brand_visits(sim: Sim, gone: set[dt.date]) -> None:
    """Purchases at the brand stores (:func:`brand_stores`; module rules), on days at home, up to now."""
    stores = {m.name: m for m in sim.merchants}
    r = sim.rng("finance/everyday/brands")
    cur = sim.persona.finances.currency
    for name in brand_stores(sim.persona):
        m = stores[name]
        day = sim.start.date() + dt.timedelta(days=r.randint(5, 60))
        gap = r.randint(45, 120)
        while dt.datetime.combine(day, dt.time(10)) <= sim.now:
            when = dt.datetime.combine(day, dt.time(r.randint(10, 18), r.randint(0, 59)))
            amount = prices.figure(r.randrange(4000, 18000, 100), cur)
            if day not in gone and when <= sim.now:
                purchase(sim, when, m, amount, ("brand", name, day.isoformat()))
            day += dt.timedelta(days=gap + r.randint(-7, 7))


GIFT_RELATIONSHIPS = ("partner", "spouse", "parent", "sibling", "child", "friend")


def _birthday_in(year: int, born: dt.date) -> dt.date:
    try:
        return born.replace(year=year)
    except ValueError:  # 29 February in a common year
        return dt.date(year, 2, 28)


@world_step(rank=30, writes=("p2p_payment", "ledger"))
def simulate_p2p(sim: Sim) -> None:
    """P2P payments with contacts (Zelle-style), weighted by closeness, about one every eight days, and
    birthday gifts 1-4 days before the birthdays of close people (see module rules)."""
    p = sim.persona
    r = sim.rng("finance/p2p")
    times = sim.rng("finance/p2p/times")
    gone = away_days(p)
    people = [c for c in p.contacts if c.relationship not in ("colleague", "neighbor") or r.random() < 0.5]
    gift_memo = {"en_US": "birthday gift", "en_GB": "birthday present", "de_DE": "Geburtstagsgeschenk"}.get(
        p.bank, "birthday gift"
    )

    def pay(at: dt.datetime, contact, amount: int, memo: str, incoming: bool, key=()) -> None:
        direction = "received" if incoming else "sent"
        sim.event(
            "p2p_payment",
            at,
            {
                "direction": direction,
                "contact": contact.name,
                "contact_email": contact.email,
                "contact_phone": contact.phone,
                "amount_cents": amount,
                "memo": memo,
            },
            [
                Charge(
                    "checking",
                    amount if incoming else -amount,
                    label(sim, "p2p_from" if incoming else "p2p_to", contact.name),
                    contact.name,
                    "p2p",
                    f"p2p_{direction}",
                    None,
                    memo,
                )
            ],
            key,
        )

    if people:
        weights = [c.closeness or 1 for c in people]
        scale = min(1.2, max(0.5, budget(sim).scale))
        for day in sim.past_days():
            if r.random() >= 0.12 * scale:
                continue
            contact = r.choices(people, weights)[0]
            memos = P2P_MEMOS_LOCALE.get(p.bank, P2P_MEMOS)
            memo = r.choice(memos.get(contact.relationship) or P2P_MEMOS[contact.relationship])
            amount = prices.figure(r.randrange(1500, 16000, 25), p.finances.currency)
            incoming = r.random() < 0.3
            at = dt.datetime.combine(day, dt.time(times.randint(10, 22), times.randint(0, 59)))
            if at > sim.now or "birthday" in memo:
                continue
            pay(at, contact, amount, memo, incoming)
    # Birthday gifts, drawn per contact and year so one contact's gifts never move another's.
    for c in p.contacts:
        if not c.birthday or c.relationship not in GIFT_RELATIONSHIPS or (c.closeness or 3) < 3:
            continue
        for year in range(sim.start.year, sim.now.year + 1):
            g = sim.rng(f"finance/p2p/gift/{c.name}/{year}")
            day = _birthday_in(year, c.birthday) - dt.timedelta(days=g.randint(1, 4))
            at = dt.datetime.combine(day, dt.time(g.randint(9, 21), g.randint(0, 59)))
            if g.random() < 0.15 or not sim.start <= at <= sim.now:
                continue
            if day in gone:  # sent before leaving instead
                while day in gone:
                    day -= dt.timedelta(days=1)
                at = dt.datetime.combine(day, at.time())
            amount = prices.figure(
                g.randrange(2500, 10000 if c.relationship == "friend" else 20000, 500), p.finances.currency
            )
            pay(at, c, amount, gift_memo, False, ("gift", c.name))


def _round_up(amount: int, step: int = 5000) -> int:
    return -(-amount // step) * step


@dataclass
class Knobs:
    """What settlement may be told besides the persona's habits, to land each account on its spec ``balance`` on
    ``as_of`` (:func:`settle`): ``opening`` the balance of each account at the history's start (ledger sign, cents);
    ``withhold`` cents kept back from the statement payment of a month (first day of the payment's month); ``extra``
    an extra card payment from checking and ``move`` a transfer from checking to savings (negative: back), both
    shortly before ``now``."""

    opening: dict[str, int]
    withhold: dict[dt.date, int]
    extra: int = 0
    move: int = 0


# The last moves settlement makes to land a balance on as_of: this long before the world's now.
ADJUST_BEFORE_NOW = dt.timedelta(minutes=10)


def opening_cents(account) -> int:
    """A spec account's ``opening_balance`` in the ledger's sign (a card owing $5 is -500); 0 when it has none."""
    amount = cents(account.opening_balance) if account.opening_balance is not None else 0
    return -amount if account.kind == "credit_card" else amount


def balance_targets(p: Persona) -> dict[str, int]:
    """The bank accounts with a spec ``balance`` (on ``as_of``): account kind -> cents in the ledger's sign."""
    return {
        a.kind: -cents(a.balance) if a.kind == "credit_card" else cents(a.balance)
        for a in p.accounts
        if a.balance is not None and a.kind in ("checking", "savings", "credit_card")
    }


@world_step(rank=1000, reads=("ledger",), writes=("transfer", "card_payment", "interest", "ledger"))
def settle(sim: Sim, card_name: str | None = None) -> None:
    """Card payments and pay-downs, card interest, savings transfers and savings interest (see module rules).
    ``card_name`` names the credit card in payment lines (default: the bank's first word, ``"LARKSPUR VISA"``).

    Accounts with a spec ``balance`` (on ``as_of``) end there exactly (:func:`solve_balances`); their opening
    balances go to ``sim.openings``."""
    card_name = card_name or f"{service('bank').title.split()[0].upper()} VISA"
    knobs = Knobs({a.kind: opening_cents(a) for a in sim.persona.accounts}, {})
    targets = balance_targets(sim.persona)
    if targets:
        knobs = solve_balances(sim, card_name, targets, knobs)
        sim.openings.update({k: knobs.opening[k] for k in targets})
    _settle(sim, card_name, knobs, sim.event)


def solve_balances(sim: Sim, card_name: str, targets: dict[str, int], knobs: Knobs) -> Knobs:
    """The :class:`Knobs` with which settlement ends each account of ``targets`` (kind -> cents on ``as_of``, ledger
    sign) there exactly. Settlement is run dry (no event made) and adjusted until it does:

    - checking: with a savings account, the last move between checking and savings before ``now`` (the world sweeps
      what checking holds beyond its needs into savings, so the opening balance would not reach it); without one,
      its opening balance;
    - savings: its opening balance;
    - the credit card: owing more, the latest statement payments keep that much back (interest follows, as for any
      statement not paid in full); owing less, an extra payment from checking before ``now``; when no payment is left
      to keep back, its opening balance.

    A savings account without a target whose last move takes more than it holds held more at the start. Raises
    :class:`~builder.world.model.SpecNotHonoured` (that account's ``balance``) when the history's pay, spending and
    bills leave more than the target in savings (or, without savings, in checking) even from an opening balance of
    0, or when 80 rounds do not land every account exactly."""
    p = sim.persona
    kinds = [a.kind for a in p.accounts]
    knobs = Knobs(dict(knobs.opening), {})
    for k, cents_ in targets.items():
        if k != "credit_card":
            knobs.opening[k] = cents_
    # The account whose opening balance stands for the rest of the world's money: savings, else checking.
    base = "savings" if "savings" in kinds else "checking"
    at_zero = 0  # rounds in a row that wanted ``base`` below 0 at the start
    last: dict[str, int] = {}
    for _ in range(80):
        got, payments = _settle(sim, card_name, knobs, None)
        miss = {k: targets[k] - got[k] for k in targets if got[k] != targets[k]}
        if "savings" in got and "savings" not in targets and got["savings"] < 0:
            knobs.opening["savings"] -= got["savings"]  # the last move took more than savings held: it held more
            continue
        if not miss:
            return knobs
        if miss.get("credit_card", 0) < 0 and miss["credit_card"] == last.get("credit_card"):
            # Keeping more back moved nothing: a pay-down before a charge past 90 % of the limit undid it.
            raise SpecNotHonoured(
                f"finances.accounts[{kinds.index('credit_card')}].balance",
                "the card is paid down to 40 % of its limit before a charge takes it past 90 %: after its last "
                f"pay-down it cannot owe that much on as_of (it owes {money(-got['credit_card'], p.finances.currency)})",
            )
        last = miss
        if "credit_card" in miss:
            more = -miss["credit_card"]  # > 0: the card should owe more
            if more > 0:
                cut = min(knobs.extra, more)
                knobs.extra -= cut
                more -= cut
                for month in sorted(payments, reverse=True):
                    take = min(payments[month], more)
                    if take > 0:
                        knobs.withhold[month] = knobs.withhold.get(month, 0) + take
                        more -= take
                knobs.opening["credit_card"] -= more
            else:
                less = -more
                for month in sorted(knobs.withhold):
                    back = min(knobs.withhold[month], less)
                    knobs.withhold[month] -= back
                    less -= back
                knobs.withhold = {m: c for m, c in knobs.withhold.items() if c}
                knobs.extra += less
        if "checking" in miss:
            if "savings" in kinds:
                knobs.move -= miss["checking"]
            else:
                knobs.opening["checking"] += miss["checking"]
        if "savings" in miss:
            knobs.opening["savings"] += miss["savings"]
        if base in targets and knobs.opening[base] < 0:
            knobs.opening[base] = 0
            at_zero += 1
            if at_zero >= 3:
                least = _settle(sim, card_name, knobs, None)[0][base]
                raise SpecNotHonoured(
                    f"finances.accounts[{kinds.index(base)}].balance",
                    f"the history's pay, spending and bills leave at least {money(least, p.finances.currency)} "
                    f"in {base} on as_of (from an opening balance of 0 {p.history_months} months before)",
                )
        else:
            at_zero = 0
    kind = next(iter(miss))
    raise SpecNotHonoured(
        f"finances.accounts[{kinds.index(kind)}].balance",
        f"the history's money flows do not land the {kind} account on it",
    )


class _Dry:
    """What a dry run of settlement makes instead of an event: the charges, read as postings."""

    def __init__(self, charges):
        self.postings = tuple(charges)


def _settle(sim: Sim, card_name: str, knobs: Knobs, emit):
    """Run settlement over ``sim``'s ledger with ``knobs``: through ``emit`` (``sim.event``) when given; dry when
    ``emit`` is None, returning (balance of each account at ``now``, ledger sign; cents each month's statement
    payment paid, by the payment month's first day)."""
    dry = emit is None
    done: dict[str, int] = {}
    paid_in: dict[dt.date, int] = {}

    def make(kind, at, data, charges=(), key=""):
        for c in charges:
            if at <= sim.now:
                done[c.account] = done.get(c.account, 0) + c.amount_cents
        return _Dry(charges) if dry else emit(kind, at, data, list(charges), key)

    p = sim.persona
    kinds = [a.kind for a in p.accounts]
    specs = {a.kind: a for a in p.accounts}
    bal = {a.kind: knobs.opening[a.kind] for a in p.accounts}
    sav_apr = (specs["savings"].apr if "savings" in specs else None) or Decimal(0)
    card = specs.get("credit_card")
    limit = cents(card.credit_limit) if card and card.credit_limit else 0
    card_apr = (card.apr if card and card.apr is not None else Decimal("22.99")) if card else Decimal(0)
    target = budget(sim).savings
    # Checking keeps enough for a month of bills paid from it, plus a cushion.
    reserve = CUSHION_CENTS + sum(cents(c.amount) for c in p.recurring_charges if c.method != "card")

    # Existing ledger lines in time order: (at, seq, account, cents).
    lines = sorted((e.at, n, pst.account, pst.amount_cents) for n, e in enumerate(sim.events) for pst in e.postings)

    # Settlement actions in time order: (at, order, what, month).
    actions = []
    month = sim.start.date().replace(day=1)
    while month <= sim.end.date():
        actions.append((dt.datetime.combine(month, dt.time(0, 1)), 0, "card_interest", month))
        actions.append(
            (dt.datetime.combine(next_business_day(month.replace(day=20)), dt.time(8, 0)), 1, "card_pay", month)
        )
        actions.append(
            (dt.datetime.combine(next_business_day(month.replace(day=3)), dt.time(8, 30)), 2, "savings", month)
        )
        actions.append((dt.datetime.combine(month_end(month), dt.time(23, 0)), 3, "savings_interest", month))
        actions.append((dt.datetime.combine(month_end(month), dt.time(23, 59, 59)), 4, "statement", month))
        month = add_months(month, 1)
    if knobs.extra or knobs.move:
        actions.append((sim.now - ADJUST_BEFORE_NOW, 5, "adjust", sim.now.date().replace(day=1)))
    actions = [a for a in sorted(actions) if sim.start <= a[0] <= sim.end]

    state = {"owed": -bal.get("credit_card", 0), "paid": 0, "carried": False, "daily": 0, "day": sim.start.date()}

    def close_days(upto: dt.date) -> None:
        # Add each finished day's closing card balance to the cycle's running sum (for interest).
        while state["day"] < upto:
            state["daily"] += max(0, -bal.get("credit_card", 0))
            state["day"] += dt.timedelta(days=1)

    def record(event) -> None:
        for pst in event.postings:
            bal[pst.account] += pst.amount_cents
            if pst.account == "credit_card" and pst.amount_cents > 0:
                state["paid"] += pst.amount_cents

    def from_savings(at: dt.datetime, need: int, why: tuple) -> None:
        # Top checking up from savings (rounded up to 50) when the card needs more than checking can spare; ``why``
        # tells a second payment's top-up of the same minute apart (its own id and key).
        if "savings" not in kinds or need <= 0 or bal["savings"] <= 0:
            return
        amount = min(_round_up(need), bal["savings"])
        tid = derived_id(sim.seed, "transfer", "from_savings", at.isoformat(), *why)
        record(
            make(
                "transfer",
                at - dt.timedelta(minutes=1),
                {"from": "savings", "to": "checking", "amount_cents": amount, "recurring": False},
                [
                    Charge("savings", -amount, label(sim, "from_savings"), None, "transfer", "transfer", tid),
                    Charge("checking", amount, label(sim, "to_checking"), None, "transfer", "transfer", tid),
                ],
                ("from_savings", *why),
            )
        )

    payments: Counter[dt.datetime] = Counter()  # card payments so far at each time (two charges of one minute)

    def pay_card(at: dt.datetime, want: int, owed: int, paydown: bool, due: int | None = None) -> int:
        # The n-th payment of one minute (n >= 1: a second charge past 90 % of the limit) gets its own ids and keys
        # (its top-up from savings too); the first keeps the plain ones.
        nth = (payments[at],) if payments[at] else ()
        payments[at] += 1
        spare = bal["checking"] - reserve
        if spare < want:
            from_savings(at, want - max(spare, 0), nth)
            spare = bal["checking"] - reserve
        # Whole units of the currency (yen): a paydown to 40 % of the limit, or the spare cash, can fall between.
        amount = floor_unit(min(want, max(spare, 0)), p.finances.currency)
        if amount <= 0:
            return 0
        tid = derived_id(sim.seed, "card_payment", at.isoformat(), paydown, *nth)
        # statement_owed_cents: what was still due when paying (a pay-down pays exactly what it means to).
        data = {
            "amount_cents": amount,
            "statement_owed_cents": amount if paydown else want if due is None else due,
            "recurring": not paydown,
        }
        if not paydown:
            data["statement_balance_cents"] = owed
        if paydown:
            data["paydown"] = True
        record(
            make(
                "card_payment",
                at,
                data,
                [
                    Charge(
                        "checking",
                        -amount,
                        label(sim, "card_payment", card_name),
                        None,
                        "transfer",
                        "card_payment",
                        tid,
                    ),
                    Charge("credit_card", amount, label(sim, "card_thanks"), None, "transfer", "card_payment", tid),
                ],
                ("paydown", *nth) if paydown else "",
            )
        )
        return amount

    def act(at: dt.datetime, what: str, month: dt.date) -> None:
        close_days(at.date())
        if what == "statement":
            if "credit_card" in kinds:
                close_days(at.date() + dt.timedelta(days=1))
                state.update(owed=max(0, -bal["credit_card"]), paid=0)
            return
        if what == "card_interest":
            # Interest for the cycle that just ended, if its opening statement was not paid in full in time.
            if "credit_card" in kinds and state.get("carried") and card_apr and at <= sim.now:
                interest = cents(
                    Decimal(state["cycle_daily"]) / 100 * card_apr / 100 / 365, sim.persona.finances.currency
                )
                if interest > 0:
                    record(
                        make(
                            "interest",
                            at,
                            {
                                "account": "credit_card",
                                "amount_cents": interest,
                                "apr": str(card_apr),
                                "cycle": state["cycle"],
                            },
                            [
                                Charge(
                                    "credit_card", -interest, label(sim, "card_interest"), None, "interest", "interest"
                                )
                            ],
                            "card",
                        )
                    )
            state["carried"] = False
            return
        if what == "card_pay":
            prev_end = dt.datetime.combine(month - dt.timedelta(days=1), dt.time(23, 59, 59))
            if "credit_card" in kinds and sim.start < prev_end < sim.now:
                owed = state["owed"]
                due = min(max(0, owed - state["paid"]), max(0, -bal["credit_card"]))
                want = max(0, due - knobs.withhold.get(month, 0))
                if want > 0:
                    paid = pay_card(at, want, owed, False, None if want == due else due)
                    if at <= sim.now:
                        paid_in[month] = paid
                state["carried"] = state["owed"] - state["paid"] > 0
            return
        if what == "adjust":
            if knobs.extra:
                tid = derived_id(sim.seed, "card_payment", at.isoformat(), "extra")
                owed_now = max(0, -bal["credit_card"])
                record(
                    make(
                        "card_payment",
                        at,
                        {"amount_cents": knobs.extra, "statement_owed_cents": owed_now, "recurring": False},
                        [
                            Charge(
                                "checking",
                                -knobs.extra,
                                label(sim, "card_payment", card_name),
                                None,
                                "transfer",
                                "card_payment",
                                tid,
                            ),
                            Charge(
                                "credit_card",
                                knobs.extra,
                                label(sim, "card_thanks"),
                                None,
                                "transfer",
                                "card_payment",
                                tid,
                            ),
                        ],
                        "extra",
                    )
                )
            if knobs.move:
                # The bank's words for each side of a move, as the sweep (to savings) and the top-up (back) write them.
                out, into, out_words, into_words = (
                    ("checking", "savings", "to_savings", "from_checking")
                    if knobs.move > 0
                    else ("savings", "checking", "from_savings", "to_checking")
                )
                amount = abs(knobs.move)
                tid = derived_id(sim.seed, "transfer", "adjust", at.isoformat())
                record(
                    make(
                        "transfer",
                        at + dt.timedelta(minutes=1),
                        {"from": out, "to": into, "amount_cents": amount, "recurring": False},
                        [
                            Charge(out, -amount, label(sim, out_words), None, "transfer", "transfer", tid),
                            Charge(into, amount, label(sim, into_words), None, "transfer", "transfer", tid),
                        ],
                        "adjust",
                    )
                )
            return
        if what == "savings":
            if (
                "savings" in kinds
                and target
                and at <= sim.now
                and bal["checking"] - target >= reserve + max(0, -bal.get("credit_card", 0))
            ):
                day3 = at.date()
                tid = derived_id(sim.seed, "transfer", day3.isoformat())
                record(
                    make(
                        "transfer",
                        at,
                        {"from": "checking", "to": "savings", "amount_cents": target, "recurring": True},
                        [
                            Charge("checking", -target, label(sim, "to_savings"), None, "transfer", "transfer", tid),
                            Charge("savings", target, label(sim, "from_checking"), None, "transfer", "transfer", tid),
                        ],
                    )
                )
            # What checking holds beyond the reserve, the card and half a month's pay goes back to savings.
            if "savings" in kinds and at <= sim.now:
                excess = bal["checking"] - reserve - max(0, -bal.get("credit_card", 0)) - budget(sim).net // 2
                excess = excess // 5000 * 5000
                if excess >= 50000:
                    tid = derived_id(sim.seed, "transfer", "sweep", at.isoformat())
                    record(
                        make(
                            "transfer",
                            at + dt.timedelta(minutes=2),
                            {
                                "from": "checking",
                                "to": "savings",
                                "amount_cents": excess,
                                "recurring": False,
                                "sweep": True,
                            },
                            [
                                Charge(
                                    "checking", -excess, label(sim, "to_savings"), None, "transfer", "transfer", tid
                                ),
                                Charge(
                                    "savings", excess, label(sim, "from_checking"), None, "transfer", "transfer", tid
                                ),
                            ],
                            "sweep",
                        )
                    )
            return
        if what == "savings_interest" and "savings" in kinds and sav_apr and at < sim.now:
            interest = cents(Decimal(bal["savings"]) / 100 * sav_apr / 100 / 12, sim.persona.finances.currency)
            if interest > 0:
                record(
                    make(
                        "interest",
                        at,
                        {"account": "savings", "amount_cents": interest},
                        [Charge("savings", interest, label(sim, "interest"), None, "interest", "interest")],
                    )
                )

    k = 0
    for at, _, account, amount in lines:
        while k < len(actions) and actions[k][0] <= at:
            act(actions[k][0], actions[k][2], actions[k][3])
            k += 1
            if actions[k - 1][2] == "statement":
                state["cycle_daily"], state["daily"] = state["daily"], 0
                state["cycle"] = actions[k - 1][3].strftime("%Y-%m")
        if account == "credit_card" and amount < 0 and limit and -(bal["credit_card"] + amount) > limit * 9 // 10:
            close_days(at.date())
            # Pay the card down before a charge that would take it past 90 % of the limit: to 40 % after it.
            want = -(bal["credit_card"] + amount) - limit * 4 // 10
            pay_card(at - dt.timedelta(minutes=3), want, want, True)
        close_days(at.date())
        bal[account] += amount
        if account == "credit_card" and amount > 0:
            state["paid"] += amount
    while k < len(actions):
        act(actions[k][0], actions[k][2], actions[k][3])
        k += 1
        if actions[k - 1][2] == "statement":
            state["cycle_daily"], state["daily"] = state["daily"], 0
            state["cycle"] = actions[k - 1][3].strftime("%Y-%m")
    if dry:
        for at, _, account, amount in lines:
            if at <= sim.now:
                done[account] = done.get(account, 0) + amount
        return {k: knobs.opening[k] + done.get(k, 0) for k in kinds}, paid_in
    return None


# --- what this domain mails (through the mail channel, builder/world/mail.py) --------------------


@world_step(rank=67, writes=("email",))
def mail_statements(sim: Sim) -> None:
    """The bank's "your statement is ready" mail for each account (not the brokerage) on the 3rd of every month."""
    box = mailbox(sim)
    p = box.p
    r = sim.rng("mail/statements")
    month = sim.start.date().replace(day=1)
    while True:
        nxt = (month.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
        at = dt.datetime.combine(nxt.replace(day=3), dt.time(6, r.randint(0, 59)))
        if at > sim.now:
            break
        period_start = max(month, sim.start.date())
        for k, acct in enumerate(p.accounts):
            if acct.kind == "brokerage":
                continue
            subject, body = render(
                "statement",
                fmt=box.fmt,
                me=box.me,
                first=box.first,
                account=acct,
                start=period_start,
                end=nxt - dt.timedelta(days=1),
                r=r,
            )
            box.single(
                ("statement", acct.kind, month),
                at + dt.timedelta(minutes=k),
                BANK,
                subject,
                body,
                labels=["bank"],
                r=r,
                read_p=0.85,
                archive_p=0.5,
                series="statement",
            )
        month = nxt


@world_step(rank=68, reads=("paycheck",), writes=("email",))
def mail_payslips(sim: Sim) -> None:
    """The employer's payroll mails a pay-stub notice (a payslip PDF attached) minutes after every paycheck."""
    box = mailbox(sim)
    p = box.p
    if not p.work or not p.work.employer:
        return
    r = sim.rng("mail/payroll")
    sender = {"name": f"{p.work.employer} Payroll", "email": f"payroll@{domain_of(box.me_work['email'])}"}
    for e in sim.of_kind("paycheck"):
        at = e.at + dt.timedelta(minutes=r.randint(15, 90))
        if at > sim.now:
            continue
        subject, body = render(
            "payslip",
            fmt=box.fmt,
            me=box.me_work,
            first=box.first,
            d=e.data,
            day=e.at.date(),
            employer=p.work.employer,
            r=r,
        )
        att = [
            {
                "filename": f"payslip-{e.at.date().isoformat()}.pdf",
                "content_type": "application/pdf",
                "size": r.randint(38_000, 56_000),
            }
        ]
        box.single(
            ("payslip", e.id),
            at,
            sender,
            subject,
            body,
            labels=["work", "payroll"],
            ref=e.id,
            r=r,
            to=[box.me_work],
            attachments=att,
            read_p=0.8,
            archive_p=0.6,
            series="payslip",
        )


def loan_balances(sim: Sim) -> dict[str, tuple[str, int]]:
    """The balance of each spec debt (``finances.debts``) after each of its payments: event id of a recurring charge
    paid to the debt's lender -> (the debt's name, balance in cents). ``Debt.balance`` is the balance on ``as_of``
    (after the last payment before it); the earlier ones are amortized back from it, the later ones forward, at the
    debt's APR compounded monthly (balance after = balance before x (1 + APR/12) - payment), never below 0."""
    out: dict[str, tuple[str, int]] = {}
    for debt in sim.persona.finances.debts:
        lender = debt.lender.casefold()
        payments = [
            e
            for e in sim.of_kind("autopay", "bill_payment", "card_purchase")
            if e.data.get("recurring") and str(e.data.get("payee") or e.data.get("merchant") or "").casefold() == lender
        ]
        if not payments:
            continue
        monthly = Decimal(debt.apr) / 1200
        now = sim.now
        past = [e for e in payments if e.at <= now]
        future = [e for e in payments if e.at > now]
        balance = Decimal(debt.balance) * 100
        for e in reversed(past):
            out[e.id] = (debt.name, int(max(Decimal(0), balance).quantize(Decimal(1))))
            balance = (balance + abs(Decimal(e.data["amount_cents"]))) / (1 + monthly)
        balance = Decimal(debt.balance) * 100
        for e in future:
            balance = max(Decimal(0), balance * (1 + monthly) - abs(Decimal(e.data["amount_cents"])))
            out[e.id] = (debt.name, int(balance.quantize(Decimal(1))))
    return out


@world_step(rank=69, reads=("autopay", "bill_payment", "card_purchase"), writes=("email",))
def mail_bills(sim: Sim) -> None:
    """A "your bill is ready" mail from each recurring charge's payee 7-12 days before the charge (its amount, its
    date as the due date; series ``bill``), and for charges paid by bill pay a ``payment_reminder`` 3 days before.
    German rent (category ``housing``, a standing order) has neither."""
    box = mailbox(sim)
    fmt = box.fmt
    bank = automated_bank(box.p.bank)
    loans = loan_balances(sim)
    for e in sim.of_kind("autopay", "bill_payment", "card_purchase"):
        d = e.data
        if not d.get("recurring") or not d.get("payee") and not d.get("merchant"):
            continue
        if d.get("category") in ("housing", "rent") and not bank["bill"]["rent_billed"]:
            continue  # German rent goes out by standing order (Dauerauftrag); the landlord sends no monthly bill
        payee = d.get("payee") or d["merchant"]
        r = sim.rng(f"mail/bill/{e.id}")
        due = e.at.date()
        domain = site_domain(None, payee)
        sender = {"name": payee, "email": f"billing@{domain}"}
        slots = {
            "first": box.first,
            "formal": box.formal,
            "sender": payee,
            "name": d.get("name") or payee,
            "name_lc": (d.get("name") or payee).lower() if bank["bill"]["lowercase_name"] else (d.get("name") or payee),
            "month": fmt.month(due),
            "amount": fmt.money(d["amount_cents"]),
            "due": fmt.day(due),
            "due_long": fmt.long_date(due),
            "url": f"http://{domain}",
            "days": 3,
        }
        method = d.get("method") or ("card" if e.kind == "card_purchase" else "bill_pay")
        slots["how"] = bank["bill"].get(f"how_{method}", bank["bill"]["how_card"])
        if e.id in loans:  # a loan's statement says what is left to repay (finances.debts)
            debt = next(x for x in box.p.finances.debts if x.name == loans[e.id][0])
            loan = {"balance": fmt.money(loans[e.id][1]), "apr": fmt.number(debt.apr)}
            slots["how"] += "\n" + fill_slots(bank["bill"]["loan_balance"], loan)
        at = dt.datetime.combine(due - dt.timedelta(days=r.randint(7, 12)), dt.time(r.randint(6, 10), r.randint(0, 59)))
        if sim.start <= at <= sim.now:
            box.single(
                ("bill", e.id),
                at,
                sender,
                fill_slots(r.choice(bank["bill"]["subjects"]), slots),
                fill_slots(bank["bill"]["body"], slots),
                labels=["bills"],
                ref=e.id,
                r=r,
                read_p=0.85,
                archive_p=0.5,
                series="bill",
            )
        if method == "bill_pay":
            at = dt.datetime.combine(due - dt.timedelta(days=3), dt.time(r.randint(7, 11), r.randint(0, 59)))
            rem = bank["payment_reminder"]
            if sim.start <= at <= sim.now:
                box.single(
                    ("reminder", e.id),
                    at,
                    {"name": payee, "email": f"reminders@{domain}"},
                    fill_slots(r.choice(rem["subjects"]), slots),
                    fill_slots(rem["body"], slots),
                    labels=["bills"],
                    ref=e.id,
                    r=r,
                    read_p=0.8,
                    archive_p=0.5,
                    series="payment_reminder",
                )
