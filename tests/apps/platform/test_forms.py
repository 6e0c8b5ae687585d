"""@persona/platform/forms (apps/_platform/src/forms.ts) from node: the one form POST handler every app builds on.

The platform's TypeScript (forms, http, once, internal) is transpiled with the checkout's own ``typescript`` into
CommonJS in a temporary folder and driven by a small node script with ``NextRequest``s, as Next.js would call a
route. Each case is one request (or two, for a replay); the script prints each answer's status, Location, body and
how often the handler ran. No site build is needed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PLATFORM = ROOT / "apps/_platform/src"
NODE_MODULES = ROOT / "apps/node_modules"
MODULES = ("forms", "http", "once", "internal")

SCRIPT = r"""
const { NextRequest } = require("next/server");
const forms = require("./forms.js");
const { BadRequest, readFormPost } = require("./http.js");

class AppError extends Error {
  constructor(message, field = "", status = 400) { super(message); this.field = field; this.status = status; }
}
class Declined extends Error {}

const ran = { count: 0 };
const user = (req) => (req.headers.get("x-user") ? { id: Number(req.headers.get("x-user")) } : null);
const app = { user, refusal: AppError };

function post(body, { signedIn = true, type = "application/x-www-form-urlencoded", accept = "", path = "/api/x" } = {}) {
  const headers = { "content-type": type };
  if (signedIn) headers["x-user"] = "7";
  if (accept) headers.accept = accept;
  return new NextRequest(`http://app.test${path}`, { method: "POST", headers, body });
}

