"""Reference solutions of Ledgerleaf Tax's action tasks, through its HTTP routes (see builder.tasks.oracle).

The Documents page's Import buttons post to ``/api/return/import`` (``form`` = an issued form's id),
each step of the interview to ``/api/return/save`` (``step``, ``go``, the step's fields), the
review's File button to ``/api/return/file`` (``consent``, ``signature``). Each answers 303, with
``error=`` when refused and ``done=filed`` once filed.
"""

from __future__ import annotations

import html
import re

from builder.tasks.model import Task
from builder.tasks.oracle import OracleError, Web

from .steps import file_return, import_all

APP = "taxes"


def _meter(web: Web) -> str:
    """The refund meter every interview page shows: "Refund $1,234.00" / "Owed $56.00", as the page says it."""
    r = web.get(APP, "/return/review")
    found = re.search(r'<span>([^<]*)</span>\s*<strong data-testid="meter-amount">([^<]+)</strong>', r.text)
    if r.status_code != 200 or not found:
        raise OracleError(f"no refund meter on /return/review ({r.status_code})")
    return f"{html.unescape(found.group(1))} {html.unescape(found.group(2))}"


def import_and_refund(task: Task, web: Web) -> str:
    import_all(web)
    return f"Imported every issued form. The return shows: {_meter(web)}."


SOLVERS = {
    "import-and-refund": import_and_refund,
    "file-return": file_return,
}
