"""The prediction markets' question grammar: ``questions.yaml`` (weather and goings-on in a city, invented
sports leagues, prices and indices), which the world's forecasts and the markets app both expand."""

from __future__ import annotations

import functools

from .. import read_yaml


@functools.cache
def grammar() -> dict:
    """The parsed ``questions.yaml`` (categories, question templates and their outcome models)."""
    return read_yaml("forecasts/questions.yaml")
