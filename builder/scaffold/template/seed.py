"""World -> rows of the __TITLE__ database (``__APP__.sqlite``), and the app's layer hooks."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session as OrmSession

from builder import appkit, dbfile
from builder.world import World

from . import models as m

APP = "__APP__"


def credentials(world: World) -> dict[str, str]:
    """The persona's sign-in facts: ``{"username", "password", "session_token"}`` (derived from the seed)."""
    return appkit.credentials(world, APP)


def seed(world: World, path: Path) -> Path:
    """Create ``path`` (must not exist) as the __TITLE__ database of ``world``; return it.

    Raises ``FileExistsError`` if ``path`` exists. The bytes depend only on the world.
    """
    p = world.persona
    creds = credentials(world)
    engine = dbfile.create(path, m.Base.metadata)
    with OrmSession(engine) as db:
        db.add(
            m.User(
                id=1,
                username=creds["username"],
                full_name=p.identity.name,
                email=p.identity.email,
                password_hash=appkit.password_hash(creds["password"], appkit.app_salt(world, APP)),
            )
        )
        db.add(
            m.Session(
                token=creds["session_token"],
                user_id=1,
                created_at=world.now.isoformat(),
                expires_at=appkit.session_expiry(world),
            )
        )
        for key, value in appkit.meta_rows(world).items():
            db.add(m.Meta(key=key, value=value))
        db.commit()
    engine.dispose()
    dbfile.finish(path)
    return path


def bookmarks(world: World) -> list[dict]:
    """__TITLE__ in the bookmarks toolbar."""
    return [{"title": "__TITLE__", "url": "http://__DOMAIN__/", "folder": "toolbar"}]
