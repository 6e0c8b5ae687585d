"""Pay statements (payslip PDFs) attached to the payroll's mails, made from the world's paychecks.

The world's payroll mail names its PDF (``payslip-<date>.pdf``) but carries no bytes; the mail
seed makes them here from the paycheck event the mail refers to (its ``ref``): employer,
employee, pay date, pay schedule, gross pay, taxes and deductions (gross minus net), net pay
and the year-to-date sums over the same year's earlier paychecks. Each PDF is reproducible:
reportlab's invariant mode with the pay date as its creation date, so the bytes depend only on
the world. Spec text goes through :mod:`builder.files.pdftext` (escaped, any script, embedded fonts).
"""

from __future__ import annotations

import datetime as dt
import io
import os

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from builder.files.pdftext import FONT, FONT_BOLD, cell, meta_text, para_text, register
from builder.money import cents, money
from builder.world import Event, World

INK = colors.HexColor("#27364a")


def payslip_pdf(world: World, paycheck: Event) -> bytes:
    """The PDF bytes of the pay statement of ``paycheck`` (a ``paycheck`` event of ``world``).

    Amounts are the event's ``gross_cents`` and ``net_cents`` in the world's currency; the
    year-to-date figures sum the paychecks of the same calendar year up to and including this one.
    Raises ``builder.files.pdftext.FontMissing`` when the embedded fonts are not installed.
    """
    register()
    d = paycheck.data
    day = paycheck.at.date()
    epoch = int(dt.datetime.combine(day, dt.time(6, 0)).replace(tzinfo=dt.timezone.utc).timestamp())
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    rl_config.invariant = 1
    cur = world.currency
    p = world.persona
    employer = d.get("employer") or (p.work.employer if p.work else "Employer")
    schedule = (p.work.pay_schedule if p.work else "biweekly").capitalize()  # as payroll writes it: Semimonthly
    salary = money(cents(p.work.salary, cur), cur) if p.work and p.work.salary else None
    ytd = [e for e in world.of_kind("paycheck") if e.at.year == day.year and e.at <= paycheck.at]
    ytd_gross = sum(e.data["gross_cents"] for e in ytd)
    ytd_net = sum(e.data["net_cents"] for e in ytd)
    gross, net = d["gross_cents"], d["net_cents"]

    styles = getSampleStyleSheet()
    title = ParagraphStyle("t", parent=styles["Title"], textColor=INK, alignment=0, fontSize=18, fontName=FONT_BOLD)
    normal = ParagraphStyle("n", parent=styles["Normal"], fontName=FONT, fontSize=10)
    amount = ParagraphStyle("a", parent=normal, alignment=2)
    bold_amount = ParagraphStyle("b", parent=amount, fontName=FONT_BOLD)
    out = io.BytesIO()
    doc = SimpleDocTemplate(
        out,
        pagesize=LETTER,
        leftMargin=0.8 * inch,
        rightMargin=0.8 * inch,
        topMargin=0.7 * inch,
        bottomMargin=0.7 * inch,
        title=f"Pay statement {day.isoformat()}",
        author=meta_text(employer),
        subject=meta_text(f"Pay statement for {p.identity.name}"),
        creator=meta_text(employer),
        initialFontName=FONT,
    )
    story = [
        Paragraph(para_text(employer), title),
        Paragraph(f"Pay statement &middot; pay date {day:%B %-d, %Y}", normal),
        Spacer(1, 10),
        Paragraph(
            f"Employee: {para_text(p.identity.name, bold=True)}<br/>"
            f"Pay schedule: {para_text(schedule)}<br/>"
            + (f"Annual salary: {para_text(salary)}<br/>" if salary else "")
            + "Payment: direct deposit to checking",
            normal,
        ),
        Spacer(1, 14),
    ]
    rows = [
        ["", "This period", "Year to date"],
        ["Gross pay", cell(money(gross, cur), amount), cell(money(ytd_gross, cur), amount)],
        [
            "Taxes and deductions",
            cell(money(-(gross - net), cur), amount),
            cell(money(-(ytd_gross - ytd_net), cur), amount),
        ],
        ["Net pay", cell(money(net, cur), bold_amount), cell(money(ytd_net, cur), bold_amount)],
    ]
    table = Table(rows, colWidths=[2.6 * inch, 1.7 * inch, 1.7 * inch])
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 10),
                ("FONT", (0, 0), (-1, 0), FONT_BOLD, 10),
                ("FONT", (0, 3), (0, 3), FONT_BOLD, 10),
                ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
                ("BACKGROUND", (0, 0), (-1, 0), INK),
                ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                ("LINEABOVE", (0, 3), (-1, 3), 0.8, INK),
                ("BOX", (0, 0), (-1, -1), 0.5, colors.grey),
            ]
        )
    )
    story += [
        table,
        Spacer(1, 16),
        Paragraph(f"Net pay of {para_text(money(net, cur))} was deposited on {day:%B %-d, %Y}.", normal),
    ]

    def stamp(canvas, _doc):
        canvas.setFont(FONT, 7.5)
        canvas.setFillColor(colors.grey)
        canvas.drawString(0.8 * inch, 0.45 * inch, f"{employer} · Payroll · Confidential")

    doc.build(story, onFirstPage=stamp, onLaterPages=stamp)
    return out.getvalue()
