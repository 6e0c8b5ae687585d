"""Reference solutions of Larkspur Bank's action tasks, through its HTTP routes (see builder.tasks.oracle).

The forms of /transfer, /pay-bills and /send-money post to ``/api/transfer``, ``/api/bills`` and
``/api/send``; each answers 303 back to its page with ``done=<receipt>`` or ``error=...`` (a bill for a later date
with ``scheduled=<id>``). A scheduled payment's page posts to ``/api/scheduled`` (``action`` update or cancel), which
answers ``changed=`` or ``cancelled=``.
"""

from __future__ import annotations

import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "bank"


def _account(web: Web, kind: str) -> str:
    return str(web.one(APP, "SELECT id FROM accounts WHERE kind = ?", (kind,)))


def _amount(cents: int) -> str:
    return f"{cents / 100:.2f}"


def _shown(cents: int) -> str:
    return f"{cents / 100:,.2f}"


def _post(web: Web, path: str, fields: list[tuple[str, str]], answer: str = "done") -> None:
    _, location = web.post_form(APP, path, fields, expect=(303,))
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
    if answer not in query:
        raise OracleError(f"Larkspur Bank refused {path}: {location!r}")


def transfer_to_savings(task: Task, web: Web) -> str:
    cents = task.expected["amount_cents"]
    _post(
        web,
        "/api/transfer",
        [
            ("from", _account(web, "checking")),
            ("to", _account(web, "savings")),
            ("amount", _amount(cents)),
            ("memo", ""),
        ],
    )
    return f"Moved {_shown(cents)} from checking to savings."


def _pay_bill(web: Web, payee: str, cents: int, memo: str = "", date: str = "") -> None:
    """Pay ``payee`` ``cents`` from checking with bill pay: now, or on ``date`` (``YYYY-MM-DD``, scheduled)."""
    found = web.one(APP, "SELECT id FROM payees WHERE name = ?", (payee,))
    _post(
        web,
        "/api/bills",
        [
            ("payee", str(found)),
            ("from", _account(web, "checking")),
            ("amount", _amount(cents)),
            ("memo", memo),
            ("date", date),
            ("frequency", "once"),
        ],
        answer="scheduled" if date else "done",
    )


def bill_pay(task: Task, web: Web) -> str:
    exp = task.expected
    _pay_bill(web, exp["payee"], exp["amount_cents"])
    return f"Paid {exp['payee']} {_shown(exp['amount_cents'])} from checking."


def send_money(task: Task, web: Web) -> str:
    exp = task.expected
    contact = web.one(APP, "SELECT id FROM contacts WHERE name = ?", (exp["contact"],))
    _post(
        web,
        "/api/send",
        [
            ("contact", str(contact)),
            ("from", _account(web, "checking")),
            ("amount", _amount(exp["amount_cents"])),
            ("memo", exp["memo"]),
        ],
    )
    return f"Sent {exp['contact']} {_shown(exp['amount_cents'])} for {exp['memo']}."


def pay_card_in_full(task: Task, web: Web) -> str:
    cents = task.expected["amount_cents"]
    _post(
        web,
        "/api/transfer",
        [
            ("from", _account(web, "checking")),
            ("to", _account(web, "credit_card")),
            ("amount", _amount(cents)),
            ("memo", ""),
        ],
    )
    return f"Paid the card's full balance of {_shown(cents)} from checking."


def stop_recurring(task: Task, web: Web) -> str:
    payee = task.expected["payee"]
    found = web.one(
        APP,
        """SELECT s.id FROM scheduled_payments s JOIN payees p ON p.id = s.payee_id
           WHERE p.name = ? AND s.frequency = 'monthly' AND s.status = 'scheduled'""",
        (payee,),
    )
    _post(web, "/api/scheduled", [("id", str(found)), ("action", "cancel")], answer="cancelled")
    return f"Stopped the recurring payment to {payee}; the other scheduled payments are unchanged."


def extra_loan_payment(task: Task, web: Web) -> str:
    exp = task.expected
    _pay_bill(web, exp["payee"], exp["amount_cents"], "Extra payment", exp["date"])
    return f"Scheduled an extra {_shown(exp['amount_cents'])} to {exp['payee']} for {exp['date']}."


SOLVERS = {
    "transfer-to-savings": transfer_to_savings,
    "bill-pay": bill_pay,
    "send-money": send_money,
    "pay-card-in-full": pay_card_in_full,
    "stop-recurring": stop_recurring,
    "extra-loan-payment": extra_loan_payment,
}
