"""A meeting note's ODT bytes do not depend on what the process wrote before (odfpy keeps the namespaces it has
seen in one class-level dict: a fleet's Ray worker that had built another persona wrote other bytes)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile

from apps.board import documents


def _notes(world) -> list[bytes]:
    return [documents._notes_odt(world, n) for n in documents.meeting_notes(world) if n["path"].endswith(".odt")]


def test_note_bytes_ignore_what_the_process_wrote_before(world):
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow

    first = _notes(world)
    assert first
    sheet = OpenDocumentSpreadsheet()
    table = Table(name="Budget")
    row = TableRow()
    row.addElement(TableCell())
    table.addElement(row)
    sheet.spreadsheet.addElement(table)
    sheet.write(io.BytesIO())  # a spreadsheet teaches odfpy the table namespaces
    assert _notes(world) == first
    for data in first:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for name in ("content.xml", "styles.xml", "meta.xml"):
                ET.fromstring(z.read(name))  # every prefix declared
