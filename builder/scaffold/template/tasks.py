"""__TITLE__ tasks derived from the world, each with expected values and a rubric.

Rows the app writes have ``world_ref IS NULL``, so an agent that does nothing fails every
action check. Check queries are fixed SQL with ``?`` placeholders; values travel in ``params``.
"""

from __future__ import annotations

from builder.tasks.model import Check, RubricItem, Task
from builder.world import World

APP = "__APP__"


def tasks(world: World) -> list[Task]:
    """The __TITLE__ tasks of ``world`` in a fixed order (the scaffold's one example action)."""
    pid = world.persona.id
    title = "Groceries for the weekend"
    return [
        Task(
            id=f"{pid}/{APP}/add-note",
            persona=pid,
            kind="action",
            instruction=f'In __TITLE__, add a note titled "{title}".',
            apps_involved=[APP],
            difficulty="easy",
            time_limit_seconds=300,
            expected={"title": title},
            rubric=[
                RubricItem(
                    id="note-added",
                    requirement=f'A note titled "{title}" exists that the agent added',
                    weight=100,
                    check=Check(
                        type="sql",
                        app=APP,
                        params=[title],
                        expected=[[1]],
                        query="SELECT COUNT(*) FROM notes WHERE world_ref IS NULL AND title = ?",
                    ),
                )
            ],
        )
    ]
