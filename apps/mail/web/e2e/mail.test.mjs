// Mailbox end to end, in headless Chromium against the production server.
//
// APP_FACTS (from tests/apps/mail/test_web.py) holds values computed from the persona's WORLD: inbox
// and unread counts, a thread's messages in order, a sender's mail count, the number of mails
// with attachments, the invitation to answer, a contact to write to. Reads come first, then the
// writes (send, reply, draft, refused forms, RSVP), each checked in the pages the app shows.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { facts as loadFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = loadFacts();
const BASE = facts.base_url;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("mb_session", facts.session_token, { timeout: 20_000 }));
});

after(async () => {
  await browser?.close();
});

async function counts(path) {
  await page.goto(`${BASE}${path}`);
  const el = page.locator('[data-testid="list-count"]');
  return {
    threads: Number(await el.getAttribute("data-threads")),
    messages: Number(await el.getAttribute("data-messages")),
    unread: Number(await el.getAttribute("data-unread")),
  };
}

/** fetch() from inside the page (its origin, its cookies): status, headers and the body's bytes. */
async function inPage(href, init = {}) {
  const r = await page.evaluate(
    async ([u, i]) => {
      const res = await fetch(u, i);
      const buf = new Uint8Array(await res.arrayBuffer());
      let bin = "";
      for (const b of buf) bin += String.fromCharCode(b);
      return { status: res.status, type: res.headers.get("content-type"), disposition: res.headers.get("content-disposition"), b64: btoa(bin) };
    },
    [href, init],
  );
  return { ...r, bytes: Buffer.from(r.b64, "base64") };
}

async function search(q) {
  return counts(`/search?q=${encodeURIComponent(q)}`);
}

/** Fill and submit the compose form; resolves when the app navigated away (sent / saved) or showed an error. */
async function composeAndSubmit({ to = "", cc = "", subject = "", body = "", button = "send", path = "/compose" }) {
  if (path) await page.goto(`${BASE}${path}`);
  if (to !== null) await page.fill("#to", to);
  if (cc) await page.fill("#cc", cc);
  if (subject !== null) await page.fill("#subject", subject);
  if (body !== null) await page.fill("#body", body);
  await page.click(`[data-testid="${button}"]`);
}

test("the seeded cookie signs in; the inbox shows the world's counts", async () => {
  const c = await counts("/");
  await screenshot(page, "inbox");
  assert.equal(c.messages, facts.inbox.messages);
  assert.equal(c.unread, facts.inbox.unread);
  assert.equal(c.threads, facts.inbox.threads);
  assert.equal(await page.locator('[data-testid="badge-inbox"]').innerText(), facts.inbox.unread_threads.toLocaleString("en-US"));
  // The newest conversation is the world's newest inbox mail.
  assert.equal(await page.locator('[data-testid="conversation"] [data-testid="subject"]').first().innerText(), facts.inbox.newest_subject);
  assert.equal(await page.locator('[data-testid="conversation"]').count(), Math.min(50, facts.inbox.threads));
  for (const [folder, n] of Object.entries(facts.folders)) assert.equal((await counts(`/${folder}`)).messages, n, folder);
  assert.ok(!(await page.content()).includes(facts.session_token));
});

test("signed-out visitors get the sign-in page; the password signs in", async () => {
  const anon = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const p = await anon.newPage();
    await p.goto(`${BASE}/sent`);
    assert.equal(new URL(p.url()).pathname, "/login");
    await p.fill("#username", facts.username);
    await p.fill("#password", "not-the-password");
    await p.click('[data-testid="login-form"] button');
    await p.waitForURL(/error=invalid/);
    await p.fill("#password", facts.password);
    await p.click('[data-testid="login-form"] button');
    await p.waitForURL((u) => u.pathname === "/");
    assert.equal(Number(await p.locator('[data-testid="list-count"]').getAttribute("data-messages")), facts.inbox.messages);
  } finally {
    await anon.close();
  }
});

test("a thread shows the world's messages in order", async () => {
  await page.goto(`${BASE}/t/${facts.thread.id}`);
  await screenshot(page, "thread");
  const subjects = await page.locator('[data-testid="message-subject"]').allTextContents();
  assert.deepEqual(subjects.map((s) => s.replace(/^Subject: /, "")), facts.thread.subjects);
  assert.deepEqual(await page.locator('[data-testid="message-from"]').allInnerTexts(), facts.thread.senders);
  assert.equal(await page.locator('[data-testid="message"]').count(), facts.thread.subjects.length);
});

test("labels list the world's labelled mail", async () => {
  const c = await counts(`/label/${encodeURIComponent(facts.label.name)}`);
  assert.equal(c.messages, facts.label.messages);
});

