"""Statement PDFs treat spec text as text: no markup, any script, safe file names, same bytes every time."""

from __future__ import annotations

import copy
import hashlib
import http.server
import json
import re
import subprocess
import sys
import threading
import unicodedata
from pathlib import Path

import pytest

from apps.bank.seed import account_numbers
from apps.bank import statements as st
from apps.bank.statements import write_statements
from builder.files import fonts
from builder.files import pdftext as pt
from builder.persona import Persona, complete
from builder.world import simulate

REPO = Path(__file__).resolve().parents[2]
BASE = json.loads((REPO / "personas" / "dana-whitfield.json").read_text())

# Bidi controls pdftotext may wrap around right-to-left runs it reconstructs.
_BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _world(name: str | None = None, street: str | None = None, checking: str | None = None, payee: str | None = None):
    """Dana's spec with some text replaced, completed and simulated over a 3-month history (a statement needs one
    month; the 18 months the spec has would only repeat the same lines)."""
    data = copy.deepcopy(BASE)
    data["history_months"] = 3
    if name is not None:
        data["identity"]["name"] = name
    if street is not None:
        data["identity"]["address"]["street"] = street
    if checking is not None:
        data["finances"]["accounts"][0]["name"] = checking
    if payee is not None:
        rent = next(c for c in data["finances"]["recurring_charges"] if c["method"] == "bill_pay")
        rent["payee"] = payee
    return simulate(complete(Persona.model_validate(data)))


def _write(world, documents: Path, months: int = 1) -> list[Path]:
    numbers = {k: n for k, (n, _, _) in account_numbers(world).items()}
    return write_statements(world, numbers, documents, months=months)


def _text(pdf: Path) -> str:
    """pdftotext's reading of ``pdf``, whitespace collapsed (a paragraph may wrap anywhere at a space)."""
    out = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(out.split())


class _Recorder(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        self.requests.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def loopback_server():
    """A real HTTP server on 127.0.0.1 (any free port) that records every request it gets."""
    _Recorder.requests = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], _Recorder.requests
    server.shutdown()
    server.server_close()
    thread.join(5)


def test_markup_in_spec_text_is_printed_not_followed(loopback_server, tmp_path):
    port, requests = loopback_server
    url_img = f"<img src='http://127.0.0.1:{port}/x'/>"
    file_img = "<img src='/etc/hostname'/>"
    junk = "<font name='Courier' color='red'>Fo</font> a<b & c&amp;d <"
    name = f"{url_img} Dana"
    street = f"{file_img} {junk}"
    checking = f"{url_img} Checking"
    payee = f"{file_img} Rent"
    pdfs = _write(_world(name=name, street=street, checking=checking, payee=payee), tmp_path / "Documents")

    assert requests == [], "building statements fetched a URL named in spec text"
    checking_pdf = pdfs[0]
    text = _text(checking_pdf)
    for literal in (name, street, checking, payee.upper()):  # payees print upper case, as banks do
        assert literal in text, (literal, text[:600])
    for pdf in pdfs:
        data = pdf.read_bytes()
        assert b"/XObject" not in data and b"/Subtype /Image" not in data, (
            f"{pdf.name} embeds an image: a host file or URL was read"
        )
    hostname = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else ""
    if len(hostname) >= 6:  # a short host name could appear by chance in amounts or card numbers
        assert hostname not in text


@pytest.mark.parametrize("name", ["Nguyễn Thị Minh Khai", "Zażółć Gęślą"])
def test_latin_names_with_diacritics_print(name, tmp_path):
    # NFD input (base letters plus combining marks) prints as the same NFC text.
    world = _world(name=unicodedata.normalize("NFD", name), street=f"12 {name}", checking=f"{name} Checking")
    pdf = _write(world, tmp_path / "Documents")[0]
    text = unicodedata.normalize("NFC", _text(pdf))
    assert name in text and f"12 {name}" in text and f"{name} Checking ending" in text


