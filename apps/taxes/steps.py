"""Ledgerleaf Tax's steps in the scenarios that chain apps: checks of what the persona did here and the actions
that do it through its own routes (see builder.tasks.steps for the shared rules). The app's whole testing interface:
its tasks.py and oracle.py use these too, and it imports no other app.
"""

from __future__ import annotations

import urllib.parse

from builder.tasks import kit
from builder.tasks.model import Check, Task
from builder.tasks.oracle import OracleError, Web

APP = "taxes"


def post(web: Web, path: str, fields: list[tuple[str, str]]) -> str:
    """Post ``fields`` to Ledgerleaf Tax's ``path`` (303 expected); the redirect location. Raises :class:`OracleError`
    when it answers with an error."""
    _, location = web.post_form(APP, path, fields, expect=(303,))
    if "error" in urllib.parse.parse_qs(urllib.parse.urlsplit(location).query):
        raise OracleError(f"Ledgerleaf Tax refused {path}: {urllib.parse.unquote_plus(location)!r}")
    return location


def plain_amount(cents: int) -> str:
    """``cents`` as a form field takes it: ``-1234.50`` (no grouping; negative: owed)."""
    return f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def shown_amount(cents: int) -> str:
    """``cents`` as the app shows it: ``1,234.50`` (the sign dropped)."""
    return f"{abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def import_all(web: Web) -> None:
    """Import every issued form into this year's return (the Documents page's Import buttons)."""
    for (form,) in web.query(APP, "SELECT id FROM issued_forms ORDER BY id"):
        post(web, "/api/return/import", [("form", str(form))])


def result_text(refund_cents: int) -> str:
    """The result sentence the filed page shows: a refund of ``refund_cents``, or an amount owed (negative)."""
    return (
        f"You get a refund of {shown_amount(refund_cents)}."
        if refund_cents >= 0
        else f"You owe {shown_amount(refund_cents)}."
    )


def file_return(task: Task, web: Web) -> str:
    """Fill the personal step from the profile, import every form and file this year's return (a solver: ``task``
    unused); the answer a person would give (confirmation and result)."""
    name, street, city, region, postal, occupation = web.query(
        APP, "SELECT full_name, street, city, region, postal_code, occupation FROM users"
    )[0]
    first, *rest = name.split()
    post(
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
    import_all(web)
    location = post(web, "/api/return/file", [("consent", "yes"), ("signature", name)])
    if "done=filed" not in location:
        raise OracleError(f"Ledgerleaf Tax did not file: {location!r}")
    # The filed page shows the confirmation and the result.
    confirmation, refund = web.query(
        APP, "SELECT confirmation, refund_cents FROM returns WHERE world_ref IS NULL AND status = 'filed'"
    )[0]
    return f"Filed. The confirmation number is {confirmation}. {result_text(refund)}"


def return_filed(year: str, refund_cents: int) -> Check:
    """The persona's own return for ``year`` is filed with ``refund_cents`` (negative: owed)."""
    return kit.sql(
        APP,
        "SELECT status, refund_cents FROM returns WHERE tax_year = ? AND world_ref IS NULL",
        [year],
        [["filed", refund_cents]],
    )
