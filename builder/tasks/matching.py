"""How a final answer is read by the answer checks: normalised text, whole words, amounts with their currency, whole
numbers, clock times in 12- or 24-hour form, and the other candidates an answer must not name.

Normalised text (:func:`normalise`): Unicode NFKC, accents removed, case folded, curly quotes and dashes made plain,
white space folded. A spelling matches only as whole words (``"1 PM"`` is not in ``"11 PM"``, ``"Product Designer"``
is a match inside ``"Senior Product Designer"`` only as words, which :func:`occurrences` reports with their span so a
check can tell the longer name apart). Clock times are rewritten to ``HH:MM`` on both sides first (``7:45 PM``,
``7:45pm``, ``19:45``, ``19:45 Uhr``, ``19.45 Uhr``, ``7 pm``), so any of those forms matches any other.

An amount of money (:func:`amounts`) is a number written with its currency: a currency sign (any Unicode ``Sc``
character, ``R$``, ``CA$``...), an ISO 4217 code or a currency's name next to it (``$1,234.56``, ``1.234,56 €``,
``EUR 12``, ``12 euros``); a bare number is not money. Thousands separators may be ``,`` ``.`` a space or a narrow
no-break space; a last separator followed by one or two digits is the decimal point. Whole numbers
(:func:`numbers`) are the numbers an answer states on their own: not part of a date, a clock time or an amount.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"})
_SPACES = re.compile(r"[\s\u00a0\u202f\u2009]+")

_TIME_12 = re.compile(r"(?<![\w:.])(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
_TIME_24 = re.compile(r"(?<![\w:.])(\d{1,2}):(\d{2})(?::\d{2})?(?:\s*uhr\b)?(?![\w:])", re.IGNORECASE)
_TIME_UHR = re.compile(r"(?<![\w:.])(\d{1,2})(?:[.](\d{2}))?\s*uhr\b", re.IGNORECASE)


def _times(text: str) -> str:
    def h12(m: re.Match) -> str:
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        if not 1 <= hour <= 12 or minute > 59:
            return m.group(0)
        hour = hour % 12 + (12 if m.group(3).lower() == "p" else 0)
        return f"{hour:02d}:{minute:02d}"

    def h24(m: re.Match) -> str:
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        if hour > 23 or minute > 59:
            return m.group(0)
        return f"{hour:02d}:{minute:02d}"

    return _TIME_UHR.sub(h24, _TIME_24.sub(h24, _TIME_12.sub(h12, text)))


@lru_cache(maxsize=1 << 16)
def normalise(text: str) -> str:
    """``text`` as answer checks compare it: NFKC, accents dropped, case folded, plain quotes and dashes, clock
    times as ``HH:MM``, white space folded to one space."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = _SPACES.sub(" ", text.casefold()).strip()
    return _times(text)


def occurrences(text: str, spelling: str) -> list[tuple[int, int]]:
    """Spans ``(start, end)`` in ``normalise(text)`` where ``spelling`` (normalised) stands as whole words: no letter
    or digit right before or after it, and no digit group of the same number (``,125``) either side."""
    pattern = _word_pattern(normalise(spelling))
    return [m.span() for m in pattern.finditer(normalise(text))] if pattern else []


@lru_cache(maxsize=1 << 14)
def _word_pattern(want: str) -> re.Pattern | None:
    """The whole-word pattern of a normalised spelling; a spelling ending in a digit does not match inside a longer
    number ("4" in "$4,125.00")."""
    if not want:
        return None
    return re.compile(r"(?<![^\W_])(?<!\d[.,])" + re.escape(want) + r"(?![^\W_])(?![.,]\d)")


def inside(span: tuple[int, int], others: list[tuple[int, int]]) -> bool:
    """Whether ``span`` lies within a longer span of ``others``."""
    return any(a <= span[0] and span[1] <= b and (b - a) > (span[1] - span[0]) for a, b in others)


def text_match(answer: str, spellings: list[str], reject: list[str] = ()) -> tuple[bool, list[str], list[str]]:
    """``(met, spellings found, rejected candidates found)``: met when one of ``spellings`` stands in ``answer`` as
    whole words and none of ``reject`` does. A spelling found only inside a longer rejected candidate ("Theo" in
    "Theo Baker") does not count, nor does a rejected candidate found only inside a longer expected spelling
    ("Product Designer" in "Senior Product Designer")."""
    good = {s: occurrences(answer, s) for s in spellings}
    bad = {r: occurrences(answer, r) for r in reject}
    good_spans = [sp for spans in good.values() for sp in spans]
    bad_spans = [sp for spans in bad.values() for sp in spans]
    found = [s for s, spans in good.items() if any(not inside(sp, bad_spans) for sp in spans)]
    wrong = [r for r, spans in bad.items() if any(not inside(sp, good_spans) for sp in spans)]
    return bool(found) and not wrong, found, wrong


# --- money ----------------------------------------------------------------------------------------------------


