"""Hashes Firefox computes, re-implemented so offline files match what it writes.

- ``url_hash``: moz_places.url_hash (``HashURL`` in
  toolkit/components/places/Helpers.cpp over mfbt/HashFunctions.h).
- ``install_hash``: the ``[Install<HASH>]`` key of profiles.ini / installs.ini
  (``GetInstallHash`` in toolkit/mozapps/update/common/commonupdatedir.cpp:
  CityHash64 v1.0 of the UTF-16 install directory, other-licenses/nsis/
  Contrib/CityHash/cityhash/city.cpp, printed as ``%PRIX64``).
- ``guid``: deterministic 12-character Places GUIDs (the alphabet and length
  ``IsValidGUID`` in toolkit/components/places/Helpers.cpp accepts).

Golden values from the real Firefox 153 are pinned in tests/firefox/test_profile.py.
"""

from __future__ import annotations

import base64
import hashlib
import struct

_U32 = 0xFFFFFFFF
_U64 = 0xFFFFFFFFFFFFFFFF

# ---------------------------------------------------------------------------
# mfbt/HashFunctions.h: HashString = fold of AddToHash over the bytes.
_GOLDEN_RATIO_U32 = 0x9E3779B9
# Helpers.cpp: only the first 1500 bytes of a URL are hashed; the scheme is
# looked for in the first 50 bytes.
_MAX_CHARS_TO_HASH = 1500
_MAX_PREFIX_SEARCH = 50


def _hash_string(data: bytes) -> int:
    """mfbt HashString: h = GoldenRatioU32 * (RotateLeft(h, 5) ^ byte), 32-bit."""
    h = 0
    for byte in data:
        h = (_GOLDEN_RATIO_U32 * ((((h << 5) | (h >> 27)) & _U32) ^ byte)) & _U32
    return h


def url_hash(url: str) -> int:
    """moz_places.url_hash of ``url`` as Firefox computes it (48 bits at most).

    Low 32 bits: HashString of the first 1500 UTF-8 bytes of the URL.
    Bits 32-47: the low 16 bits of HashString of the scheme (the text before the
    first ":" within the first 50 bytes), so Places can range-scan by scheme
    (``hash('https', 'prefix_lo')``...). A string without ":" there has no prefix
    part.
    """
    data = url.encode("utf-8")
    str_hash = _hash_string(data[:_MAX_CHARS_TO_HASH])
    colon = data.find(b":", 0, _MAX_PREFIX_SEARCH)
    if colon < 0:
        return str_hash
    prefix_hash = _hash_string(data[:colon]) & 0xFFFF
    return (prefix_hash << 32) + str_hash


# ---------------------------------------------------------------------------
# CityHash64, version 1.0 (the copy Mozilla ships), little-endian loads.
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F
_K3 = 0xC949D7C7509E6557
_KMUL = 0x9DDFEA08EB382D69


def _f64(s: bytes, i: int) -> int:
    return struct.unpack_from("<Q", s, i)[0]


def _f32(s: bytes, i: int) -> int:
    return struct.unpack_from("<I", s, i)[0]


def _rot(v: int, shift: int) -> int:
    return v if shift == 0 else ((v >> shift) | (v << (64 - shift))) & _U64


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _hash16(u: int, v: int) -> int:  # Hash128to64 (city.h)
    a = ((u ^ v) * _KMUL) & _U64
    a ^= a >> 47
    b = ((v ^ a) * _KMUL) & _U64
    b ^= b >> 47
    return (b * _KMUL) & _U64


def _len0to16(s: bytes) -> int:
    n = len(s)
    if n > 8:
        a = _f64(s, 0)
        b = _f64(s, n - 8)
        return _hash16(a, _rot((b + n) & _U64, n)) ^ b
    if n >= 4:
        a = _f32(s, 0)
        return _hash16((n + (a << 3)) & _U64, _f32(s, n - 4))
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K3)) & _U64) * _K2) & _U64
    return _K2


def _len17to32(s: bytes) -> int:
    n = len(s)
    a = (_f64(s, 0) * _K1) & _U64
    b = _f64(s, 8)
    c = (_f64(s, n - 8) * _K2) & _U64
    d = (_f64(s, n - 16) * _K0) & _U64
    return _hash16(
        (_rot((a - b) & _U64, 43) + _rot(c, 30) + d) & _U64,
        (a + _rot(b ^ _K3, 20) - c + n) & _U64,
    )


