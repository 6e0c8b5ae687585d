"""Ground truth re-derived: every answer task of every shipped persona is read again by its independent reader
(:mod:`builder.tasks.reader`) from the served apps, signed in with the cookies of the persona's Firefox profile, and
the home folder, and the reader's values equal the task's expected ones; a single-winner question wins by a margin.

One test per persona, each on its own layer and its own served copy of the databases (the site build is shared).
"""

from __future__ import annotations

import pytest

from builder.apps import discover
from builder.tasks import collect
from builder.tasks.audit import audit_task, persona_home, profile_cookies
from builder.tasks.reader import See
from tests.app_e2e import Served, layer
from tests.conftest import PERSONAS, _world, shared

pytestmark = pytest.mark.usefixtures("site_build")


def read_all(world, lay, tmp) -> list:
    """The audit of every task of ``world``'s bundle, read on a served copy of ``lay``."""
    tasks = shared(f"bundle-tasks-{world.persona.id}", lambda: collect.tasks(world, list(discover())))
    home = persona_home(lay)
    jar = profile_cookies(home)
    apps = discover()
    with Served(lay, tmp, now=world.now.isoformat()) as served:
        see = See(
            port=served.port,
            domains={a.name: a.domain for a in apps},
            cookies={a.name: jar.get(a.domain, {}) for a in apps},
            now=world.now.replace(tzinfo=None),
            home=home,
        )
        return [audit_task(t, see, world.persona.finances.currency) for t in tasks]


@pytest.mark.parametrize("stem", PERSONAS)
def test_every_answer_is_what_the_desktop_shows(stem, tmp_path_factory, tmp_path):
    _, world = _world(stem)
    lay = layer(world, tmp_path_factory.mktemp(f"readers-{stem}"))
    audits = read_all(world, lay, tmp_path)
    answer = [a for a in audits if a.status not in ("action", "after_action")]
    bad = [(a.id, a.status, a.problems[:3], a.trail[-2:]) for a in answer if a.status != "verified"]
    bad += [(a.id, "adversarial answer passes", a.adversarial_passed[:3]) for a in answer if a.adversarial_passed]
    assert len(answer) >= 150, len(answer)
    assert not bad, "\n".join(map(repr, bad))
