"""What no task may leave behind in Basketful (:mod:`builder.tasks.invariants`): rows are violations."""

INVARIANTS = {
    "no two orders for one delivery window": (
        "SELECT window_start, COUNT(*) FROM orders WHERE world_ref IS NULL AND status != 'cancelled' "
        "GROUP BY window_start HAVING COUNT(*) > 1"
    ),
}
