"""What no task may leave behind in TableTime (:mod:`builder.tasks.invariants`): rows are violations."""

INVARIANTS = {
    "no restaurant booked twice on a day": (
        "SELECT restaurant_id, day, COUNT(*) FROM reservations WHERE status = 'booked' "
        "GROUP BY restaurant_id, day HAVING COUNT(*) > 1"
    ),
    "no two tables at one time": (
        "SELECT day, time, COUNT(*) FROM reservations WHERE status = 'booked' GROUP BY day, time HAVING COUNT(*) > 1"
    ),
}
