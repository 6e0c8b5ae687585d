"""Services by role: the app that offers a role (its ``app.yaml`` lists it under ``provides:``), by brand and host.

The world and the projections name an app only by what it does (``service("food-delivery").title`` is the
brand a food order names, ``.domain`` its host), never by its brand or host name, so an app renamed in its
``app.yaml`` is renamed everywhere. Roles read here (besides the web side's ``card-network``,
``bank-transfers``, ``mail-delivery``, ``calendar`` and ``start-page``): ``bank`` (the persona's bank),
``airline``, ``lodging``, ``rides``, ``food-delivery``, ``grocery-delivery``, ``retail``,
``restaurant-reservations``, ``brokerage``, ``prediction-market``, ``tax-filing``, ``messaging``,
``work-chat``.

Every ``app.yaml`` counts, whatever ``$PERSONA_APPS`` selects: the world is the same for a build of a few apps.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from builder.apps import APPS_DIR, discover


class UnknownService(KeyError):
    """No app's ``app.yaml`` provides the role asked for."""


@dataclass(frozen=True)
class Service:
    """The app that provides ``role``: its folder name ``app``, brand ``title`` (``"DashBite"``) and host
    ``domain`` (``"dashbite.test"``, a reserved .test name)."""

    role: str
    app: str
    title: str
    domain: str

    @property
    def url(self) -> str:
        """The app's home URL in the guest: ``http://<domain>/``."""
        return f"http://{self.domain}/"


@functools.cache
def _by_role() -> dict[str, Service]:
    return {
        role: Service(role, a.name, a.title, a.domain)
        for a in discover(APPS_DIR, selected=False)
        for role in a.provides
    }


def service(role: str) -> Service:
    """The app that provides ``role``. Raises :class:`UnknownService` when none does (and
    :class:`builder.apps.AppError` on an invalid ``app.yaml``)."""
    try:
        return _by_role()[role]
    except KeyError:
        raise UnknownService(f"no app provides the service {role!r} (app.yaml provides:)") from None


def app_of(role: str) -> str:
    """The name (folder) of the app that provides ``role``; see :func:`service`."""
    return service(role).app
