"""Run the exported tasks with OSWorld's own harness (the ``desktop-env`` package): a provider for run-image
and one :func:`register` call that teaches an installed ``desktop-env`` our provider, getter and metric.

OSWorld creates a machine through ``desktop_env.providers.create_vm_manager_and_provider(name, region)``,
an if/elif over the providers it ships, and ``DesktopEnv.__init__`` then accepts only those names. Neither
has a hook, so :func:`register` wraps both where they live (the package's files are not touched):

* ``create_vm_manager_and_provider`` (in ``desktop_env.providers`` and the copy ``desktop_env.desktop_env``
  imported) answers :data:`PROVIDER` (``"persona"``) with :class:`RunImageVMManager` and
  :class:`RunImageProvider` (subclasses of OSWorld's ``VMManager`` and ``Provider``), every other name as before;
* ``DesktopEnv.__init__`` lets ``provider_name="persona"`` through, under the lifecycle OSWorld gives its
  local hypervisors (VMware, VirtualBox): a machine that may be dirty when the env is made, so the first
  ``reset()`` reverts it too (a run-image machine may hold the last episode's tabs);
* the getter ``persona_end_state``, the metric ``persona_rubric`` (and ``get_persona_rubric`` for older
  bundles) go into OSWorld's ``getters``/``metrics`` (:func:`builder.tasks.osworld_hooks.register`).

The provider drives a run-image that is already running (``path_to_vm`` is its control URL, default
``$PERSONA_CONTROL_URL`` or ``http://127.0.0.1:5000``): ``start_emulator`` waits for ``GET /health`` 200,
``get_ip_address`` gives OSWorld the control API's host and port, ``revert_to_snapshot`` is ``POST /reset``
(the reset point: clock, databases, Firefox and desktop as booted), ``stop_emulator`` leaves the machine
running (stop run-image yourself), ``save_state`` refuses (run-image keeps one reset point).

A harness registers before it makes a ``DesktopEnv``::

    from builder.runtime.osworld import register
    register()
    env = DesktopEnv(provider_name="persona", path_to_vm="http://127.0.0.1:5000", action_space="pyautogui",
                     screen_size=(1280, 800), os_type="Ubuntu")

or runs an OSWorld runner script unchanged through ``python -m builder.runtime.osworld RUNNER.py ARGS...``
(registers, then runs the script as ``__main__`` with ``ARGS``).
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import os
import runpy
import sys
import time
from urllib.parse import urlsplit

import requests

from ..tasks import osworld_hooks

#: The provider name a harness passes as ``provider_name``.
PROVIDER = "persona"
DEFAULT_URL = "http://127.0.0.1:5000"
#: Seconds start_emulator waits for run-image's /health (a cold boot under TCG takes minutes).
HEALTH_TIMEOUT = float(os.environ.get("PERSONA_PROVIDER_TIMEOUT", "1800"))
RESET_TIMEOUT = 600.0
_PENDING: contextvars.ContextVar[str | None] = contextvars.ContextVar("persona_provider_url", default=None)


def control_url(path_to_vm: str | None) -> str:
    """The run-image control URL a ``path_to_vm`` names: ``http(s)://host:port`` as given (trailing ``/``
    dropped), ``host:port`` as ``http://host:port``; None or empty: ``$PERSONA_CONTROL_URL`` or
    :data:`DEFAULT_URL`. Raises ``ValueError`` for anything else (a ``.vmx`` path, a URL without a port)."""
    raw = (path_to_vm or "").strip() or os.environ.get("PERSONA_CONTROL_URL") or DEFAULT_URL
    url = raw if "://" in raw else f"http://{raw}"
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme not in ("http", "https") or not parts.hostname or port is None or parts.path not in ("", "/"):
        raise ValueError(f"path_to_vm {raw!r}: give run-image's control URL, http://HOST:PORT")
    return url.rstrip("/")


class RunImageProvider:
    """OSWorld's ``Provider`` for a running run-image at ``url`` (the control API); see the module docstring."""

    def __init__(self, region: str | None = None, url: str | None = None):
        self.region = region
        self.url = control_url(url)

    def start_emulator(self, path_to_vm: str, headless: bool = True, os_type: str | None = None) -> None:
        """Wait until run-image answers ``GET /health`` 200 (its apps healthy and its reset point saved).
        Raises ``RuntimeError`` after :data:`HEALTH_TIMEOUT` seconds, saying what it last saw."""
        deadline = time.monotonic() + HEALTH_TIMEOUT
        last = "no answer"
        while True:
            try:
                r = requests.get(f"{self.url}/health", timeout=30)
                if r.status_code == 200:
                    return
                last = f"{r.status_code} {r.text[:200]}"
            except requests.RequestException as e:
                last = f"{type(e).__name__}: {e}"
            if time.monotonic() > deadline:
                raise RuntimeError(f"run-image at {self.url} is not healthy after {HEALTH_TIMEOUT:.0f}s: {last}")
            time.sleep(2)

    def get_ip_address(self, path_to_vm: str) -> str:
        """``host:control port:chromium:vnc:vlc`` as OSWorld's Docker provider answers (the last three are
        OSWorld's defaults: run-image serves no Chromium debugging port or VLC)."""
        parts = urlsplit(self.url)
        return f"{parts.hostname}:{parts.port}:9222:8006:8080"

    def save_state(self, path_to_vm: str, snapshot_name: str) -> None:
        """Refused: run-image keeps one reset point, saved when it booted."""
        raise NotImplementedError("run-image keeps one reset point (saved at boot); it cannot save another")

    def revert_to_snapshot(self, path_to_vm: str, snapshot_name: str) -> str:
        """``POST /reset``: back to the reset point, whatever ``snapshot_name`` says; returns ``path_to_vm``.
        Raises ``RuntimeError`` when run-image does not answer 200."""
        try:
            r = requests.post(f"{self.url}/reset", timeout=RESET_TIMEOUT)
        except requests.RequestException as e:
            raise RuntimeError(f"POST {self.url}/reset: {e}") from None
        if r.status_code != 200:
            raise RuntimeError(f"POST {self.url}/reset answered {r.status_code}: {r.text[:300]}")
        return path_to_vm

    def stop_emulator(self, path_to_vm: str, region: str | None = None, *args, **kwargs) -> None:
        """Nothing: the machine belongs to the run-image that serves it (stop that with Ctrl-C or SIGTERM)."""


