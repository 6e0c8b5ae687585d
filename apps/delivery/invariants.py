"""What no task may leave behind in DashBite (:mod:`builder.tasks.invariants`): rows are violations."""

INVARIANTS = {
    # Two orders placed in the app from one restaurant for one time: the meal ordered twice.
    "no meal ordered twice": (
        "SELECT restaurant_id, COALESCE(scheduled_for, substr(placed_at, 1, 13)), COUNT(*) FROM orders "
        "WHERE world_ref IS NULL AND status != 'cancelled' "
        "GROUP BY restaurant_id, COALESCE(scheduled_for, substr(placed_at, 1, 13)) HAVING COUNT(*) > 1"
    ),
}
