"""The timeline engine: a day-by-day simulation of the persona's money and browsing.

Rules (documented here because tasks and tests depend on them):

* ``now`` is ``as_of`` at 09:00 local time; events after it are ``scheduled``. Only
  recurring items (paychecks, bills, transfers, card payments) are scheduled into the
  horizon; spontaneous ones (purchases, P2P, web visits) stop at ``now``.
* History starts ``history_months`` months before ``as_of``, on the same day of month.
* Paychecks: biweekly on Fridays (anchored on 2024-01-05), semimonthly on the 15th and
  the month's last day, or monthly on the last day; a weekend moves a paycheck to the
  previous Friday.
* A recurring charge falls on its ``day``; in a shorter month on the last day; a
  Saturday or Sunday moves it to the following Monday.
* Savings transfer of 25 % of monthly net pay (rounded to $50) on the 3rd (business-day adjusted).
* The credit card is paid in full from checking on the 20th (business-day adjusted): the
  amount owed at the end of the previous month.
* Savings interest (APR / 12 on the month-end balance, rounded half-up to the cent)
  posts on the month's last day at 23:00.
"""

from __future__ import annotations

import calendar
import datetime as dt
from decimal import ROUND_HALF_UP, Decimal

from ..persona import Persona
from .model import Event, Merchant, Posting, World
from ..rng import derived_id, faker, rng

BANK_DOMAIN = "larkspurbank.test"  # the bank site's host, from apps/bank/app.yaml

# category: (weight, min cents, max cents, name templates)
_MERCHANT_KINDS: dict[str, tuple[int, int, int, tuple[str, ...]]] = {
    "groceries": (5, 1800, 14500, ("{last} Family Market", "{city} Food Co-op", "Fresh {last} Grocers")),
    "coffee": (6, 375, 950, ("{first}'s Coffee Bar", "{last} Roasters", "Morning {last} Cafe")),
    "restaurants": (4, 1400, 8800, ("{last} Kitchen", "Trattoria {last}", "The {last} Tavern", "{first}'s Noodle House")),
    "transport": (2, 1200, 6500, ("{city} Fuel Stop", "{last} Auto Service", "{city} Transit Fares")),
    "health": (1, 800, 4500, ("{last} Pharmacy", "{city} Wellness Clinic")),
    "shopping": (2, 1500, 12500, ("{last} Hardware", "{last} & Co. Outfitters", "{city} Books")),
    "entertainment": (1, 1200, 6000, ("{city} Cinema", "The {last} Music Hall")),
}

_P2P_MEMOS = {
    "partner": ["groceries", "utilities split", "date night"],
    "spouse": ["groceries", "utilities split", "date night"],
    "parent": ["birthday gift", "flowers for Mom", "holiday travel"],
    "sibling": ["concert tickets", "birthday gift", "pizza night"],
    "child": ["allowance", "school trip"],
    "friend": ["dinner split", "concert tickets", "brunch", "climbing day pass", "cabin weekend"],
    "colleague": ["team lunch", "gift for Sam", "coffee run"],
    "roommate": ["utilities split", "household supplies", "internet share"],
    "neighbor": ["package holding thanks", "block party"],
    "other": ["thanks!"],
}

_BANK_PAGES = [("/", "Accounts"), ("/transfer", "Transfer money"), ("/statements", "Statements"),
               ("/pay-bills", "Pay bills"), ("/send-money", "Send money")]


def _cents(amount: Decimal) -> int:
    return int((amount * 100).to_integral_value(rounding=ROUND_HALF_UP))


def _add_months(day: dt.date, months: int) -> dt.date:
    y, m = divmod(day.month - 1 + months, 12)
    y, m = day.year + y, m + 1
    return day.replace(year=y, month=m, day=min(day.day, calendar.monthrange(y, m)[1]))


def _next_business_day(day: dt.date) -> dt.date:
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day


def _prev_business_day(day: dt.date) -> dt.date:
    while day.weekday() >= 5:
        day -= dt.timedelta(days=1)
    return day


def _on_day(year: int, month: int, day: int) -> dt.date:
    """The ``day`` of a month, clamped to its last day (31 -> 30 Nov, 28/29 Feb)."""
    return dt.date(year, month, min(day, calendar.monthrange(year, month)[1]))


def make_merchants(p: Persona) -> list[Merchant]:
    """Return ~30 merchants in the persona's city, drawn from the stream ``places/<city>/merchants``."""
    city = p.identity.address.city
    fake = faker(p.seed, f"places/{city}/merchants", p.locale)
    out, seen = [], set()
    for category, (_, _, _, templates) in _MERCHANT_KINDS.items():
        for template in templates:
            for _ in range(2):
                name = template.format(first=fake.first_name(), last=fake.last_name(), city=city)
                if name in seen:
                    continue
                seen.add(name)
                out.append(Merchant(derived_id(p.seed, "merchant", name), name, category, city))
    return out