@cache
def _currency_words() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(ISO 4217 codes, currency names in English and German: singular and plural, lower case, the words of every
    currency symbol CLDR has in any locale, as written: ``F CFA`` gives ``F`` and ``CFA``, ``zł``, ``Rs``, ``S/``)."""
    from babel import Locale, localedata
    from babel.numbers import get_currency_name, list_currencies

    codes = frozenset(c.lower() for c in list_currencies())
    names = {"dollar", "dollars", "euro", "euros", "pound", "pounds", "yen", "cent", "cents", "bucks", "quid"}
    for code in ("USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "INR", "NGN", "BRL", "MXN", "ZAR", "KES"):
        for loc in ("en", "de"):
            for count in (1, 2):
                name = get_currency_name(code, count, loc).lower()
                names.add(name)
                names.add(name.split()[-1])
    symbols = set()
    for lid in sorted(localedata.locale_identifiers()):
        try:
            found = Locale.parse(lid).currency_symbols
        except (ValueError, LookupError):  # a locale Babel lists but cannot load
            continue
        for written in found.values():
            symbols.update(w for w in unicodedata.normalize("NFKC", written).split() if w.strip("\u200b"))
    return codes, frozenset(names), frozenset(symbols)


_NUMBER = r"\d{1,3}(?:[.,' \u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?"
#: A number as money is written, with thousands groups and decimals of either convention (group 1).
NUMBER_AT = re.compile(r"(?<![\d.,])(" + _NUMBER + r")(?![\d])")


def number_cents(raw: str) -> int:
    """Cents of a number as written (``1,234.56``, ``1.234,56``, ``1 234``, ``12``; ``1.234`` is thousands)."""
    if re.fullmatch(r"\d{1,3}[.,]\d{3}", raw):
        return int(re.sub(r"\D", "", raw)) * 100
    dec = re.search(r"[.,](\d{1,2})$", raw)
    frac = ""
    if dec:
        frac, raw = dec.group(1), raw[: dec.start()]
    return int(re.sub(r"\D", "", raw) or 0) * 100 + int(frac.ljust(2, "0"))


def _is_currency(word: str) -> bool:
    """A currency sign (Unicode ``Sc``, alone or after up to three letters: ``$``, ``CA$``, ``R$``), an ISO 4217
    code in capitals (``USD``: lower case ``all`` or ``try`` are words), a currency's name (``euros``), or a word of
    a currency symbol as CLDR writes it, case and all (``CFA``, ``Rs``, ``zł``, ``S/``, ``Kč``)."""
    if any(unicodedata.category(c) == "Sc" for c in word):
        return True
    codes, names, symbols = _currency_words()
    w = word.strip(".")
    return (w.isupper() and w.lower() in codes) or w.lower() in names or word in symbols or w in symbols


def _money(text: str) -> list[tuple[tuple[int, int], int]]:
    """``((start, end), cents)`` of every amount in ``text`` (NFKC) written with a currency next to it."""
    out = []
    for m in NUMBER_AT.finditer(text):
        before = text[: m.start()].rstrip(" \u00a0\u202f-")
        after = text[m.end() :].lstrip(" \u00a0\u202f")
        pre = re.search(r"([^\W\d_]{0,3}[^\w\s]|[^\W\d_]+\.?)$", before)
        post = re.match(r"([^\w\s]|[^\W\d_]+\.?)", after)
        glued = m.start() > 0 and text[m.start() - 1].isalpha()
        # A lone letter glued to a number is a code (the R2 line, Q3), not a rand or a quetzal.
        pre_ok = pre and _is_currency(pre.group(1)) and not (glued and len(pre.group(1).strip(".")) == 1)
        if pre_ok or (post and _is_currency(post.group(1))):
            out.append((m.span(), number_cents(m.group(1))))
    return out


def amounts(text: str) -> set[int]:
    """Every amount of money ``text`` states with its currency, as integer cents (sign dropped): ``$1,234.56``,
    ``USD 12``, ``1.234,56 €``, ``12 euros``, ``¥1,850`` (185000). A number with no currency next to it is not
    money."""
    return {c for _, c in _money(unicodedata.normalize("NFKC", text).replace("\u2212", "-"))}


# --- whole numbers --------------------------------------------------------------------------------------------

_MONTHS = (
    "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|"
    "october|november|december|januar|februar|marz|mai|juni|juli|oktober|dezember"
)
_DATES = re.compile(
    rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}}\.\d{{1,2}}\.(?:\d{{2,4}})?|\b\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?\b"
    rf"|\b(?:{_MONTHS})\.? \d{{1,2}}(?:st|nd|rd|th)?\b(?:,? \d{{4}})?|\b\d{{1,2}}(?:st|nd|rd|th)?\.? (?:of )?(?:{_MONTHS})\b\.?(?: \d{{4}})?"
)
_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty"
).split()


def numbers(text: str) -> set[int]:
    """Whole numbers ``text`` states on their own (``23``, ``1,204``, ``1.204``, the English words zero to twenty):
    not part of a date (``November 12``, ``12.11.``, ``2026-11-12``), a clock time, an amount of money, a longer
    number or a code (``15C``), and not followed by decimals."""
    text = unicodedata.normalize("NFKC", text)
    for (a, b), _ in reversed(_money(text)):
        text = text[:a] + " " + text[b:]
    text = _DATES.sub(" ", normalise(text))
    text = re.sub(r"\b\d{2}:\d{2}\b", " ", text)
    out = set()
    # A number glued to a letter is a code, not a count ("seat 15C", "MR 2618" stays a number: a space parts it).
    for m in re.finditer(r"(?<![\w.,:])\d{1,3}(?:[,.]\d{3})+(?![\w]|[.,:]\d)|(?<![\w.,:])\d+(?![\w]|[.,:]\d)", text):
        out.add(int(re.sub(r"\D", "", m.group())))
    for w in re.findall(r"[a-z]+", text):
        if w in _WORDS:
            out.add(_WORDS.index(w))
    return out
