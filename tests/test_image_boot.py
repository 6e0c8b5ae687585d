"""Slow end-to-end check of a baked persona image: boot it under QEMU, fetch the bank
page through nginx with the persona's session cookie, wait for Firefox on the desktop and
save a screendump.

The image comes from the ``persona_image`` fixture. Until the CLI's end-to-end fixture is
wired (it builds out/<persona>/persona.qcow2), set PERSONA_TEST_IMAGE (and optionally
PERSONA_TEST_AS_OF, PERSONA_TEST_COOKIE=name=value, PERSONA_TEST_TEXT) to an image.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from builder.image.boot import check_booted_image

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def persona_image() -> dict:
    img = os.environ.get("PERSONA_TEST_IMAGE")
    if not img:
        pytest.skip("set PERSONA_TEST_IMAGE to a baked persona.qcow2")
    name, _, value = os.environ.get("PERSONA_TEST_COOKIE", "lb_session=").partition("=")
    return {
        "qcow2": Path(img),
        "as_of": os.environ.get("PERSONA_TEST_AS_OF", "2026-11-16T09:00:00"),
        "domain": os.environ.get("PERSONA_TEST_DOMAIN", "larkspurbank.test"),
        "cookie_name": name,
        "cookie_value": value,
        "expected_text": os.environ.get("PERSONA_TEST_TEXT", "Larkspur"),
    }


@pytest.mark.slow
def test_boot_persona_image(persona_image, tmp_path):
    out = Path(os.environ.get("PERSONA_TEST_SCREENDUMP", tmp_path / "desktop.png"))
    res = check_booted_image(screendump_png=out, progress=print, **persona_image)
    print(json.dumps(res, indent=2))
    png = Path(res["screendump"]).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) > 10_000  # a desktop, not a blank screen
