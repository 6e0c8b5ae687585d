"""Task and rubric records of the bundle (``tasks/tasks.jsonl``).

A rubric item is one atomic, checkable requirement with an integer weight; the
weights of a task sum to 100. An item may carry a machine check:

* ``{"type": "sql", "app": "<app name>", "query": "...", "params": [...], "expected": [[...], ...]}``:
  the query, run on the app's database in its end state, must return exactly ``expected``.
  ``params`` (default ``[]``) holds the values of the query's positional ``?`` placeholders,
  in order (integers, strings, floats or ``null``); the grader binds them with SQLite's
  parameter binding. Values that come from the persona spec or the world (names, memos,
  amounts) always travel in ``params``, never in the query text. The number of ``?``
  outside string literals, quoted identifiers and comments must equal ``len(params)``;
  numbered (``?1``) and named (``:name``, ``@name``, ``$name``) parameters are refused.
  The grader opens the database read-only and refuses anything but reading
  (no writes, ``ATTACH`` or ``PRAGMA``), so a check cannot change the state it grades.
* ``{"type": "answer_amount", "cents": 12345, "reject": [12300]}``: the agent's final answer must state
  this amount of money with its currency (``$123.45``, ``USD 123.45``, ``123,45 €``; a bare ``123.45`` is not
  money) and none of the ``reject`` amounts.
* ``{"type": "answer_text", "any_of": ["..."], "reject": ["..."]}``: the answer must hold one of the
  spellings as whole words, normalised (case, accents, quotes, clock times in 12- or 24-hour form), and none of
  the ``reject`` spellings (the other candidates: other restaurants, the title without its seniority) outside a
  longer expected spelling.
* ``{"type": "answer_number", "value": 23, "reject": [22, 24]}``: the answer states this whole number (digits, or
  the English word up to twenty), as a number of its own (not part of ``230``, ``$23.50``, a date or a time), and
  none of ``reject``.
* ``{"type": "answer_list", "items": [["Priya Raman", "Priya"], ["Theo Nakamura", "Theo"]],
  "ordered": false, "reject": ["Marcus Whitfield"]}``: the answer names every item (any of its spellings, as
  for ``answer_text``) and none of ``reject``; when ``ordered``, their first mentions come in this order.

How an answer is read (whole words, amounts, numbers, times) is :mod:`builder.tasks.matching`; ``reject`` lists
are filled at bundle time from the persona's own data (:mod:`builder.tasks.adversary`).
* ``{"type": "state_diff", "app": "<app>", "changes": [{"table": "<table>", "op": "insert",
  "min": 1, "max": 1}, {"table": "<table>", "op": "update", "columns": ["<column>"]}],
  "ignore": ["sessions"]}``: AppWorld's state-diff check. The app's database at the start of the
  episode and at its end are compared row by row (by ``rowid``, or the primary key of a
  ``WITHOUT ROWID`` table); every inserted, updated or deleted row must be allowed by one entry of
  ``changes`` (same table and operation; an update may change only ``columns`` when they are given),
  each entry must match between ``min`` (default 1) and ``max`` (default unbounded) rows, and every
  table neither in ``changes`` nor in ``ignore`` must be unchanged. So a task done by breaking
  something else fails, and doing nothing fails an entry whose ``min`` is at least 1.
* ``{"type": "file", "path": "Documents/Travel/*.ods", "kind": "ods", "contains": ["Total"],
  "formulas": ["SUM"], "chart": true}``: a file under the persona's home matching ``path`` (a glob
  relative to ``~``; the newest match is read) of the given ``kind`` (``pdf``, ``ods``, ``xlsx``,
  ``odt``, ``docx``, ``ics``, ``text``, or ``any``), whose text (a spreadsheet's cell values and
  formulas) holds every ``contains`` string (case-insensitive), whose formulas use every function of
  ``formulas``, and which holds a chart when ``chart`` is true.
* ``{"type": "judge", "evidence": ["the final answer", "the messages sent in messaging"]}``: only a
  judge (a person or a model) can assess it; ``evidence`` says what to show the judge. Such items
  are never scored by the program (``not_assessable``) and fill in only through a judge hook.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator

from builder.bundle_format import BUNDLE_FORMAT, check_bundle_format

# ``apps_involved`` names app folders, plus these places that are not apps.
NOT_APPS = frozenset({"files", "browser"})


def count_placeholders(query: str) -> int:
    """Number of positional ``?`` parameters of ``query``, outside literals, quoted identifiers and comments.

    Raises ``ValueError`` for an unterminated literal, identifier or comment, and for numbered
    (``?1``) or named (``:x``, ``@x``, ``$x``) parameters, which checks do not use.
    """
    closers = {"'": "'", '"': '"', "`": "`", "[": "]"}
    count, i, n = 0, 0, len(query)
    while i < n:
        ch = query[i]
        if ch in closers:
            # A doubled quote inside a literal ends it and opens the next one: same result.
            end = query.find(closers[ch], i + 1)
            if end < 0:
                raise ValueError(f"unterminated {ch} in query")
            i = end + 1
            continue
        if query.startswith("--", i):
            end = query.find("\n", i)
            i = n if end < 0 else end + 1
            continue
        if query.startswith("/*", i):
            end = query.find("*/", i + 2)
            if end < 0:
                raise ValueError("unterminated /* comment in query")
            i = end + 2
            continue
        if ch == "?":
            if i + 1 < n and query[i + 1].isdigit():
                raise ValueError("numbered parameters (?NNN) are not supported; use plain ?")
            count += 1
        elif (
            ch in ":@$"
            and i + 1 < n
            and (query[i + 1].isalnum() or query[i + 1] == "_")
            and not (i and (query[i - 1].isalnum() or query[i - 1] == "_"))
        ):
            raise ValueError(f"named parameters ({ch}name) are not supported; use plain ?")
        i += 1
    return count


CHECK_TYPES = ("sql", "answer_amount", "answer_text", "answer_number", "answer_list", "state_diff", "file", "judge")
# Check types a program judges; the rest of the rubric weight needs a judge.
MACHINE_CHECKS = frozenset(CHECK_TYPES) - {"judge"}
FILE_KINDS = ("pdf", "ods", "xlsx", "odt", "docx", "ics", "text", "any")


class Change(BaseModel):
    """One allowed change of a ``state_diff`` check: ``op`` on rows of ``table``, ``min``..``max`` rows.

    ``columns`` (updates only): the columns an update may change; ``None`` allows any.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    table: str
    op: Literal["insert", "update", "delete"]
    min: Annotated[int, Field(ge=0)] = 1
    max: Annotated[int, Field(ge=1)] | None = None
    columns: list[str] | None = None

    @model_validator(mode="after")
    def _bounds(self) -> Change:
        if self.max is not None and self.max < self.min:
            raise ValueError(f"{self.table} {self.op}: max {self.max} < min {self.min}")
        if self.columns is not None and self.op != "update":
            raise ValueError("columns apply to updates only")
        return self