@pytest.mark.parametrize("name", ["דנה כהן", "ليلى حداد"])
def test_right_to_left_names_print_in_reading_order(name, tmp_path):
    world = _world(name=name, street=f"{name} 12", checking=f"{name} Checking", payee=name)
    pdf = _write(world, tmp_path / "Documents")[0]
    raw = _text(pdf)
    # The PDF draws glyphs left to right in visual order, as a correctly laid-out RTL line looks.
    # pdftotext reads a right-to-left run from right to left, back into logical (typed) order; it
    # gives the typed name only when letters and words were drawn in visual order. Text drawn in
    # typed order would come out reversed ("ןהכ הנד", or the words swapped) and fail here.
    # Arabic is drawn in joined presentation forms (U+FExx); NFKC maps them back to the letters.
    text = unicodedata.normalize("NFKC", _BIDI_CONTROLS.sub("", raw))
    text = " ".join(text.split())
    assert name in text, text[:400]
    assert f"BILL PAY {name}" in text
    if name == "ليلى حداد":
        joined = [ch for ch in raw if 0xFE70 <= ord(ch) <= 0xFEFF]
        assert len(joined) >= len(name.replace(" ", "")), "Arabic letters were not drawn in joined forms"
        assert "ليلى" not in raw, "Arabic drawn in unjoined base letters"


def test_visual_order_matches_python_bidi():
    """Our reordering (levels from python-bidi, marks and mirroring added) agrees with its get_display."""
    from bidi import get_display

    for text in ["abc דנה כהן def", "ليلى حداد 12", "Larkspur רחוב הרצל 12 ending 4321", "123 أ ب ج"]:
        shaped = pt.reshaper().reshape(text) if any("\u0600" <= c <= "\u06ff" for c in text) else text
        assert pt.visual(text) == get_display(shaped, base_dir="L"), text
    assert pt.visual("דנה (א) x") == "(א) הנד x"  # brackets mirrored in a right-to-left run
    assert pt.visual("plain ASCII (no change)") == "plain ASCII (no change)"


def _fonts_of(pdf: Path) -> set[str]:
    """Base names (subset prefix and TTC face suffix dropped) of the fonts ``pdf`` embeds; all embedded."""
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()[2:]
    assert all(" yes yes " in line for line in lines), out  # embedded, subset
    return {re.sub(r"^[A-Z]{6}\+|-\d+$", "", line.split()[0]) for line in lines}


# name -> the fallback font that must draw it (DejaVu has none of these glyphs).
_FALLBACK_NAMES = {
    "王小明": "WenQuanYiMicroHei",  # Chinese
    "山田花子": "WenQuanYiMicroHei",  # Japanese (kanji)
    "さとう ユキ": "WenQuanYiMicroHei",  # Japanese (hiragana, katakana)
    "김민준": "WenQuanYiMicroHei",  # Korean (Hangul syllables)
    "สมชาย ใจดี": "Garuda",  # Thai (with an above-base vowel)
    "ทองใบ ที่น้ำ": "Garuda",  # Thai: stacked vowel and tone marks, sara am
    "Dana 🦄 Whitfield": "Symbola",  # emoji beyond the BMP
    "Dana 👍🏽 🎉 ☕ Lee": "Symbola",  # skin-tone modifier, BMP and astral emoji
}


@pytest.mark.parametrize("name", list(_FALLBACK_NAMES))
def test_names_dejavu_lacks_print_in_a_fallback_font(name, tmp_path):
    world = _world(name=name, street=f"12 {name}", checking=f"{name} Checking", payee=name)
    pdf = _write(world, tmp_path / "Documents")[0]
    # NFC: Thai sara am and the marks come back as typed, but compare normalised to be safe.
    text = unicodedata.normalize("NFC", _text(pdf))
    typed = unicodedata.normalize("NFC", name)
    assert typed in text and f"12 {typed} " in text, text[:400]
    assert f"{typed} Checking ending" in text  # the bold heading
    assert f"BILL PAY {typed.upper()}" in text  # a transaction's description
    assert "\ufffd" not in text
    used = _fonts_of(pdf)
    assert _FALLBACK_NAMES[name] in used, used
    assert used <= {"DejaVuSans", "DejaVuSans-Bold", "WenQuanYiMicroHei", "Garuda", "Garuda-Bold", "Symbola"}
    if "Garuda" in used:
        assert "Garuda-Bold" in used  # the bold heading uses Garuda's bold face


