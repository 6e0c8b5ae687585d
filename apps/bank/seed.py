"""World -> rows of the Larkspur Bank database (``bank.sqlite``).

Everything the app shows is projected from the world's ledger: accounts with their
opening balances, every posted line with its running balance, saved payees (the
persona's bill-pay and autopay payees), the recurring payments still to come (each at its next occurrence), P2P
contacts and monthly statements.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile
from builder.dates import add_months
from builder.reference.banking import deposit_insurance, rail, statement_labels
from builder.reference.locale import territory
from builder.reference.phones import service_line
from builder.rng import rng
from builder.world import World, account_numbers, card_numbers, statements

from . import models as m
from .statements import write_statements


def scheduled_payments(world: World) -> list[tuple]:
    """The world's recurring bill-pay and autopay charges that go on after now, each with its next occurrence:
    ``[(RecurringCharge, Event)]`` in the spec's order (the event a ``bill_payment`` or ``autopay`` of that charge,
    the first after ``world.now``). A charge with no occurrence left in the horizon is left out."""
    later = [e for e in world.of_kind("bill_payment", "autopay") if e.at > world.now]
    out = []
    for charge in world.persona.recurring_charges:
        if charge.method not in ("bill_pay", "autopay") or "checking" not in {a.kind for a in world.persona.accounts}:
            continue
        nxt = next((e for e in later if e.data["name"] == charge.name and e.data["payee"] == charge.payee), None)
        if nxt is not None:
            out.append((charge, nxt))
    return out


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (derived from the seed, see builder.appkit)."""
    return appkit.credentials(world, "bank")


def signed_in_text(world: World) -> str:
    """What the signed-in accounts page shows for sure: the checking account's balance."""
    from builder.money import money

    return money(world.closing_balance_cents("checking"), world.currency)


