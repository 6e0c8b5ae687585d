"""Persona spec: load and validate a JSON file, export its JSON Schema, complete missing fields.

``load(path)`` returns a validated :class:`Persona` or raises :class:`SpecError`
carrying one human-readable line per problem, each naming the file and the JSON path.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from .complete import complete
from .model import Account, Address, Contact, Identity, Persona, RecurringCharge, Trip, Work

__all__ = [
    "Account", "Address", "Contact", "Identity", "Persona", "RecurringCharge", "Trip", "Work",
    "SpecError", "complete", "json_schema", "load",
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
    msg = err["msg"]
    # pydantic prefixes errors raised in validators; the reader wants the reason only.
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    return msg[:1].lower() + msg[1:]


def load(path: str | Path) -> Persona:
    """Read and validate the persona spec at ``path``.

    Raises :class:`SpecError` for a missing file, malformed JSON or any schema violation.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError([f"{path}: cannot read: {exc.strerror}"]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError([f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}"]) from None
    try:
        return Persona.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
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
