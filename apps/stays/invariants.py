"""What no task may leave behind in Bramblestay (:mod:`builder.tasks.invariants`): rows are violations."""

INVARIANTS = {
    "no two stays on one night": (
        "SELECT a.confirmation, b.confirmation FROM bookings a JOIN bookings b ON a.id < b.id "
        "WHERE a.status = 'confirmed' AND b.status = 'confirmed' "
        "AND a.check_in < b.check_out AND b.check_in < a.check_out"
    ),
}
