"""Money: paychecks, bills, everyday card spending, P2P payments, and the month-end settlement.

Rules (tasks and tests depend on them):

* Paychecks: biweekly on Fridays (anchored on 2024-01-05), semimonthly on the 15th and
  the month's last day, or monthly on the last day; a weekend moves a paycheck to the
  previous Friday.
* A recurring charge falls on its ``day``; in a shorter month on the last day; a
  Saturday or Sunday moves it to the following Monday.
* Settlement (run after every other module, so it sees all their card charges), month by month:
  - the credit card is paid from checking on the 20th (business-day adjusted): the amount
    owed at the end of the previous month, or as much as checking can spare above a
    reserve of a month's bills plus a cushion (then the rest is carried);
  - on the 3rd (business-day adjusted) 25 % of a month's net pay, rounded down to 50, moves to
    savings if checking stays above that reserve after it;
  - savings interest (APR / 12 on the month-end balance, half-up to the cent) posts on the
    month's last day at 23:00.
  Only months that ended before ``as_of`` are settled; a card payment due after ``now`` is
  ``scheduled``.
"""

from __future__ import annotations

import bisect
import calendar
import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from ..persona import Persona
from .context import Charge, Sim
from .model import Merchant
from ..dates import add_months
from ..rng import derived_id

CUSHION_CENTS = 150_000  # checking keeps at least this much after voluntary moves

# category: (min cents, max cents, name templates)
MERCHANT_KINDS: dict[str, tuple[int, int, tuple[str, ...]]] = {
    "groceries": (1800, 14500, ("{last} Family Market", "{city} Food Co-op", "Fresh {last} Grocers")),
    "coffee": (375, 950, ("{first}'s Coffee Bar", "{last} Roasters", "Morning {last} Cafe")),
    "restaurants": (1400, 8800, ("{last} Kitchen", "Trattoria {last}", "The {last} Tavern", "{first}'s Noodle House")),
    "transport": (1200, 6500, ("{city} Fuel Stop", "{last} Auto Service", "{city} Transit Fares")),
    "health": (800, 4500, ("{last} Pharmacy", "{city} Wellness Clinic")),
    "shopping": (1500, 12500, ("{last} Hardware", "{last} & Co. Outfitters", "{city} Books")),
    "entertainment": (1200, 6000, ("{city} Cinema", "The {last} Music Hall")),
}

P2P_MEMOS = {
    "partner": ["groceries", "utilities split", "date night"],
    "spouse": ["groceries", "utilities split", "date night"],
    "parent": ["birthday gift", "flowers", "holiday travel"],
    "sibling": ["concert tickets", "birthday gift", "pizza night"],
    "child": ["allowance", "school trip"],
    "friend": ["dinner split", "concert tickets", "brunch", "day pass", "cabin weekend"],
    "colleague": ["team lunch", "leaving gift", "coffee run"],
    "roommate": ["utilities split", "household supplies", "internet share"],
    "neighbor": ["package holding thanks", "block party"],
    "other": ["thanks!"],
}


# Ledger wording by locale: what each kind of line says on a statement in that country.
LABELS = {
    "en_US": {"pay": "PAYROLL DEPOSIT {}", "bill_pay": "BILL PAY {}", "autopay": "AUTOPAY {}", "debit": "DEBIT CARD {}",
              "p2p_to": "ZELLE TO {}", "p2p_from": "ZELLE FROM {}", "to_savings": "TRANSFER TO SAVINGS",
              "from_checking": "TRANSFER FROM CHECKING", "card_payment": "PAYMENT TO {}",
              "card_thanks": "PAYMENT THANK YOU", "interest": "INTEREST PAID"},
    "en_GB": {"pay": "SALARY {}", "bill_pay": "STANDING ORDER {}", "autopay": "DIRECT DEBIT {}", "debit": "CARD PAYMENT {}",
              "p2p_to": "FASTER PAYMENT TO {}", "p2p_from": "FASTER PAYMENT FROM {}", "to_savings": "TRANSFER TO SAVER",
              "from_checking": "TRANSFER FROM CURRENT ACCOUNT", "card_payment": "PAYMENT TO {}",
              "card_thanks": "PAYMENT RECEIVED - THANK YOU", "interest": "GROSS INTEREST"},
    "de_DE": {"pay": "GEHALT {}", "bill_pay": "DAUERAUFTRAG {}", "autopay": "LASTSCHRIFT {}", "debit": "KARTENZAHLUNG {}",
              "p2p_to": "ÜBERWEISUNG AN {}", "p2p_from": "GUTSCHRIFT VON {}", "to_savings": "UMBUCHUNG AUF TAGESGELD",
              "from_checking": "UMBUCHUNG VOM GIROKONTO", "card_payment": "KREDITKARTENABRECHNUNG {}",
              "card_thanks": "AUSGLEICH KREDITKARTE", "interest": "ZINSGUTSCHRIFT"},
}


