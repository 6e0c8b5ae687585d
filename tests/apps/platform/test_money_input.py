"""``parseMoney`` (apps/_ui/src/format.ts), the one reader of typed amounts in every app: plain amounts in the
locale's style pass, anything else is refused (``1e3``, ``12abc``, ``5 00`` once moved real money in the bank)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.conftest import REPO

CASES = [
    ("125.00", "en-US", 12500),
    ("$12.50", "en-US", 1250),
    ("1,234.50", "en-US", 123450),
    ("USD 12.50", "en-US", 1250),
    ("12.50 USD", "en-US", 1250),
    ("12,50 €", "de-DE", 1250),
    ("1.234,50", "de-DE", 123450),
    ("1 234,50", "fr-FR", 123450),
    ("£5", "en-GB", 500),
    (".5", "en-US", 50),
    ("10", "en-US", 1000),
    ("1'234.50", "de-CH", 123450),
    ("125,50", "en-US", 12550),
    ("1e3", "en-US", None),
    ("2e1", "en-US", None),
    ("12abc", "en-US", None),
    ("0x10", "en-US", None),
    ("5 00", "en-US", None),
    ("abc", "en-US", None),
    ("-5", "en-US", None),
    ("1.005", "en-US", None),
    ("1.2.3", "en-US", None),
    ("", "en-US", None),
    ("$", "en-US", None),
    ("12 $ 50", "en-US", None),
]

_RUN = """
const ts = require("typescript"), fs = require("fs"), vm = require("vm");
const src = fs.readFileSync(process.argv[1], "utf8");
const js = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
const mod = { exports: {} };
vm.runInNewContext(js, { module: mod, exports: mod.exports, require, Intl, Number, String, RegExp });
const cases = JSON.parse(process.argv[2]);
console.log(JSON.stringify(cases.map(([text, locale]) => mod.exports.parseMoney(text, locale))));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_parse_money_takes_plain_amounts_only():
    res = subprocess.run(
        ["node", "-e", _RUN, str(REPO / "apps/_ui/src/format.ts"), json.dumps(CASES)],
        cwd=REPO / "apps",
        capture_output=True,
        text=True,
        check=True,
    )
    got = json.loads(res.stdout)
    wrong = [(text, locale, g, want) for (text, locale, want), g in zip(CASES, got) if g != want]
    assert not wrong, wrong