def home_files(world: World, home: Path) -> list[Path]:
    """The bank's files in the persona's home folder ``home``: the last three statements of every
    account as PDFs in ``Documents`` (see :mod:`apps.bank.statements`). Returns them in order."""
    numbers = {kind: number for kind, (number, _, _) in account_numbers(world).items()}
    return write_statements(world, numbers, home / "Documents")


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as the bank database for ``world`` and return it.

    The file is written in journal_mode=DELETE and VACUUMed so its bytes depend only on the world.
    Raises ``FileExistsError`` if ``path`` exists.
    """
    p = world.persona
    ident = p.identity
    engine = dbfile.create(path, m.Base.metadata)
    creds = credentials(world)
    numbers = account_numbers(world)
    cards = card_numbers(world)
    addr = ident.address
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=ident.name,
                email=ident.email,
                phone=ident.phone,
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, "bank")),
                address=f"{addr.street}, {addr.city}{', ' + addr.region if addr.region else ''} {addr.postal_code}",
            )
        )
        db.add(
            m.Session(
                token=creds["session_token"],
                user_id=1,
                created_at=world.now.isoformat(),
                expires_at=add_months(world.now, 12).isoformat(),
            )
        )
        account_ids = {}
        for i, spec in enumerate(p.accounts, start=1):
            account_ids[spec.kind] = i
            number, routing, iban_code = numbers[spec.kind]
            db.add(
                m.Account(
                    id=i,
                    user_id=1,
                    kind=spec.kind,
                    name=spec.name,
                    number=number,
                    routing_number=routing,
                    iban=iban_code,
                    card_number=cards.get(spec.kind),
                    opened_on=world.start.date().isoformat(),
                    opening_balance_cents=world.opening_balance_cents(spec.kind),
                    balance_cents=world.closing_balance_cents(spec.kind),
                    credit_limit_cents=int(spec.credit_limit * 100) if spec.credit_limit else None,
                    apr_bps=int(spec.apr * 100) if spec.apr is not None else None,
                )
            )
        tx_id = 0
        running = {k: world.opening_balance_cents(k) for k in account_ids}
        for posting in world.postings():
            tx_id += 1
            running[posting.account] += posting.amount_cents
            db.add(
                m.Transaction(
                    id=tx_id,
                    account_id=account_ids[posting.account],
                    posted_at=posting.at.isoformat(),
                    description=posting.description,
                    counterparty=posting.counterparty,
                    category=posting.category,
                    kind=posting.kind,
                    amount_cents=posting.amount_cents,
                    balance_after_cents=running[posting.account],
                    transfer_id=posting.transfer_id,
                    memo=posting.memo,
                    world_ref=posting.event_id,
                )
            )
        payee_rng = rng(world.seed, "bank/payees")
        payee_ids: dict[str, int] = {}
        for charge in p.recurring_charges:
            if charge.method in ("bill_pay", "autopay") and charge.payee not in payee_ids:
                payee_ids[charge.payee] = len(payee_ids) + 1
                db.add(
                    m.Payee(
                        id=payee_ids[charge.payee],
                        user_id=1,
                        name=charge.payee,
                        category=charge.category,
                        account_number="".join(str(payee_rng.randint(0, 9)) for _ in range(9)),
                    )
                )
        # The recurring payments the world goes on making, each at its next occurrence (the scheduled list).
        for i, (charge, event) in enumerate(scheduled_payments(world), start=1):
            db.add(
                m.ScheduledPayment(
                    id=i,
                    payee_id=payee_ids[charge.payee],
                    account_id=account_ids["checking"],
                    method=charge.method,
                    amount_cents=event.data["amount_cents"],
                    frequency="monthly",
                    day=charge.day,
                    next_date=event.at.date().isoformat(),
                    memo=None,
                    status="scheduled",
                    created_at=world.start.isoformat(),
                    world_ref=event.id,
                )
            )
        for c in p.contacts:
            db.add(m.Contact(user_id=1, name=c.name, email=c.email, phone=c.phone))
        for kind, account_id in account_ids.items():
            if kind == "brokerage":  # its statements are its broker's, not the bank's (as the PDFs, statements.py)
                continue
            for st in statements(world, kind):
                db.add(
                    m.Statement(
                        account_id=account_id,
                        period_start=st.start.isoformat(),
                        period_end=st.end.isoformat(),
                        opening_cents=st.opening_cents,
                        credits_cents=st.credits_cents,
                        debits_cents=st.debits_cents,
                        closing_cents=st.closing_cents,
                    )
                )
        rows = [
            ("as_of", p.as_of.isoformat()),
            ("now", world.now.isoformat()),
            ("currency", world.currency),
            ("timezone", p.timezone),
            ("locale", p.bank.replace("_", "-")),
            # The statement words of the persona's bank, for the lines the app writes (web/lib/labels.ts).
            ("ledger_labels", json.dumps(statement_labels(p.bank, addr.country), ensure_ascii=False, sort_keys=True)),
            # How people pay each other there ("Send money with Zelle", "... with Pix"), for the pages.
            ("p2p_rail", json.dumps(rail(addr.country), ensure_ascii=False, sort_keys=True)),
            # The customer-care line on the pages and statements (builder.reference.phones.service_line).
            ("care_phone", _care_phone(world)),
        ]
        if addr.country.strip().upper() != territory(p.bank):
            # The deposit insurance of a home outside the phrase bank's country (none outside the US, GB and DE); at
            # home the pages take the locale's country's (web/lib/labels.ts `deposit`), so no row is written.
            rows.append(
                ("deposit_insurance", json.dumps(deposit_insurance(addr.country), ensure_ascii=False, sort_keys=True))
            )
        for key, value in rows:
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


def _care_phone(world: World) -> str:
    """Larkspur Bank's customer-care number for ``world``'s persona (stream ``bank/care-phone``)."""
    addr = world.persona.identity.address
    if addr.country.strip().upper() == "US":
        return "1-800-555-0199"  # the number the bank has always shown
    return service_line(rng(world.seed, "bank/care-phone"), addr.country, addr.city)