def label(sim: Sim, key: str, name: str = "") -> str:
    """The ledger description of a line of kind ``key`` in the persona's locale (upper case)."""
    return LABELS[sim.persona.locale][key].format(name.upper())


def cents(amount: Decimal) -> int:
    """Currency units (Decimal) to integer cents, half-up."""
    return int((amount * 100).to_integral_value(rounding=ROUND_HALF_UP))


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


def make_merchants(p: Persona) -> list[Merchant]:
    """Merchants in the persona's city, drawn from the stream ``places/<city>/merchants`` (two per template)."""
    from ..rng import faker

    city = p.identity.address.city
    fake = faker(p.seed, f"places/{city}/merchants", p.locale)
    out, seen = [], set()
    for category, (_, _, templates) in MERCHANT_KINDS.items():
        for template in templates:
            for _ in range(2):
                name = template.format(first=fake.first_name(), last=fake.last_name(), city=city)
                if name not in seen:
                    seen.add(name)
                    out.append(Merchant(derived_id(p.seed, "merchant", name), name, category, city))
    return out


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
        for day in ([15, last] if schedule == "semimonthly" else [last]):
            d = prev_business_day(month.replace(day=day))
            if start <= d <= end:
                days.append(d)
        month = add_months(month, 1)
    return days


def monthly_net_cents(p: Persona) -> int:
    """Average monthly take-home pay in cents."""
    periods = {"biweekly": 26, "semimonthly": 24, "monthly": 12}[p.work.pay_schedule]
    return cents(p.work.salary / periods * p.work.net_ratio) * periods // 12


def simulate_income_and_bills(sim: Sim) -> None:
    """Paychecks into checking and every recurring charge on its day, through the horizon."""
    p = sim.persona
    work = p.work
    periods = {"biweekly": 26, "semimonthly": 24, "monthly": 12}[work.pay_schedule]
    net = cents(work.salary / periods * work.net_ratio)
    gross = cents(work.salary / periods)
    kinds = [a.kind for a in p.accounts]
    for day in pay_dates(p, sim.start.date(), sim.end.date()):
        sim.event("paycheck", dt.datetime.combine(day, dt.time(6, 0)),
                  {"employer": work.employer, "gross_cents": gross, "net_cents": net, "recurring": True},
                  [Charge("checking", net, label(sim, "pay", work.employer), work.employer, "income",
                          "paycheck")])
    for i, charge in enumerate(p.recurring_charges):
        amount = cents(charge.amount)
        month = sim.start.date().replace(day=1)
        while month <= sim.end.date():
            due = next_business_day(on_day(month.year, month.month, charge.day))
            month = add_months(month, 1)
            if not sim.start.date() <= due <= sim.end.date():
                continue
            at = dt.datetime.combine(due, dt.time(7, 0)) + dt.timedelta(minutes=7 * i)
            data = {"name": charge.name, "payee": charge.payee, "amount_cents": amount, "method": charge.method,
                    "category": charge.category, "recurring": True}
            if charge.method == "card" and "credit_card" in kinds:
                sim.event("card_purchase", at, {**data, "merchant": charge.payee, "account": "credit_card"},
                          [Charge("credit_card", -amount, charge.payee.upper(), charge.payee, charge.category)], i)
            elif charge.method == "bill_pay":
                sim.event("bill_payment", at, data, [Charge("checking", -amount, label(sim, "bill_pay", charge.payee),
                                                            charge.payee, charge.category, "bill_payment")], i)
            else:
                sim.event("autopay", at, data, [Charge("checking", -amount, label(sim, "autopay", charge.payee),
                                                       charge.payee, charge.category, "autopay")], i)


