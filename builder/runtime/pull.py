"""``pull-image``: fetch a published persona image into the local cache, resumably and verified.

Three kinds of reference::

    pull-image dana-whitfield[:TAG] --index URL     # through an index (below); env PERSONA_INDEX_URL
    pull-image https://host/x/persona.qcow2 --sha256 HEX
    pull-image hf://OWNER/REPO/path/persona.qcow2[@REVISION]   # also hf://datasets/OWNER/REPO/...

It prints one line on stdout, the path of the cached qcow2, so ``run-image "$(pull-image NAME)"``
works; progress (a rich bar with speed and ETA when stderr is a terminal) and a one-line summary
go to stderr. Errors are one line on stderr (``pull-image: error: ...``) and exit status 1.

Index (format 1)
----------------
A JSON document at any http(s)://, file:// URL or local path::

    {"format": 1,
     "images": [
       {"persona": "dana-whitfield", "tag": "latest", "as_of": "2026-11-16",
        "created": "2026-12-01T10:42:07Z", "seed": 1729, "apps": [<manifest app names>],
        "qcow2":    {"url": "dana-whitfield/latest/persona.qcow2", "size": 774307840, "sha256": "..."},
        "manifest": {"url": "dana-whitfield/latest/manifest.json", "size": 6040,      "sha256": "..."},
        "tasks":    {"url": "dana-whitfield/latest/tasks/tasks.jsonl", "size": 7798, "sha256": "..."},
        "base":     {"url": "bases/40575c4b4c385fbf/base-40575c4b4c385fbf.qcow2", "size": 808453632,
                     "sha256": "..."}}]}

``persona``, ``tag``, ``qcow2`` and ``manifest`` are required, ``tasks`` and the rest optional
(unknown keys are kept and ignored). ``base`` is there for a thin image (``persona.qcow2`` a delta
on the shared base image, :mod:`builder.image.thin`): its file name is ``base-<hash>.qcow2``, and
``publish --copy`` stores each base once under ``bases/<sha256[:16]>/`` for every persona on it. ``persona`` and ``tag`` match ``[A-Za-z0-9][A-Za-z0-9._-]*``
(they become cache folder names). A ``url`` may be relative: it resolves against the index's own
URL, so publishing a build is copying its three files next to an ``index.json`` and adding its
entry (``pull-image publish``, or :func:`index_entry` + :func:`write_index_entry`); a thin build's base goes
beside them too, or with ``publish --copy`` once under ``bases/`` for every persona on it. One
persona+tag appears once; publishing it again replaces the entry.

``NAME`` without a tag takes the entry tagged ``latest`` if the index has one, otherwise the
newest entry of that persona by ``created`` (then ``as_of``, then tag).

Cache
-----
``$XDG_CACHE_HOME/persona-desktop/images`` (default ``~/.cache/persona-desktop/images``;
``--cache-dir`` overrides)::

    <persona>/<tag>/persona.qcow2, manifest.json, tasks/tasks.jsonl   # index pulls (a build folder)
    <persona>/.latest                 # the tag an untagged pull last resolved to
    _bases/<sha256[:16]>/base-<hash>.qcow2   # thin images' bases, fetched once, hard-linked into
                                      # each image folder beside its persona.qcow2
    _url/<sha256[:16]>/<file name>    # plain URL pulls (content-addressed; standalone images only)
    _hf/<owner>/<repo>/<digest[:16]>/<file name> (+ manifest.json, tasks/tasks.jsonl when the
                                      repo has them beside the file)

A download goes to ``<file>.part``, is hashed while it arrives (an existing partial prefix is
re-hashed on resume), fsynced, checked against the SHA-256 and only then renamed to its final
name, so a final name never holds a half-written or unverified file. On a mismatch the partial
file is deleted. Each verified file gets a sidecar ``.<file>.verified.json`` recording digest,
size and mtime; a second pull whose file still has that size and mtime and whose expected digest
is the recorded one is instant (no download, no re-hash); ``--verify`` re-hashes anyway. A file
whose sidecar is stale (changed on disk, or the index now names another digest) is re-hashed and,
if it no longer matches, downloaded again. Pulls of one image take turns on ``<folder>/.pull.lock``.

Resume: a connection cut mid-download is retried from the bytes already on disk with an HTTP
Range request (backoff 0.5 s, 1 s, 2 s, ...; ``--retries`` consecutive failures without progress
end it, keeping the partial file); a later ``pull-image`` resumes from the partial file too. A
server that ignores Range (200) restarts the file from zero; a 416 means the partial file is
already complete when its size is the server's.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import errno
import fcntl
import hashlib
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlparse
from urllib.request import url2pathname

import requests

from ..image.thin import (
    ThinImageError,
    backing_name,
    base_sha256,
    check_base,
    is_base_file,
    link_or_copy,
    place_base,
    record_sha256,
)

FORMAT = 1
DEFAULT_TAG = "latest"
INDEX_ENV = "PERSONA_INDEX_URL"
QCOW2, MANIFEST, TASKS = "persona.qcow2", "manifest.json", "tasks/tasks.jsonl"
CHUNK = 1 << 16  # 64 KiB: a killed pull keeps all but the last few ms of what arrived
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
HEX64 = re.compile(r"[0-9a-f]{64}")
USER_AGENT = "persona-desktop-pull/1"


class PullError(Exception):
    """A pull failed; ``str()`` is one line meant for the user."""


class IntegrityError(PullError):
    """A downloaded or cached file does not have the expected digest or size."""


class NotPulledError(PullError, LookupError):
    """:func:`resolve_local` found no pulled image for the name."""


# ---------------------------------------------------------------- references and the index


@dataclass(frozen=True)
class Remote:
    """One file to fetch.

    ``url``: http(s):// or file://. ``size``: bytes, or None when unknown (plain URL pulls).
    ``sha256``: lowercase hex; ``git_sha1`` instead for a small non-LFS file on the hub (the git
    blob id, SHA-1 of ``blob <size>\\0`` + content). ``headers``: extra request headers (a hub token).
    """

    url: str
    size: int | None
    sha256: str | None = None
    git_sha1: str | None = None
    headers: dict = field(default_factory=dict, compare=False)

    @property
    def algorithm(self) -> str:
        return "sha256" if self.sha256 else "git-sha1"

    @property
    def label(self) -> str:
        return "SHA-256" if self.sha256 else "git blob SHA-1"

    @property
    def digest(self) -> str:
        return self.sha256 or self.git_sha1 or ""


@dataclass(frozen=True)
class ImageEntry:
    """One image of an index, its URLs already resolved against the index URL."""

    persona: str
    tag: str
    qcow2: Remote
    manifest: Remote
    tasks: Remote | None
    as_of: str | None
    base: Remote | None
    created: str | None
    raw: dict = field(compare=False)

    @property
    def label(self) -> str:
        return f"{self.persona}:{self.tag}"


@dataclass(frozen=True)
class HfRef:
    """A parsed ``hf://`` reference: ``repo_type`` is model, dataset or space; ``path`` is in the repo."""

    repo_type: str
    repo_id: str
    path: str
    revision: str


