"""What no task may leave behind in Meridian Air (:mod:`builder.tasks.invariants`): rows are violations."""

INVARIANTS = {
    "no flight booked twice": (
        "SELECT s.flight_number, substr(s.dep_local, 1, 10), COUNT(DISTINCT b.id) FROM segments s "
        "JOIN bookings b ON b.id = s.booking_id WHERE b.status != 'cancelled' AND s.status != 'cancelled' "
        "GROUP BY s.flight_number, substr(s.dep_local, 1, 10) HAVING COUNT(DISTINCT b.id) > 1"
    ),
}
