"""Invariants of the simulated world, checked on every shipped persona."""

from __future__ import annotations

import calendar
import datetime as dt

from builder.world import statements


def test_history_covers_18_months_and_horizon(any_world):
    persona, world = any_world
    assert (persona.as_of - world.start.date()).days >= 540
    assert world.end.date() >= persona.as_of + dt.timedelta(days=60)
    assert world.events == sorted(world.events, key=lambda e: (e.at, e.id))


def test_nothing_done_after_now_and_only_plans_scheduled(any_world):
    persona, world = any_world
    for e in world.events:
        assert (e.status == "done") == (e.at <= world.now), e
    # What happened cannot lie in the future: only plans (bills, bookings, trips, meetings) are scheduled.
    never_scheduled = {
        "email",
        "chat_message",
        "web_visit",
        "bookmark",
        "p2p_payment",
        "food_order",
        "grocery_order",
        "retail_order",
        "interest",
        "flight_booking",
        "hotel_booking",
    }
    assert not {e.kind for e in world.events if e.status == "scheduled"} & never_scheduled
    assert all(
        e.data.get("recurring") or e.kind != "card_purchase" or e.data.get("restaurant_booking")
        for e in world.events
        if e.status == "scheduled"
    )


def test_every_money_event_is_in_the_right_ledger(any_world):
    persona, world = any_world
    for e in world.events:
        if e.kind == "card_purchase":
            account = e.data.get("account", "credit_card")
            assert [(p.account, p.amount_cents) for p in e.postings] == [(account, -e.data["amount_cents"])]
        elif e.kind in ("bill_payment", "autopay"):
            assert [(p.account, p.amount_cents) for p in e.postings] == [("checking", -e.data["amount_cents"])]
        elif e.kind == "p2p_payment":
            sign = 1 if e.data["direction"] == "received" else -1
            assert [(p.account, p.amount_cents) for p in e.postings] == [("checking", sign * e.data["amount_cents"])]
        elif e.kind in ("transfer", "card_payment"):
            assert sum(p.amount_cents for p in e.postings) == 0 and len(e.postings) == 2
            assert len({p.transfer_id for p in e.postings}) == 1
        elif e.kind == "paycheck":
            assert [(p.account, p.amount_cents) for p in e.postings] == [("checking", e.data["net_cents"])]


def test_balances_reconcile_every_statement_month(any_world):
    persona, world = any_world
    for kind in world.account_kinds():
        periods = statements(world, kind)
        assert len(periods) >= 17
        assert periods[0].opening_cents == world.opening_balance_cents(kind)
        for before, after in zip(periods, periods[1:]):
            assert after.opening_cents == before.closing_cents
            assert after.start == before.end + dt.timedelta(days=1)
        for st in periods:
            assert st.closing_cents == st.opening_cents + st.credits_cents - st.debits_cents
            assert st.credits_cents - st.debits_cents == sum(p.amount_cents for p in st.lines)
        after_last = [p for p in world.postings(kind) if p.at.date() > periods[-1].end]
        assert periods[-1].closing_cents + sum(p.amount_cents for p in after_last) == world.closing_balance_cents(kind)


def test_checking_never_overdrawn(any_world):
    persona, world = any_world
    balance = world.opening_balance_cents("checking")
    for p in world.postings("checking"):
        balance += p.amount_cents
        assert balance >= 0, p


def test_recurring_charges_land_every_month_on_their_day(any_world):
    persona, world = any_world
    for charge in persona.recurring_charges:
        dates = sorted(e.at.date() for e in world.events if e.data.get("name") == charge.name)
        due_months = []
        for d in dates:
            # The due day (clamped to the month's end) or the Monday after a weekend.
            for back in range(0, 3):
                due = d - dt.timedelta(days=back)
                if due.day == min(charge.day, calendar.monthrange(due.year, due.month)[1]):
                    assert all((due + dt.timedelta(days=k)).weekday() >= 5 for k in range(back)), (charge.name, d)
                    due_months.append((due.year, due.month))
                    break
            else:
                raise AssertionError(f"{charge.name} on {d} is not on day {charge.day}")
            assert d.weekday() < 5
        # Exactly one charge per billing month, with no month skipped.
        assert len(due_months) == len(set(due_months)) >= 18, charge.name
        first, last = due_months[0], due_months[-1]
        assert len(due_months) == (last[0] - first[0]) * 12 + last[1] - first[1] + 1, charge.name


def test_paychecks_are_biweekly_fridays(world, persona):
    pays = [e.at.date() for e in world.of_kind("paycheck")]
    assert all(d.weekday() == 4 for d in pays)
    assert all((b - a).days == 14 for a, b in zip(pays, pays[1:]))
    assert len(pays) >= 39


def test_contacts_are_the_same_everywhere(any_world):
    persona, world = any_world
    emails = {c.name: c.email for c in persona.contacts}
    for e in world.of_kind("p2p_payment"):
        assert emails[e.data["contact"]] == e.data["contact_email"]


def test_purchases_are_at_merchants_in_the_persona_city(any_world):
    persona, world = any_world
    names = {m.name: m for m in world.merchants}
    city = persona.identity.address.city
    trips = persona.travel.trips if persona.travel else []
    for e in world.of_kind("card_purchase"):
        if e.data.get("trip") is not None:  # spent at a trip's destination
            assert e.data["city"] == trips[e.data["trip"]].destination
        elif not e.data.get("recurring"):
            assert names[e.data["merchant"]].city == city


def test_default_persona_volumes(world):
    from builder.world.output import stats

    counts = stats(world)
    floors = {
        "bank_transaction": 1430,
        "email": 1170,
        "calendar_event": 660,
        "chat_message": 2600,
        "order": 430,
        "web_visit": 10800,
        "bookmark": 36,
    }
    assert {k: counts[k] for k in floors} == {k: max(counts[k], v) for k, v in floors.items()}