def pay_dates(p: Persona, start: dt.date, end: dt.date) -> list[dt.date]:
    """Paydays in [start, end] per the employer's schedule (see module rules)."""
    schedule = p.work.pay_schedule
    days: list[dt.date] = []
    if schedule == "biweekly":
        d = dt.date(2024, 1, 5)
        step = dt.timedelta(days=14)
        if d < start:
            d += step * ((start - d).days // 14)
        while d <= end:
            if d >= start:
                days.append(d)
            d += step
        return days
    month = start.replace(day=1)
    while month <= end:
        last = calendar.monthrange(month.year, month.month)[1]
        wanted = [15, last] if schedule == "semimonthly" else [last]
        for day in wanted:
            d = _prev_business_day(month.replace(day=day))
            if start <= d <= end:
                days.append(d)
        month = _add_months(month, 1)
    return days


def simulate(p: Persona) -> World:
    """Simulate the completed persona ``p`` (see :func:`builder.persona.complete`) into a :class:`World`.

    Raises ``ValueError`` if ``p`` lacks a checking account (every flow runs through it).
    """
    kinds = [a.kind for a in p.accounts]
    if "checking" not in kinds:
        raise ValueError("the persona needs a checking account")
    seed = p.seed
    now = dt.datetime.combine(p.as_of, dt.time(9, 0))
    start_day = _add_months(p.as_of, -p.history_months)
    start = dt.datetime.combine(start_day, dt.time(0, 0))
    end_day = p.as_of + dt.timedelta(days=p.horizon_days)
    end = dt.datetime.combine(end_day, dt.time(23, 59, 59))
    world = World(persona=p, start=start, now=now, end=end, currency=p.finances.currency,
                  merchants=make_merchants(p))

    employer = p.work
    periods = {"biweekly": 26, "semimonthly": 24, "monthly": 12}[employer.pay_schedule]
    net_pay = _cents(employer.salary / periods * employer.net_ratio)
    savings_transfer = (net_pay * periods // 12 // 4 // 5000) * 5000 if "savings" in kinds else 0
    paydays = set(pay_dates(p, start_day, end_day))

    r_purchase = rng(seed, "world/card_purchases")
    r_p2p = rng(seed, "world/p2p")
    r_visit = rng(seed, "world/web_visits/bank")
    r_times = rng(seed, "world/times")
    weights = [v[0] for v in _MERCHANT_KINDS.values()]
    by_category = {c: [m for m in world.merchants if m.category == c] for c in _MERCHANT_KINDS}

    balance = {k: world.opening_balance_cents(k) for k in kinds}
    card_owed_at_month_end = -balance.get("credit_card", 0)
    events: list[Event] = []

    def emit(kind: str, at: dt.datetime, data: dict, postings: list[tuple], n: int = 0) -> None:
        eid = derived_id(seed, "event", kind, at.isoformat(), n)
        status = "done" if at <= now else "scheduled"
        built = []
        for account, amount, description, counterparty, category, pkind, *rest in postings:
            transfer_id = rest[0] if rest else None
            memo = rest[1] if len(rest) > 1 else None
            built.append(Posting(account, at, amount, description, counterparty, category, pkind, eid,
                                 transfer_id, memo))
            if status == "done":
                balance[account] += amount
        events.append(Event(eid, kind, at, data, status, tuple(built)))

    day = start_day
    while day <= end_day:
        past = dt.datetime.combine(day, dt.time(23, 59)) <= now or day < p.as_of
        # Paycheck.
        if day in paydays:
            at = dt.datetime.combine(day, dt.time(6, 0))
            emit("paycheck", at, {"employer": employer.employer, "gross_cents": _cents(employer.salary / periods),
                                  "net_cents": net_pay},
                 [("checking", net_pay, f"PAYROLL DEPOSIT {employer.employer.upper()}", employer.employer, "income",
                   "paycheck")])
        # Recurring charges.
        for i, charge in enumerate(p.recurring_charges):
            due = _next_business_day(_on_day(day.year, day.month, charge.day))
            if due != day:
                # The Monday after a weekend may fall in the next month: check last month's due date too.
                prev = _add_months(day.replace(day=1), -1)
                if _next_business_day(_on_day(prev.year, prev.month, charge.day)) != day:
                    continue
            amount = _cents(charge.amount)
            at = dt.datetime.combine(day, dt.time(7, 0)) + dt.timedelta(minutes=7 * i)
            data = {"name": charge.name, "payee": charge.payee, "amount_cents": amount, "method": charge.method,
                    "category": charge.category}
            if charge.method == "card" and "credit_card" in kinds:
                emit("card_purchase", at, {**data, "merchant": charge.payee, "recurring": True},
                     [("credit_card", -amount, charge.payee.upper(), charge.payee, charge.category, "card_purchase")], i)
            elif charge.method == "bill_pay":
                emit("bill_payment", at, data,
                     [("checking", -amount, f"BILL PAY {charge.payee.upper()}", charge.payee, charge.category,
                       "bill_payment")], i)
            else:
                emit("autopay", at, data,
                     [("checking", -amount, f"AUTOPAY {charge.payee.upper()}", charge.payee, charge.category,
                       "autopay")], i)
        # Savings transfer.
        if savings_transfer and day == _next_business_day(day.replace(day=3)):
            at = dt.datetime.combine(day, dt.time(8, 30))
            tid = derived_id(seed, "transfer", day.isoformat())
            emit("transfer", at, {"from": "checking", "to": "savings", "amount_cents": savings_transfer,
                                  "recurring": True},
                 [("checking", -savings_transfer, "TRANSFER TO SAVINGS", None, "transfer", "transfer", tid),
                  ("savings", savings_transfer, "TRANSFER FROM CHECKING", None, "transfer", "transfer", tid)])
        # Card payment: last month's balance in full.
        if "credit_card" in kinds and day == _next_business_day(day.replace(day=20)) and card_owed_at_month_end > 0:
            at = dt.datetime.combine(day, dt.time(8, 0))
            tid = derived_id(seed, "card_payment", day.isoformat())
            amount = card_owed_at_month_end
            emit("card_payment", at, {"amount_cents": amount},
                 [("checking", -amount, "PAYMENT TO LARKSPUR VISA", None, "transfer", "card_payment", tid),
                  ("credit_card", amount, "PAYMENT THANK YOU", None, "transfer", "card_payment", tid)])
            card_owed_at_month_end = 0
        if past:
            # Card and debit purchases at local merchants.
            for n in range(r_purchase.choices([0, 1, 2, 3], weights=[3, 5, 3, 1])[0]):
                category = r_purchase.choices(list(_MERCHANT_KINDS), weights=weights)[0]
                merchant = r_purchase.choice(by_category[category])
                lo, hi = _MERCHANT_KINDS[category][1:3]
                amount = r_purchase.randint(lo, hi)
                account = "credit_card" if ("credit_card" in kinds and r_purchase.random() < 0.75) else "checking"
                at = dt.datetime.combine(day, dt.time(r_times.randint(8, 20), r_times.randint(0, 59)))
                if at > now:
                    continue
                label = merchant.name.upper() if account == "credit_card" else f"DEBIT CARD {merchant.name.upper()}"
                emit("card_purchase", at, {"merchant": merchant.name, "merchant_id": merchant.id, "category": category,
                                           "amount_cents": amount, "account": account, "city": merchant.city},
                     [(account, -amount, label, merchant.name, category, "card_purchase")], 100 + n)
            # P2P payments with contacts.
            if p.contacts and r_p2p.random() < 0.12:
                contact = r_p2p.choice(p.contacts)
                memo = r_p2p.choice(_P2P_MEMOS[contact.relationship])
                amount = r_p2p.randrange(1500, 16000, 25)
                incoming = r_p2p.random() < 0.3
                at = dt.datetime.combine(day, dt.time(r_times.randint(10, 22), r_times.randint(0, 59)))
                if at <= now:
                    direction = "received" if incoming else "sent"
                    label = f"ZELLE {'FROM' if incoming else 'TO'} {contact.name.upper()}"
                    emit("p2p_payment", at, {"direction": direction, "contact": contact.name,
                                             "contact_email": contact.email, "amount_cents": amount, "memo": memo},
                         [("checking", amount if incoming else -amount, label, contact.name, "p2p",
                           f"p2p_{direction}", None, memo)])
            # Visits to the bank's site.
            if r_visit.random() < 0.4:
                at = dt.datetime.combine(day, dt.time(r_times.randint(7, 22), r_times.randint(0, 59)))
                if at <= now:
                    for n in range(r_visit.randint(1, 3)):
                        path, title = _BANK_PAGES[0] if n == 0 else r_visit.choice(_BANK_PAGES[1:])
                        emit("web_visit", at + dt.timedelta(seconds=40 * n),
                             {"url": f"http://{BANK_DOMAIN}{path}", "title": f"{title} | Larkspur Bank",
                              "transition": "typed" if n == 0 else "link", "site": "bank"}, [], n)
        # Month end: savings interest, card balance snapshot.
        if day == _on_day(day.year, day.month, 31):
            if "savings" in kinds and day < p.as_of:
                apr = next(a for a in p.accounts if a.kind == "savings").apr or Decimal(0)
                interest = _cents(Decimal(balance["savings"]) / 100 * apr / 100 / 12)
                if interest > 0:
                    emit("interest", dt.datetime.combine(day, dt.time(23, 0)), {"account": "savings",
                                                                                 "amount_cents": interest},
                         [("savings", interest, "INTEREST PAID", None, "interest", "interest")])
            if "credit_card" in kinds and day < p.as_of:
                card_owed_at_month_end = -balance["credit_card"]
        day += dt.timedelta(days=1)

    # The bank bookmarked on the toolbar since the start of the history.
    events.append(Event(derived_id(seed, "event", "bookmark", "bank"), "bookmark", start + dt.timedelta(hours=19),
                        {"url": f"http://{BANK_DOMAIN}/", "title": "Larkspur Bank", "folder": "toolbar"}))
    world.events = sorted(events, key=lambda e: (e.at, e.id))
    return world
