"""Write a world to disk: sorted JSON Lines and per-kind counts."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from .model import World

ORDER_KINDS = ("food_order", "grocery_order", "retail_order")  # counted together as "order"


def stats(world: World) -> dict[str, int]:
    """Counts by event kind, plus ``bank_transaction`` (posted ledger lines), ``order`` (food, grocery and retail
    orders) and ``scheduled`` (events after now); keys sorted."""
    counts = Counter(e.kind for e in world.events)
    counts["bank_transaction"] = len(world.postings())
    counts["order"] = sum(counts[k] for k in ORDER_KINDS)
    counts["scheduled"] = sum(1 for e in world.events if e.status == "scheduled")
    return dict(sorted(counts.items()))


def write_world(world: World, dest: Path) -> list[Path]:
    """Write ``dest/events.jsonl`` (one event per line, timeline order), ``dest/stats.json`` and
    ``dest/planted.json`` (the world's planted loose ends, in planting order); return the paths."""
    dest.mkdir(parents=True, exist_ok=True)
    events = dest / "events.jsonl"
    with events.open("w", encoding="utf-8") as fh:
        for event in world.events:
            fh.write(json.dumps(event.to_json(), ensure_ascii=False, sort_keys=False) + "\n")
    stats_path = dest / "stats.json"
    stats_path.write_text(json.dumps(stats(world), indent=2) + "\n", encoding="utf-8")
    planted = dest / "planted.json"
    planted.write_text(json.dumps(world.planted, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return [events, stats_path, planted]