def parse_name(ref: str) -> tuple[str, str | None]:
    """``NAME[:TAG]`` -> (name, tag or None). Raises PullError on characters a cache folder can't hold."""
    if "/" in ref and ":" not in ref:
        raise PullError(
            f"{ref!r} looks like a path: pull-image takes NAME[:TAG], an http(s)/file URL or hf://... "
            "(run-image takes a build folder directly)"
        )
    name, sep, tag = ref.partition(":")
    if not NAME_RE.fullmatch(name):
        raise PullError(f"bad image name {name!r}: use letters, digits, '.', '_' and '-' (NAME[:TAG])")
    if sep and not NAME_RE.fullmatch(tag):
        raise PullError(f"bad tag {tag!r} in {ref!r}: use letters, digits, '.', '_' and '-'")
    return name, (tag if sep else None)


def parse_hf(ref: str) -> HfRef:
    """Parse ``hf://[datasets/|spaces/|models/]OWNER/REPO[@REV]/PATH[@REV]`` (revision default ``main``).

    The revision may follow the file (``persona.qcow2@v1``, split at the last ``@``) or the repo
    name, as huggingface_hub's own ``hf://`` paths write it. Raises PullError on a malformed one.
    """
    if not ref.startswith("hf://"):
        raise PullError(f"not an hf:// reference: {ref!r}")
    rest = ref[len("hf://") :].strip("/")
    repo_type = "model"
    for prefix, kind in (("datasets/", "dataset"), ("spaces/", "space"), ("models/", "model")):
        if rest.startswith(prefix):
            repo_type, rest = kind, rest[len(prefix) :]
            break
    parts = rest.split("/", 2)
    if len(parts) < 3 or not all(parts):
        raise PullError(f"bad hf:// reference {ref!r}: use hf://<owner>/<repo>/<file>[@revision]")
    owner, repo, path = parts
    revision = None
    if "@" in repo:
        repo, _, revision = repo.partition("@")
    if "@" in path:
        path, _, file_rev = path.rpartition("@")
        if revision and file_rev:
            raise PullError(f"bad hf:// reference {ref!r}: two revisions")
        revision = revision or file_rev
    if not (owner and repo and path) or revision == "":
        raise PullError(f"bad hf:// reference {ref!r}: use hf://<owner>/<repo>/<file>[@revision]")
    if any(p in ("", ".", "..") for p in path.split("/")):
        raise PullError(f"bad hf:// reference {ref!r}: bad file path {path!r}")
    return HfRef(repo_type, f"{owner}/{repo}", path, revision or "main")


def _index_url(location: str) -> str:
    """An index location as a URL: a local path becomes a file:// URL (relative URLs then work)."""
    scheme = urlparse(location).scheme
    if scheme in ("http", "https", "file"):
        return location
    if scheme and len(scheme) > 1:
        raise PullError(
            f"index {location!r}: unsupported URL scheme {scheme!r} (use http://, https://, file:// or a path)"
        )
    return Path(location).expanduser().resolve().as_uri()


def _reason(exc: BaseException) -> str:
    """A short reason for a requests/OS error (requests' own messages run to several lines' worth)."""
    text = str(exc)
    m = re.search(r"\[Errno -?\d+\] ([^'\")]+)", text)
    if m:
        return m.group(1).strip()
    for cls, word in ((requests.Timeout, "timed out"), (requests.exceptions.ChunkedEncodingError, "connection cut")):
        if isinstance(exc, cls):
            return word
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return (text.splitlines() or [type(exc).__name__])[0][:200]


def _read_url(url: str, session: requests.Session, what: str) -> bytes:
    scheme = urlparse(url).scheme
    if scheme == "file":
        try:
            return Path(url2pathname(urlparse(url).path)).read_bytes()
        except OSError as e:
            raise PullError(f"{what} {url} unreadable: {_reason(e)}") from None
    try:
        r = session.get(url, timeout=(10, 60))
    except requests.RequestException as e:
        raise PullError(f"{what} {url} unreachable: {_reason(e)}") from None
    if r.status_code != 200:
        raise PullError(f"{what} {url}: HTTP {r.status_code} {r.reason}")
    return r.content


def _remote(base: str, spec, where: str) -> Remote:
    if not isinstance(spec, dict):
        raise PullError(f"{where}: expected an object with url, size and sha256")
    url, size, sha = spec.get("url"), spec.get("size"), spec.get("sha256")
    if not isinstance(url, str) or not url:
        raise PullError(f"{where}.url missing")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise PullError(f"{where}.size must be a whole number of bytes")
    if not isinstance(sha, str) or not HEX64.fullmatch(sha.lower()):
        raise PullError(f"{where}.sha256 must be 64 hex digits")
    full = urljoin(base, url)
    if urlparse(full).scheme not in ("http", "https", "file"):
        raise PullError(f"{where}.url {url!r}: unsupported scheme (http, https, file)")
    return Remote(full, size, sha.lower())


def _base_remote(index_url: str, spec, where: str) -> Remote:
    remote = _remote(index_url, spec, where)
    if not is_base_file(_url_file_name(remote.url)):
        raise PullError(f"{where}.url must name a base-<hash>.qcow2 file, not {spec.get('url')!r}")
    return remote


def parse_index(doc, index_url: str) -> list[ImageEntry]:
    """Validate an index document (already parsed JSON) and resolve its URLs against ``index_url``.

    Raises PullError naming the first bad field (``index URL: images[3].qcow2.sha256 ...``).
    """
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or not isinstance(doc.get("images"), list):
        raise PullError(f'index {index_url}: not a format {FORMAT} index (expected {{"format": 1, "images": [...]}})')
    entries, seen = [], set()
    for i, raw in enumerate(doc["images"]):
        where = f"index {index_url}: images[{i}]"
        if not isinstance(raw, dict):
            raise PullError(f"{where}: expected an object")
        persona, tag = raw.get("persona"), raw.get("tag")
        if not isinstance(persona, str) or not NAME_RE.fullmatch(persona):
            raise PullError(f"{where}.persona missing or not a valid name")
        if not isinstance(tag, str) or not NAME_RE.fullmatch(tag):
            raise PullError(f"{where}.tag missing or not a valid tag")
        if (persona, tag) in seen:
            raise PullError(f"{where}: {persona}:{tag} listed twice")
        seen.add((persona, tag))
        entries.append(
            ImageEntry(
                persona=persona,
                tag=tag,
                qcow2=_remote(index_url, raw.get("qcow2"), f"{where}.qcow2"),
                manifest=_remote(index_url, raw.get("manifest"), f"{where}.manifest"),
                tasks=_remote(index_url, raw["tasks"], f"{where}.tasks") if raw.get("tasks") is not None else None,
                as_of=raw.get("as_of"),
                base=_base_remote(index_url, raw["base"], f"{where}.base") if raw.get("base") is not None else None,
                created=raw.get("created"),
                raw=raw,
            )
        )
    return entries


