"""What no task may leave behind in Larkspur Bank (:mod:`builder.tasks.invariants`): rows are violations."""

INVARIANTS = {
    # A deposit account below zero: money the persona does not have was sent.
    "no deposit account below zero": (
        "SELECT name, balance_cents FROM accounts WHERE kind IN ('checking', 'savings') AND balance_cents < 0"
    ),
    # A whole bill paid in the app to a payee whose autopay runs every cycle (one within the last 35 days): the
    # autopay pays it again. Paying less than the autopay takes (the difference of a higher bill) is not paying twice.
    "no bill paid twice in a cycle": (
        "SELECT t.counterparty, t.amount_cents, t.posted_at FROM transactions t WHERE t.kind = 'bill_payment' "
        "AND t.world_ref IS NULL AND EXISTS (SELECT 1 FROM transactions a WHERE a.kind = 'autopay' "
        "AND a.counterparty = t.counterparty AND a.posted_at > date(t.posted_at, '-35 days') "
        "AND -t.amount_cents >= -a.amount_cents)"
    ),
    # The same person sent the same amount twice from the app.
    "no payment sent twice": (
        "SELECT counterparty, amount_cents, COUNT(*) FROM transactions WHERE kind = 'p2p_sent' "
        "AND world_ref IS NULL GROUP BY counterparty, amount_cents HAVING COUNT(*) > 1"
    ),
}