def purchase(sim: Sim, at: dt.datetime, merchant: Merchant, amount: int, key: object, account: str | None = None,
             **extra) -> None:
    """Record an in-person card purchase at ``merchant`` (credit card unless ``account`` says otherwise)."""
    account = account or sim.card()
    text = merchant.name.upper() if account == "credit_card" else label(sim, "debit", merchant.name)
    sim.event("card_purchase", at, {"merchant": merchant.name, "merchant_id": merchant.id,
                                    "category": merchant.category, "amount_cents": amount, "account": account,
                                    "city": merchant.city, **extra},
              [Charge(account, -amount, text, merchant.name, merchant.category)], key)


def simulate_everyday_spending(sim: Sim) -> None:
    """Coffee, in-store groceries, transport, pharmacy, shopping and outings at city merchants, up to now."""
    p = sim.persona
    ro = p.routines
    r = sim.rng("finance/everyday")
    times = sim.rng("finance/everyday/times")
    by = {c: [m for m in sim.merchants if m.category == c] for c in MERCHANT_KINDS}
    fav = [m for m in sim.merchants if m.name in p.preferences.favourite_merchants]
    for day in sim.past_days():
        wd = sim.weekday(day)
        plan = []
        if r.random() < ro.coffee_per_week / 7:
            plan.append(("coffee", dt.time(times.randint(7, 10), times.randint(0, 59))))
        if not ro.grocery_delivery and wd == ro.groceries_day:
            plan.append(("groceries", dt.time(times.randint(10, 17), times.randint(0, 59))))
        if r.random() < 0.12:
            plan.append(("groceries", dt.time(times.randint(17, 20), times.randint(0, 59))))
        if r.random() < {"car": 0.16, "transit": 0.12, "bike": 0.04, "walk": 0.03, "rideshare": 0.02}[ro.commute.mode]:
            plan.append(("transport", dt.time(times.randint(7, 19), times.randint(0, 59))))
        for category, chance in (("health", 0.04), ("shopping", 0.1), ("entertainment", 0.05)):
            if r.random() < chance:
                plan.append((category, dt.time(times.randint(11, 20), times.randint(0, 59))))
        for n, (category, time) in enumerate(plan):
            choices = by[category]
            merchant = (fav[r.randrange(len(fav))] if category == "shopping" and fav and r.random() < 0.4
                        else choices[r.randrange(len(choices))])
            lo, hi = MERCHANT_KINDS[category][:2]
            amount = r.randint(lo, hi)
            # Small coffee buys go on the debit card half the time; everything else on the credit card.
            account = "checking" if (r.random() < 0.5 and category == "coffee") else None
            at = dt.datetime.combine(day, time)
            if at <= sim.now:
                purchase(sim, at, merchant, amount, ("everyday", n), account)


def simulate_p2p(sim: Sim) -> None:
    """P2P payments with contacts (Zelle-style), weighted by closeness; about one every eight days."""
    p = sim.persona
    r = sim.rng("finance/p2p")
    times = sim.rng("finance/p2p/times")
    people = [c for c in p.contacts if c.relationship not in ("colleague", "neighbor") or r.random() < 0.5]
    if not people:
        return
    weights = [c.closeness or 1 for c in people]
    for day in sim.past_days():
        if r.random() >= 0.12:
            continue
        contact = r.choices(people, weights)[0]
        memo = r.choice(P2P_MEMOS[contact.relationship])
        amount = r.randrange(1500, 16000, 25)
        incoming = r.random() < 0.3
        at = dt.datetime.combine(day, dt.time(times.randint(10, 22), times.randint(0, 59)))
        if at > sim.now:
            continue
        direction = "received" if incoming else "sent"
        sim.event("p2p_payment", at, {"direction": direction, "contact": contact.name, "contact_email": contact.email,
                                      "contact_phone": contact.phone, "amount_cents": amount, "memo": memo},
                  [Charge("checking", amount if incoming else -amount,
                          label(sim, "p2p_from" if incoming else "p2p_to", contact.name), contact.name, "p2p",
                          f"p2p_{direction}", None, memo)])


