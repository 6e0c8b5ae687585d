"""Independent readers of Ledgerleaf Tax's own answer tasks (:mod:`builder.tasks.reader`): each answer derived from
what the persona sees: the tax forms and filed returns saved as PDFs in the home folder's Documents, and
Ledgerleaf's pages signed in (the start page's returns, the deductions step). Never the world or the database. The
helpers serve the scenarios homed in Ledgerleaf too.

``import-and-refund`` has no reader: its answer is the result of the import the task asks for (an action), which a
reader that changes nothing cannot see.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from builder.tasks.reader import Reading, See, Unreadable, parse_money, reader, visible_text
from builder.tasks.seen import line_after, pdf_text

APP = "taxes"

# The title a document's first lines carry, by form: what the reader looks for to know a PDF.
TITLES = {
    "W-2": "Form W-2",
    "1099-INT": "Form 1099-INT",
    "1099-DIV": "Form 1099-DIV",
    "1099-B": "Form 1099-B",
    "P60": "P60 End of Year Certificate",
    "Lohnsteuerbescheinigung": "Lohnsteuerbescheinigung",
    "return": "Ledgerleaf Tax",
}
# The printed label of each box a reader needs, by form (the value is printed on the line below).
BOXES = {
    "W-2": {"wages": "1 Wages, tips, other compensation", "withheld": "2 Federal income tax withheld"},
    "P60": {"wages": "Pay in this employment", "withheld": "Tax deducted in this employment"},
    "Lohnsteuerbescheinigung": {
        "wages": "3. Bruttoarbeitslohn",
        "withheld": "4. Einbehaltene Lohnsteuer",
        "periods": "2. Zahl der Lohnzahlungszeiträume",
    },
    "1099-INT": {"interest": "1 Interest income"},
    "1099-DIV": {"dividends": "1a Total ordinary dividends"},
    "1099-B": {"gain": "Realized gain or (loss), total"},
}
# A filed return's total tax, by the words of its country's copy.
RETURN_TAX = ("Total tax", "Income Tax due", "Festzusetzende Steuer")


def documents(see: See) -> list[tuple[Path, str]]:
    """``(path, text)`` of every PDF under ``~/Documents``, by path."""
    return [(p, pdf_text(p)) for p in see.files("Documents/**/*.pdf")]


def document(see: See, form: str, year: str, issuer: str | None = None) -> tuple[Path, str]:
    """The one PDF of ``form`` (a key of :data:`TITLES`) for tax year ``year`` (its label: ``2025``, ``2025-26``),
    from ``issuer`` when given: its title and year in the first lines. Raises :class:`Unreadable` when there is
    none or several."""
    hit = []
    for path, text in documents(see):
        head = " ".join(text.splitlines()[:4])
        if TITLES[form] not in head or not re.search(rf"(?<![\d-]){re.escape(year)}(?![\d-])", head):
            continue
        if issuer is not None and issuer not in text:
            continue
        hit.append((path, text))
    if len(hit) != 1:
        raise Unreadable(
            f"{len(hit)} PDFs of a {form} for {year}" + (f" from {issuer}" if issuer else "") + " in ~/Documents"
        )
    return hit[0]


def box(text: str, form: str, name: str) -> tuple[int, str]:
    """``(cents, as printed)`` of box ``name`` (a key of :data:`BOXES`) of a ``form``'s text."""
    shown = line_after(text, BOXES[form][name])
    return parse_money(shown), shown


def wage_form(see: See, year: str) -> tuple[str, Path, str]:
    """``(form, path, text)``: the employer's form of the year in Documents, whichever of W-2, P60 and
    Lohnsteuerbescheinigung it is."""
    found = []
    for form in ("W-2", "P60", "Lohnsteuerbescheinigung"):
        try:
            found.append((form, *document(see, form, year)))
        except Unreadable:
            continue
    if len(found) != 1:
        raise Unreadable(f"{len(found)} wage forms for {year} in ~/Documents")
    return found[0]


def span(label: str) -> tuple[dt.date, dt.date]:
    """First and last day of tax year ``label``: ``2025`` the calendar year, ``2025-26`` the UK's (6 April 2025
    to 5 April 2026)."""
    m = re.fullmatch(r"(\d{4})-(\d{2})", label)
    if m:
        y = int(m.group(1))
        return dt.date(y, 4, 6), dt.date(y + 1, 4, 5)
    return dt.date(int(label), 1, 1), dt.date(int(label), 12, 31)


def returns(see: See) -> list[dict]:
    """The rows of Ledgerleaf's "Your returns": ``{year, status, result}`` (``result`` as shown: ``Amount owed
    $401.68``)."""
    out = []
    for tr in see.page(APP, "/").xpath('//table[@data-testid="returns"]/tbody/tr'):
        c = [visible_text(td) for td in tr.xpath("./td")]
        out.append({"year": c[0], "status": c[1], "result": c[3]})
    return out


@reader("form", "issuer", "year")
def form_wages(see: See, given: dict) -> Reading:
    """The wages box of the employer's form in Documents."""
    path, text = document(see, given["form"], given["year"], given["issuer"])
    cents, shown = box(text, given["form"], "wages")
    return Reading(
        values={"wages": cents}, steps=[f"~/{path.relative_to(see.home)}: {BOXES[given['form']]['wages']} {shown}"]
    )


@reader("form", "year")
def form_pdf_withheld(see: See, given: dict) -> Reading:
    """The tax-withheld box of the employer's form in Documents."""
    path, text = document(see, given["form"], given["year"])
    cents, shown = box(text, given["form"], "withheld")
    return Reading(
        values={"withheld": cents},
        steps=[f"~/{path.relative_to(see.home)}: {BOXES[given['form']]['withheld']} {shown}"],
    )


@reader()
def standard_deduction(see: See, given: dict) -> Reading:
    """The standard deduction the deductions step shows."""
    node = see.page(APP, "/return/deductions").xpath('//*[@data-testid="deduction-compare"]')
    if not node:
        raise Unreadable("Ledgerleaf's deductions step shows no standard deduction")
    shown = visible_text(node[0])
    return Reading(values={"std": parse_money(shown)}, steps=[f"Ledgerleaf, deductions step: {shown}"])


@reader("tax_year")
def last_year_tax(see: See, given: dict) -> Reading:
    """The total tax of the filed return's copy in Documents."""
    year = str(given["tax_year"])
    path, text = document(see, "return", year)
    for label in RETURN_TAX:
        try:
            shown = line_after(text, label)
        except Unreadable:
            continue
        return Reading(values={"tax": parse_money(shown)}, steps=[f"~/{path.relative_to(see.home)}: {label} {shown}"])
    raise Unreadable(f"the {year} return's copy shows no total tax")


@reader(after_action=True)
def import_and_refund(see: See, given: dict) -> Reading:
    """After the forms are imported: the refund or amount owed Ledgerleaf's meter shows on the review step (the
    seeded desktop has no return to show it on)."""
    page = see.page(APP, "/return/review")
    meter = page.xpath('//*[@data-testid="meter"]')
    if not meter:
        raise Unreadable("Ledgerleaf's review step shows no refund meter")
    shown = visible_text(meter[0])
    return Reading(values={"refund": parse_money(shown)}, steps=[f"Ledgerleaf, review step, meter: {shown}"])


READERS = {
    "import-and-refund": import_and_refund,
    "form-wages": form_wages,
    "form-pdf-withheld": form_pdf_withheld,
    "standard-deduction": standard_deduction,
    "last-year-tax": last_year_tax,
}