def test_font_runs_keep_marks_and_modifiers_with_their_letter():
    base, faces = pt.font_chars(), fonts.fallback_faces()
    runs = [(f and f.name, t) for f, t in fonts.font_runs("a王b 👍🏽 ที่ ❤️ x\u0301", base, faces)]
    assert runs == [
        (None, "a"),
        ("WenQuanYiMicroHei", "王"),
        (None, "b "),
        ("Symbola", "👍🏽"),
        (None, " "),
        ("Garuda", "ที่"),
        (None, " ❤️ x\u0301"),
    ]
    # A character no font has stays in place, in the run it follows.
    nobody = "\U000f0000"
    assert not any(ord(nobody) in f.chars for f in faces) and ord(nobody) not in base
    runs = [(f and f.name, t) for f, t in fonts.font_runs(f"{nobody}a王{nobody}", base, faces)]
    assert runs == [(None, f"{nobody}a"), ("WenQuanYiMicroHei", f"王{nobody}")]


def test_fallback_runs_are_escaped_too():
    markup = pt.para_text("王<font name='Courier'>&amp;</font>小<img src='/etc/hostname'/> 🦄<br/>")
    assert markup == (
        "<font name=\"WenQuanYiMicroHei\">王</font>&lt;font name='Courier'&gt;&amp;amp;&lt;/font&gt;"
        "<font name=\"WenQuanYiMicroHei\">小</font>&lt;img src='/etc/hostname'/&gt; "
        '<font name="Symbola">🦄</font>&lt;br/&gt;'
    )


def test_plain_cells_become_paragraphs_only_when_they_need_a_fallback():
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    style = ParagraphStyle("x", fontName=pt.FONT, alignment=2)
    assert pt.cell("-$1,234.56", style) == "-$1,234.56"
    assert pt.cell("€12.00 ₪ ﷼", style) == "€12.00 ₪ ﷼"  # DejaVu draws all of it
    cell = pt.cell("JPY 1,200 円<b>", style)
    assert isinstance(cell, Paragraph) and cell.text.endswith('<font name="WenQuanYiMicroHei">円</font>&lt;b&gt;')


def test_markup_inside_fallback_text_is_printed_not_followed(loopback_server, tmp_path):
    port, requests = loopback_server
    name = f"王<img src='http://127.0.0.1:{port}/x'/>小明 🦄 <b>&amp;"
    street = "สมชาย <img src='/etc/hostname'/> ใจดี"
    pdfs = _write(_world(name=name, street=street, payee=name), tmp_path / "Documents")
    assert requests == []
    text = _text(pdfs[0])
    assert name in text and street in text and f"BILL PAY {name.upper()}" in text, text[:500]
    assert all(b"/Subtype /Image" not in p.read_bytes() for p in pdfs)


def test_characters_no_font_has_do_not_break_the_build(tmp_path):
    nobody = "\U000f0000\U00013000"  # private use, an Egyptian hieroglyph: in none of the fonts
    pdf = _write(_world(name=f"Dana {nobody} 王", checking=f"{nobody} Checking"), tmp_path / "Documents")[0]
    assert "Dana" in _text(pdf) and "王" in _text(pdf)


def test_missing_fallback_font_warns_and_statements_still_build(monkeypatch, tmp_path):
    fonts.fallback_faces.cache_clear()
    monkeypatch.setattr(fonts, "FONT_ROOT", tmp_path / "no-fonts")
    try:
        with pytest.warns(fonts.FallbackFontMissing) as caught:
            pdf = _write(_world(name="王小明 Dana"), tmp_path / "Documents")[0]
        packages = " ".join(str(w.message) for w in caught)
        assert all(fb.package in packages for fb in fonts.FALLBACKS)
        assert _fonts_of(pdf) <= {"DejaVuSans", "DejaVuSans-Bold"}
        assert "Dana" in _text(pdf)
    finally:
        monkeypatch.undo()
        fonts.fallback_faces.cache_clear()