def _weak32(w: int, x: int, y: int, z: int, a: int, b: int) -> tuple[int, int]:
    a = (a + w) & _U64
    b = _rot((b + a + z) & _U64, 21)
    c = a
    a = (a + x + y) & _U64
    b = (b + _rot(a, 44)) & _U64
    return (a + z) & _U64, (b + c) & _U64


def _weak32s(s: bytes, i: int, a: int, b: int) -> tuple[int, int]:
    return _weak32(_f64(s, i), _f64(s, i + 8), _f64(s, i + 16), _f64(s, i + 24), a, b)


def _len33to64(s: bytes) -> int:
    n = len(s)
    z = _f64(s, 24)
    a = (_f64(s, 0) + (n + _f64(s, n - 16)) * _K0) & _U64
    b = _rot((a + z) & _U64, 52)
    c = _rot(a, 37)
    a = (a + _f64(s, 8)) & _U64
    c = (c + _rot(a, 7)) & _U64
    a = (a + _f64(s, 16)) & _U64
    vf = (a + z) & _U64
    vs = (b + _rot(a, 31) + c) & _U64
    a = (_f64(s, 16) + _f64(s, n - 32)) & _U64
    z = _f64(s, n - 8)
    b = _rot((a + z) & _U64, 52)
    c = _rot(a, 37)
    a = (a + _f64(s, n - 24)) & _U64
    c = (c + _rot(a, 7)) & _U64
    a = (a + _f64(s, n - 16)) & _U64
    wf = (a + z) & _U64
    ws = (b + _rot(a, 31) + c) & _U64
    r = _shift_mix(((vf + ws) * _K2 + (wf + vs) * _K0) & _U64)
    return (_shift_mix((r * _K0 + vs) & _U64) * _K2) & _U64


def cityhash64(s: bytes) -> int:
    """CityHash64 v1.0 of ``s`` (unsigned 64-bit)."""
    n = len(s)
    if n <= 16:
        return _len0to16(s)
    if n <= 32:
        return _len17to32(s)
    if n <= 64:
        return _len33to64(s)
    x = _f64(s, 0)
    y = _f64(s, n - 16) ^ _K1
    z = _f64(s, n - 56) ^ _K0
    v = _weak32s(s, n - 64, n, y)
    w = _weak32s(s, n - 32, (n * _K1) & _U64, _K0)
    z = (z + _shift_mix(v[1]) * _K1) & _U64
    x = (_rot((z + x) & _U64, 39) * _K1) & _U64
    y = (_rot(y, 33) * _K1) & _U64
    pos = 0
    remaining = (n - 1) & ~63
    while True:
        x = (_rot((x + y + v[0] + _f64(s, pos + 16)) & _U64, 37) * _K1) & _U64
        y = (_rot((y + v[1] + _f64(s, pos + 48)) & _U64, 42) * _K1) & _U64
        x ^= w[1]
        y ^= v[0]
        z = _rot(z ^ w[0], 33)
        v = _weak32s(s, pos, (v[1] * _K1) & _U64, (x + w[0]) & _U64)
        w = _weak32s(s, pos + 32, (z + w[1]) & _U64, y)
        z, x = x, z
        pos += 64
        remaining -= 64
        if remaining == 0:
            break
    return _hash16(
        (_hash16(v[0], w[0]) + _shift_mix(y) * _K1 + z) & _U64,
        (_hash16(v[1], w[1]) + x) & _U64,
    )


def install_hash(install_dir: str = "/usr/lib/firefox-esr") -> str:
    """The install hash Firefox keys profiles.ini/installs.ini with.

    CityHash64 of the install directory (the directory holding the firefox
    binary, symlinks resolved) as UTF-16LE code units, upper-case hex without
    zero padding. "/usr/lib/firefox-esr" (Debian's firefox-esr, bookworm and
    trixie alike) gives "3B6073811A6ABF12", as Firefox 153 itself wrote.
    """
    return "%X" % cityhash64(install_dir.encode("utf-16-le"))


# ---------------------------------------------------------------------------
def guid(*parts: str, length: int = 12) -> str:
    """Deterministic GUID: base64url of SHA-256 over the parts, ``length`` chars.

    12 chars is what Places accepts (IsValidGUID: [A-Za-z0-9_-]{12});
    FormHistory makes 16-char ones.
    """
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:length]