def load_index(location: str, session: requests.Session | None = None) -> tuple[str, list[ImageEntry]]:
    """Fetch and validate an index: ``location`` is an http(s)/file URL or a local path.

    Returns (the index URL, its entries). Raises PullError if unreachable, not JSON or malformed.
    """
    url = _index_url(location)
    body = _read_url(url, session or _session(), "index")
    try:
        doc = json.loads(body)
    except (ValueError, UnicodeDecodeError) as e:
        raise PullError(f"index {url} is not valid JSON: {e}") from None
    return url, parse_index(doc, url)


def find_entry(entries: list[ImageEntry], name: str, tag: str | None, index_url: str = "the index") -> ImageEntry:
    """Pick ``name:tag``; without a tag the ``latest`` entry, else the newest by created/as_of/tag.

    Raises PullError listing the names (or that persona's tags) the index has.
    """
    mine = [e for e in entries if e.persona == name]
    if not mine:
        names = ", ".join(sorted({e.persona for e in entries})) or "none"
        raise PullError(f"unknown image {name!r} in {index_url}; it lists: {names}")
    if tag is None:
        tagged = [e for e in mine if e.tag == DEFAULT_TAG]
        return tagged[0] if tagged else max(mine, key=lambda e: (str(e.created or ""), str(e.as_of or ""), e.tag))
    for e in mine:
        if e.tag == tag:
            return e
    tags = ", ".join(sorted(e.tag for e in mine))
    raise PullError(f"{name} has no tag {tag!r} in {index_url}; its tags: {tags}")


# ---------------------------------------------------------------- the publishing side


def _file_spec(path: Path, url: str) -> dict:
    return {"url": url, "size": path.stat().st_size, "sha256": _hash_file(path, "sha256")}