def test_account_name_with_path_parts_stays_in_documents(tmp_path):
    documents = tmp_path / "home" / "Documents"
    world = _world(checking="../../../etc/cron.d/x .. / Checking")
    pdfs = _write(world, documents, months=2)
    assert len(pdfs) == 6
    for pdf in pdfs:
        assert pdf.parent == documents and pdf.resolve().parent == documents.resolve()
        assert pdf.is_file() and "/" not in pdf.name and not pdf.name.startswith((".", "-"))
    assert sorted(p.name for p in documents.iterdir()) == sorted(p.name for p in pdfs)
    assert [p for p in tmp_path.rglob("*") if p.is_file() and p.parent != documents] == []


def test_statement_filename_is_one_safe_component():
    period = next(iter(st.statements(_world(), "checking")))
    for account in ["..", "../..", "/", "a/../b", ".hidden", "-rf Checking", "Larkspur"]:
        name = st.statement_filename(account, period)
        assert "/" not in name and name not in (".", "..") and not name.startswith((".", "-")), name
        assert name.startswith("Larkspur") and name.endswith(f"-{period.end:%Y-%m}.pdf"), name
    assert st.statement_filename("Everyday Checking", period) == f"Larkspur-Everyday-Checking-{period.end:%Y-%m}.pdf"


def test_two_accounts_with_the_same_file_name_keep_both_statements(tmp_path):
    data = copy.deepcopy(BASE)
    data["finances"]["accounts"][0]["name"] = "Main/Account"
    data["finances"]["accounts"][1]["name"] = "Main Account"
    world = simulate(complete(Persona.model_validate(data)))
    pdfs = _write(world, tmp_path / "Documents")
    assert len(set(pdfs)) == len(pdfs) == 3


def test_pdfs_embed_dejavu_only(tmp_path):
    pdf = _write(_world(name="ليلى حداد"), tmp_path / "Documents")[0]
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    names = [line.split()[0] for line in fonts.splitlines()[2:]]
    assert names and all(re.fullmatch(r"[A-Z]{6}\+DejaVuSans(-Bold)?", n) for n in names), fonts
    assert all(" yes yes " in line for line in fonts.splitlines()[2:]), fonts  # embedded, subset


def test_missing_font_names_the_package(monkeypatch, tmp_path):
    pt.font_chars.cache_clear()
    pt.reshaper.cache_clear()
    monkeypatch.setattr(pt, "FONT_DIR", tmp_path / "no-fonts")
    try:
        with pytest.raises(pt.FontMissing, match="fonts-dejavu-core"):
            _write(_world(), tmp_path / "Documents")
    finally:
        monkeypatch.undo()
        pt.font_chars.cache_clear()
        pt.reshaper.cache_clear()


_HASH_SCRIPT = """
import hashlib, json, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.files.test_statement_text import _world, _write
pdfs = _write(_world(name="ليلى حداد", street="רחוב הרצל 12", checking="Nguyễn Thị Minh Khai"), Path(sys.argv[1]))
pdfs += _write(_world(name="王小明", street="12 สมชาย ใจดี", checking="김민준 🦄 Checking", payee="山田花子"),
               Path(sys.argv[1]) / "cjk")
print(json.dumps([[p.name, hashlib.sha256(p.read_bytes()).hexdigest()] for p in pdfs]))
"""


def test_statements_are_byte_identical_across_processes(tmp_path):
    """Font subsets (names, glyph order) and shaping add no randomness: two processes, same bytes."""
    script = _HASH_SCRIPT.format(root=str(REPO))
    runs = [
        subprocess.run(
            [sys.executable, "-c", script, str(tmp_path / f"run{i}")],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        ).stdout
        for i in range(2)
    ]
    first, second = (json.loads(r) for r in runs)
    assert first == second and len(first) == 6
    assert (
        hashlib.sha256(b"".join(p.read_bytes() for p in sorted((tmp_path / "run0").rglob("*.pdf")))).hexdigest()
        == hashlib.sha256(b"".join(p.read_bytes() for p in sorted((tmp_path / "run1").rglob("*.pdf")))).hexdigest()
    )
    cjk = tmp_path / "run0" / "cjk"
    assert {"WenQuanYiMicroHei", "Garuda", "Symbola"} <= set().union(*(_fonts_of(p) for p in cjk.iterdir()))
