"""Persona spec: load and validate a JSON file, export its JSON Schema, complete missing fields.

``load(path)`` returns a validated :class:`Persona` or raises :class:`SpecError`
carrying one human-readable line per problem, each naming the file and the JSON path.
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from pathlib import Path

from pydantic import ValidationError

from .complete import complete
from .model import (
    EMAIL_PATTERN,
    LINE_PATTERN,
    PROSE_PATTERN,
    SPEC_RULE,
    Account,
    Address,
    Contact,
    Identity,
    Persona,
    RecurringCharge,
    Trip,
    Work,
)

__all__ = [
    "Account",
    "Address",
    "Contact",
    "Identity",
    "Persona",
    "RecurringCharge",
    "Trip",
    "Work",
    "MAX_JSON_DEPTH",
    "MAX_SPEC_BYTES",
    "SpecError",
    "complete",
    "json_schema",
    "load",
]


class SpecError(Exception):
    """A persona file that cannot be used. ``lines`` holds one ``file: path: message`` line per problem."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


def _json_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(root)"


def _message(err: dict) -> str:
    kind = err["type"]
    if kind == "missing":
        return "field required"
    if kind == "extra_forbidden":
        return "unknown key (keys starting with '_' are comments)"
    if kind.startswith(("date_", "datetime_")):
        return "must be a date written as a string YYYY-MM-DD"
    if kind == "string_pattern_mismatch" and err.get("ctx", {}).get("pattern") == LINE_PATTERN:
        return "must be one line of visible text, without control characters or line breaks"
    if kind == "string_pattern_mismatch" and err.get("ctx", {}).get("pattern") == PROSE_PATTERN:
        return "must be text without control characters"
    if kind == "string_pattern_mismatch" and err.get("ctx", {}).get("pattern") == EMAIL_PATTERN:
        return "value is not a valid email address (an ASCII name@domain.tld is expected)"
    msg = err["msg"]
    # pydantic prefixes errors raised in validators; the reader wants the reason only.
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
    return msg[:1].lower() + msg[1:]


# Limits on the file itself, checked before it is parsed (documented in the README).
MAX_SPEC_BYTES = 5 * 1024 * 1024
MAX_JSON_DEPTH = 32


class _Object(dict):
    """A parsed JSON object that remembers keys given more than once (the last value wins in ``json``)."""

    duplicates: list[str]


def _object(pairs: list[tuple[str, object]]) -> _Object:
    obj = _Object()
    obj.duplicates = []
    for key, value in pairs:
        if key in obj and key not in obj.duplicates:
            obj.duplicates.append(key)
        obj[key] = value
    return obj


def _duplicate_keys(node: object, loc: tuple = ()) -> list[tuple[tuple, str]]:
    out = []
    if isinstance(node, _Object):
        out += [((*loc, key), "key given more than once") for key in node.duplicates]
        for key, value in node.items():
            out += _duplicate_keys(value, (*loc, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _duplicate_keys(value, (*loc, i))
    return out


def _depth_problem(text: str) -> str | None:
    """Nesting deeper than :data:`MAX_JSON_DEPTH` (counted outside strings), before ``json`` recurses into it."""
    depth, in_string, escaped = 0, False, False
    line = 1
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return f"line {line}: nested deeper than {MAX_JSON_DEPTH} levels"
        elif ch in "]}":
            depth -= 1
        if ch == "\n":
            line += 1
    return None


def _decode(raw: bytes, path: Path) -> str:
    for bom, name in (
        (codecs.BOM_UTF32_LE, "UTF-32"),
        (codecs.BOM_UTF32_BE, "UTF-32"),
        (codecs.BOM_UTF16_LE, "UTF-16"),
        (codecs.BOM_UTF16_BE, "UTF-16"),
    ):
        if raw.startswith(bom):
            raise SpecError([f"{path}: the file is {name}; save it as UTF-8"])
    try:
        return raw.decode("utf-8-sig")  # a UTF-8 byte-order mark is tolerated
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SpecError(
            [f"{path}:{line}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); save it as UTF-8"]
        ) from None


def _read(path: Path) -> bytes:
    try:
        st = os.stat(path)
    except OSError as exc:
        raise SpecError([f"{path}: cannot read: {exc.strerror}"]) from None
    if not stat.S_ISREG(st.st_mode):
        # A FIFO or device would block or never end: only regular files are read.
        raise SpecError([f"{path}: not a regular file"])
    if st.st_size > MAX_SPEC_BYTES:
        raise SpecError([f"{path}: {st.st_size} bytes; a persona file may be at most {MAX_SPEC_BYTES} bytes"])
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_SPEC_BYTES + 1)
    except OSError as exc:
        raise SpecError([f"{path}: cannot read: {exc.strerror}"]) from None
    if len(raw) > MAX_SPEC_BYTES:
        raise SpecError([f"{path}: a persona file may be at most {MAX_SPEC_BYTES} bytes"])
    return raw


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def parse(raw: bytes, path: Path) -> object:
    """Parse the bytes of a persona file as JSON, refusing what :func:`load` refuses (see there)."""
    text = _decode(raw, path)
    problem = _depth_problem(text)
    if problem:
        raise SpecError([f"{path}: {problem}"])
    try:
        data = json.loads(text, object_pairs_hook=_object, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise SpecError([f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}"]) from None
    except (ValueError, RecursionError) as exc:
        # Python refuses integers of more than 4300 digits; NaN/Infinity are not JSON.
        reason = "a number with more than 4300 digits" if "digits" in str(exc) else str(exc)
        raise SpecError([f"{path}: invalid JSON: {reason}"]) from None
    dupes = _duplicate_keys(data)
    if dupes:
        raise SpecError([f"{path}: {_json_path(loc)}: {msg}" for loc, msg in dupes])
    return data


def load(path: str | Path) -> Persona:
    """Read and validate the persona spec at ``path``.

    The file must be a regular file of at most :data:`MAX_SPEC_BYTES` bytes of UTF-8 JSON
    (a byte-order mark is tolerated), nested at most :data:`MAX_JSON_DEPTH` levels, with no
    key repeated in an object. Raises :class:`SpecError` for an unreadable file, any of those,
    malformed JSON or any schema or spec-rule violation, one line per problem.
    """
    path = Path(path)
    data = parse(_read(path), path)
    try:
        return Persona.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            if err["type"] == SPEC_RULE:
                # One error carrying several problems, each at a path below the model that found them.
                for sub, msg in err["ctx"]["problems"]:
                    lines.append(f"{path}: {_json_path((*err['loc'], *sub))}: {msg}")
            else:
                lines.append(f"{path}: {_json_path(err['loc'])}: {_message(err)}")
        raise SpecError(lines) from None


def json_schema() -> dict:
    """Return the JSON Schema (draft 2020-12) of the persona spec, as checked in under ``personas/``."""
    schema = Persona.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "persona.schema.json"
    # Comments are allowed everywhere: say so in the schema too.
    for definition in [schema, *schema.get("$defs", {}).values()]:
        if definition.get("additionalProperties") is False:
            definition["patternProperties"] = {"^_": {}}
    return schema
