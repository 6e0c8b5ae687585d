"""Simultaneous requests against a served site: what the concurrency tests of money and inventory routes share.

:func:`burst` starts ``n`` threads that wait on one barrier and then each send one request, so the server gets
them as close together as the loopback allows (the way two tabs, a double click or a script would); :func:`send`
is one request with redirects not followed. Traffic goes only to the served site on 127.0.0.1.
"""

from __future__ import annotations

import http.client
import json
import threading
import urllib.parse
from dataclasses import dataclass
from typing import Callable, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: status, Location (or ""), the body as text."""

    status: int
    location: str
    body: str

    def json(self):
        """The body parsed as JSON (raises ValueError when it is not)."""
        return json.loads(self.body)


def send(
    port: int,
    host: str,
    path: str,
    *,
    form: list[tuple[str, str]] | dict | None = None,
    body: bytes | None = None,
    json_body=None,
    cookie: str = "",
    headers: dict[str, str] | None = None,
    method: str = "POST",
    timeout: float = 120,
) -> Answer:
    """One request to the site on ``127.0.0.1:port`` for ``host``: a urlencoded ``form``, a ``json_body`` or raw
    ``body`` bytes (with your own Content-Type in ``headers``). Redirects are not followed."""
    hdrs = {"Host": host}
    if cookie:
        hdrs["Cookie"] = cookie
    if form is not None:
        body = urllib.parse.urlencode(form).encode()
        hdrs["Content-Type"] = "application/x-www-form-urlencoded"
    elif json_body is not None:
        body = json.dumps(json_body).encode()
        hdrs["Content-Type"] = "application/json"
    hdrs.update(headers or {})
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=hdrs)
        res = conn.getresponse()
        text = res.read().decode("utf-8", "replace")
        return Answer(res.status, res.getheader("Location") or "", text)
    finally:
        conn.close()


def burst(n: int, request: Callable[[int], T], timeout: float = 300) -> list[T]:
    """Run ``request(i)`` for i in 0..n-1 on ``n`` threads released together; the results in order of i.
    An exception in any thread is raised here after all have finished."""
    barrier = threading.Barrier(n)
    results: list = [None] * n
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait(timeout)
            results[i] = request(i)
        except BaseException as e:  # noqa: BLE001 - re-raised below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    if errors:
        raise errors[0]
    return results
