"""Task and rubric records of the bundle (``tasks/tasks.jsonl``).

A rubric item is one atomic, checkable requirement with an integer weight; the
weights of a task sum to 100. An item may carry a machine check:

* ``{"type": "sql", "app": "bank", "query": "...", "expected": [[...], ...]}``: the
  query, run on the app's database in its end state, must return exactly ``expected``.
* ``{"type": "answer_amount", "cents": 12345}``: the agent's final answer must state
  this amount of money (any common formatting: ``$123.45``, ``123.45``, ``USD 123.45``).
* ``{"type": "answer_text", "any_of": ["..."]}``: the answer must contain one of the
  strings (case-insensitive).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Check(BaseModel):
    """A machine check of one rubric item (see module docstring for the types)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["sql", "answer_amount", "answer_text"]
    app: str | None = None
    query: str | None = None
    expected: list[list[Any]] | None = None
    cents: int | None = None
    any_of: list[str] | None = None

    @model_validator(mode="after")
    def _fields_for_type(self) -> "Check":
        need = {"sql": ("app", "query", "expected"), "answer_amount": ("cents",), "answer_text": ("any_of",)}
        missing = [f for f in need[self.type] if getattr(self, f) is None]
        if missing:
            raise ValueError(f"a {self.type} check needs {', '.join(missing)}")
        return self


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
