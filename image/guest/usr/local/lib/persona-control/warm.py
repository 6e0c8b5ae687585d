#!/usr/bin/python3
"""Load every app's start page once after boot, signed in, so each episode starts with them in memory.

The site starts without preloading every page module (Next.js ``preloadEntriesOnStart`` is off:
under TCG that preload took ~40 s of CPU and held every app's health check back). Instead this
oneshot service (``persona-warm.service``) asks each app of ``/etc/persona-desktop/guest.json``
for ``/`` through the guest's nginx with the persona's session cookie, following redirects on the
same host, once the control API answers ``GET /health`` with 200 (every app answers and the persona's
session is up): warming earlier held the session's start and the health checks back (~35 s under TCG). The first visit to a page loads its modules
(0.5-4 s under TCG); ``run-image`` waits for this before it saves the reset point, so the loaded
server is in the snapshot and no episode pays for it again.

Only GETs of start pages: no app changes its database on them (the reset tests compare the
databases with their seeded bytes). Writes ``/run/persona-warm/warm.json``
``{"seconds": total, "apps": {name: {"status": http_status|null, "seconds": s}}}`` when done,
which the control API's ``GET /health`` reports as ``"warm": true``. Stdlib only.

Run: ``python3 warm.py [--guest-json PATH] [--nginx HOST:PORT] [--out PATH] [--timeout S]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import DEFAULT_PORT, default_route_interface, interface_ipv4  # noqa: E402

HEALTH_PATH = "/_persona/health"
REDIRECTS = (301, 302, 303, 307, 308)


def get(nginx: str, domain: str, path: str, cookie: str | None, timeout: float) -> tuple[int, str | None]:
    """(status, Location) of one GET of ``http://<domain><path>`` sent to ``nginx`` (HOST:PORT)."""
    host, _, port = nginx.rpartition(":")
    c = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        headers = {"Host": domain, "User-Agent": "persona-warm"}
        if cookie:
            headers["Cookie"] = cookie
        c.request("GET", path, headers=headers)
        r = c.getresponse()
        r.read()
        return r.status, r.getheader("Location")
    finally:
        c.close()


def wait_healthy(nginx: str, domain: str, deadline: float) -> bool:
    """Poll the app's health path until it answers below 500 or ``deadline`` (monotonic s) passes."""
    while time.monotonic() < deadline:
        try:
            if get(nginx, domain, HEALTH_PATH, None, 10)[0] < 500:
                return True
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(2)
    return False


def wait_control(port: int, deadline: float) -> bool:
    """Wait until the control API (on the guest network's address at ``port``; it starts with the persona's session)
    answers ``GET /health`` with 200; False at ``deadline`` (monotonic s)."""
    while time.monotonic() < deadline:
        iface = default_route_interface()
        addr = interface_ipv4(iface) if iface else None
        if addr:
            try:
                if get(f"{addr}:{port}", f"{addr}:{port}", "/health", None, 30)[0] == 200:
                    return True
            except (OSError, http.client.HTTPException):
                pass
        time.sleep(2)
    return False


def warm_app(nginx: str, app: dict, timeout: float) -> int | None:
    """GET the app's ``/`` signed in, following up to 5 redirects on its own host; the last status or None."""
    cookie = f"{app['session_cookie']}={app['session_token']}" if app.get("session_cookie") else None
    path, status = "/", None
    for _ in range(6):
        try:
            status, location = get(nginx, app["domain"], path, cookie, timeout)
        except (OSError, http.client.HTTPException) as e:
            print(f"{app['name']}: {type(e).__name__}: {e}", file=sys.stderr)
            return None
        if status not in REDIRECTS or not location:
            break
        u = urllib.parse.urlsplit(location)
        if u.netloc and u.netloc != app["domain"]:
            break
        path = (u.path or "/") + (f"?{u.query}" if u.query else "")
    return status


def main() -> int:
    ap = argparse.ArgumentParser(description="Load every app's start page once after boot.")
    ap.add_argument("--guest-json", default="/etc/persona-desktop/guest.json")
    ap.add_argument("--nginx", default="127.0.0.1:80")
    ap.add_argument(
        "--out", default=os.path.join(os.environ.get("RUNTIME_DIRECTORY", "/run/persona-warm"), "warm.json")
    )
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for the apps, and per page")
    ap.add_argument(
        "--after-control",
        type=int,
        default=DEFAULT_PORT,
        metavar="PORT",
        help="first wait for the control API's health on this port (0: do not wait)",
    )
    a = ap.parse_args()
    apps = json.loads(Path(a.guest_json).read_text()).get("apps") or []
    t0 = time.monotonic()
    deadline = t0 + a.timeout
    done: dict[str, dict] = {}
    if a.after_control and not wait_control(a.after_control, deadline):
        print(
            f"the control API did not listen on port {a.after_control} within {a.timeout:.0f}s; warming anyway",
            file=sys.stderr,
        )
    for app in apps:
        if not wait_healthy(a.nginx, app["domain"], deadline):
            print(f"{app['name']}: not healthy after {a.timeout:.0f}s; not warmed", file=sys.stderr)
            done[app["name"]] = {"status": None, "seconds": None}
            continue
        t = time.monotonic()
        status = warm_app(a.nginx, app, a.timeout)
        done[app["name"]] = {"status": status, "seconds": round(time.monotonic() - t, 2)}
        print(f"{app['name']}: {app['domain']}/ HTTP {status} in {done[app['name']]['seconds']:.2f}s")
    result = {"seconds": round(time.monotonic() - t0, 1), "apps": done}
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, out)
    print(f"warmed {sum(1 for d in done.values() if d['status'])} of {len(apps)} apps in {result['seconds']:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