class Check(BaseModel):
    """A machine check of one rubric item, or a ``judge`` marker (see module docstring for the types).

    ``params`` (sql checks only) are the values bound to the query's positional ``?``
    placeholders, in order; their number must equal the placeholders outside string
    literals. Spec and world values go here, never into ``query``.
    Raises ``ValueError`` (pydantic's ``ValidationError``) when a type's fields are missing or
    belong to another type.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["sql", "answer_amount", "answer_text", "answer_number", "answer_list", "state_diff", "file", "judge"]
    app: str | None = None
    query: str | None = None
    params: list[int | str | float | None] = Field(default_factory=list)
    expected: list[list[Any]] | None = None
    cents: int | None = None
    any_of: list[str] | None = None
    value: int | None = None
    items: list[list[str]] | None = None
    ordered: bool | None = None
    changes: list[Change] | None = None
    ignore: list[str] | None = None
    path: str | None = None
    kind: Literal["pdf", "ods", "xlsx", "odt", "docx", "ics", "text", "any"] | None = None
    contains: list[str] | None = None
    formulas: list[str] | None = None
    chart: bool | None = None
    evidence: list[str] | None = None
    reject: list[int | str] | None = None

    @model_validator(mode="after")
    def _fields_for_type(self) -> Check:
        need = {
            "sql": ("app", "query", "expected"),
            "answer_amount": ("cents",),
            "answer_text": ("any_of",),
            "answer_number": ("value",),
            "answer_list": ("items",),
            "state_diff": ("app", "changes"),
            "file": ("path",),
            "judge": ("evidence",),
        }
        allowed = {
            "sql": {"app", "query", "expected", "params"},
            "state_diff": {"app", "changes", "ignore"},
            "file": {"path", "kind", "contains", "formulas", "chart"},
            "answer_list": {"items", "ordered", "reject"},
            "answer_text": {"reject"},
            "answer_amount": {"reject"},
            "answer_number": {"reject"},
        }
        missing = [f for f in need[self.type] if getattr(self, f) is None]
        if missing:
            raise ValueError(f"a {self.type} check needs {', '.join(missing)}")
        extra = [
            f
            for f in self.model_fields_set - {"type"} - set(need[self.type]) - allowed.get(self.type, set())
            if getattr(self, f) not in (None, [])
        ]
        if extra:
            raise ValueError(f"a {self.type} check takes no {', '.join(sorted(extra))}")
        if self.type == "sql":
            placeholders = count_placeholders(self.query)
            if placeholders != len(self.params):
                raise ValueError(f"the query has {placeholders} ? placeholders but {len(self.params)} params")
        if self.reject and self.type in ("answer_amount", "answer_number"):
            if not all(isinstance(r, int) and not isinstance(r, bool) for r in self.reject):
                raise ValueError(f"an {self.type} check rejects integers only")
        elif self.reject and not all(isinstance(r, str) and r for r in self.reject):
            raise ValueError(f"an {self.type} check rejects non-empty strings only")
        if self.type == "answer_text" and not any(s.strip() for s in self.any_of):
            raise ValueError("an answer_text check needs at least one spelling that is not empty")
        if self.type == "answer_list" and not all(self.items):
            raise ValueError("every answer_list item needs at least one spelling")
        if self.type == "state_diff" and not self.changes:
            raise ValueError("a state_diff check needs at least one allowed change")
        if self.type == "file" and (self.path.startswith("/") or ".." in Path(self.path).parts):
            raise ValueError(f"a file check's path is relative to the home folder: {self.path!r}")
        return self

    @property
    def machine(self) -> bool:
        """True when a program judges this check (every type but ``judge``)."""
        return self.type in MACHINE_CHECKS

    @model_serializer(mode="wrap")
    def _params_only_on_sql(self, handler):
        data = handler(self)
        if self.type != "sql" and isinstance(data, dict):
            data.pop("params", None)
        return data


class RubricItem(BaseModel):
    """One atomic requirement; ``requirement`` names the expected value where there is one.

    ``check`` is how it is judged; an item built without one is a ``judge`` item (the task's
    validation fills in the evidence: the final answer, or the end state of the task's apps).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    requirement: str
    weight: Annotated[int, Field(ge=1, le=100)]
    check: Check | None = None


# The task categories of a personal assistant's work (shared/ARCHITECTURE.md, "Tasks and rubrics"),
# and the kind of result each asks for: an answer (lookup or aggregation) or a changed state (action).
#: The type of a task's ``category``; :data:`CATEGORIES` lists them in this order.
Category = Literal[
    "retrieval",
    "aggregation",
    "contradiction",
    "preference_inference",
    "counterfactual",
    "situated_action",
    "long_horizon",
]
CATEGORIES: tuple[str, ...] = get_args(Category)
KINDS = ("lookup", "aggregation", "action")
ACTION_CATEGORIES = frozenset({"situated_action", "long_horizon"})
DEFAULT_CATEGORY = {"lookup": "retrieval", "aggregation": "aggregation", "action": "situated_action"}


#: The splits of tasks and personas, and the share of each in per cent (frozen: a split never moves).
SPLITS = (("train", 80), ("dev", 10), ("test", 10))


def split_of(key: str) -> str:
    """The split of a task or persona id: ``train``, ``dev`` or ``test`` (80/10/10), fixed by the first 8 hex digits of
    the id's SHA-256 (UTF-8) taken modulo 100, so it depends on the id alone and never changes."""
    import hashlib

    bucket = int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:8], 16) % 100
    edge = 0
    for name, share in SPLITS:
        edge += share
        if bucket < edge:
            return name
    raise AssertionError("the splits' shares do not sum to 100")