def index_entry(build_dir: Path, base_url: str, tag: str, base_image_url: str | None = None) -> dict:
    """The index entry (format 1) for a finished build folder.

    A thin build (``manifest.json``'s ``image.form`` is ``thin``) also gets ``base``: its base
    image at ``base_image_url`` (default: beside the other files), size and SHA-256 checked against
    the manifest's record (a mismatch raises PullError: the folder holds another base).

    ``build_dir`` holds persona.qcow2, manifest.json and (optionally) tasks/tasks.jsonl; their size
    and SHA-256 are computed here (the qcow2 takes a few seconds). ``base_url`` is where those
    files will be, as seen from the index: a URL or a path relative to the index ("" = beside it);
    each file's URL is ``base_url`` + its name in the build. The persona id and as_of come from
    manifest.json; ``created`` is the qcow2's mtime (UTC). Raises PullError if a file is missing,
    the manifest unreadable or the tag not a valid name.
    """
    build_dir = Path(build_dir)
    if not NAME_RE.fullmatch(tag):
        raise PullError(f"bad tag {tag!r}: use letters, digits, '.', '_' and '-'")
    qcow2, manifest_path, tasks = build_dir / QCOW2, build_dir / MANIFEST, build_dir / TASKS
    for p in (qcow2, manifest_path):
        if not p.is_file():
            raise PullError(f"{build_dir}: no {p.name} (not a finished build folder)")
    try:
        manifest = json.loads(manifest_path.read_text())
        persona = manifest["persona"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise PullError(f"{manifest_path}: unreadable manifest ({e})") from None
    if not isinstance(persona, str) or not NAME_RE.fullmatch(persona):
        raise PullError(f"{manifest_path}: persona {persona!r} is not a valid image name")
    base = base_url if base_url == "" or base_url.endswith("/") else base_url + "/"
    created = dt.datetime.fromtimestamp(qcow2.stat().st_mtime, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    entry = {
        "persona": persona,
        "tag": tag,
        "as_of": manifest.get("as_of"),
        "created": created,
        "seed": manifest.get("seed"),
        "apps": [a.get("name") for a in manifest.get("apps", []) if isinstance(a, dict)],
        "qcow2": _file_spec(qcow2, base + QCOW2),
        "manifest": _file_spec(manifest_path, base + MANIFEST),
    }
    if tasks.is_file():
        entry["tasks"] = _file_spec(tasks, base + TASKS)
    thin = (manifest.get("image") or {}).get("base")
    if thin:
        name, path = thin.get("file", ""), build_dir / str(thin.get("file", ""))
        if not is_base_file(name) or not path.is_file():
            raise PullError(f"{build_dir}: its image is a delta on {name!r}, which is not in the folder")
        digest = base_sha256(path)
        if digest != thin.get("sha256"):
            raise PullError(f"{path}: SHA-256 {digest}, but the manifest records {thin.get('sha256')}")
        url = base_image_url if base_image_url is not None else base + name
        entry["base"] = {"url": url, "size": path.stat().st_size, "sha256": digest}
    return entry


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    _fsync_dir(path.parent)


def write_index_entry(index_path: Path, entry: dict) -> dict:
    """Merge ``entry`` into the index file ``index_path`` (created if absent) and write it atomically.

    An entry of the same persona+tag is replaced; entries are kept sorted by persona, tag. Returns
    the whole index document. Raises PullError if the existing file is not a valid index.
    """
    index_path = Path(index_path)
    index_path.parent.mkdir(parents=True, exist_ok=True)
    with _locked(index_path.with_name(f".{index_path.name}.lock"), f"index {index_path}"):
        doc = {"format": FORMAT, "images": []}
        if index_path.exists():
            try:
                doc = json.loads(index_path.read_text())
            except ValueError as e:
                raise PullError(f"index {index_path} is not valid JSON: {e}") from None
            parse_index(doc, index_path.resolve().as_uri())
        images = [e for e in doc["images"] if (e["persona"], e["tag"]) != (entry["persona"], entry["tag"])]
        images.append(entry)
        doc["images"] = sorted(images, key=lambda e: (e["persona"], e["tag"]))
        parse_index(doc, index_path.resolve().as_uri())
        _atomic_write(index_path, (json.dumps(doc, indent=2) + "\n").encode())
    return doc


def _publish_base(build_dir: Path, index_dir: Path) -> str | None:
    """A thin build's base, placed once per digest under ``bases/<sha256[:16]>/`` beside the index.

    Returns its URL relative to the index (None for a full image). Every persona built on one base
    shares the copy, so a pull of a second persona fetches only its delta."""
    try:
        thin = (json.loads((build_dir / MANIFEST).read_text()).get("image") or {}).get("base")
    except (OSError, ValueError, AttributeError):
        return None
    if not thin or not is_base_file(str(thin.get("file", ""))) or not (build_dir / thin["file"]).is_file():
        return None
    digest = base_sha256(build_dir / thin["file"])
    rel = f"bases/{digest[:16]}/{thin['file']}"
    dest = index_dir / rel
    if not (dest.is_file() and dest.stat().st_size == (build_dir / thin["file"]).stat().st_size):
        link_or_copy(build_dir / thin["file"], dest)
    return rel


def publish(
    build_dir: Path, index_path: Path, base_url: str | None = None, tag: str = DEFAULT_TAG, copy: bool = False
) -> dict:
    """Write ``build_dir``'s entry into ``index_path``; with ``copy`` also place its files there.

    ``base_url`` defaults to ``<persona>/<tag>/`` (relative to the index). ``copy`` needs a relative
    ``base_url`` and hard-links (or copies) the build's files to ``<index dir>/<base_url>`` (a thin
    build's base to ``<index dir>/bases/<sha256[:16]>/``, once for every persona on it) before the
    entry is written, so the index never names a file that is not there. Returns the entry.
    """
    build_dir, index_path = Path(build_dir), Path(index_path)
    if urlparse(str(index_path)).scheme == "file":
        index_path = Path(url2pathname(urlparse(str(index_path)).path))
    try:
        persona = json.loads((build_dir / MANIFEST).read_text())["persona"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise PullError(f"{build_dir / MANIFEST}: unreadable manifest ({e})") from None
    if base_url is None:
        base_url = f"{persona}/{tag}/"
    if copy:
        if urlparse(base_url).scheme or base_url.startswith("/"):
            raise PullError(f"--copy needs a base URL relative to the index, not {base_url!r}")
        target = (index_path.parent / base_url).resolve()
        if not target.is_relative_to(index_path.parent.resolve()):
            raise PullError(f"--copy: {base_url!r} leaves the index's folder")
        for name in (QCOW2, MANIFEST, TASKS):
            if (build_dir / name).is_file():
                link_or_copy(build_dir / name, target / name)
        base_image_url = _publish_base(build_dir, index_path.parent)
    else:
        base_image_url = None
    entry = index_entry(build_dir, base_url, tag, base_image_url)
    write_index_entry(index_path, entry)
    return entry


# ---------------------------------------------------------------- hashing, sidecars, locks


def _new_hash(algorithm: str, size: int | None):
    if algorithm == "sha256":
        return hashlib.sha256()
    h = hashlib.sha1()
    h.update(f"blob {size}\0".encode())
    return h


def _hash_file(
    path: Path, algorithm: str = "sha256", size: int | None = None, on_progress: Callable[[int], None] | None = None
) -> str:
    h = _new_hash(algorithm, path.stat().st_size if size is None else size)
    done = 0
    with open(path, "rb") as f:
        while chunk := f.read(CHUNK):
            h.update(chunk)
            done += len(chunk)
            if on_progress:
                on_progress(done)
    return h.hexdigest()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sidecar(path: Path) -> Path:
    return path.with_name(f".{path.name}.verified.json")


def _record_verified(path: Path, remote: Remote) -> None:
    st = path.stat()
    rec = {"algorithm": remote.algorithm, "digest": remote.digest, "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    _atomic_write(_sidecar(path), (json.dumps(rec) + "\n").encode())


def _recorded_ok(path: Path, remote: Remote) -> bool:
    try:
        rec = json.loads(_sidecar(path).read_text())
        st = path.stat()
    except (OSError, ValueError):
        return False
    return (
        rec.get("algorithm") == remote.algorithm
        and rec.get("digest") == remote.digest
        and rec.get("size") == st.st_size
        and rec.get("mtime_ns") == st.st_mtime_ns
    )


@contextlib.contextmanager
def _locked(lock_path: Path, what: str, say: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold an exclusive flock on ``lock_path`` (waiting, with a note, while another pull holds it)."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if say:
                say(f"waiting for another pull of {what} to finish")
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


# ---------------------------------------------------------------- the resumable downloader


@dataclass
class Transfer:
    """What one :func:`download` did: bytes fetched over the wire, where it resumed (bytes), how
    often it restarted from zero (server ignored Range), automatic retries, seconds spent."""

    size: int = 0
    fetched: int = 0
    resumed_from: int = 0
    restarts: int = 0
    retries: int = 0
    seconds: float = 0.0
    cached: bool = False
    rehashed: bool = False


class _Transient(Exception):
    """A retryable failure (connection cut, 5xx, short body)."""


class _FileResponse:
    """A file:// source shaped like a streamed requests response honouring Range."""

    def __init__(self, url: str, offset: int):
        path = Path(url2pathname(urlparse(url).path))
        try:
            self._f = open(path, "rb")  # noqa: SIM115 (closed by close(), as a response is)
        except OSError as e:
            raise PullError(f"{url}: {_reason(e)}") from None
        total = os.fstat(self._f.fileno()).st_size
        self.reason = ""
        if offset and offset >= total:
            self.status_code, self.headers = 416, {"Content-Range": f"bytes */{total}"}
        elif offset:
            self._f.seek(offset)
            self.status_code, self.headers = 206, {"Content-Range": f"bytes {offset}-{total - 1}/{total}"}
        else:
            self.status_code, self.headers = 200, {"Content-Length": str(total)}

    def iter_content(self, chunk_size: int) -> Iterator[bytes]:
        while chunk := self._f.read(chunk_size):
            yield chunk

    def close(self) -> None:
        self._f.close()


def _content_range(value: str | None) -> tuple[int | None, int | None]:
    """``bytes a-b/N`` -> (a, N); ``bytes */N`` -> (None, N); unknown N -> None."""
    m = re.fullmatch(r"\s*bytes\s+(?:(\d+)-\d+|\*)/(\d+|\*)\s*", value or "")
    if not m:
        return None, None
    start = int(m.group(1)) if m.group(1) is not None else None
    return start, (int(m.group(2)) if m.group(2) != "*" else None)


def download(
    remote: Remote,
    dest: Path,
    *,
    session: requests.Session | None = None,
    retries: int = 5,
    backoff: float = 0.5,
    on_progress: Callable[[int, int | None, str], None] | None = None,
    timeout: tuple[float, float] = (10, 60),
) -> Transfer:
    """Fetch ``remote`` to ``dest`` through ``dest.part``, resuming, verifying, then renaming.

    An existing ``<dest>.part`` is re-hashed and continued with ``Range: bytes=N-``. A cut
    connection, a 5xx or a short body is retried after ``backoff * 2**k`` seconds; ``retries``
    consecutive failures without progress raise PullError (the partial file stays for the next
    pull). ``on_progress(done_bytes, total_bytes_or_None, phase)`` is called per chunk, phase
    ``"check"`` while re-hashing a partial file, ``"get"`` while downloading. A wrong digest or
    size deletes the partial file and raises IntegrityError ("expected X, got Y"); a full disk or
    other OSError raises PullError (partial kept). ``dest`` appears only verified and fsynced.
    """
    session = session or _session()
    dest = Path(dest)
    part = dest.with_name(dest.name + ".part")
    dest.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    report = on_progress or (lambda done, total, phase: None)
    stats = Transfer(size=remote.size or 0)

    offset = part.stat().st_size if part.exists() else 0
    if remote.size is not None and offset > remote.size:
        part.unlink()
        offset = 0
    digest = _new_hash(remote.algorithm, remote.size)
    if offset:  # hashlib states can't be saved, so the partial prefix is hashed again
        with open(part, "rb") as f:
            done = 0
            while done < offset and (chunk := f.read(min(CHUNK, offset - done))):
                digest.update(chunk)
                done += len(chunk)
                report(done, remote.size, "check")
    stats.resumed_from = offset
    total = remote.size
    failures = 0

    def fail(msg: str) -> PullError:
        return PullError(f"{msg}; {offset} bytes kept in {part}, run pull-image again to resume")

    try:
        with open(part, "ab") as out:
            while total is None or offset < total:
                before = offset
                resp = None
                try:
                    headers = {"Accept-Encoding": "identity", **remote.headers}
                    if offset:
                        headers["Range"] = f"bytes={offset}-"
                    if urlparse(remote.url).scheme == "file":
                        resp = _FileResponse(remote.url, offset)
                    else:
                        resp = session.get(remote.url, headers=headers, stream=True, timeout=timeout)
                    status = resp.status_code
                    if status == 206:
                        start, full = _content_range(resp.headers.get("Content-Range"))
                        if start != offset:
                            raise PullError(
                                f"{remote.url}: asked for bytes from {offset}, "
                                f"the server sent {resp.headers.get('Content-Range')!r}"
                            )
                    elif status == 200:
                        if offset:  # the server ignored Range: start the file over
                            out.seek(0)
                            out.truncate()
                            offset, before = 0, 0
                            digest = _new_hash(remote.algorithm, remote.size)
                            stats.restarts += 1
                        length = resp.headers.get("Content-Length")
                        full = int(length) if length and length.isdigit() else None
                    elif status == 416:
                        _, full = _content_range(resp.headers.get("Content-Range"))
                        if full is not None and full == offset:
                            total = full
                            break
                        out.seek(0)  # the partial file is longer than the file now is: start over
                        out.truncate()
                        offset, before = 0, 0
                        digest = _new_hash(remote.algorithm, remote.size)
                        stats.restarts += 1
                        continue
                    elif status in (408, 425, 429) or status >= 500:
                        raise _Transient(f"HTTP {status} {resp.reason}")
                    else:
                        raise PullError(f"{remote.url}: HTTP {status} {resp.reason}")
                    if full is not None:
                        if remote.size is not None and full != remote.size:
                            part.unlink(missing_ok=True)
                            raise IntegrityError(
                                f"{dest.name}: size mismatch: expected {remote.size} bytes, "
                                f"the server has {full}; the partial download was deleted"
                            )
                        total = full
                    for chunk in resp.iter_content(CHUNK):
                        if total is not None and offset + len(chunk) > total:
                            raise _Transient("the server sent more bytes than announced")
                        out.write(chunk)
                        digest.update(chunk)
                        offset += len(chunk)
                        stats.fetched += len(chunk)
                        report(offset, total, "get")
                    if total is None:
                        total = offset  # no length announced and the body ended cleanly
                    elif offset < total:
                        raise _Transient("the connection closed early")
                except (
                    requests.ConnectionError,
                    requests.Timeout,
                    requests.exceptions.ChunkedEncodingError,
                    _Transient,
                ) as e:
                    out.flush()
                    failures = 0 if offset > before else failures
                    failures += 1
                    if failures > retries:
                        raise fail(f"{remote.url}: {_reason(e)} ({retries} retries)") from None
                    stats.retries += 1
                    time.sleep(backoff * 2 ** (failures - 1))
                except requests.RequestException as e:  # a bad URL, too many redirects: not worth a retry
                    raise PullError(f"{remote.url}: {_reason(e)}") from None
                finally:
                    if resp is not None:
                        resp.close()
            out.flush()
            os.fsync(out.fileno())
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            raise fail(f"{part}: {os.strerror(e.errno).lower()} after {offset} bytes (free some space)") from None
        raise fail(f"{part}: {_reason(e)}") from None

    got = digest.hexdigest()
    if remote.size is not None and offset != remote.size:
        part.unlink(missing_ok=True)
        raise IntegrityError(
            f"{dest.name}: size mismatch: expected {remote.size} bytes, got {offset}; the partial download was deleted"
        )
    if got != remote.digest:
        part.unlink(missing_ok=True)
        raise IntegrityError(
            f"{dest.name}: {remote.label} mismatch: expected {remote.digest}, "
            f"got {got}; the partial download was deleted"
        )
    os.replace(part, dest)
    _fsync_dir(dest.parent)
    stats.size, stats.seconds = offset, time.monotonic() - t0
    return stats


# ---------------------------------------------------------------- pulling


def cache_root(cache_dir: str | os.PathLike | None = None) -> Path:
    """The image cache: ``cache_dir`` if given, else ``$XDG_CACHE_HOME/persona-desktop/images``
    (``~/.cache`` when XDG_CACHE_HOME is unset or not absolute, as the XDG spec says)."""
    if cache_dir is not None:
        return Path(cache_dir).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "persona-desktop" / "images"


def _session() -> requests.Session:
    s = requests.Session()
    s.headers["User-Agent"] = USER_AGENT
    return s


class _Reporter:
    """A rich progress bar on stderr when it is a terminal; otherwise silent until the summary."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.live = not quiet and sys.stderr.isatty()
        self.progress = None
        if self.live:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                DownloadColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
                TransferSpeedColumn,
            )

            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                DownloadColumn(binary_units=True),
                TransferSpeedColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )

    def say(self, msg: str) -> None:
        if self.progress:
            self.progress.console.print(f"pull-image: {msg}", markup=False, highlight=False)
        elif not self.quiet:
            print(f"pull-image: {msg}", file=sys.stderr)

    @contextlib.contextmanager
    def file(self, name: str, size: int | None) -> Iterator[Callable[[int, int | None, str], None]]:
        if not self.progress:
            yield lambda done, total, phase: None
            return
        task = self.progress.add_task(name, total=size)
        last = ["get"]

        def update(done: int, total: int | None, phase: str) -> None:
            if phase != last[0]:  # re-hashing a partial file is not download speed: start the clock anew
                self.progress.reset(task, total=total, completed=done)
                last[0] = phase
            self.progress.update(
                task,
                completed=done,
                total=total,
                description=f"{name} (checking partial)" if phase == "check" else name,
            )

        yield update

    def __enter__(self):
        if self.progress:
            self.progress.start()
        return self

    def __exit__(self, *exc):
        if self.progress:
            self.progress.stop()


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.1f} MiB"


def _fetch(
    remote: Remote, dest: Path, *, session, verify: bool, retries: int, backoff: float, reporter: _Reporter
) -> Transfer:
    """One file into the cache: instant when recorded as verified, else re-hash or download."""
    if dest.exists():
        size = dest.stat().st_size
        if remote.size is None or size == remote.size:
            if not verify and _recorded_ok(dest, remote):
                return Transfer(size=size, cached=True)
            with reporter.file(f"{dest.name} (verifying)", size) as update:
                got = _hash_file(dest, remote.algorithm, on_progress=lambda d: update(d, size, "get"))
            if got == remote.digest:
                _record_verified(dest, remote)
                return Transfer(size=size, cached=True, rehashed=True)
            reporter.say(f"cached {dest} does not match (expected {remote.digest}, got {got}); downloading it again")
        dest.unlink()
        _sidecar(dest).unlink(missing_ok=True)
    with reporter.file(dest.name, remote.size) as update:
        t = download(remote, dest, session=session, retries=retries, backoff=backoff, on_progress=update)
    _record_verified(dest, remote)
    return t


@dataclass
class PullResult:
    """A finished pull: ``qcow2`` the cached image path, ``folder`` its cache folder,
    ``label`` what was pulled, ``transfers`` per file name."""

    qcow2: Path
    folder: Path
    label: str
    transfers: dict[str, Transfer]

    def summary(self) -> str:
        return self._image_summary() + self._base_summary()

    def _base_summary(self) -> str:
        name = next((n for n in self.transfers if is_base_file(n)), None)
        if name is None:
            return ""
        t = self.transfers[name]
        if t.cached:
            return f"; its base {name} {_mib(t.size)} was already in the cache"
        return f"; its base {name} {_mib(t.size)} fetched in {t.seconds:.1f} s, SHA-256 verified"

    def _image_summary(self) -> str:
        t = self.transfers[self.qcow2.name]
        if t.cached:
            how = "SHA-256 checked now" if t.rehashed else "SHA-256 verified when pulled"
            return f"{self.label}: {self.qcow2.name} {_mib(t.size)} already in the cache ({how})"
        rate = t.fetched / t.seconds / (1 << 20) if t.seconds > 0 else 0.0
        extra = f", resumed at {_mib(t.resumed_from)}" if t.resumed_from else ""
        extra += f", {t.retries} automatic retries" if t.retries else ""
        extra += ", restarted (the server ignored Range)" if t.restarts else ""
        return (
            f"{self.label}: {self.qcow2.name} {_mib(t.size)}, fetched {_mib(t.fetched)} in {t.seconds:.1f} s "
            f"({rate:.1f} MiB/s){extra}, SHA-256 verified"
        )


def _url_file_name(url: str) -> str:
    name = Path(urlparse(url).path).name
    return name if NAME_RE.fullmatch(name) else "image.qcow2"


BASES = "_bases"


def _hf_remotes(ref: HfRef, sha256: str | None, siblings: bool = True) -> tuple[list[tuple[str, Remote]], str]:
    """Ask the hub (``HF_ENDPOINT`` honoured) for the file and (``siblings``) its build siblings.

    Returns ([(cache-relative name, Remote)], digest of the main file) with resolve URLs; the main
    file is first. Raises PullError when huggingface_hub is missing or the repo/file is not there.
    """
    try:
        import huggingface_hub
        from huggingface_hub import HfApi, hf_hub_url
        from huggingface_hub.errors import HfHubHTTPError
    except ImportError:
        raise PullError("hf:// needs huggingface_hub: pip install huggingface_hub") from None
    endpoint = os.environ.get("HF_ENDPOINT") or None
    api = HfApi(endpoint=endpoint)
    folder = ref.path.rpartition("/")[0]
    prefix = folder + "/" if folder else ""
    wanted = {ref.path: _url_file_name(ref.path)}
    if siblings and ref.path.endswith(".qcow2"):
        wanted.update({prefix + MANIFEST: MANIFEST, prefix + TASKS: TASKS})
    try:
        infos = api.get_paths_info(ref.repo_id, list(wanted), revision=ref.revision, repo_type=ref.repo_type)
    except HfHubHTTPError as e:
        raise PullError(f"hf://{ref.repo_id}/{ref.path}@{ref.revision}: {str(e).splitlines()[0]}") from None
    except Exception as e:  # noqa: BLE001 (httpx or requests errors, by hub version)
        raise PullError(f"hub {api.endpoint} unreachable for {ref.repo_id}: {_reason(e)}") from None
    token = huggingface_hub.get_token()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    found = {i.path: i for i in infos if hasattr(i, "size")}
    if ref.path not in found:
        raise PullError(f"hf://{ref.repo_id}: no file {ref.path!r} at revision {ref.revision}")
    out = []
    for path, name in wanted.items():
        info = found.get(path)
        if info is None:
            continue
        url = hf_hub_url(ref.repo_id, path, repo_type=ref.repo_type, revision=ref.revision, endpoint=api.endpoint)
        lfs_sha = info.lfs.sha256 if info.lfs else None
        if path == ref.path and sha256:
            if lfs_sha and lfs_sha != sha256:
                raise IntegrityError(f"{ref.path}: --sha256 {sha256} but the hub records {lfs_sha}")
            lfs_sha = sha256
        out.append((name, Remote(url, info.size, lfs_sha, None if lfs_sha else info.blob_id, headers)))
    return out, out[0][1].digest


def pull(
    ref: str,
    *,
    index: str | None = None,
    cache_dir: str | os.PathLike | None = None,
    sha256: str | None = None,
    verify: bool = False,
    retries: int = 5,
    backoff: float = 0.5,
    quiet: bool = True,
    session: requests.Session | None = None,
) -> PullResult:
    """Pull ``ref`` (``NAME[:TAG]``, an http(s)/file URL with ``sha256``, or ``hf://...``) into the cache.

    ``index``: index URL or path for names (default ``$PERSONA_INDEX_URL``). Returns a PullResult;
    raises PullError (one-line message) for bad input, an unreachable or invalid index, unknown
    names or tags, HTTP errors, a full disk, and IntegrityError for a digest or size mismatch.
    """
    session = session or _session()
    root = cache_root(cache_dir)
    reporter = _Reporter(quiet)
    if sha256 is not None:
        sha256 = sha256.strip().lower()
        if not HEX64.fullmatch(sha256):
            raise PullError(f"--sha256 must be 64 hex digits, not {sha256!r}")
    scheme = urlparse(ref).scheme if "://" in ref else ""
    latest_note = None
    base: Remote | None = None
    if ref.startswith("hf://"):
        hf = parse_hf(ref)
        files, digest = _hf_remotes(hf, sha256)
        owner, repo = hf.repo_id.split("/")
        folder = root / "_hf" / owner / repo / digest[:16]
        label, main_name = ref, files[0][0]
    elif scheme in ("http", "https", "file"):
        if sha256 is None:
            raise PullError(f"a plain URL needs --sha256 HEX (the SHA-256 of {ref})")
        folder = root / "_url" / sha256[:16]
        files = [(_url_file_name(ref), Remote(ref, None, sha256))]
        label, main_name = ref, files[0][0]
    elif scheme:
        raise PullError(f"unsupported URL scheme {scheme!r} in {ref!r} (use NAME[:TAG], http(s)://, file:// or hf://)")
    else:
        name, tag = parse_name(ref)
        location = index or os.environ.get(INDEX_ENV)
        if not location:
            raise PullError(f"no index to look {name!r} up in: pass --index URL or set {INDEX_ENV}")
        index_url, entries = load_index(location, session)
        entry = find_entry(entries, name, tag, index_url)
        if sha256 and sha256 != entry.qcow2.sha256:
            raise IntegrityError(f"{entry.label}: --sha256 {sha256} but the index records {entry.qcow2.sha256}")
        folder = root / entry.persona / entry.tag
        # the small files first, so a broken entry fails before the long download
        files = [(MANIFEST, entry.manifest)] + ([(TASKS, entry.tasks)] if entry.tasks else []) + [(QCOW2, entry.qcow2)]
        label, main_name = entry.label, QCOW2
        base = entry.base
        if tag is None:
            latest_note = (root / entry.persona / ".latest", entry.tag)
    transfers: dict[str, Transfer] = {}
    how = dict(session=session, verify=verify, retries=retries, backoff=backoff, reporter=reporter)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with _locked(folder / ".pull.lock", label, reporter.say), reporter:
            for name, remote in files:
                transfers[Path(name).name] = _fetch(remote, folder / name, **how)
            if base is None and ref.startswith("hf://"):
                base = _hf_base(parse_hf(ref), folder)
            if base is not None:
                name, transfers[name] = _fetch_base(root, base, folder, **how)
            _check_pulled_base(folder, main_name, label)
            if latest_note:
                _atomic_write(latest_note[0], (latest_note[1] + "\n").encode())
    except OSError as e:
        raise PullError(f"cache {folder}: {_reason(e)}") from None
    return PullResult(folder / main_name, folder, label, transfers)


def _check_pulled_base(folder: Path, main_name: str, label: str) -> None:
    """A pulled qcow2 may name one backing file only: a ``base-<hash16>.qcow2`` beside it, the one its manifest
    records, fetched with the SHA-256 the manifest records. Anything else from a download (an absolute path, a host
    file) is refused before run-image could open it. Raises PullError."""
    thin = _backing_or_none(folder / main_name)
    if thin is None:
        return
    if not is_base_file(thin):
        raise PullError(f"{label}: the image names the backing file {thin!r}, not a base image beside it: refused")
    if not (folder / thin).is_file():
        raise PullError(
            f"{label} is a thin image on {thin}, which this reference does not name: pull it through an "
            f"index or hf:// (both fetch its base), or put {thin} into {folder}"
        )
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        manifest = None
    try:
        # run-image's own check: the header names the manifest's base, which has the manifest's SHA-256 (read from
        # the record the fetch wrote, not hashed again)
        check_base(folder / main_name, manifest if isinstance(manifest, dict) else None)
    except ThinImageError as e:
        raise PullError(f"{label}: {e}") from None


def _backing_or_none(path: Path) -> str | None:
    """The backing file a pulled qcow2 names (None when standalone, or not a qcow2: pulls move any file)."""
    try:
        return backing_name(path)
    except (ThinImageError, OSError):
        return None


def _fetch_base(root: Path, remote: Remote, folder: Path, **how) -> tuple[str, Transfer]:
    """A thin image's base into ``<cache>/_bases/<sha256[:16]>/`` (once for every image on it), then
    hard-linked into the image's ``folder`` beside persona.qcow2, where QEMU looks for it."""
    name = _url_file_name(remote.url)
    store = root / BASES / remote.digest[:16]
    store.mkdir(parents=True, exist_ok=True)
    with _locked(store / ".pull.lock", f"base {name}", how["reporter"].say):
        t = _fetch(remote, store / name, **how)
        if remote.sha256:
            record_sha256(store / name, remote.sha256)  # verified just now: run-image need not hash it again
    place_base(store / name, folder)
    return name, t


def _hf_base(ref: HfRef, folder: Path) -> Remote | None:
    """The base a pulled hf:// thin image names in its manifest, as the repo file beside the qcow2."""
    try:
        thin = (json.loads((folder / MANIFEST).read_text()).get("image") or {}).get("base")
    except (OSError, ValueError, AttributeError):
        return None
    if not thin or not is_base_file(str(thin.get("file", ""))) or not HEX64.fullmatch(str(thin.get("sha256", ""))):
        return None
    prefix = ref.path.rpartition("/")[0]
    sibling = HfRef(ref.repo_type, ref.repo_id, f"{prefix}/{thin['file']}" if prefix else thin["file"], ref.revision)
    remotes, _ = _hf_remotes(sibling, thin["sha256"], siblings=False)
    return remotes[0][1]


def resolve_local(name_or_path: str | os.PathLike, cache_dir: str | os.PathLike | None = None) -> Path:
    """The build folder (persona.qcow2 + manifest.json) for a pulled ``NAME[:TAG]`` or a folder path.

    An existing directory (or any argument with a ``/``) is taken as a build folder and returned if
    it holds persona.qcow2. ``NAME`` without a tag means: the cached ``latest``, else the tag an
    untagged pull last resolved to (``<persona>/.latest``), else the only cached tag. No network.
    Raises NotPulledError (one line, naming the pull-image command or the cached tags) otherwise,
    ValueError for a file path.
    """
    text = os.fspath(name_or_path)
    p = Path(text).expanduser()
    if p.is_dir() or os.sep in text:
        if p.is_file():
            raise ValueError(f"{p} is a file; resolve_local takes a build folder or NAME[:TAG]")
        if (p / QCOW2).is_file():
            return p
        raise NotPulledError(f"{p}: no {QCOW2} there (not a build folder)")
    name, tag = parse_name(text)
    root = cache_root(cache_dir)
    persona_dir = root / name

    def complete(d: Path) -> bool:
        return (d / QCOW2).is_file() and (d / MANIFEST).is_file()

    if tag is None:
        candidates = [DEFAULT_TAG]
        with contextlib.suppress(OSError):
            candidates.append((persona_dir / ".latest").read_text().strip())
        for t in candidates:
            if t and NAME_RE.fullmatch(t) and complete(persona_dir / t):
                return persona_dir / t
        cached = sorted(d.name for d in persona_dir.iterdir() if complete(d)) if persona_dir.is_dir() else []
        if len(cached) == 1:
            return persona_dir / cached[0]
        if cached:
            raise NotPulledError(f"{name} has several pulled tags ({', '.join(cached)}): name one as {name}:TAG")
        raise NotPulledError(f"{name} is not pulled into {root}: run pull-image {name}")
    if complete(persona_dir / tag):
        return persona_dir / tag
    cached = sorted(d.name for d in persona_dir.iterdir() if complete(d)) if persona_dir.is_dir() else []
    also = f" (pulled tags: {', '.join(cached)})" if cached else ""
    raise NotPulledError(f"{name}:{tag} is not pulled into {root}{also}: run pull-image {name}:{tag}")


# ---------------------------------------------------------------- command line


def _pull_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pull-image",
        description="Fetch a published persona image into the cache (resumable, SHA-256 verified) and "
        "print the path of its qcow2. `pull-image publish --help` writes index entries.",
        epilog="Cache: $XDG_CACHE_HOME/persona-desktop/images (default ~/.cache/...).",
    )
    p.add_argument(
        "ref",
        nargs="?",
        metavar="NAME[:TAG] | URL | hf://OWNER/REPO/FILE[@REV]",
        help="an image name from the index (no tag: 'latest', else the newest), an http(s) URL "
        "(with --sha256) or an hf:// file",
    )
    p.add_argument("--index", metavar="URL", help=f"the index (http(s)://, file:// or a path; default ${INDEX_ENV})")
    p.add_argument("--sha256", metavar="HEX", help="expected SHA-256 (required for a plain URL)")
    p.add_argument("--cache-dir", metavar="DIR", help="cache folder instead of $XDG_CACHE_HOME/persona-desktop/images")
    p.add_argument("--verify", action="store_true", help="re-hash a cached image instead of trusting its record")
    p.add_argument(
        "--retries",
        type=int,
        default=5,
        metavar="N",
        help="automatic resumes after failures without progress (default 5)",
    )
    p.add_argument("--list", action="store_true", help="list the index's images and exit")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary, only the path")
    return p


def _publish_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pull-image publish",
        description="Write (or replace) a build's entry in an index file; with --copy also place the "
        "build's files beside it, so the index folder can be served as it is.",
    )
    p.add_argument("build_dir", metavar="BUILD_DIR", help="a build-image output folder (persona.qcow2, manifest.json)")
    p.add_argument("--index", required=True, metavar="PATH", help="the index.json to create or update")
    p.add_argument(
        "--base-url",
        metavar="URL",
        help="where the files are, relative to the index or absolute (default <persona>/<tag>/)",
    )
    p.add_argument("--tag", default=DEFAULT_TAG, help=f"the tag to publish as (default {DEFAULT_TAG})")
    p.add_argument("--copy", action="store_true", help="hard-link or copy the files to <index dir>/<base-url>")
    return p


def _run(argv: list[str]) -> int:
    if argv and argv[0] == "publish":
        a = _publish_parser().parse_args(argv[1:])
        entry = publish(Path(a.build_dir), Path(a.index), a.base_url, a.tag, a.copy)
        print(
            f"pull-image: published {entry['persona']}:{entry['tag']} "
            f"({_mib(entry['qcow2']['size'])}, sha256 {entry['qcow2']['sha256']}) in {a.index}",
            file=sys.stderr,
        )
        print(Path(a.index))
        return 0
    parser = _pull_parser()
    a = parser.parse_args(argv)
    if a.list:
        location = a.index or os.environ.get(INDEX_ENV)
        if not location:
            raise PullError(f"no index: pass --index URL or set {INDEX_ENV}")
        _, entries = load_index(location)
        for e in sorted(entries, key=lambda e: (e.persona, e.tag)):
            print(f"{e.label}\tas_of {e.as_of or '-'}\t{_mib(e.qcow2.size)}\tcreated {e.created or '-'}")
        return 0
    if not a.ref:
        parser.error("name an image (NAME[:TAG], URL --sha256 HEX or hf://...), or pass --list")
    if a.retries < 0:
        parser.error("--retries must be 0 or more")
    result = pull(
        a.ref, index=a.index, cache_dir=a.cache_dir, sha256=a.sha256, verify=a.verify, retries=a.retries, quiet=a.quiet
    )
    if not a.quiet:
        print(f"pull-image: {result.summary()}", file=sys.stderr)
    print(result.qcow2)
    return 0


def main(argv: list[str] | None = None) -> None:
    """Console entry point (``pull-image``); exits 1 with one line on stderr on any PullError."""
    try:
        code = _run(sys.argv[1:] if argv is None else argv)
    except PullError as e:
        print(f"pull-image: error: {e}", file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        print(
            "pull-image: interrupted; the partial file is kept, run the same command again to resume", file=sys.stderr
        )
        code = 130
    sys.exit(code)


if __name__ == "__main__":
    main()
