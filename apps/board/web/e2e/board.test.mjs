// Cairn end to end, in headless Chromium against the production server (clock at the world's now).
//
// APP_FACTS (tests/apps/board/test_web.py) holds values computed from the persona's WORLD (builder.world.projects.board):
// the current sprint and its tickets by status, one ticket to drag, one to comment on and edit, a search word.
// Reads first, then a real drag between columns, the no-script Move form, a comment, an edit, a new ticket and
// bad input. tests/apps/board/test_web.py then checks the rows the app left.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;
const cookie = () => `cn_session=${facts.session_token}`;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("cn_session", facts.session_token, { timeout: 15_000 }));
});

after(async () => {
  await browser?.close();
});

async function post(path, body, { json = false } = {}) {
  const res = await appFetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": json ? "application/json" : "application/x-www-form-urlencoded", cookie: cookie() },
    body: json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
  });
  const location = res.headers.get("location") ?? "";
  return { status: res.status, location, error: location ? (new URL(location, BASE).searchParams.get("error") ?? "") : "", text: await res.text() };
}

const cardsByColumn = () =>
  page.locator('[data-testid="column"]').evaluateAll((cols) =>
    Object.fromEntries(cols.map((c) => [c.dataset.status, [...c.querySelectorAll('[data-testid="card"]')].map((e) => e.dataset.key).sort()])),
  );

test("the seeded cookie opens the current sprint's board: its tickets in their columns, as the world has them", async () => {
  await page.goto(`${BASE}/`);
  assert.equal(new URL(page.url()).pathname, "/board");
  assert.equal(await page.getByTestId("sprint-name").textContent(), facts.sprint.name);
  assert.equal(await page.getByTestId("sprint-state").textContent(), "Active");
  assert.deepEqual(await cardsByColumn(), facts.sprint.columns);
  await screenshot(page, "board");
});

test("filters: by assignee and by label narrow the board to the world's tickets", async () => {
  await page.goto(`${BASE}/board?assignee=${facts.filter.assignee_id}`);
  const mine = Object.values(await cardsByColumn()).flat().sort();
  assert.deepEqual(mine, facts.filter.assignee_keys);
  await page.goto(`${BASE}/board?label=${encodeURIComponent(facts.filter.label)}`);
  assert.deepEqual(Object.values(await cardsByColumn()).flat().sort(), facts.filter.label_keys);
});

test("search finds a ticket by key and by a word of its title", async () => {
  await page.goto(`${BASE}/search?q=${encodeURIComponent(facts.search.key)}`);
  assert.deepEqual(await page.locator('[data-testid="row"]').evaluateAll((r) => r.map((e) => e.dataset.key)), [facts.search.key]);
  await page.goto(`${BASE}/search?q=${encodeURIComponent(facts.search.word)}`);
  const keys = await page.locator('[data-testid="row"]').evaluateAll((r) => r.map((e) => e.dataset.key));
  assert.equal(keys.length, Math.min(200, facts.search.word_count));
  await screenshot(page, "search");
});

test("a ticket's page shows the world's description, sub-tasks, comments and status history", async () => {
  const t = facts.detail;
  await page.goto(`${BASE}/t/${t.key}`);
  assert.equal(await page.getByTestId("ticket-title").textContent(), t.title);
  assert.equal(await page.getByTestId("comment").count(), t.comments);
  assert.equal(await page.getByTestId("subtask").count(), t.subtasks);
  const fields = await page.getByTestId("activity").evaluateAll((r) => r.map((e) => e.dataset.field));
  assert.deepEqual(fields, [...t.history].reverse());
  await screenshot(page, "ticket");
});

test("dragging a card to another column moves it there and the database keeps it", async () => {
  const d = facts.drag;
  await page.goto(`${BASE}/board`);
  const card = page.locator(`[data-testid="card"][data-key="${d.key}"]`);
  const target = page.locator(`[data-testid="column"][data-status="${d.to}"]`);
  await card.dragTo(target);
  await page.locator(`[data-testid="column"][data-status="${d.to}"] [data-testid="card"][data-key="${d.key}"]`).waitFor();
  await page.reload();
  assert.equal(await page.locator(`[data-testid="column"][data-status="${d.to}"] [data-testid="card"][data-key="${d.key}"]`).count(), 1);
  await screenshot(page, "board-after-drag");
});

