"""What no task may leave behind in ZipRide (:mod:`builder.tasks.invariants`): rows are violations."""

INVARIANTS = {
    "no two rides scheduled within half an hour": (
        "SELECT a.ride_id, b.ride_id FROM rides a JOIN rides b ON a.id < b.id "
        "WHERE a.status = 'scheduled' AND b.status = 'scheduled' "
        "AND abs(julianday(a.pickup_at) - julianday(b.pickup_at)) < 30.0 / 1440"
    ),
}
