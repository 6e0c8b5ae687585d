"""Reference solutions of Meridian Air's own action tasks, through its HTTP routes (see builder.tasks.oracle); its
tasks with other apps have theirs beside them in ``scenarios/``."""

from __future__ import annotations

import html
import re
import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

from .steps import change_to_aisle, expect_confirmed

APP = "airline"


def _testid_text(page: str, testid: str) -> str:
    """The visible text of the element with ``data-testid=testid`` (tags and React's comment markers dropped)."""
    m = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</', page, re.DOTALL)
    if not m:
        raise OracleError(f"Meridian Air's page shows no {testid!r}")
    return html.unescape(re.sub(r"<!--.*?-->|<[^>]+>", "", m.group(1))).strip()


def aisle_seat(task: Task, web: Web) -> str:
    """An aisle seat on the next flight (Meridian Air alone)."""
    exp = task.expected
    seat = change_to_aisle(web, exp)
    return f"Your seat on {exp['flight_number']} is now {seat}, an aisle seat."


def cancel_next_trip(task: Task, web: Web) -> str:
    pnr = task.expected["pnr"]
    _, location = web.post_form(APP, "/api/cancel", [("pnr", pnr), ("confirm", "yes")], expect=(303,))
    expect_confirmed(location, "cancelled=")
    url = urllib.parse.urlsplit(location)
    said = _testid_text(web.get(APP, f"{url.path}?{url.query}").text, "cancelled")
    if "no value" in said:
        said += " So you get nothing back: no credit and no refund."
    return f"Trip {pnr} is cancelled. {said}"


SOLVERS = {
    "aisle-seat": aisle_seat,
    "cancel-next-trip": cancel_next_trip,
}
