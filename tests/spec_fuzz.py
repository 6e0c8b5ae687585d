"""Persona files as untrusted input: mutations of the shipped personas, and a harness that builds one.

``mutated_spec()`` is a hypothesis strategy of persona files (bytes): a shipped persona with
one to four edits at random JSON paths (values replaced by hostile or edge values, keys
dropped, list items duplicated or multiplied) or, now and then, broken bytes.
``attempt(spec_bytes, root)`` runs ``build-image --until layer`` in this process on it and
returns an :class:`Outcome`; the rules every outcome must obey are in :func:`violations`.

Run a campaign and print the counts table: ``python -m tests.spec_fuzz 480 [SEED]``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import signal
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parent.parent
SHIPPED = {
    p.stem: json.loads(p.read_text())
    for p in sorted((REPO / "personas").glob("*.json"))
    if p.name != "persona.schema.json"
}
MINIMAL = {"identity": {"name": "Ada Quill"}}
# Several times the default persona's --until layer time (about 25 s on 2 cores with twelve apps; more while
# other work shares the cores).
TIME_LIMIT_S = 150

_TEXT = st.sampled_from(
    [
        "",
        " ",
        "\t",
        "O'Brien",
        'Quote " and \\ backslash',
        "<img src='/etc/hostname'/>",
        "<img src='http://127.0.0.1:9/x'/>",
        "<b>bold</b> & <font size=40>",
        "<",
        "&amp;",
        "a/b",
        "../../etc/passwd",
        "..",
        ".",
        "-rf",
        "Nguyễn Thị Minh Khai",
        "Zażółć Gęślą",
        "דנה כהן",
        "ليلى حداد",
        "Иван Петров",
        "王小明",
        "Zoë 👩‍🚀",
        "e\u0301\u0301\u0301",
        "line\nbreak",
        "x\r\nBcc: victim@evil.test",
        "nul\x00byte",
        "\u202eevil",
        "\ud800",
        "Root Beer",
        "root",
        "nobody",
        "A" * 81,
        "B" * 5000,
        "mañana, São Paulo",
        "'; DROP TABLE accounts;--",
    ]
)
# Text a real spec may hold that stresses escaping, fonts, paths and SQL quoting: all valid one-line text.
_VALID_TEXT = st.sampled_from(
    [
        "O'Brien",
        'Quote " and \\ backslash',
        "<img src='/etc/hostname'/>",
        "<img src='http://127.0.0.1:9/x'/>",
        "<b>bold</b> & <font size=40>",
        "< & >",
        "a/b",
        "../../etc/passwd",
        "Nguyễn Thị Minh Khai",
        "Zażółć Gęślą",
        "דנה כהן",
        "ليلى حداد",
        "Иван Петров",
        "王小明",
        "Zoë 👩‍🚀",
        "e\u0301\u0301 acute",
        "\u202eevil",
        "Root Beer",
        "mañana, São Paulo",
        "'; DROP TABLE accounts;--",
        "%_?*",
        "C" * 60,
        "W " * 30,
    ]
)
_NUMBER = st.one_of(
    st.sampled_from(
        [
            0,
            -1,
            1,
            2,
            31,
            32,
            100,
            10**6,
            10**15,
            2**63,
            -(2**63),
            0.5,
            1e-9,
            1e300,
            12.345,
            "abc",
            "1e5",
            "Infinity",
            "NaN",
            True,
            None,
        ]
    ),
    st.integers(-(10**6), 10**6),
)
_DATE = st.sampled_from(
    [
        "2028-02-29",
        "2024-02-29",
        "0001-01-01",
        "1900-01-01",
        "1899-12-31",
        "9999-12-31",
        "2026-11-16",
        "2026-13-01",
        "2026-02-30",
        "1991-04-23",
        "2030-01-01",
        "1999-12-31",
        "2099-12-31",
        "2100-01-01",
        "yesterday",
        "",
    ]
)
_SPECIAL = st.sampled_from(
    [
        ("timezone", "Mars/Olympus"),
        ("timezone", "Etc/GMT+5"),
        ("timezone", "../../../etc/passwd"),
        ("timezone", "UTC"),
        ("timezone", "Asia/Kathmandu"),
        ("locale", "fr_FR"),
        ("seed", "__BIGNUM__"),
        ("seed", -5),
        ("as_of", "2028-02-29"),
        ("as_of", "2001-03-01"),
        ("as_of", "2020-06-15"),
        ("history_months", 36),
        ("horizon_days", 180),
        ("history_months", 0),
        ("id", ""),
        ("id", ".."),
    ]
)


def _paths(node, prefix=()):
    """Every JSON path in ``node`` (containers and leaves), in document order."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


