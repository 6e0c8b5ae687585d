"""The rides app's seed: saved places' labels (unique in ``saved_places``)."""

from __future__ import annotations

from types import SimpleNamespace

from apps.rides.seed import saved_labels


def _world(locale: str):
    return SimpleNamespace(persona=SimpleNamespace(locale=locale, bank=locale))


def test_two_friends_of_one_first_name_get_two_labels():
    # A generated persona (Maputo) had friends Lucas Coelho and Lucas Pereira: "Lucas's" twice failed the layer.
    frequent = [
        {"world_ref": "seed:contact/Lucas Coelho", "name": "x"},
        {"world_ref": "seed:contact/Lucas Pereira", "name": "y"},
        {"world_ref": "seed:place/3", "name": "Avenida Chibuto"},
        {"world_ref": "seed:place/4", "name": "Home"},
    ]
    labels = saved_labels(_world("en_US"), frequent, ["Home", "Work"])
    assert labels == ["Lucas's", "Lucas Pereira's", "Avenida Chibuto", "Home (4)"]
    assert saved_labels(_world("de_DE"), frequent[:2], ["Home"]) == ["Bei Lucas", "Bei Lucas Pereira"]