class Task(BaseModel):
    """A task grounded in the persona's world.

    ``kind`` is what the task asks for (``lookup`` or ``aggregation``: an answer; ``action``: a changed
    state); ``category`` is the kind of assistant work (one of :data:`CATEGORIES`; by default
    ``retrieval``, ``aggregation`` or ``situated_action`` after ``kind``). Action tasks are
    ``situated_action`` or ``long_horizon``, answer tasks any other category. ``planted`` names the
    world's planted items (``world/planted.json`` ids) the task is built on. ``rule`` (contradiction tasks): how a
    careful person decides which of two sources is right ("the newest notice from the party responsible wins").
    ``split``: ``train``, ``dev`` or ``test`` (:func:`split_of` of the id when not given). ``format`` is the bundle
    format the line was written in (:mod:`builder.bundle_format`; docs/bundle-format.md).
    Raises ``ValueError`` when the format is newer than this code reads, the rubric weights do not sum to 100, item ids repeat, an action has
    no sql or state_diff check, or the category does not fit the kind.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    format: Annotated[int, Field(strict=True)] = BUNDLE_FORMAT
    id: str
    persona: str
    kind: Literal["lookup", "aggregation", "action"]
    category: Category | None = None
    instruction: str
    apps_involved: list[str]
    difficulty: Literal["easy", "medium", "hard"]
    time_limit_seconds: int
    rubric: list[RubricItem]
    expected: dict[str, Any]
    planted: list[str] = Field(default_factory=list)
    rule: str | None = None
    split: Literal["train", "dev", "test"] | None = None

    @model_validator(mode="after")
    def _complete_and_check(self) -> Task:
        check_bundle_format(self.format, f"task {self.id}")
        if self.split is None:
            object.__setattr__(self, "split", split_of(self.id))
        if self.category is None:
            object.__setattr__(self, "category", DEFAULT_CATEGORY[self.kind])
        if (self.kind == "action") != (self.category in ACTION_CATEGORIES):
            raise ValueError(f"task {self.id}: a {self.kind} task cannot be {self.category}")
        if any(i.check is None for i in self.rubric):
            evidence = (
                ["the final answer"]
                if self.kind != "action"
                else [f"the end state of {a}" for a in self.apps_involved] + ["the final answer"]
            )
            judge = Check(type="judge", evidence=evidence)
            object.__setattr__(
                self, "rubric", [i if i.check else i.model_copy(update={"check": judge}) for i in self.rubric]
            )
        total = sum(i.weight for i in self.rubric)
        if total != 100:
            raise ValueError(f"task {self.id}: rubric weights sum to {total}, not 100")
        if len({i.id for i in self.rubric}) != len(self.rubric):
            raise ValueError(f"task {self.id}: rubric item ids repeat")
        if self.kind == "action" and not any(i.check.type in ("sql", "state_diff") for i in self.rubric):
            raise ValueError(f"task {self.id}: an action task needs at least one sql or state_diff check")
        return self

    @classmethod
    def from_line(cls, line: str) -> Task:
        """A task read from a line of a bundle's ``tasks.jsonl``: a line without ``format`` was written before the
        number existed and is read as format 1 (docs/bundle-format.md). Raises pydantic's ``ValidationError`` for a
        line that is not a task, and ``ValueError`` (inside it) for a format newer than this code reads."""
        import json

        data = json.loads(line)
        if isinstance(data, dict) and "format" not in data:
            data = {"format": 1, **data}
        return cls.model_validate(data)

    @property
    def machine_weight(self) -> int:
        """The rubric weight (0..100) a program judges."""
        return sum(i.weight for i in self.rubric if i.check.machine)


class Dropped(BaseModel):
    """A task the builder made and left out of the bundle, and why (a tie in a "most" question, an answer the
    desktop does not show): ``id`` and ``category`` as the task would have had them. A ``tasks(world)`` list may
    hold these among its tasks; :mod:`builder.tasks.collect` keeps them apart, and the bundle lists them in
    ``tasks/dropped.jsonl``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    category: Category
    reason: str