def settle(sim: Sim, card_name: str = "LARKSPUR VISA") -> None:
    """Month-end settlement: savings transfers, card payments and savings interest (see module rules)."""
    p = sim.persona
    kinds = [a.kind for a in p.accounts]
    opening = {a.kind: (-cents(a.opening_balance) if a.kind == "credit_card" else cents(a.opening_balance))
               for a in p.accounts}
    apr = next((a.apr for a in p.accounts if a.kind == "savings"), None) or Decimal(0)
    target = monthly_net_cents(p) // 4 // 5000 * 5000
    # Checking keeps enough for a month of bills paid from it, plus a cushion.
    reserve = CUSHION_CENTS + sum(cents(c.amount) for c in p.recurring_charges if c.method != "card")

    # Ledger lines per account as (time, cents), kept sorted as settlement adds its own.
    lines: dict[str, list[tuple[dt.datetime, int]]] = {k: [] for k in kinds}
    for e in sim.events:
        for pst in e.postings:
            lines[pst.account].append((e.at, pst.amount_cents))
    for k in kinds:
        lines[k].sort()

    def balance(account: str, until: dt.datetime) -> int:
        return opening[account] + sum(a for at, a in lines[account] if at <= until)

    def record(event) -> None:
        for pst in event.postings:
            bisect.insort(lines[pst.account], (event.at, pst.amount_cents))

    month = sim.start.date().replace(day=1)
    while month <= sim.end.date():
        # Savings transfer on the 3rd.
        day3 = next_business_day(month.replace(day=3))
        at = dt.datetime.combine(day3, dt.time(8, 30))
        if "savings" in kinds and target and sim.start <= at <= sim.now:
            if balance("checking", sim.now if at > sim.now else at) - target >= reserve:
                tid = derived_id(sim.seed, "transfer", day3.isoformat())
                record(sim.event("transfer", at, {"from": "checking", "to": "savings", "amount_cents": target,
                                           "recurring": True},
                          [Charge("checking", -target, label(sim, "to_savings"), None, "transfer", "transfer", tid),
                           Charge("savings", target, label(sim, "from_checking"), None, "transfer", "transfer", tid)]))
        # Card payment on the 20th for last month's balance.
        prev_end = dt.datetime.combine(month - dt.timedelta(days=1), dt.time(23, 59, 59))
        day20 = next_business_day(month.replace(day=20))
        at = dt.datetime.combine(day20, dt.time(8, 0))
        if "credit_card" in kinds and sim.start < prev_end < sim.now and at <= sim.end:
            owed = -balance("credit_card", prev_end)
            spare = balance("checking", min(at, sim.now)) - reserve
            amount = min(owed, max(spare, 0))
            if amount > 0:
                tid = derived_id(sim.seed, "card_payment", day20.isoformat())
                record(sim.event("card_payment", at, {"amount_cents": amount, "statement_owed_cents": owed,
                                               "recurring": True},
                          [Charge("checking", -amount, label(sim, "card_payment", card_name), None, "transfer", "card_payment", tid),
                           Charge("credit_card", amount, label(sim, "card_thanks"), None, "transfer", "card_payment", tid)]))
        # Savings interest at month end.
        end = month_end(month)
        at = dt.datetime.combine(end, dt.time(23, 0))
        if "savings" in kinds and apr and at < sim.now and end >= sim.start.date():
            interest = cents(Decimal(balance("savings", at)) / 100 * apr / 100 / 12)
            if interest > 0:
                record(sim.event("interest", at, {"account": "savings", "amount_cents": interest},
                          [Charge("savings", interest, label(sim, "interest"), None, "interest", "interest")]))
        month = add_months(month, 1)
