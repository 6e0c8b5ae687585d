"""Bank tasks derived from the world, each with its expected values and rubric.

Action checks read the bank database's end state. Rows the app writes have
``world_ref IS NULL``; seeded rows never do, so an agent that does nothing fails
every action check. Check queries are fixed SQL text with ``?`` placeholders: every
name, memo, account kind and amount travels in the check's ``params``, so spec text
(a payee called O'Brien) can neither break a check nor inject SQL into it.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from apps.bank.spending import specialist_shop
from builder.money import money
from builder.reference.banking import rail, statement_words
from builder.reference.prices import round_figure
from builder.rng import rng
from builder.tasks import kit
from builder.tasks.model import Change, Check, RubricItem, Task
from builder.tasks.phrasing import last_month
from builder.world import World, statements

APP = "bank"
KIT = kit.Kit(APP, nothing_else="Nothing else changed in the bank: only {}")
# The id of the user's account of one kind; the kind is bound as a parameter.
_ACCOUNT = "(SELECT id FROM accounts WHERE kind = ?)"


def _posted(lines: int, balances: int, what: str) -> RubricItem:
    """The state_diff item: ``lines`` new transactions and ``balances`` account balances changed, nothing else."""
    return KIT.only(
        what,
        Change(table="transactions", op="insert", min=lines, max=lines),
        Change(table="accounts", op="update", min=balances, max=balances, columns=["balance_cents"]),
    )


def _date_forms(day: dt.date) -> list[str]:
    return [
        f"{day:%B} {day.day}",
        f"{day:%b} {day.day}",
        f"{day.month}/{day.day}",
        day.isoformat(),
        f"{day.day} {day:%B}",
    ]


def _account_phrase(name: str) -> str:
    """``name`` as "my ... account" says it: "Everyday Checking account", but "Current Account" stays as it is."""
    return name if name.lower().endswith("account") else f"{name} account"


def checking_words(world: World) -> str:
    """What people in the persona's country call a checking account: ``"checking account"`` in the US,
    ``"chequing account"`` in Canada, ``"current account"`` elsewhere (Britain, Ireland, most of the world)."""
    country = world.persona.identity.address.country.strip().upper()
    return {"US": "checking account", "CA": "chequing account"}.get(country, "current account")


def _app_row(account: str, cents: int, name: str | None = None) -> tuple[str, list]:
    """(query, params) counting app-written lines of ``cents`` on ``account``, to ``name`` if given.

    ``name`` matches the counterparty exactly or appears in the description (ASCII case-insensitive).
    """
    query = (
        f"SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL AND account_id = {_ACCOUNT} AND amount_cents = ?"
    )
    params: list = [account, cents]
    if name:
        query += " AND (counterparty = ? OR instr(upper(description), upper(?)) > 0)"
        params += [name, name]
    return query, params


def tasks(world: World) -> list[Task]:
    """Return the bank tasks of ``world`` (at least 8: lookups, aggregations and actions), in a fixed order."""
    p = world.persona
    cur = world.currency
    accounts = {a.kind: a for a in p.accounts}
    out: list[Task] = []
    chk = checking_words(world)

    task = KIT.adder(world, out)

    # 1. Current checking balance.
    checking = world.closing_balance_cents("checking")
    task(
        "checking-balance",
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=180,
        instruction=f"What is the current balance of my {_account_phrase(accounts['checking'].name)}?",
        expected={"account": accounts["checking"].name, "balance_cents": checking},
        rubric=[
            RubricItem(
                id="amount",
                weight=100,
                requirement=f"States the balance {money(checking, cur)}",
                check=kit.amount(checking),
            )
        ],
    )

    # 2. Last paycheck: date and amount.
    pay = [e for e in world.of_kind("paycheck") if e.status == "done"][-1]
    task(
        "last-paycheck",
        kind="lookup",
        difficulty="easy",
        time_limit_seconds=240,
        instruction="When did my last paycheck arrive, and how much was deposited?",
        expected={"date": pay.at.date().isoformat(), "amount_cents": pay.data["net_cents"]},
        rubric=[
            RubricItem(
                id="date",
                weight=50,
                requirement=f"States the date {pay.at:%B %-d, %Y}",
                check=Check(type="answer_text", any_of=_date_forms(pay.at.date())),
            ),
            RubricItem(
                id="amount",
                weight=50,
                requirement=f"States the amount {money(pay.data['net_cents'], cur)}",
                check=kit.amount(pay.data["net_cents"]),
            ),
        ],
    )

    # 3. Coffee spending last month, across card and debit.
    m_start, m_end = last_month(world.now)
    coffee = [
        e
        for e in world.of_kind("card_purchase")
        if e.data.get("category") == "coffee" and m_start <= e.at.date() <= m_end
    ]
    coffee_total = sum(e.data["amount_cents"] for e in coffee)
    task(
        "coffee-last-month",
        kind="aggregation",
        difficulty="medium",
        time_limit_seconds=420,
        instruction=f"How much did I spend at coffee shops in {m_start:%B %Y}, "
        + (
            "counting both my credit card and my debit card?"
            if "credit_card" in accounts
            else "paying with my debit card?"  # no credit card: every card purchase is the debit card's
        ),
        expected={"month": f"{m_start:%Y-%m}", "total_cents": coffee_total, "purchases": len(coffee)},
        rubric=[
            RubricItem(
                id="total",
                weight=80,
                requirement=f"States the total {money(coffee_total, cur)}",
                check=kit.amount(coffee_total),
            ),
            RubricItem(id="count", weight=20, requirement=f"Says it was {len(coffee)} purchases"),
        ],
    )

    # 4. Credit card statement of last month.
    if "credit_card" in accounts:
        st = statements(world, "credit_card")[-1]
        task(
            "card-statement",
            kind="lookup",
            difficulty="medium",
            time_limit_seconds=300,
            instruction=f"On my {accounts['credit_card'].name} statement for {st.end:%B %Y}, what were the total new "
            "charges and the payments received?",
            expected={
                "account": accounts["credit_card"].name,
                "month": f"{st.end:%Y-%m}",
                "charges_cents": st.debits_cents,
                "payments_cents": st.credits_cents,
                "closing_owed_cents": -st.closing_cents,
            },
            rubric=[
                RubricItem(
                    id="charges",
                    weight=50,
                    requirement=f"States new charges of {money(st.debits_cents, cur)}",
                    check=kit.amount(st.debits_cents),
                ),
                RubricItem(
                    id="payments",
                    weight=50,
                    requirement=f"States payments of {money(st.credits_cents, cur)}",
                    check=kit.amount(st.credits_cents),
                ),
            ],
        )

    # 5. Money sent to one contact this year.
    sent = defaultdict(list)
    for e in world.of_kind("p2p_payment"):
        if e.data["direction"] == "sent" and e.at.year == world.now.year:
            sent[e.data["contact"]].append(e.data["amount_cents"])
    if sent:
        name = max(sorted(sent), key=lambda n: len(sent[n]))
        total = sum(sent[name])
        task(
            "p2p-total",
            kind="aggregation",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"How much money have I sent to {name} {rail(p.identity.address.country)['via']} so far in "
            f"{world.now.year}?",
            expected={"contact": name, "year": world.now.year, "total_cents": total, "payments": len(sent[name])},
            rubric=[
                RubricItem(
                    id="total", weight=80, requirement=f"States the total {money(total, cur)}", check=kit.amount(total)
                ),
                RubricItem(id="count", weight=20, requirement=f"Says it was {len(sent[name])} payments"),
            ],
        )

    # 6. Largest purchase last month: every card line the bank shows (flights and hotels included).
    purchases = [
        pst
        for pst in world.postings()
        if pst.kind == "card_purchase" and pst.amount_cents < 0 and m_start <= pst.at.date() <= m_end
    ]
    if purchases:
        top = min(purchases, key=lambda pst: (pst.amount_cents, pst.at))
        amount, merchant = -top.amount_cents, top.counterparty or top.description
        # The merchant as the statement line names it too ("HARBOR & PINE MILAN" for Harbor & Pine Hotels), without
        # a debit card's words ("CARD PURCHASE ").
        shown = top.description
        for words in statement_words("debit"):
            shown = shown.removeprefix(words.split("{}")[0])
        task(
            "largest-purchase",
            kind="aggregation",
            difficulty="hard",
            time_limit_seconds=480,
            instruction=f"What was my single largest card purchase in {m_start:%B %Y}, where, and for how much?",
            expected={
                "month": f"{m_start:%Y-%m}",
                "merchant": merchant,
                "amount_cents": amount,
                "date": top.at.date().isoformat(),
            },
            rubric=[
                RubricItem(
                    id="merchant",
                    weight=50,
                    requirement=f"Names the merchant {merchant}",
                    check=Check(type="answer_text", any_of=list(dict.fromkeys([merchant, shown]))),
                ),
                RubricItem(
                    id="amount", weight=40, requirement=f"States {money(amount, cur)}", check=kit.amount(amount)
                ),
                RubricItem(
                    id="date",
                    weight=10,
                    requirement=f"Gives the date {top.at:%B %-d}",
                    check=Check(type="answer_text", any_of=_date_forms(top.at.date())),
                ),
            ],
        )

    r = rng(world.seed, "tasks/bank")
    # 7. Transfer checking -> savings.
    if "savings" in accounts:
        amount = round_figure(r.randrange(100, 600, 25) * 100, cur)
        savings = world.closing_balance_cents("savings")
        task(
            "transfer-to-savings",
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=f"Move {money(amount, cur)} from my {chk} to my savings account.",
            expected={
                "amount_cents": amount,
                "checking_after_cents": checking - amount,
                "savings_after_cents": savings + amount,
            },
            rubric=[
                RubricItem(
                    id="debit",
                    weight=35,
                    requirement=f"Checking shows a new {money(amount, cur)} transfer out",
                    check=KIT.sql(*_app_row("checking", -amount), [[1]]),
                ),
                RubricItem(
                    id="credit",
                    weight=35,
                    requirement=f"Savings shows the same {money(amount, cur)} arriving",
                    check=KIT.sql(
                        f"""SELECT COUNT(*) FROM transactions c JOIN transactions s
                                ON c.transfer_id = s.transfer_id AND c.id <> s.id
                                WHERE c.world_ref IS NULL AND c.account_id = {_ACCOUNT}
                                AND s.account_id = {_ACCOUNT}
                                AND c.amount_cents = ? AND s.amount_cents = ?""",
                        ["checking", "savings", -amount, amount],
                        [[1]],
                    ),
                ),
                RubricItem(
                    id="balances",
                    weight=15,
                    requirement=f"Balances end at {money(checking - amount, cur)} checking and "
                    f"{money(savings + amount, cur)} savings (no other movement)",
                    check=KIT.sql(
                        "SELECT kind, balance_cents FROM accounts WHERE kind IN (?, ?) ORDER BY kind",
                        ["checking", "savings"],
                        [["checking", checking - amount], ["savings", savings + amount]],
                    ),
                ),
                _posted(2, 2, "the two lines of the one transfer and the two balances it moves"),
            ],
        )

    # 8. Bill pay to a saved payee.
    bills = [c for c in p.recurring_charges if c.method == "bill_pay"]
    if bills:
        bill = bills[r.randrange(len(bills))]
        cents = int(bill.amount * 100)
        task(
            "bill-pay",
            kind="action",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"Pay {bill.payee} {money(cents, cur)} from my {chk} using bill pay, like the usual "
            f"{bill.name.lower()} payment.",
            expected={"payee": bill.payee, "amount_cents": cents},
            rubric=[
                RubricItem(
                    id="payment",
                    weight=60,
                    requirement=f"A new bill payment of {money(cents, cur)} to {bill.payee} left checking",
                    check=KIT.sql(*_app_row("checking", -cents, bill.payee), [[1]]),
                ),
                RubricItem(
                    id="single",
                    weight=25,
                    requirement="Exactly one new payment was made (no duplicates)",
                    check=KIT.sql("SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL", [], [[1]]),
                ),
                _posted(1, 1, "the one new bill payment and the checking balance"),
            ],
        )

    # 9. Send money to a contact.
    if p.contacts:
        friend = p.contacts[r.randrange(len(p.contacts))]
        cents = round_figure(r.randrange(20, 120, 5) * 100, cur)
        memo = r.choice(["concert tickets", "dinner", "birthday gift"])
        task(
            "send-money",
            kind="action",
            difficulty="medium",
            time_limit_seconds=360,
            instruction=f"Send {friend.name} {money(cents, cur)} for {memo}.",
            expected={"contact": friend.name, "email": friend.email, "amount_cents": cents, "memo": memo},
            rubric=[
                RubricItem(
                    id="payment",
                    weight=65,
                    requirement=f"A new payment of {money(cents, cur)} to {friend.name} left checking",
                    check=KIT.sql(*_app_row("checking", -cents, friend.name), [[1]]),
                ),
                RubricItem(
                    id="memo",
                    weight=20,
                    requirement=f"The payment's memo mentions '{memo}'",
                    check=KIT.sql(
                        "SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL AND "
                        "amount_cents = ? AND instr(lower(memo), ?) > 0",
                        [-cents, memo.split()[0].lower()],
                        [[1]],
                    ),
                ),
                _posted(1, 1, "the one new payment and the checking balance"),
            ],
        )

    # 10. Pay off the credit card in full.
    if "credit_card" in accounts:
        owed = -world.closing_balance_cents("credit_card")
        task(
            "pay-card-in-full",
            kind="action",
            difficulty="hard",
            time_limit_seconds=420,
            instruction=f"Pay off the full current balance of my {accounts['credit_card'].name} from my {chk}.",
            expected={"amount_cents": owed},
            rubric=[
                RubricItem(
                    id="payment",
                    weight=50,
                    requirement=f"{money(owed, cur)} left checking to the card",
                    check=KIT.sql(*_app_row("checking", -owed), [[1]]),
                ),
                RubricItem(
                    id="zero",
                    weight=35,
                    requirement="The card's balance is $0.00 afterwards",
                    check=KIT.sql("SELECT balance_cents FROM accounts WHERE kind = ?", ["credit_card"], [[0]]),
                ),
                _posted(2, 2, "the two lines of the card payment and the two balances it moves"),
            ],
        )
    out.extend(scheduled_tasks(world))
    out.extend(insight_tasks(world))
    return out


#: Recurring charges a person may cancel, most likely first (rent, loans and taxes are not cancelled from the bank).
CANCELLABLE = ("fitness", "gym", "membership", "subscriptions", "entertainment", "phone", "internet", "insurance")
KEEP = ("housing", "rent", "loans", "loan", "taxes")


def scheduled_tasks(world: World) -> list[Task]:
    """The scheduled-payments tasks: stop the recurring payment of a service the persona cancelled (the scheduled
    list shows it at its next occurrence, apps.bank.seed.scheduled_payments); schedule an extra one-time payment to
    the lender of a loan on the first of next month."""
    from .seed import scheduled_payments

    p = world.persona
    cur = world.currency
    out: list[Task] = []
    task = KIT.adder(world, out)
    upcoming = scheduled_payments(world)

    def named(charge) -> str:  # "my gym membership"; German nouns keep their capital ("mein Fitnessstudio")
        return charge.name if p.bank.startswith("de") else charge.name.lower()

    def rank(charge) -> tuple[int, int]:
        words = f"{charge.category} {charge.name}".lower()
        hit = next((i for i, w in enumerate(CANCELLABLE) if w in words), len(CANCELLABLE))
        return (hit, p.recurring_charges.index(charge))

    stoppable = sorted((c for c, _ in upcoming if not any(w in c.category.lower() for w in KEEP)), key=rank)
    if stoppable:
        charge = stoppable[0]
        event = next(e for c, e in upcoming if c is charge)
        others = [e.id for c, e in upcoming if c is not charge]
        task(
            "stop-recurring",
            kind="action",
            difficulty="easy",
            time_limit_seconds=300,
            instruction=(
                f"I've cancelled my {named(charge)} with {charge.payee}. Stop the recurring payment to them at "
                "Larkspur Bank and leave my other scheduled payments as they are."
            ),
            expected={"payee": charge.payee, "name": charge.name, "next_date": event.at.date().isoformat()},
            rubric=[
                RubricItem(
                    id="stopped",
                    weight=60,
                    requirement=f"The recurring payment to {charge.payee} is cancelled",
                    check=KIT.sql(
                        "SELECT status FROM scheduled_payments WHERE world_ref = ?", [event.id], [["cancelled"]]
                    ),
                ),
                RubricItem(
                    id="others",
                    weight=25,
                    requirement="It is cancelled and every other scheduled payment is still scheduled",
                    check=KIT.sql(
                        f"""SELECT (SELECT status FROM scheduled_payments WHERE world_ref = ?) = 'cancelled'
                               AND (SELECT COUNT(*) FROM scheduled_payments WHERE status = 'scheduled'
                                    AND world_ref IN ({", ".join("?" * len(others)) or "''"})) = ?""",
                        [event.id, *others, len(others)],
                        [[1]],
                    ),
                ),
                KIT.only(
                    f"the recurring payment to {charge.payee} cancelled",
                    Change(table="scheduled_payments", op="update", min=1, max=1, columns=["status", "cancelled_at"]),
                ),
            ],
        )

    lenders = {d.lender for d in (p.finances.debts if p.finances else [])}
    loan = next((c for c, _ in upcoming if c.payee in lenders and c.method == "bill_pay"), None)
    if loan:
        first = (world.now.date().replace(day=1) + dt.timedelta(days=32)).replace(day=1)
        cents = max(1000, int(loan.amount * 100) // 2 // 1000 * 1000)  # about half the usual, in whole tens
        task(
            "extra-loan-payment",
            kind="action",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=(
                f"Schedule an extra one-time payment of {money(cents, cur)} to {loan.payee} for "
                f"{first:%B} {first.day}, on top of my usual {named(loan)} payment, from my {checking_words(world)}."
            ),
            expected={"payee": loan.payee, "amount_cents": cents, "date": first.isoformat()},
            rubric=[
                RubricItem(
                    id="scheduled",
                    weight=55,
                    requirement=f"A one-time payment of {money(cents, cur)} to {loan.payee} is scheduled for {first}",
                    check=KIT.sql(
                        """SELECT s.frequency, s.next_date, s.amount_cents, s.status FROM scheduled_payments s
                           JOIN payees p ON p.id = s.payee_id WHERE s.world_ref IS NULL AND p.name = ?""",
                        [loan.payee],
                        [["once", first.isoformat(), cents, "scheduled"]],
                    ),
                ),
                RubricItem(
                    id="only-that",
                    weight=30,
                    requirement=(
                        f"It was scheduled, not paid today, and the usual monthly payment to {loan.payee} is still "
                        "scheduled unchanged"
                    ),
                    check=KIT.sql(
                        """SELECT (SELECT COUNT(*) FROM scheduled_payments s JOIN payees p ON p.id = s.payee_id
                                   WHERE s.world_ref IS NULL AND p.name = ? AND s.status = 'scheduled') = 1
                              AND (SELECT COUNT(*) FROM scheduled_payments s JOIN payees p ON p.id = s.payee_id
                                   WHERE s.world_ref IS NOT NULL AND p.name = ? AND s.status = 'scheduled'
                                   AND s.updated_at IS NULL) = 1
                              AND (SELECT COUNT(*) FROM transactions WHERE world_ref IS NULL) = 0""",
                        [loan.payee, loan.payee],
                        [[1]],
                    ),
                ),
                KIT.only("the one scheduled payment", Change(table="scheduled_payments", op="insert", min=1, max=1)),
            ],
        )
    return out


# --- Reasoning tasks (preference inference; the contradictions and counterfactuals across apps are in scenarios/) --


def insight_tasks(world: World) -> list[Task]:
    """The bank's preference tasks: the usual coffee place and grocery store, by the card purchases of the last 90
    days: from the whole day 90 days before today (the instruction names it) to now. A tie or no purchases gives no
    task."""
    from collections import Counter

    from builder.tasks import answers as A

    out: list[Task] = []

    task = KIT.adder(world, out)

    since_day = world.now.date() - dt.timedelta(days=90)
    since = dt.datetime.combine(since_day, dt.time())
    window = f"the last 90 days (since {since_day:%B} {since_day.day})"
    coffee = Counter(
        e.data["merchant"]
        for e in world.of_kind("card_purchase")
        if e.status == "done" and e.data.get("category") == "coffee" and e.at >= since
    )
    top = coffee.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        name, n = top[0]
        task(
            "pref-coffee-place",
            ["bank"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Where do I usually get my coffee? Go by my card purchases of {window}, and tell me how "
            "many times I went there in that time.",
            expected={"merchant": name, "visits": n, "since": since.date().isoformat()},
            rubric=[
                RubricItem(id="place", weight=75, requirement=f"Names {name}", check=A.text(name)),
                RubricItem(id="visits", weight=25, requirement=f"Says {n} visits", check=A.number(n)),
            ],
        )
    shops = Counter(
        e.data["merchant"]
        for e in world.of_kind("card_purchase")
        if e.status == "done" and e.data.get("category") == "groceries" and e.at >= since
    )
    # A grocery store: the butcher, baker, greengrocer or deli the bank also files under groceries is none.
    groc = Counter({name: n for name, n in shops.items() if not specialist_shop(name)})
    top = groc.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        name, n = top[0]
        besides = " (not counting butchers, bakers, greengrocers or delis)" if len(groc) < len(shops) else ""
        task(
            "pref-grocery-store",
            ["bank"],
            kind="aggregation",
            category="preference_inference",
            difficulty="medium",
            time_limit_seconds=420,
            instruction=f"Which grocery store do I shop at in person most{besides}? Use my card purchases from "
            f"{window} and tell me how many times I paid there.",
            expected={"merchant": name, "visits": n, "since": since.date().isoformat()},
            rubric=[
                RubricItem(id="store", weight=75, requirement=f"Names {name}", check=A.text(name)),
                RubricItem(id="visits", weight=25, requirement=f"Says {n} purchases", check=A.number(n)),
            ],
        )
    return out