def _get(node, path):
    for part in path:
        node = node[part]
    return node


@st.composite
def mutated_data(draw) -> dict:
    """A shipped (or the minimal) persona's data with one to four edits."""
    base = copy.deepcopy(draw(st.sampled_from([*SHIPPED.values(), MINIMAL])))
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.integers(0, 9)) == 0:
            key, value = draw(_SPECIAL)
            base[key] = value
            continue
        paths = list(_paths(base))[1:]
        if not paths:
            continue
        path = draw(st.sampled_from(paths))
        parent, last = _get(base, path[:-1]), path[-1]
        current = parent[last]
        action = draw(st.sampled_from(["replace", "replace", "drop", "duplicate", "multiply", "wrong_type"]))
        if action == "drop":
            del parent[last]
        elif action == "duplicate" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(current))
        elif action == "multiply" and isinstance(current, list) and current:
            factor = draw(st.sampled_from([2, 10, 60, 300, 5000]))
            parent[last] = [copy.deepcopy(current[i % len(current)]) for i in range(factor)]
        elif action == "wrong_type":
            parent[last] = draw(st.sampled_from([[], {}, None, "x", 3, [[[]]]]))
        elif isinstance(current, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", current):
            parent[last] = draw(_DATE)
        elif isinstance(current, (int, float)) and not isinstance(current, bool):
            parent[last] = draw(_NUMBER)
        elif isinstance(current, str) and draw(st.booleans()):
            parent[last] = draw(_VALID_TEXT)
        else:
            parent[last] = draw(_TEXT)
    return base


@st.composite
def mutated_spec(draw) -> bytes:
    """A persona file's bytes: mostly UTF-8 JSON of :func:`mutated_data`, sometimes other encodings or junk."""
    data = draw(mutated_data())
    # Python cannot even hold a 5000-digit int as JSON text: splice it in.
    text = json.dumps(data, ensure_ascii=draw(st.booleans())).replace('"__BIGNUM__"', "9" * 5000)
    raw = text.encode("utf-8", "surrogatepass")  # a lone surrogate becomes bytes that are not UTF-8
    how = draw(st.integers(0, 19))
    if how == 0:
        return text.encode("utf-16", "surrogatepass")
    if how == 1:
        return text.encode("latin-1", "replace").replace(b"?", b"\xe9")
    if how == 2:
        return b"[" * 100_000 + b"]" * 100_000
    if how == 3:
        return raw[: len(raw) // 2]
    if how == 4:
        return b"\xef\xbb\xbf" + raw
    return raw


@dataclass
class Outcome:
    """What one build did: ``kind`` is ``built``, ``refused`` (exit 2), ``failed`` (exit 1), ``crash`` or ``hang``."""

    kind: str
    exit_code: int | None
    stderr: str
    seconds: float
    outside_writes: list[str]


class _Hang(Exception):
    pass


def _on_alarm(_signum, _frame) -> None:
    raise _Hang()


def _snapshot(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        for p in sorted(root.rglob("*"))
        if not p.is_symlink()
    }


def attempt(spec: bytes, root: Path, until: str = "layer") -> Outcome:
    """Write ``spec`` to ``root/in/p.json`` and build it into ``root/out`` in this process.

    ``root/out`` may already hold other builds and a sentinel file; any change under ``root``
    outside ``root/out/<a persona id>/`` and ``root/out/.<id>.*`` is reported in ``outside_writes``.
    """
    from builder.cli import app

    (root / "in").mkdir(parents=True, exist_ok=True)
    out = root / "out"
    out.mkdir(exist_ok=True)
    (out / "SENTINEL.txt").write_text("do not touch")
    spec_path = root / "in" / "p.json"
    spec_path.write_bytes(spec)
    before = _snapshot(root)
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(TIME_LIMIT_S)
    started = time.monotonic()
    try:
        res = CliRunner().invoke(app, [str(spec_path), "--out", str(out), "--until", until], catch_exceptions=True)
        hung = isinstance(res.exception, _Hang)
    except _Hang:
        res, hung = None, True
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    seconds = time.monotonic() - started
    after = _snapshot(root)
    built_ids = {p.name for p in out.iterdir() if p.is_dir() and not p.name.startswith(".")} if out.is_dir() else set()

    def ours(rel: str) -> bool:
        parts = rel.split("/")
        return (
            len(parts) >= 2
            and parts[0] == "out"
            and (parts[1] in built_ids or re.fullmatch(r"\.[a-z0-9][a-z0-9-]*\.lock", parts[1]) is not None)
        )

    outside = sorted(rel for rel in set(before) | set(after) if before.get(rel) != after.get(rel) and not ours(rel))
    if hung:
        return Outcome("hang", None, "", seconds, outside)
    stderr = res.stderr if res is not None else ""
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        tb = "".join(traceback.format_exception(res.exception))
        return Outcome("crash", None, tb, seconds, outside)
    kind = {0: "built", 2: "refused", 1: "failed"}.get(res.exit_code, "crash")
    return Outcome(kind, res.exit_code, stderr, seconds, outside)


def violations(outcome: Outcome, spec_path_text: str) -> list[str]:
    """The promises an outcome broke: no traceback, no hang, no write outside --out, one line per problem."""
    bad = []
    if outcome.kind in ("crash", "hang", "failed"):
        bad.append(f"{outcome.kind}: {outcome.stderr[-3000:]}")
    if outcome.outside_writes:
        bad.append(f"wrote outside its output: {outcome.outside_writes[:5]}")
    if outcome.kind == "refused":
        lines = outcome.stderr.strip().splitlines()
        if not lines or not all(line.startswith(spec_path_text + ":") for line in lines):
            bad.append(f"refusal not one 'file: path: message' line per problem: {outcome.stderr[:2000]!r}")
        if "Traceback" in outcome.stderr:
            bad.append("traceback in a refusal")
    if outcome.kind == "built" and outcome.seconds > TIME_LIMIT_S:
        bad.append(f"took {outcome.seconds:.1f}s")
    return bad


def campaign(n: int, root: Path, seed: int = 0) -> dict:
    """Build ``n`` mutated specs (hypothesis drives the draws, seeded); return counts and the first violations."""
    import shutil

    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hseed

    counts = {"specs": 0, "refused": 0, "built": 0, "crash": 0, "hang": 0, "failed": 0, "outside": 0}
    examples: list[str] = []
    slowest = [0.0]

    @hseed(seed)
    @settings(max_examples=n, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(mutated_spec())
    def run(spec: bytes) -> None:
        i = counts["specs"]
        case = root / f"case{i}"
        outcome = attempt(spec, case)
        counts["specs"] += 1
        counts[outcome.kind] += 1
        counts["outside"] += bool(outcome.outside_writes)
        slowest[0] = max(slowest[0], outcome.seconds)
        bad = violations(outcome, str(case / "in" / "p.json"))
        if bad and len(examples) < 30:
            examples.append(f"case{i}: {bad[0][-1500:]}")
        shutil.rmtree(case, ignore_errors=True)

    run()
    counts["slowest_s"] = round(slowest[0], 1)
    return {"counts": counts, "examples": examples}


if __name__ == "__main__":
    import tempfile

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    with tempfile.TemporaryDirectory() as tmp:
        result = campaign(n, Path(tmp), seed)
    print(json.dumps(result, indent=2, ensure_ascii=False))
