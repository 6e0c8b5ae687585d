// Guildline end to end, in headless Chromium against the production server.
//
// APP_FACTS (tests/apps/network/test_web.py) holds values computed from the persona's WORLD: the profile
// (headline, about, location, experience, skills), the connection count, the pending invitations,
// the meetup's inviter to accept, a job search and its count, the recruiter thread, what to post and
// the bad inputs. Reads first, then writes (accept, post, react, comment, save, search and invite, apply,
// message), then refusals.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;
let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("gl_session", facts.session_token, { timeout: 15_000 }));
});

after(async () => {
  await browser?.close();
});

/** POST a form to Guildline on the test server without following redirects: {status, location, error}. */
async function post(path, fields, { signedIn = true } = {}) {
  const res = await appFetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(signedIn ? { cookie: `gl_session=${facts.session_token}` } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
  const location = res.headers.get("location") ?? "";
  return { status: res.status, location, error: new URL(location, BASE).searchParams.get("error") ?? "" };
}

test("the profile is the world's: headline, about, location, experience, education, skills", async () => {
  await page.goto(`${BASE}/in/me`);
  await screenshot(page, "profile");
  assert.equal(await page.locator('[data-testid="profile-name"]').innerText(), facts.name);
  assert.equal(await page.locator('[data-testid="profile-headline"]').innerText(), facts.profile.headline);
  assert.equal(await page.locator('[data-testid="profile-about"]').innerText(), facts.profile.about);
  assert.equal(await page.locator('[data-testid="profile-location"]').innerText(), facts.profile.location);
  assert.equal(await page.locator('[data-testid="profile-pronouns"]').innerText(), facts.profile.pronouns);
  const exp = await page.locator('[data-testid="experience"]').evaluateAll((els) =>
    els.map((e) => ({ title: e.dataset.title, company: e.dataset.company, start: e.dataset.start, end: e.dataset.end || null })));
  assert.deepEqual(exp, facts.profile.experience);
  assert.deepEqual(await page.locator('[data-testid="skill"]').allInnerTexts(), facts.profile.skills);
  assert.equal(await page.locator('[data-testid="education"]').count(), facts.profile.education_count);
});

test("the feed shows the newest post first and the network its connections and invitations", async () => {
  await page.goto(`${BASE}/`);
  await screenshot(page, "feed");
  const first = page.locator('[data-testid="post"]').first();
  assert.equal(await first.getAttribute("data-author"), facts.latest_post.author);
  assert.equal(await first.locator('[data-testid="post-body"]').innerText(), facts.latest_post.body);
  assert.equal(Number(await first.getAttribute("data-reactions")), facts.latest_post.reactions);
  await page.goto(`${BASE}/network`);
  await screenshot(page, "network");
  assert.equal(await page.locator('[data-testid="connection"]').count(), facts.connections);
  const incoming = await page.locator('[data-testid="invitation-incoming"]').evaluateAll((els) => els.map((e) => e.dataset.name));
  assert.deepEqual(incoming.sort(), [...facts.incoming].sort());
  const sent = await page.locator('[data-testid="invitation-sent"]').evaluateAll((els) => els.map((e) => e.dataset.name));
  assert.deepEqual(sent.sort(), [...facts.sent].sort());
});

test("accepting the meetup inviter's invitation adds a connection", async () => {
  await page.goto(`${BASE}/network`);
  const row = page.locator(`[data-testid="invitation-incoming"][data-name="${facts.accept}"]`);
  await row.locator('[data-testid="accept"]').click();
  await page.waitForURL(/done=/);
  await screenshot(page, "accepted");
  assert.match(await page.locator('[data-testid="notice"]').innerText(), new RegExp(facts.accept));
  assert.equal(await page.locator('[data-testid="connection"]').count(), facts.connections + 1);
  assert.equal(await page.locator(`[data-testid="invitation-incoming"][data-name="${facts.accept}"]`).count(), 0);
  // Answering it twice is refused; nothing changes.
  const again = await post("/api/invitations", { invitation: String(facts.accept_id), action: "accept" });
  assert.equal(again.status, 303);
  assert.match(again.error, /already accepted/);
});

test("a post persists and shows first in the feed, verbatim and escaped; react and comment on it", async () => {
  await page.goto(`${BASE}/`);
  await page.fill('[data-testid="composer"] textarea', facts.post);
  await page.click('[data-testid="composer"] button[type="submit"]');
  await page.waitForURL(/posted=1/);
  const first = page.locator('[data-testid="post"]').first();
  assert.equal(await first.locator('[data-testid="post-body"]').innerText(), facts.post);
  assert.equal(await page.locator('[data-testid="post"] b').count(), 0);
  await first.locator('[data-testid="react-celebrate"]').click();
  await page.waitForLoadState("load");
  assert.equal(await page.locator('[data-testid="post"]').first().getAttribute("data-mine"), "celebrate");
  const c = page.locator('[data-testid="post"]').first().locator('input[name="body"]');
  await c.fill(facts.comment);
  await c.press("Enter");
  await page.waitForLoadState("load");
  await screenshot(page, "posted");
  assert.deepEqual(await page.locator('[data-testid="post"]').first().locator('[data-testid="comment"] p').allInnerTexts(), [facts.comment]);
});

test("editing the current position's title persists", async () => {
  await page.goto(`${BASE}/in/me/edit`);
  const form = page.locator(`[data-testid="experience-form-${facts.edit.id}"]`);
  await form.locator('input[name="title"]').fill(facts.edit.title);
  await form.locator('button[value="update"]').click();
  await page.waitForURL(/saved=1/);
  await page.goto(`${BASE}/in/me`);
  assert.equal(await page.locator('[data-testid="experience"]').first().getAttribute("data-title"), facts.edit.title);
});

test("job search by keyword and location counts the world's postings; saving one", async () => {
  await page.goto(`${BASE}/jobs?q=${encodeURIComponent(facts.jobs.q)}`);
  await screenshot(page, "jobs");
  assert.equal(await page.locator('[data-testid="job"]').count(), facts.jobs.count);
  await page.goto(`${BASE}/jobs?q=${encodeURIComponent(facts.jobs.q)}&location=${encodeURIComponent(facts.jobs.location)}`);
  assert.equal(await page.locator('[data-testid="job"]').count(), facts.jobs.count_here);
  await page.goto(`${BASE}/jobs?saved=1`);
  assert.equal(await page.locator('[data-testid="job"]').count(), facts.jobs.saved);
  await page.goto(`${BASE}/jobs?q=${encodeURIComponent(facts.jobs.save_title)}`);
  const job = page.locator(`[data-testid="job"][data-slug="${facts.jobs.save}"]`);
  await job.locator('[data-testid="save"]').click();
  await page.waitForLoadState("load");
  assert.equal(await page.locator(`[data-testid="job"][data-slug="${facts.jobs.save}"]`).getAttribute("data-saved"), "1");
  const wild = await page.goto(`${BASE}/jobs?q=${encodeURIComponent("%_%")}`);
  assert.equal(wild.status(), 200);
  assert.equal(await page.locator('[data-testid="job"]').count(), 0);
});

test("people search finds the world's people; inviting the meetup's organizer with a note", async () => {
  const c = facts.connect;
  await page.goto(`${BASE}/`);
  await page.fill('input[name="keywords"]', c.q);
  await page.press('input[name="keywords"]', "Enter");
  await page.waitForURL(/\/search\/people\?keywords=/);
  await screenshot(page, "people-search");
  assert.equal(await page.locator('[data-testid="person"]').count(), c.count);
  const hit = page.locator(`[data-testid="person"][data-name="${c.name}"]`);
  assert.match(await hit.locator('[data-testid="degree"]').innerText(), /2nd/);
  await hit.locator('[data-testid="connect"]').click();
  await page.waitForURL(/\/in\/\d+\/invite$/);
  await page.fill('[data-testid="invite-form"] textarea[name="note"]', c.note);
  await screenshot(page, "invite");
  await page.click('[data-testid="send"]');
  await page.waitForURL(/done=/);
  await screenshot(page, "invited");
  assert.equal(await page.locator('[data-testid="notice"]').innerText(), `Invitation sent to ${c.name}.`);
  assert.equal(await page.locator('[data-testid="pending"]').count(), 1);
  const id = page.url().match(/\/in\/(\d+)/)[1];
  // Twice, to a connection, to someone who invited the persona, or with a note too long: refused.
  const again = await post("/api/invitations", { action: "send", person: id, note: "" });
  assert.match(again.error, /still waiting for an answer/);
  await page.goto(`${BASE}/search/people?keywords=${encodeURIComponent(c.connected)}`);
  const friend = page.locator(`[data-testid="person"][data-name="${c.connected}"]`).first();
  assert.equal(await friend.locator('[data-testid="message"]').count(), 1);
  const friendId = await friend.getAttribute("data-id");
  assert.match((await post("/api/invitations", { action: "send", person: friendId })).error, /already connected/);
  await page.goto(`${BASE}/search/people?keywords=${encodeURIComponent(c.invited_by)}`);
  const inviter = await page.locator(`[data-testid="person"][data-name="${c.invited_by}"]`).first().getAttribute("data-id");
  assert.match((await post("/api/invitations", { action: "send", person: inviter })).error, /has already invited you/);
  await page.goto(`${BASE}/search/people?keywords=${encodeURIComponent("%_%")}`);
  assert.equal(await page.locator('[data-testid="person"]').count(), 0);
});

test("Easy Apply: the persona's contact prefilled, the résumé uploaded, the job shows Applied", async () => {
  const a = facts.apply;
  await page.goto(`${BASE}/jobs?q=${encodeURIComponent(facts.jobs.save_title)}`);
  await page.locator(`[data-testid="job"][data-slug="${a.job}"] [data-testid="job-title"]`).click();
  await page.waitForURL(/\/jobs\/view\/\d+$/);
  const jobId = page.url().match(/\/jobs\/view\/(\d+)/)[1];
  await page.click('[data-testid="easy-apply"]');
  await page.waitForURL(/\/apply$/);
  assert.equal(await page.inputValue('input[name="email"]'), a.email);
  assert.equal(await page.inputValue('input[name="phone"]'), a.phone);
  await page.setInputFiles('[data-testid="resume"]', a.resume);
  await page.fill('input[name="years"]', String(a.years));
  await screenshot(page, "easy-apply");
  await page.click('[data-testid="submit-application"]');
  await page.waitForURL(/done=/);
  await screenshot(page, "applied");
  assert.match(await page.locator('[data-testid="notice"]').innerText(), /Your application was sent to/);
  assert.equal(await page.locator('[data-testid="resume-name"]').innerText(), a.resume.split("/").at(-1));
  assert.equal(await page.locator('[data-testid="easy-apply"]').count(), 0);
  await page.goto(`${BASE}/jobs?applied=1`);
  assert.deepEqual(await page.locator('[data-testid="job"]').evaluateAll((els) => els.map((e) => e.dataset.slug)), [a.job]);
  // Refusals: a second application, a file that is not a résumé, one that only claims to be a PDF, no file, a bad
  // answer, a body over the limit; each goes back to the form with the message.
  const apply = async (job, fields, file) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (file) form.append("resume", new Blob([file.bytes]), file.name);
    const encoded = new Request(BASE, { method: "POST", body: form }); // multipart, as a browser encodes it
    const res = await appFetch(`${BASE}/api/applications?job=${job}`, {
      method: "POST",
      headers: { cookie: `gl_session=${facts.session_token}`, "content-type": encoded.headers.get("content-type") },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
    const location = res.headers.get("location") ?? "";
    return { status: res.status, location, error: new URL(location, BASE).searchParams.get("error") ?? "" };
  };
  const ok = { email: a.email, phone: a.phone, years: "3" };
  const pdf = { name: "cv.pdf", bytes: new TextEncoder().encode("%PDF-1.4\n%%EOF\n") };
  assert.match((await apply(jobId, ok, pdf)).error, /already applied/);
  const other = await page.goto(`${BASE}/jobs`).then(() => page.locator('[data-testid="job"]').evaluateAll((els) => els.map((e) => e.dataset.id)));
  const fresh = other.find((x) => x !== jobId);
  const cases = [
    [ok, { name: "notes.txt", bytes: new TextEncoder().encode("hello") }, /not a PDF or Word/],
    [ok, { name: "cv.pdf", bytes: new TextEncoder().encode("hello, not a pdf") }, /does not look like a PDF/],
    [ok, null, /Upload your résumé/],
    [{ ...ok, years: "99" }, pdf, /whole number from 0 to 60/],
    [{ ...ok, email: "me@" }, pdf, /valid email/],
    [{ ...ok, phone: "call me" }, pdf, /mobile phone number/],
    [ok, { name: "big.pdf", bytes: new Uint8Array(3 * 1024 * 1024).fill(0x25) }, /at most 2 MB/],
  ];
  for (const [fields, file, re] of cases) {
    const r = await apply(fresh, fields, file);
    assert.equal(r.status, 303, String(re));
    assert.match(r.location, new RegExp(`/jobs/view/${fresh}/apply`));
    assert.match(r.error, re);
  }
  assert.match((await apply("999999", ok, pdf)).error, /does not exist/);
});

test("the recruiter thread shows the world's messages; a reply is sent", async () => {
  await page.goto(`${BASE}/messaging`);
  const t = page.locator(`[data-testid="thread"][data-name="${facts.thread.name}"]`);
  assert.equal(Number(await t.getAttribute("data-unread")), facts.thread.unread);
  await t.click();
  await page.waitForURL(/\/messaging\/\d+/);
  const texts = await page.locator('[data-testid="message-text"]').allInnerTexts();
  assert.deepEqual(texts, facts.thread.texts);
  await page.fill('[data-testid="message-form"] textarea', facts.thread.reply);
  await page.click('[data-testid="message-form"] button[type="submit"]');
  await page.waitForLoadState("load");
  await screenshot(page, "thread");
  const after = await page.locator('[data-testid="message-text"]').allInnerTexts();
  assert.equal(after.at(-1), facts.thread.reply);
});

test("bad input is refused with a clear message and changes nothing", async () => {
  const cases = [
    ["/api/posts", { body: "   " }, /can't be empty/],
    ["/api/posts", { body: "x".repeat(3001) }, /at most 3000/],
    ["/api/profile", { headline: "h".repeat(221), location: "Here", about: "" }, /at most 220/],
    ["/api/profile", { headline: "", location: "Here", about: "" }, /headline can't be empty/],
    ["/api/profile", { headline: "h", location: "Here", about: "", pronouns: "p".repeat(31) }, /pronouns can be at most 30/],
    ["/api/experience", { action: "add", title: "T", company: "C", start: "2024-05", end: "2023-01" }, /before the start/],
    ["/api/experience", { action: "add", title: "T", company: "C", start: "May 2024" }, /month like/],
    ["/api/experience", { action: "update", id: "999999", title: "T", company: "C", start: "2024-05" }, /does not exist/],
    ["/api/skills", { action: "add", skill: facts.profile.skills[0].toUpperCase() }, /already on your profile/],
    ["/api/reactions", { post: "1", reaction: "dislike" }, /Pick one of/],
    ["/api/comments", { post: "99999999", body: "hi" }, /does not exist/],
    ["/api/invitations", { invitation: "abc", action: "accept" }, /does not exist/],
    ["/api/jobs", { job: "1", action: "maybe" }, /Save or unsave/],
    ["/api/messages", { thread: "1", body: "" }, /can't be empty/],
  ];
  for (const [path, fields, re] of cases) {
    const r = await post(path, fields);
    assert.equal(r.status, 303, path);
    assert.match(r.error, re, `${path} ${JSON.stringify(fields).slice(0, 80)}`);
  }
  const out = await post("/api/posts", { body: "signed out" }, { signedIn: false });
  assert.equal(out.status, 303);
  assert.match(out.location, /\/login/);
  // The banner shows the app's own (signed) message: the page a refused post comes back to.
  const empty = await post("/api/posts", { body: "   " });
  assert.match(empty.error, /can't be empty/);
  await page.goto(`${BASE}${empty.location}`);
  await screenshot(page, "error");
  assert.match(await page.locator('[data-testid="error"]').innerText(), /can't be empty/);
});
