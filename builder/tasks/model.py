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
* ``{"type": "answer_amount", "cents": 12345}``: the agent's final answer must state
  this amount of money (any common formatting: ``$123.45``, ``123.45``, ``USD 123.45``).
* ``{"type": "answer_text", "any_of": ["..."]}``: the answer must contain one of the
  strings (case-insensitive).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator


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
        elif ch in ":@$" and i + 1 < n and (query[i + 1].isalnum() or query[i + 1] == "_") \
                and not (i and (query[i - 1].isalnum() or query[i - 1] == "_")):
            raise ValueError(f"named parameters ({ch}name) are not supported; use plain ?")
        i += 1
    return count


class Check(BaseModel):
    """A machine check of one rubric item (see module docstring for the types).

    ``params`` (sql checks only) are the values bound to the query's positional ``?``
    placeholders, in order; their number must equal the placeholders outside string
    literals. Spec and world values go here, never into ``query``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["sql", "answer_amount", "answer_text"]
    app: str | None = None
    query: str | None = None
    params: list[int | str | float | None] = Field(default_factory=list)
    expected: list[list[Any]] | None = None
    cents: int | None = None
    any_of: list[str] | None = None

    @model_validator(mode="after")
    def _fields_for_type(self) -> "Check":
        need = {"sql": ("app", "query", "expected"), "answer_amount": ("cents",), "answer_text": ("any_of",)}
        missing = [f for f in need[self.type] if getattr(self, f) is None]
        if missing:
            raise ValueError(f"a {self.type} check needs {', '.join(missing)}")
        if self.type == "sql":
            placeholders = count_placeholders(self.query)
            if placeholders != len(self.params):
                raise ValueError(f"the query has {placeholders} ? placeholders but {len(self.params)} params")
        elif self.params:
            raise ValueError(f"a {self.type} check takes no params")
        return self

    @model_serializer(mode="wrap")
    def _params_only_on_sql(self, handler):
        data = handler(self)
        if self.type != "sql" and isinstance(data, dict):
            data.pop("params", None)
        return data


class RubricItem(BaseModel):
    """One atomic requirement; ``requirement`` names the expected value where there is one."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    requirement: str
    weight: Annotated[int, Field(ge=1, le=100)]
    check: Check | None = None


class Task(BaseModel):
    """A task grounded in the persona's world. ``category`` is ``lookup``, ``aggregation`` or ``action``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    persona: str
    category: Literal["lookup", "aggregation", "action"]
    instruction: str
    apps_involved: list[str]
    difficulty: Literal["easy", "medium", "hard"]
    time_limit_seconds: int
    rubric: list[RubricItem]
    expected: dict[str, Any]

    @model_validator(mode="after")
    def _weights_sum_to_100(self) -> "Task":
        total = sum(i.weight for i in self.rubric)
        if total != 100:
            raise ValueError(f"task {self.id}: rubric weights sum to {total}, not 100")
        if len({i.id for i in self.rubric}) != len(self.rubric):
            raise ValueError(f"task {self.id}: rubric item ids repeat")
        if self.category == "action" and not any(i.check and i.check.type == "sql" for i in self.rubric):
            raise ValueError(f"task {self.id}: an action task needs at least one sql check")
        return self