test("search operators count what the world holds", async () => {
  const from = await search(`from:${facts.search.from}`);
  await screenshot(page, "search-from");
  assert.equal(from.messages, facts.search.from_count);
  assert.equal((await search("has:attachment")).messages, facts.search.attachments);
  assert.equal((await search(`subject:"${facts.search.subject}"`)).messages, facts.search.subject_count);
  const ranged = await search(`after:${facts.search.after} before:${facts.search.before}`);
  assert.equal(ranged.messages, facts.search.range_count);
  // LIKE wildcards match themselves.
  assert.equal((await search("%")).messages, facts.search.percent_count);
  await page.goto(`${BASE}/search?q=${encodeURIComponent("before:2026-13-45")}`);
  assert.match(await page.locator('[data-testid="error"]').innerText(), /needs a date/);
});

test("attachments download with their bytes: the ICS invitation and the generated payslip PDF", async () => {
  await page.goto(`${BASE}/t/${facts.payslip.thread}`);
  const href = await page.locator('[data-testid="attachment"]').first().getAttribute("href");
  const res = await inPage(href);
  assert.equal(res.status, 200);
  assert.equal(res.type, "application/pdf");
  assert.ok(res.disposition.includes(facts.payslip.filename), res.disposition);
  assert.equal(res.bytes.subarray(0, 5).toString(), "%PDF-");
  await page.goto(`${BASE}/t/${facts.invite.thread}`);
  const ics = await inPage(await page.locator('[data-testid="attachment"]').first().getAttribute("href"));
  assert.equal(ics.bytes.toString("utf8"), facts.invite.ics);
});

test("star, mark unread, archive and delete move mail between folders", async () => {
  const starred = (await counts("/starred")).messages;
  const inbox = await counts("/");
  await page.locator('[data-testid="conversation"]').first().locator('[data-testid="star"]').click();
  await page.waitForURL(/notice=/);
  assert.ok((await counts("/starred")).messages > starred);
  // Archive the first inbox conversation from its thread view.
  await page.goto(`${BASE}/`);
  const first = await page.locator('[data-testid="conversation"]').first().getAttribute("data-thread");
  await page.goto(`${BASE}/t/${first}`);
  await page.click('[data-testid="archive"]');
  await page.waitForURL(/notice=Archived/);
  const afterArchive = await counts("/");
  assert.equal(afterArchive.threads, inbox.threads - 1);
  // Delete the next one: it lands in Trash.
  const second = await page.locator('[data-testid="conversation"]').first().getAttribute("data-thread");
  const trash = (await counts("/trash")).threads;
  await page.goto(`${BASE}/t/${second}`);
  await page.click('[data-testid="delete"]');
  await page.waitForURL(/notice=Moved/);
  assert.equal((await counts("/trash")).threads, trash + 1);
  assert.equal((await counts("/")).threads, inbox.threads - 2);
});

test("a bad compose form is refused with a message and sends nothing", async () => {
  const sent = (await counts("/sent")).messages;
  await composeAndSubmit({ to: "", subject: "No one to send to", body: "Hello" });
  assert.match(await page.locator('[data-testid="compose-error"]').innerText(), /at least one recipient/);
  await page.fill("#to", "not an address");
  await page.click('[data-testid="send"]');
  await page.waitForFunction(() => /not a valid email address/.test(document.querySelector('[data-testid="compose-error"]')?.textContent ?? ""));
  assert.equal(await page.inputValue("#body"), "Hello", "the text typed is kept");
  await page.fill("#to", facts.stranger);
  await page.fill("#subject", "x".repeat(100_000));
  await page.click('[data-testid="send"]');
  await page.waitForFunction(() => /subject is too long/.test(document.querySelector('[data-testid="compose-error"]')?.textContent ?? ""));
  await screenshot(page, "compose-error");
  assert.equal((await counts("/sent")).messages, sent, "nothing was sent");
});

test("a new message appears in Sent with the signature; HTML in a subject renders as text", async () => {
  await page.goto(`${BASE}/settings`);
  await page.fill("#signature", facts.signature);
  await page.click('[data-testid="save-signature"]');
  await page.waitForURL(/notice=Signature/);
  const sent = (await counts("/sent")).messages;
  await composeAndSubmit({ to: facts.stranger, subject: facts.html_subject, body: "Checking the subject line." });
  await page.waitForURL(/\/t\/.*notice=Message/);
  assert.equal(await page.locator('[data-testid="thread-subject"]').evaluate((h) => h.firstChild.textContent), facts.html_subject);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.match(await page.locator('[data-testid="message-body"]').last().innerText(), new RegExp(`-- \\n${facts.signature}`));
  const c = await counts("/sent");
  assert.equal(c.messages, sent + 1);
  assert.equal(await page.locator('[data-testid="conversation"] [data-testid="subject"]').first().innerText(), facts.html_subject);
  await screenshot(page, "sent");
});

