"""What no task may leave behind in Shopwell (:mod:`builder.tasks.invariants`): rows are violations."""

INVARIANTS = {
    # One product ordered in two orders placed in the app for one address: bought twice.
    "no product ordered twice": (
        "SELECT oi.sku, o.ship_address, COUNT(DISTINCT o.id) FROM orders o JOIN order_items oi ON oi.order_id = o.id "
        "WHERE o.world_ref IS NULL GROUP BY oi.sku, o.ship_address HAVING COUNT(DISTINCT o.id) > 1"
    ),
}
