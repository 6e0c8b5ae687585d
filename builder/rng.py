"""Named random streams: every random draw in the project comes from here.

A stream is a ``random.Random`` seeded with the first 8 bytes of
SHA-256("<seed>/<stream name>"), so streams are independent of each other and of
the order in which they are created: adding a stream never shifts another's draws.
Python's salted ``hash()`` is never used.
"""

from __future__ import annotations

import hashlib
import re
import random
import uuid

from faker import Faker

# Fixed namespace for uuid5 identifiers derived from world facts.
NAMESPACE = uuid.UUID("6f1c7a52-3f0e-5b8e-9a43-2d5e8c1b7a90")


def stream_seed(seed: int, stream: str) -> int:
    """Return the 64-bit integer seed of ``stream`` under the persona ``seed``."""
    digest = hashlib.sha256(f"{seed}/{stream}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def rng(seed: int, stream: str) -> random.Random:
    """Return a fresh ``random.Random`` for the named stream (e.g. ``bank/transactions``)."""
    return random.Random(stream_seed(seed, stream))


_MC = re.compile(r"\bMc([a-z])")


def surname_cased(name: str) -> str:
    """``name`` with Faker's ``Mc`` surnames written as people write them: ``Mcdonald`` -> ``McDonald``,
    ``Mcknight`` -> ``McKnight`` (Faker's English lists capitalise only the first letter)."""
    return _MC.sub(lambda m: "Mc" + m.group(1).upper(), name)


def faker(seed: int, stream: str, locale: str) -> Faker:
    """Return a Faker instance in ``locale`` seeded from the named stream (instance seed, never the class); its
    surnames (``last_name`` and what formats them: ``name``...) are :func:`surname_cased`, drawn as Faker draws."""
    fake = Faker(locale)
    fake.seed_instance(stream_seed(seed, stream))
    generator = fake._factories[0]
    for method in ("last_name", "last_name_female", "last_name_male"):
        drawn = getattr(generator, method, None)
        if drawn is not None:
            setattr(generator, method, lambda drawn=drawn: surname_cased(drawn()))
    return fake


def derived_id(seed: int, *parts: object) -> str:
    """Return a stable uuid5 string for the world fact named by ``parts``."""
    return str(uuid.uuid5(NAMESPACE, "/".join([str(seed), *map(str, parts)])))


def token(seed: int, *parts: object, length: int = 32) -> str:
    """Return a stable hex token (e.g. a session id) of ``length`` hex digits derived from ``parts``."""
    return hashlib.sha256("/".join([str(seed), *map(str, parts)]).encode()).hexdigest()[:length]