class RunImageVMManager:
    """OSWorld's ``VMManager`` for run-image: one machine per control URL, started by the user."""

    checked_and_cleaned = True

    def initialize_registry(self, **kwargs) -> None:
        """Nothing to keep: run-image owns its state folder."""

    def add_vm(self, vm_path, **kwargs) -> None:
        """Nothing to keep (see :meth:`initialize_registry`)."""

    def delete_vm(self, vm_path, **kwargs) -> None:
        """Nothing to keep (see :meth:`initialize_registry`)."""

    def occupy_vm(self, vm_path, pid, **kwargs) -> None:
        """Nothing to keep (see :meth:`initialize_registry`)."""

    def list_free_vms(self, **kwargs) -> list[str]:
        """The one machine this process knows: ``[control URL]``."""
        return [control_url(None)]

    def check_and_clean(self, **kwargs) -> None:
        """Nothing to clean."""

    def get_vm_path(self, **kwargs) -> str:
        """The control URL when the harness gives no ``path_to_vm``: ``$PERSONA_CONTROL_URL`` or :data:`DEFAULT_URL`."""
        return control_url(None)


def _classes():
    """(manager class, provider class): ours as subclasses of OSWorld's ABCs (so ``isinstance`` holds)."""
    from desktop_env.providers.base import Provider, VMManager

    manager = type("RunImageVMManager", (RunImageVMManager, VMManager), {"__module__": __name__})
    provider = type("RunImageProvider", (RunImageProvider, Provider), {"__module__": __name__})
    return manager, provider


def register() -> None:
    """Teach the installed ``desktop-env`` the provider :data:`PROVIDER`, our getter and our metric (see the
    module docstring). Idempotent. Raises ``ImportError`` when ``desktop-env`` cannot be imported."""
    import desktop_env.desktop_env as de_module
    import desktop_env.providers as providers

    osworld_hooks.register()
    manager_cls, provider_cls = _classes()
    original = providers.create_vm_manager_and_provider
    if not getattr(original, "_persona", False):

        @functools.wraps(original)
        def create_vm_manager_and_provider(provider_name: str, region: str = None, use_proxy: bool = False):
            url = _PENDING.get()
            if url is not None or str(provider_name).lower().strip() == PROVIDER:
                return manager_cls(), provider_cls(region, url)
            return original(provider_name, region, use_proxy=use_proxy)

        create_vm_manager_and_provider._persona = True
        providers.create_vm_manager_and_provider = create_vm_manager_and_provider
    de_module.create_vm_manager_and_provider = providers.create_vm_manager_and_provider

    env_cls = de_module.DesktopEnv
    init = env_cls.__init__
    if getattr(init, "_persona", False):
        return
    sig = inspect.signature(init)

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        name = bound.arguments.get("provider_name")
        if not isinstance(name, str) or name.lower().strip() != PROVIDER:
            return init(*bound.args, **bound.kwargs)
        url = control_url(bound.arguments.get("path_to_vm"))
        # OSWorld's own lifecycle for a local machine that may be dirty at the start (its VMware/VirtualBox
        # class): the first reset() reverts too. The factory above hands out our provider for this call.
        bound.arguments["provider_name"] = "vmware"
        bound.arguments["path_to_vm"] = url
        token = _PENDING.set(url)
        try:
            init(*bound.args, **bound.kwargs)
        finally:
            _PENDING.reset(token)
        self.provider_name = PROVIDER
        self.path_to_vm = url  # the package made it an absolute file path

    __init__._persona = True
    env_cls.__init__ = __init__


def main(argv: list[str] | None = None) -> None:
    """``python -m builder.runtime.osworld RUNNER.py [ARGS...]``: register, then run an OSWorld runner script
    unchanged as ``__main__`` with ``ARGS`` (e.g. OSWorld's ``run.py --provider_name persona --path_to_vm
    http://127.0.0.1:5000 --test_config_base_dir out/P/tasks/osworld --test_all_meta_path
    out/P/tasks/osworld/test_all.json``). Exits 2 without a script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(main.__doc__, file=sys.stderr)
        sys.exit(2 if not argv else 0)
    register()
    script = argv[0]
    sys.argv = argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