test("a reply lands in the world's thread; writing to a contact twice gets the same answer stored", async () => {
  await page.goto(`${BASE}/t/${facts.reply.thread}`);
  const before = await page.locator('[data-testid="message"]').count();
  await page.locator('[data-testid="reply"]').last().click();
  await page.waitForURL(/\/compose\?reply=/);
  assert.equal(await page.inputValue("#to"), facts.reply.to_field);
  assert.match(await page.inputValue("#subject"), /^Re: /);
  await screenshot(page, "compose-reply");
  await page.fill("#body", `${facts.reply.text}\n\n${await page.inputValue("#body")}`);
  await page.click('[data-testid="send"]');
  await page.waitForURL(/\/t\/.*notice=Message/);
  assert.equal(new URL(page.url()).pathname, `/t/${facts.reply.thread}`);
  assert.equal(await page.locator('[data-testid="message"]').count(), before + 1, "the reply is in the thread; the contact's answer is not here yet");
  assert.match(await page.locator('[data-testid="message-body"]').last().innerText(), new RegExp(facts.reply.text));
  for (let i = 0; i < 2; i++) {
    await composeAndSubmit({ to: facts.contact.email, subject: facts.contact.subject, body: facts.contact.body });
    await page.waitForURL(/\/t\/.*notice=Message/);
  }
});

test("reply all addresses everyone but me; forward carries the attachment", async () => {
  await page.goto(`${BASE}/compose?reply=${facts.reply_all.message}&mode=all`);
  assert.equal(await page.inputValue("#to"), facts.reply_all.to_field);
  assert.equal(await page.inputValue("#cc"), facts.reply_all.cc_field);
  await page.goto(`${BASE}/compose?reply=${facts.payslip.message}&mode=forward`);
  assert.match(await page.inputValue("#subject"), /^Fwd: /);
  assert.equal(await page.locator('input[name="forward_attachment"]').count(), 1);
  await page.fill("#to", facts.stranger);
  await page.click('[data-testid="send"]');
  await page.waitForURL(/\/t\/.*notice=Message/);
  assert.equal(await page.locator('[data-testid="message"]').last().locator('[data-testid="attachment"]').count(), 1);
});

test("a draft persists, reopens and sends", async () => {
  await composeAndSubmit({ to: facts.stranger, subject: facts.draft.subject, body: facts.draft.body, button: "save-draft" });
  await page.waitForURL(/\/drafts\?notice=Draft/);
  assert.equal((await counts("/drafts")).messages, 1);
  await page.locator('[data-testid="conversation"] a').first().click();
  await page.waitForURL(/\/compose\?draft=/);
  assert.equal(await page.inputValue("#subject"), facts.draft.subject);
  assert.equal(await page.inputValue("#body"), facts.draft.body);
  const sent = (await counts("/sent")).messages;
  await page.goBack();
  await page.click('[data-testid="send"]');
  await page.waitForURL(/\/t\/.*notice=Message/);
  assert.equal((await counts("/drafts")).messages, 0);
  assert.equal((await counts("/sent")).messages, sent + 1);
});

test("uploading a file attaches it to the sent mail", async () => {
  await page.goto(`${BASE}/compose`);
  await page.fill("#to", facts.stranger);
  await page.fill("#subject", "The list");
  await page.setInputFiles("#files", { name: "list.txt", mimeType: "text/plain", buffer: Buffer.from("milk\neggs\n") });
  await page.click('[data-testid="send"]');
  await page.waitForURL(/\/t\/.*notice=Message/);
  const href = await page.locator('[data-testid="attachment"]').last().getAttribute("href");
  assert.equal((await inPage(href)).bytes.toString(), "milk\neggs\n");
});

test("answering an invitation records the RSVP and mails the organizer", async () => {
  await page.goto(`${BASE}/t/${facts.invite.thread}`);
  await page.click('[data-testid="rsvp-yes"]');
  await page.waitForURL(/notice=/);
  await screenshot(page, "invitation");
  const state = page.locator('[data-testid="rsvp-state"]');
  assert.equal(await state.getAttribute("data-partstat"), "ACCEPTED");
  if (facts.apps.includes("calendar")) {
    // Daybook is served too: it took the answer over the internal route.
    assert.equal(await state.getAttribute("data-calendar"), "notified");
  } else {
    // No calendar app in this site: the answer is kept and the notice says so.
    assert.equal(await state.getAttribute("data-calendar"), "pending");
    assert.match(await page.locator('[data-testid="notice"]').innerText(), /calendar could not be reached/);
  }
  await counts("/sent");
  assert.equal(await page.locator('[data-testid="conversation"] [data-testid="subject"]').first().innerText(), `Accepted: ${facts.invite.title}`);
});

test("the internal delivery route refuses callers without the internal key", async () => {
  await page.goto(`${BASE}/`);
  const res = await inPage("/api/internal/deliver", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ from: { name: "X", email: "x@y.test" }, to: ["a@b.test"], subject: "s", body: "b", folder: "inbox" }),
  });
  assert.equal(res.status, 403);
});
