"""What Larkspur Bank writes when another app calls the services it provides (builder/tasks/effects.py): a card
payment (``card-network``, web/lib/bank.ts ``authorizeCard``) is one pending ``card_authorizations`` row; a transfer
(``bank-transfers``, ``externalTransfer``) one ledger line on checking, its ``external_transfers`` row and the
checking balance (unchanged when transfers in and out cancel out). Looking around the bank changes nothing."""

from __future__ import annotations

from builder.tasks.effects import Call
from builder.tasks.model import Change

CALLS = {
    "card-network": Call(
        noun=("card payment", "card payments"),
        changes=(Change(table="card_authorizations", op="insert", min=1, max=1),),
    ),
    "bank-transfers": Call(
        noun=("transfer", "transfers"),
        changes=(
            Change(table="transactions", op="insert", min=1, max=1),
            Change(table="external_transfers", op="insert", min=1, max=1),
            Change(table="accounts", op="update", min=0, max=1, columns=["balance_cents"]),
        ),
    ),
}