test("the Move form (no script) moves a card too", async () => {
  const m = facts.move;
  const res = await post(`/api/tickets/${m.key}/status`, { status: m.to, back: "/board" });
  assert.equal(res.status, 303);
  assert.equal(res.error, "");
  await page.goto(`${BASE}/t/${m.key}`);
  assert.equal(await page.getByTestId("ticket").getAttribute("data-status"), m.to);
});

test("a comment persists and is shown escaped", async () => {
  const c = facts.comment;
  await page.goto(`${BASE}/t/${c.key}`);
  await page.locator('[data-testid="comment-form"] textarea').fill(c.body);
  await page.locator('[data-testid="comment-form"] button').click();
  await page.waitForURL((u) => u.pathname === `/t/${c.key}`);
  const last = page.getByTestId("comment").last();
  assert.ok((await last.textContent()).includes(c.body));
  assert.equal(await page.evaluate(() => window.__cairn_xss ?? 0), 0);
  await screenshot(page, "comment");
});

test("editing assignee, priority, labels and points saves each change and records it", async () => {
  const e = facts.edit;
  await page.goto(`${BASE}/t/${e.key}`);
  const form = page.getByTestId("edit-form");
  await form.locator('select[name="assignee"]').selectOption(String(e.assignee_id));
  await form.locator('select[name="priority"]').selectOption(e.priority);
  await form.locator('input[name="labels"]').fill(e.labels);
  await form.locator('select[name="points"]').selectOption(String(e.points));
  await form.locator('button[type="submit"]').click();
  await page.waitForURL((u) => u.searchParams.get("ok") === "Saved.");
  const fields = await page.getByTestId("activity").evaluateAll((r) => r.map((x) => x.dataset.field));
  for (const f of ["assignee", "priority", "labels", "points"]) assert.ok(fields.includes(f), f);
});

test("a new ticket in the current sprint lands in To do on the board", async () => {
  const n = facts.create;
  await page.goto(`${BASE}/new`);
  const form = page.getByTestId("new-form");
  await form.locator('input[name="title"]').fill(n.title);
  await form.locator('select[name="sprint"]').selectOption(String(facts.sprint.number));
  await form.locator('button[type="submit"]').click();
  await page.waitForURL((u) => u.pathname === `/t/${n.key}`);
  await page.goto(`${BASE}/board`);
  assert.equal(await page.locator(`[data-testid="column"][data-status="todo"] [data-testid="card"][data-key="${n.key}"]`).count(), 1);
});

test("bad input is refused with a clear message and changes nothing", async () => {
  const k = facts.bad.key;
  let r = await post(`/api/tickets/${k}/status`, { status: "shipped" }, { json: true });
  assert.equal(r.status, 400);
  assert.match(JSON.parse(r.text).error, /not a status/);
  r = await post(`/api/tickets/${k}`, { points: "4", back: `/t/${k}` });
  assert.equal(r.status, 303);
  assert.match(r.error, /Story points must be one of/);
  r = await post(`/api/tickets/${k}`, { due: "2026-02-30", back: `/t/${k}` });
  assert.match(r.error, /real date/);
  r = await post(`/api/tickets/${k}`, { assignee: "999" });
  assert.match(r.error, /assignee/);
  r = await post(`/api/tickets/${k}/comments`, { body: "   " });
  assert.match(r.error, /Write something/);
  r = await post("/api/tickets/NOPE-1/status", { status: "done" }, { json: true });
  assert.equal(r.status, 404);
  r = await post(`/api/tickets`, { title: "", project: "1" });
  assert.match(r.error, /needs a title/);
  const res = await appFetch(`${BASE}/api/tickets/${k}/status`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"status":"done"}' });
  assert.equal(res.status, 401);
  await page.goto(`${BASE}/t/${k}`);
  assert.equal(await page.getByTestId("ticket").getAttribute("data-status"), facts.bad.status);
});
