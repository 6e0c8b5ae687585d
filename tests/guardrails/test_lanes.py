"""The lanes' own guard: a test that builds the site must say so (tests/conftest.py, tests/app_e2e.py)."""

from __future__ import annotations

import pytest

from tests.app_e2e import site


def test_building_the_site_in_a_test_not_marked_site_fails(request):
    assert request.node.get_closest_marker("site") is None
    with pytest.raises(pytest.fail.Exception, match="request the site_build fixture"):
        site()
