"""ZipRide's steps in the long tasks that chain apps: checks of what the persona did here and the
actions that do it through ZipRide's own routes (see builder.tasks.steps for the shared rules).
"""

from __future__ import annotations

from builder.tasks import steps as S
from builder.tasks.model import Change, Check
from builder.tasks.oracle import OracleError, Web


def booked(pickup: str, dropoff: str, lo: str, hi: str) -> Check:
    """A scheduled ZipRide from ``pickup`` to ``dropoff`` (a place's address, or ``Home``) picked up between ``lo``
    and ``hi`` (local ISO with offset, as the rides table keeps them)."""

    def side(alias: str, value: str) -> str:
        return f"{alias}.kind = 'home'" if value == "Home" else f"{alias}.address = ?"

    params = [v for v in (pickup, dropoff) if v != "Home"]
    return S.sql(
        "rides",
        f"""SELECT COUNT(*) > 0 FROM rides r JOIN places a ON a.id = r.pickup_place_id
                            JOIN places b ON b.id = r.dropoff_place_id WHERE r.world_ref IS NULL
                            AND r.status = 'scheduled' AND {side("a", pickup)} AND {side("b", dropoff)}
                            AND r.pickup_at BETWEEN ? AND ?""",
        [*params, lo, hi],
        [[1]],
    )


def new_rides(n: int = 1) -> tuple[Change, ...]:
    """The rows ``n`` rides the persona books write in ZipRide (for a state_diff item)."""
    return (Change(table="rides", op="insert", min=n, max=n),)


def schedule(web: Web, pickup: str, dropoff: str, at: str, ride_type: str = "zip") -> None:
    """Schedule a ride of ``ride_type`` (a Zip unless told) from ``pickup`` to ``dropoff`` (labels or addresses) at
    local ``YYYY-MM-DDTHH:MM``."""
    card = web.one("rides", "SELECT id FROM cards ORDER BY is_default DESC, id LIMIT 1")
    fields = [
        ("pickup", pickup),
        ("dropoff", dropoff),
        ("ride_type", ride_type),
        ("when", "later"),
        ("at", at[:16]),
        ("card", str(card)),
        ("purpose", "personal"),
    ]
    _, location = web.post_form("rides", "/api/rides", fields, expect=(303,))
    if "/rides/" not in location or "error=" in location:
        raise OracleError(f"ZipRide did not schedule the ride: {location!r}")


def expect_confirmed(location: str, marker: str) -> None:
    """Raise :class:`OracleError` unless ZipRide's redirect ``location`` carries ``marker`` (its confirmation) and no
    error."""
    if marker not in location or "error=" in location:
        raise OracleError(f"ZipRide did not confirm ({marker!r} not in {location!r})")


def ride_row(web: Web, ride_id: str) -> int:
    """The rides table's row id of the ride ``ride_id`` (the id ZipRide shows, such as on a receipt)."""
    return web.one("rides", "SELECT id FROM rides WHERE ride_id = ?", (ride_id,))
