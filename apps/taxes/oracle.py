"""Reference solutions of Ledgerleaf Tax's action tasks, through its HTTP routes (see builder.tasks.oracle).

The Documents page's Import buttons post to ``/api/return/import`` (``form`` = an issued form's id),
each step of the interview to ``/api/return/save`` (``step``, ``go``, the step's fields), the
review's File button to ``/api/return/file`` (``consent``, ``signature``). Each answers 303, with
``error=`` when refused and ``done=filed`` once filed.
"""

from __future__ import annotations

import html
import re
import urllib.parse

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

APP = "taxes"


def _post(web: Web, path: str, fields: list[tuple[str, str]]) -> str:
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if "error" in urllib.parse.parse_qs(urllib.parse.urlsplit(location).query):
        raise OracleError(f"Ledgerleaf Tax refused {path}: {urllib.parse.unquote_plus(location)!r}")
    return location


def _plain(cents: int) -> str:
    return f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def _shown(cents: int) -> str:
    return f"{abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def _import_all(web: Web) -> None:
    for (form,) in web.query(APP, "SELECT id FROM issued_forms ORDER BY id"):
        _post(web, "/api/return/import", [("form", str(form))])


def _result(refund_cents: int) -> str:
    return f"You get a refund of {_shown(refund_cents)}." if refund_cents >= 0 else f"You owe {_shown(refund_cents)}."


def _meter(web: Web) -> str:
    """The refund meter every interview page shows: "Refund $1,234.00" / "Owed $56.00", as the page says it."""
    r = web.get(APP, "/return/review")
    found = re.search(r'<span>([^<]*)</span>\s*<strong data-testid="meter-amount">([^<]+)</strong>', r.text)
    if r.status_code != 200 or not found:
        raise OracleError(f"no refund meter on /return/review ({r.status_code})")
    return f"{html.unescape(found.group(1))} {html.unescape(found.group(2))}"


def import_and_refund(task: Task, web: Web) -> str:
    _import_all(web)
    return f"Imported every issued form. The return shows: {_meter(web)}."


def donations_deduction(task: Task, web: Web) -> str:
    cents = task.expected["donations_cents"]
    _post(
        web,
        "/api/return/save",
        [("step", "deductions"), ("go", "next"), ("itemize", "standard"), ("donations", _plain(cents))],
    )
    return f"Entered {_shown(cents)} of charitable donations ({task.expected['gifts']} gifts)."


def file_return(task: Task, web: Web) -> str:
    name, street, city, region, postal, occupation = web.query(
        APP, "SELECT full_name, street, city, region, postal_code, occupation FROM users"
    )[0]
    first, *rest = name.split()
    _post(
        web,
        "/api/return/save",
        [
            ("step", "personal"),
            ("go", "next"),
            ("first_name", first),
            ("last_name", rest[-1] if rest else ""),
            ("street", street),
            ("city", city),
            ("region", region or ""),
            ("postal_code", postal),
            ("occupation", occupation),
        ],
    )
    _import_all(web)
    location = _post(web, "/api/return/file", [("consent", "yes"), ("signature", name)])
    if "done=filed" not in location:
        raise OracleError(f"Ledgerleaf Tax did not file: {location!r}")
    # The filed page shows the confirmation and the result.
    confirmation, refund = web.query(
        APP, "SELECT confirmation, refund_cents FROM returns WHERE world_ref IS NULL AND status = 'filed'"
    )[0]
    return f"Filed. The confirmation number is {confirmation}. {_result(refund)}"


SOLVERS = {
    "import-and-refund": import_and_refund,
    "donations-deduction": donations_deduction,
    "file-return": file_return,
}
