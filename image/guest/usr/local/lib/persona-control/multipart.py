"""A streaming ``multipart/form-data`` reader for the control API (Python 3.13 has no ``cgi``).

Reads a request body of a known length part by part without holding file parts in memory, so a
512 MB upload costs one chunk of buffer. Used by ``POST /setup/upload`` and ``POST /file``.

    reader = MultipartReader(rfile.read, length, boundary)
    for part in reader:                      # Part: name, filename, headers
        for chunk in part:                   # bytes, consumed before the next part
            ...

Raises :class:`MultipartError` (a ``ValueError``) on a body that is not well-formed multipart or
ends early; the caller answers 400.
"""

from __future__ import annotations

import email.message
from typing import Callable, Iterator

CHUNK = 256 * 1024
MAX_HEADER_BYTES = 16 * 1024


class MultipartError(ValueError):
    """The body is not well-formed ``multipart/form-data`` (or is cut short)."""


def boundary_of(content_type: str) -> bytes | None:
    """The ``boundary`` parameter of a ``multipart/form-data`` Content-Type, or None if it is not one."""
    m = email.message.Message()
    m["content-type"] = content_type or ""
    if m.get_content_type() != "multipart/form-data":
        return None
    b = m.get_param("boundary")
    if not isinstance(b, str) or not b or len(b) > 200:
        return None
    return b.encode("latin-1", "replace")


class Part:
    """One part of the body: ``name`` and ``filename`` from its Content-Disposition, ``headers``
    (lower-cased names). Iterate it for its bytes; :meth:`read` reads it whole up to ``limit``."""

    def __init__(self, reader: "MultipartReader", headers: dict[str, str]):
        self._reader = reader
        self.headers = headers
        m = email.message.Message()
        m["content-disposition"] = headers.get("content-disposition", "")
        name = m.get_param("name", header="content-disposition")
        self.name: str | None = name if isinstance(name, str) else None
        self.filename: str | None = m.get_filename()
        self.done = False

    def __iter__(self) -> Iterator[bytes]:
        while not self.done:
            data, ended = self._reader._body_chunk()
            if ended:
                self.done = True
            if data:
                yield data

    def read(self, limit: int) -> bytes:
        """The whole part; raises :class:`MultipartError` if it is longer than ``limit`` bytes."""
        out = bytearray()
        for chunk in self:
            out += chunk
            if len(out) > limit:
                raise MultipartError(f"form field {self.name!r} is longer than {limit} bytes")
        return bytes(out)

    def drain(self) -> None:
        """Skip the rest of this part."""
        for _ in self:
            pass


class MultipartReader:
    """Iterates the parts of a body of ``length`` bytes read through ``read(n)``."""

    def __init__(self, read: Callable[[int], bytes], length: int, boundary: bytes):
        self._read = read
        self._left = length
        self._buf = bytearray()
        self._delim = b"\r\n--" + boundary
        self._first = b"--" + boundary
        self._part: Part | None = None
        self._finished = False
        self._started = False

    # -- low level
    def _fill(self) -> bool:
        """Read one more chunk into the buffer; False at the end of the body."""
        if self._left <= 0:
            return False
        data = self._read(min(CHUNK, self._left))
        if not data:
            raise MultipartError("the request body ended before its declared length")
        self._left -= len(data)
        self._buf += data
        return True

    def _body_chunk(self) -> tuple[bytes, bool]:
        """Next bytes of the current part and whether its closing boundary was reached."""
        keep = len(self._delim) - 1  # what could be the start of a boundary split across chunks
        while True:
            i = self._buf.find(self._delim)
            if i >= 0:
                data = bytes(self._buf[:i])
                del self._buf[: i + len(self._delim)]
                self._after_delimiter()
                return data, True
            if len(self._buf) > keep + CHUNK // 2:
                data = bytes(self._buf[:-keep])
                del self._buf[:-keep]
                return data, False
            if not self._fill():
                raise MultipartError("the body ended inside a part (no closing boundary)")

    def _after_delimiter(self) -> None:
        """After a boundary: ``--`` ends the body, CRLF starts the next part."""
        while len(self._buf) < 2:
            if not self._fill():
                raise MultipartError("the body ended after a boundary")
        if self._buf[:2] == b"--":
            self._finished = True
            self._buf.clear()
            # the epilogue is ignored but read, so the connection stays in step
            while self._left > 0:
                self._fill()
                self._buf.clear()
        elif self._buf[:2] == b"\r\n":
            del self._buf[:2]
        else:
            raise MultipartError("bad boundary line")

    def _headers(self) -> dict[str, str]:
        while True:
            i = self._buf.find(b"\r\n\r\n")
            if i >= 0:
                raw = bytes(self._buf[:i])
                del self._buf[: i + 4]
                break
            if len(self._buf) > MAX_HEADER_BYTES:
                raise MultipartError("part headers too long")
            if not self._fill():
                raise MultipartError("the body ended inside part headers")
        headers: dict[str, str] = {}
        for line in raw.decode("utf-8", "replace").split("\r\n"):
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        return headers

    # -- iteration
    def __iter__(self) -> Iterator[Part]:
        if not self._started:
            self._started = True
            # preamble up to the first boundary line
            while True:
                i = self._buf.find(self._first)
                if i >= 0:
                    del self._buf[: i + len(self._first)]
                    break
                if len(self._buf) > MAX_HEADER_BYTES:
                    raise MultipartError("no multipart boundary at the start of the body")
                if not self._fill():
                    raise MultipartError("no multipart boundary in the body")
            self._after_delimiter()
        while not self._finished:
            if self._part is not None and not self._part.done:
                self._part.drain()
                if self._finished:
                    break
            self._part = Part(self, self._headers())
            yield self._part
            if not self._part.done:
                self._part.drain()