async function answer(res) {
  const text = await res.text();
  return { status: res.status, location: res.headers.get("location"), replayed: res.headers.get("idempotent-replayed"), body: text ? (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text : null };
}

const act = (user, form) => {
  ran.count += 1;
  const what = form.get("what");
  if (what === "refuse") throw new AppError("No such thing.", "what", 409);
  if (what === "declined") throw new Declined("insufficient funds");
  if (what === "malformed") throw new BadRequest("what is malformed.", 400, "what");
  if (what === "crash") throw new TypeError("a bug");
  if (what === "response") return new Response("teapot", { status: 418 });
  return `/done?who=${user.id}`;
};
const failed = (e, form) => `/form?error=${encodeURIComponent(e.message)}&had=${form.get("what") ?? "nothing"}`;

const cases = {
  signedOut: () => forms.formRoute({ ...app, act, failed })(post("what=ok", { signedIn: false })),
  signedOutJson: () => forms.formRoute({ ...app, act, failed, json: forms.acceptsJson, signInFirst: "You are signed out." })(post("what=ok", { signedIn: false, accept: "application/json" })),
  ok: () => forms.formRoute({ ...app, act, failed })(post("what=ok")),
  okJson: () => forms.formRoute({ ...app, act, failed, json: forms.acceptsJson })(post("what=ok", { accept: "application/json" })),
  refused: () => forms.formRoute({ ...app, act, failed })(post("what=refuse")),
  refusedJson: () => forms.formRoute({ ...app, act, failed, json: forms.acceptsJson })(post("what=refuse", { accept: "application/json" })),
  notCaught: () => forms.formRoute({ ...app, act })(post("what=refuse")).then(() => "answered", (e) => e.constructor.name),
  crash: () => forms.formRoute({ ...app, act, failed })(post("what=crash")).then(() => "answered", (e) => e.constructor.name),
  alsoRefused: () => forms.formRoute({ ...app, act, failed, alsoRefused: (e) => (e instanceof Declined ? new AppError(`Not charged: ${e.message}`) : null) })(post("what=declined")),
  malformed: () => forms.formRoute({ ...app, act, failed })(post("what=malformed")),
  response: () => forms.formRoute({ ...app, act, failed })(post("what=response")),
  unreadablePath: () => forms.formRoute({ ...app, act, failed, read: readFormPost })(post("{}", { type: "application/json" })),
  unreadableJson: () => forms.formRoute({ ...app, act, failed, read: readFormPost, unreadable: "json" })(post("{}", { type: "application/json" })),
  unreadableFailed: () => forms.formRoute({ ...app, act, failed, read: readFormPost, unreadable: "failed" })(post("", {})),
  unreadableJsonClient: () => forms.formRoute({ ...app, act, failed, read: readFormPost, unreadable: "failed", json: forms.acceptsJson })(post("{}", { type: "application/json", accept: "application/json" })),
  afterReadSignedOut: () => forms.formRoute({ ...app, act, failed, read: readFormPost, unreadable: "json", signedOut: (form) => `/login?next=${form.get("back")}` })(post("back=%2Fthere", { signedIn: false })),
  afterReadUnreadable: () => forms.formRoute({ ...app, act, failed, read: readFormPost, unreadable: "json", signedOut: () => "/login" })(post("{}", { signedIn: false, type: "application/json" })),
  poster: () => forms.formPoster({ ...app, unreadable: "/start" })({ act, failed, signedOut: "/login?next=/here" })(post("what=ok", { signedIn: false })),
};

(async () => {
  const out = {};
  for (const [name, run] of Object.entries(cases)) {
    ran.count = 0;
    const res = await run();
    out[name] = { ...(res instanceof Response ? await answer(res) : { value: res }), ran: ran.count };
  }
  // The same form token twice: one effect, the second answer replayed; `once: false` runs twice.
  for (const [name, once] of [["twice", true], ["twiceNotOnce", false]]) {
    ran.count = 0;
    const route = forms.formRoute({ ...app, act, failed, once });
    const first = await answer(await route(post("what=ok&_idem=token-1234567")));
    const second = await answer(await route(post("what=ok&_idem=token-1234567")));
    out[name] = { first, second, ran: ran.count };
  }
  const form = new FormData();
  form.set("a", "x");
  form.set("file", new Blob(["data"]), "f.txt");
  out.fieldsOf = forms.fieldsOf(form, ["a", "file", "missing"]);
  out.overCap = [
    forms.overCap({ a: "123", b: "123456", c: "1234567" }, () => 3, (n) => `The ${n}`),
    forms.overCap({ t: "\u{1F600}\u{1F600}" }, () => 2, () => "The title"),
    forms.overCap({ t: "\u{1F600}\u{1F600}" }, () => 2, () => "The title", (_n, v) => [...v].length),
  ];
  out.backWith = [
    forms.backWith("/a?x=1&error=old&es=sig&notice=n&ok=1#top", { error: "New", y: 2 }, { drop: ["notice"] }),
    forms.backWith("/a?x=1&ok=1#top", { ok: "" }, { drop: ["ok"], keepHash: true }),
    forms.backWith("//evil.example/a?x=1", { notice: "Saved" }, { fallback: "/home" }),
  ];
  process.stdout.write(JSON.stringify(out));
})();
"""


@pytest.fixture(scope="module")
def answers(tmp_path_factory) -> dict:
    if shutil.which("node") is None or not (NODE_MODULES / "typescript").exists():
        pytest.skip("node or apps/node_modules/typescript missing (run scripts/setup-deps.sh)")
    tmp = tmp_path_factory.mktemp("forms")
    # CommonJS beside the platform's node_modules so `require("next/server")` resolves.
    (tmp / "node_modules").symlink_to(NODE_MODULES)
    transpile = (
        f"const ts = require({json.dumps(str(NODE_MODULES / 'typescript'))}); const fs = require('fs');"
        f"for (const m of {json.dumps(MODULES)}) {{"
        f"  const src = fs.readFileSync({json.dumps(str(PLATFORM))} + '/' + m + '.ts', 'utf8');"
        "  const out = ts.transpileModule(src, {compilerOptions: {module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true}});"
        f"  fs.writeFileSync({json.dumps(str(tmp))} + '/' + m + '.js', out.outputText);"
        "}"
    )
    subprocess.run(["node", "-e", transpile], check=True, timeout=60)
    (tmp / "run.js").write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run(["node", str(tmp / "run.js")], check=True, capture_output=True, timeout=120, cwd=tmp)
    return json.loads(done.stdout)


def _error_of(location: str) -> str:
    from urllib.parse import parse_qs, urlsplit

    return parse_qs(urlsplit(location).query)["error"][0]


def test_signed_out_goes_to_sign_in_before_the_body_is_read(answers):
    assert answers["signedOut"] == {"status": 303, "location": "/login", "replayed": None, "body": None, "ran": 0}
    assert answers["signedOutJson"]["status"] == 401
    assert answers["signedOutJson"]["body"] == {"error": "You are signed out."}
    assert answers["poster"]["location"] == "/login?next=/here", "a route's own options win over the app's"


def test_the_path_act_returns_is_answered_303_or_as_json(answers):
    assert answers["ok"] == {"status": 303, "location": "/done?who=7", "replayed": None, "body": None, "ran": 1}
    assert answers["okJson"]["status"] == 200
    assert answers["okJson"]["body"] == {"ok": True, "next": "/done?who=7"}
    assert answers["response"]["status"] == 418, "a Response from act is given as is"


def test_a_refusal_goes_to_failed_or_is_a_json_error_with_its_status_and_field(answers):
    assert answers["refused"]["status"] == 303
    assert answers["refused"]["location"] == "/form?error=No%20such%20thing.&had=refuse"
    assert answers["refusedJson"]["status"] == 409
    assert answers["refusedJson"]["body"] == {"error": "No such thing.", "field": "what"}
    assert answers["alsoRefused"]["location"] == "/form?error=Not%20charged%3A%20insufficient%20funds&had=declined"


def test_other_errors_are_not_caught(answers):
    assert answers["crash"]["value"] == "TypeError"
    assert answers["notCaught"]["value"] == "AppError", "without `failed` a refusal is the handler's own to answer"


def test_a_bad_request_is_answered_by_unreadable(answers):
    assert answers["malformed"]["status"] == 303 and _error_of(answers["malformed"]["location"]) == "what is malformed."
    path = answers["unreadablePath"]
    assert path["status"] == 303 and path["location"].startswith("/?error=") and "&es=" in path["location"]
    assert _error_of(path["location"]).startswith("Send this as a form post")
    assert path["ran"] == 0
    assert answers["unreadableJson"]["status"] == 400
    assert answers["unreadableJson"]["body"]["error"].startswith("Send this as a form post")
    failed = answers["unreadableFailed"]
    assert (
        failed["status"] == 303
        and failed["location"].startswith("/form?error=")
        and failed["location"].endswith("&had=nothing")
    )
    assert answers["unreadableJsonClient"]["status"] == 400, "a JSON client gets JSON whatever `unreadable` says"


def test_a_sign_in_path_made_from_the_form_is_answered_after_reading_it(answers):
    assert answers["afterReadSignedOut"]["location"] == "/login?next=/there"
    assert answers["afterReadSignedOut"]["ran"] == 0
    assert answers["afterReadUnreadable"]["status"] == 400


def test_one_form_token_has_one_effect_unless_once_is_off(answers):
    twice = answers["twice"]
    assert twice["ran"] == 1
    assert twice["first"]["location"] == twice["second"]["location"] == "/done?who=7"
    assert twice["second"]["replayed"] == "true"
    assert answers["twiceNotOnce"]["ran"] == 2
    assert answers["twiceNotOnce"]["second"]["replayed"] is None


def test_field_readers(answers):
    assert answers["fieldsOf"] == {"a": "x", "file": "", "missing": ""}
    first, units, chars = answers["overCap"]
    assert first == {"message": "The b is too long: at most 3 characters.", "field": "b"}, (
        "the first field over its cap"
    )
    assert units == {"message": "The title is too long: at most 2 characters.", "field": "t"}, "UTF-16 units by default"
    assert chars is None, "two characters fit a cap of 2 when counted as code points"


def test_back_with_keeps_the_pages_own_query_and_replaces_the_old_error(answers):
    error, hash_kept, elsewhere = answers["backWith"]
    assert error.startswith("/a?x=1&ok=1&error=New&y=2&es="), (
        "the old error, es and notice dropped, the new error signed"
    )
    assert "#" not in error
    assert hash_kept == "/a?x=1#top", "an empty value adds nothing; the fragment is kept when asked"
    assert elsewhere == "/home?notice=Saved", "another origin falls back"
