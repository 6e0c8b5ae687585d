"""TableTime's steps in the long tasks that chain apps: checks of what the persona did here and the
actions that do it through TableTime's own routes (see builder.tasks.steps for the shared rules).
"""

from __future__ import annotations

from builder.tasks import steps as S
from builder.tasks.model import Change, Check
from builder.tasks.oracle import OracleError, Web


def book(
    web: Web, slug: str, day: str, time: str, party: int, request: str = "", occasion: str = "", done: str = "booked"
) -> str:
    """Book a TableTime table (``occasion``: a key of the booking form's list, or none); the confirmation code.
    ``done="requested"`` for a large party, which sends the restaurant a request instead. Raises
    :class:`OracleError` when TableTime does not confirm it so."""
    fields = [("r", slug), ("date", day), ("time", time), ("party", str(party)), ("occasion", occasion)]
    _, location = web.post_form("dining", "/api/reservations", [*fields, ("request", request)])
    if f"done={done}" not in location:
        raise OracleError(f"TableTime did not book {slug} (done={done}): {location!r}")
    return web.one("dining", "SELECT confirmation FROM reservations WHERE world_ref IS NULL ORDER BY id DESC LIMIT 1")


def booked(slug: str, day: str, time: str, party: int) -> Check:
    """A TableTime reservation the persona made at ``slug`` on ``day`` at ``time`` for ``party``."""
    return S.sql(
        "dining",
        """SELECT COUNT(*) FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id
                            WHERE v.world_ref IS NULL AND v.status = 'booked' AND r.slug = ? AND v.day = ?
                            AND v.time = ? AND v.party_size = ?""",
        [slug, day, time, party],
        [[1]],
    )


def new_booking() -> tuple[Change, ...]:
    """The rows one new reservation writes in TableTime (for a state_diff item): it and its table holds."""
    return (
        Change(table="reservations", op="insert", min=1, max=1),
        Change(table="table_holds", op="delete", min=0),
        Change(table="table_holds", op="insert", min=0),
    )


def only_booking() -> Check:
    """TableTime changed only by one new reservation (and its table holds)."""
    return S.diff("dining", *new_booking())


def restaurants_by_visits(world, with_: set[str] | None = None) -> list[dict]:
    """TableTime restaurants the persona booked (with any of ``with_`` among the companions, when given), most
    booked first (ties by name): ``{slug, name, address, visits}``."""
    from collections import Counter

    from .seed import listed

    slugs = {(x["name"], x["address"]): x["slug"] for x in listed(world)}
    seen = Counter(
        (e.data["restaurant"], e.data["address"])
        for e in world.of_kind("restaurant_booking")
        if e.data.get("provider") == "TableTime" and (with_ is None or with_ & set(e.data.get("companions") or ()))
    )
    return [
        {"slug": slugs[k], "name": k[0], "address": k[1], "visits": n}
        for k, n in sorted(seen.items(), key=lambda kv: (-kv[1], kv[0]))
        if k in slugs
    ]
