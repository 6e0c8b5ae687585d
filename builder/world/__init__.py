"""The world: a deterministic simulation of one persona's life as a single timeline.

``simulate(persona)`` takes a completed persona and returns a :class:`World`;
``write_world(world, dir)`` writes ``events.jsonl``, ``stats.json`` and ``planted.json``.
"""

from .ledger import StatementPeriod, statements
from .model import Event, Merchant, Posting, World
from .simulate import simulate
from .output import write_world

__all__ = ["Event", "Merchant", "Posting", "StatementPeriod", "World", "simulate", "statements", "write_world"]
