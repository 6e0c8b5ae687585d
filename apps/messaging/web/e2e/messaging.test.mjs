// Parley end to end, in headless Chromium against the production server.
//
// APP_FACTS (tests/apps/messaging/test_web.py) holds values computed from the persona's WORLD: the
// one-to-one conversations in order of their last message with their unread counts, a chosen
// conversation's last message, message count, contact facts and read receipt, a search count,
// the groups the world implies and their members, what to send, and a seeded message to reply to
// quoting it. The tests run in order: reads first, then sending (with the reply that arrives after
// its delay), tapbacks, bad input, a new group, a quoting reply edited then deleted, their refusals.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("pl_session", facts.session_token, { timeout: 15_000 }));
});

after(async () => {
  await browser?.close();
});

const cookie = () => `pl_session=${facts.session_token}`;

/**
 * POST a form to Parley on the test server (Host: parley.test) without following redirects:
 * {status, location, error}.
 */
async function post(path, fields, { signedIn: withCookie = true } = {}) {
  const res = await appFetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(withCookie ? { cookie: cookie() } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
  const location = res.headers.get("location") ?? "";
  return { status: res.status, location, error: new URL(location, BASE).searchParams.get("error") ?? "" };
}

async function conversations() {
  return page.locator('[data-testid="conversation"]').evaluateAll((els) =>
    els.map((e) => ({ id: Number(e.dataset.id), name: e.dataset.name, kind: e.dataset.kind, unread: Number(e.dataset.unread) })),
  );
}

async function idOf(name) {
  await page.goto(`${BASE}/`);
  const c = (await conversations()).find((x) => x.name === name);
  assert.ok(c, `no conversation named ${name}`);
  return c.id;
}

async function lastMessage() {
  const msgs = page.locator('[data-testid="message"]');
  const n = await msgs.count();
  const last = msgs.nth(n - 1);
  return { id: Number(await last.getAttribute("data-id")), mine: (await last.getAttribute("data-mine")) === "1", text: await last.locator('[data-testid="message-text"]').innerText() };
}

test("the seeded cookie signs in; the list is in the world's order with its unread counts", async () => {
  await page.goto(`${BASE}/`);
  assert.equal(new URL(page.url()).pathname, "/");
  await screenshot(page, "home");
  const list = await conversations();
  const direct = list.filter((c) => c.kind === "direct");
  assert.deepEqual(direct.map((c) => c.name), facts.direct_order);
  for (const c of direct) assert.equal(c.unread, facts.unread[c.name], `unread of ${c.name}`);
  assert.equal(list.length, facts.direct_order.length + facts.groups.length);
});

test("a conversation shows the world's last message, day separators and the read receipt", async () => {
  const id = await idOf(facts.chosen.name);
  await page.goto(`${BASE}/c/${id}`);
  await page.locator('[data-testid="message"]').last().waitFor();
  await screenshot(page, "conversation");
  const last = await lastMessage();
  assert.equal(last.text, facts.chosen.last_text);
  assert.equal(last.mine, facts.chosen.last_mine);
  assert.ok((await page.locator('[data-testid="day-separator"]').count()) >= 1);
  assert.equal((await page.locator('[data-testid="receipt"]').innerText()).trim(), facts.chosen.receipt);
  assert.equal(await page.locator('[data-testid="load-earlier"]').count(), facts.chosen.count > 150 ? 1 : 0);
});

test("the contact card has the world's phone, email, relationship, message count and shared groups", async () => {
  const id = await idOf(facts.chosen.name);
  await page.goto(`${BASE}/c/${id}`);
  await page.click('[data-testid="conversation-info-link"]');
  await page.locator('[data-testid="contact-card"]').waitFor();
  await screenshot(page, "contact-card");
  assert.equal(await page.locator('[data-testid="contact-name"]').innerText(), facts.chosen.name);
  assert.equal(await page.locator('[data-testid="contact-phone"]').innerText(), facts.chosen.phone);
  assert.equal(await page.locator('[data-testid="contact-email"]').innerText(), facts.chosen.email);
  assert.match(await page.locator('[data-testid="contact-relationship"]').innerText(), new RegExp(facts.chosen.relationship, "i"));
  assert.equal(Number(await page.locator('[data-testid="message-count"]').getAttribute("data-count")), facts.chosen.count);
  const groups = await page.locator('[data-testid="shared-group"]').allInnerTexts();
  assert.deepEqual(groups.map((g) => g.trim()).sort(), [...facts.chosen.groups].sort());
});

test("the group conversations the world implies exist with the right members", async () => {
  await page.goto(`${BASE}/`);
  const list = await conversations();
  for (const g of facts.groups) {
    const c = list.find((x) => x.kind === "group" && x.name === g.title);
    assert.ok(c, `no group ${g.title}`);
    await page.goto(`${BASE}/c/${c.id}/info`);
    const members = await page.locator('[data-testid="group-member"]').evaluateAll((els) => els.map((e) => e.dataset.name));
    assert.deepEqual(members.sort(), [...g.members].sort(), g.title);
  }
  await screenshot(page, "group-info");
  const first = list.find((x) => x.kind === "group" && x.name === facts.groups[0].title);
  await page.goto(`${BASE}/c/${first.id}`);
  await page.locator('[data-testid="message"]').last().waitFor();
  await screenshot(page, "group");
});

test("search counts the world's messages and opening a hit jumps to it", async () => {
  await page.goto(`${BASE}/`);
  await page.fill('[data-testid="search-input"]', facts.search.q);
  await page.press('[data-testid="search-input"]', "Enter");
  await page.waitForURL(/\/search\?q=/);
  await screenshot(page, "search");
  assert.equal(Number(await page.locator('[data-testid="search-count"]').getAttribute("data-total")), facts.search.count);
  const hit = page.locator('[data-testid="search-hit"]').first();
  const mid = await hit.getAttribute("data-id");
  await hit.click();
  await page.waitForURL(new RegExp(`m=${mid}`));
  const target = page.locator(`#m${mid}`);
  await target.waitFor();
  assert.match(await target.getAttribute("class"), /is-target/);
  assert.match((await target.innerText()).toLowerCase(), new RegExp(facts.search.q.toLowerCase()));
  // A LIKE wildcard is a literal character, not "anything".
  await page.goto(`${BASE}/search?q=${encodeURIComponent("%_%")}`);
  assert.equal(Number(await page.locator('[data-testid="search-count"]').getAttribute("data-total")), facts.search.wildcard_count);
});

test("sending a text: the contact's reply arrives only after its delay", async () => {
  const id = await idOf(facts.send.name);
  await page.goto(`${BASE}/c/${id}`);
  await page.fill('[data-testid="message-input"]', facts.send.text);
  await page.press('[data-testid="message-input"]', "Enter");
  await page.waitForURL(new RegExp(`/c/${id}$`));
  const mine = await lastMessage();
  assert.equal(mine.text, facts.send.text);
  assert.ok(mine.mine);
  // The reply is stored with a later deliver_at: not shown yet, the contact is "typing".
  await page.locator('[data-testid="typing-bubble"]').waitFor();
  await screenshot(page, "typing");
  assert.equal((await lastMessage()).id, mine.id);
  assert.equal((await page.locator('[data-testid="receipt"]').innerText()).trim(), "Delivered");
  const sentAt = Date.now();
  // The page refreshes itself while a reply is pending; the reply shows within the engine's delay.
  await page.waitForFunction(
    (mid) => {
      const msgs = [...document.querySelectorAll('[data-testid="message"]')];
      const last = msgs[msgs.length - 1];
      return last && Number(last.dataset.id) !== mid && last.dataset.mine === "0";
    },
    mine.id,
    { timeout: 120_000, polling: 500 },
  );
  const waited = (Date.now() - sentAt) / 1000;
  const reply = await lastMessage();
  assert.ok(!reply.mine && reply.text.length > 0);
  assert.ok(waited >= 5, `the reply came after ${waited}s: too soon for a delayed reply`);
  assert.equal(await page.locator('[data-testid="typing-bubble"]').count(), 0);
  assert.match((await page.locator('[data-testid="receipt"]').innerText()).trim(), /^Read /);
  await screenshot(page, "reply");
});

test("tapbacks toggle and persist", async () => {
  const id = await idOf(facts.chosen.name);
  await page.goto(`${BASE}/c/${id}`);
  const row = page.locator(`#m${facts.react.message_id}`);
  const react = async (emoji) => {
    await row.hover();
    await row.locator('[data-testid="react-open"]').click();
    await row.locator(`[data-testid="tapback"][data-emoji="${emoji}"]`).click();
    await page.waitForLoadState("load");
  };
  await page.goto(`${BASE}/c/${id}?m=${facts.react.message_id}`);
  await react("❤️");
  await react("👍");
  await page.reload();
  const mineChips = () => row.locator('[data-testid="reaction"][data-mine="1"]').evaluateAll((els) => els.map((e) => e.dataset.emoji));
  assert.deepEqual((await mineChips()).sort(), ["❤️", "👍"].sort());
  await screenshot(page, "tapbacks");
  await react("❤️"); // off again
  await page.reload();
  assert.deepEqual(await mineChips(), ["👍"]);
  // An emoji that is not a tapback is refused.
  const bad = await post("/api/reactions", { message: String(facts.react.message_id), emoji: "💩" });
  assert.equal(bad.status, 303);
  assert.match(bad.error, /Pick one of/);
  const missing = await post("/api/reactions", { message: "99999999", emoji: "❤️" });
  assert.match(missing.error, /does not exist/);
});

test("bad input: empty and over-long texts are refused, HTML is stored verbatim and shown as text", async () => {
  const id = await idOf(facts.bad.name);
  for (const [body, msg] of [["", /Type a message/], ["   \n ", /Type a message/], ["x".repeat(10_000), /at most 4,000/]]) {
    const r = await post("/api/messages", { conversation: String(id), body });
    assert.equal(r.status, 303);
    assert.match(r.error, msg);
  }
  const unknown = await post("/api/messages", { conversation: "999999", body: "hello" });
  assert.match(unknown.error, /does not exist/);
  const signedOut = await post("/api/messages", { conversation: String(id), body: "hello" }, { signedIn: false });
  assert.equal(signedOut.location, "/login");
  // The error shows in the composer.
  await page.goto(`${BASE}/c/${id}`);
  await page.fill('[data-testid="message-input"]', " ");
  await page.click('[data-testid="send"]');
  await page.locator('[data-testid="send-error"]').waitFor();
  await screenshot(page, "send-error");
  // HTML and script are text.
  let dialogs = 0;
  page.on("dialog", (d) => {
    dialogs += 1;
    d.dismiss();
  });
  await page.goto(`${BASE}/c/${id}`);
  await page.fill('[data-testid="message-input"]', facts.bad.html);
  await page.click('[data-testid="send"]');
  await page.waitForURL(new RegExp(`/c/${id}$`));
  const mine = page.locator('[data-testid="message"][data-mine="1"]').last();
  assert.equal(await mine.locator('[data-testid="message-text"]').innerText(), facts.bad.html);
  assert.equal(await mine.locator("b, script, img").count(), 0);
  assert.equal(dialogs, 0);
  await screenshot(page, "html-as-text");
});

test("a new group from two contacts", async () => {
  await page.goto(`${BASE}/new-group`);
  await page.click('[data-testid="create-group"]'); // the browser refuses an empty name
  await page.fill('[data-testid="group-title"]', facts.new_group.title);
  await page.check(`[data-testid="group-member-pick"][data-name="${facts.new_group.members[0]}"]`);
  await page.click('[data-testid="create-group"]');
  await page.locator('[data-testid="group-error"]').waitFor();
  assert.match(await page.locator('[data-testid="group-error"]').innerText(), /at least two/);
  for (const n of facts.new_group.members) await page.check(`[data-testid="group-member-pick"][data-name="${n}"]`);
  await screenshot(page, "new-group");
  await page.click('[data-testid="create-group"]');
  await page.waitForURL(/\/c\/\d+$/);
  assert.equal(await page.locator('[data-testid="conversation-title"]').innerText(), facts.new_group.title);
  const members = await page.locator('[data-testid="group-members"]').innerText();
  for (const n of facts.new_group.members) assert.ok(members.includes(n), members);
});

let quotedReply = 0;

test("replying quotes a message; the reply is edited, then deleted for everyone", async () => {
  const q = facts.quote;
  const id = await idOf(q.name);
  await page.goto(`${BASE}/c/${id}?m=${q.message_id}`);
  const target = page.locator(`#m${q.message_id}`);
  await target.hover();
  await target.locator('[data-testid="message-menu"]').click();
  await screenshot(page, "message-menu");
  await target.locator('[data-testid="reply-open"]').click();
  await page.waitForURL(new RegExp(`reply=${q.message_id}`));
  assert.equal(await page.locator('[data-testid="reply-bar-text"]').innerText(), q.first_line);
  await screenshot(page, "reply-bar");
  await page.fill('[data-testid="message-input"]', q.text);
  await page.press('[data-testid="message-input"]', "Enter");
  await page.waitForURL(new RegExp(`/c/${id}$`));
  quotedReply = Number(await page.locator('[data-testid="message"][data-mine="1"]').last().getAttribute("data-id"));
  const row = page.locator(`#m${quotedReply}`);
  assert.equal(await row.locator('[data-testid="message-text"]').innerText(), q.text);
  assert.equal(await row.locator('[data-testid="quote-sender"]').innerText(), q.sender);
  assert.equal(await row.locator('[data-testid="quote-text"]').innerText(), q.first_line);
  assert.equal(await page.locator('[data-testid="reply-bar"]').count(), 0);
  // The contact answers after a delay; once it is in, the page stops refreshing itself.
  await page.locator('[data-testid="typing-bubble"]').waitFor({ state: "detached", timeout: 120_000 });
  await screenshot(page, "quoted-reply");
  // The quote scrolls to the message it quotes.
  await row.locator('[data-testid="quote"]').click();
  await page.waitForFunction((t) => {
    const r = document.getElementById(`m${t}`)?.getBoundingClientRect();
    return !!r && r.top >= 0 && r.bottom <= window.innerHeight;
  }, q.message_id);
  // Edit: the composer holds the text; saving shows it with "Edited".
  await row.hover();
  await row.locator('[data-testid="message-menu"]').click();
  await row.locator('[data-testid="edit-open"]').click();
  await page.waitForURL(new RegExp(`edit=${quotedReply}`));
  await page.locator('[data-testid="edit-bar"]').waitFor();
  assert.equal(await page.inputValue('[data-testid="message-input"]'), q.text);
  await screenshot(page, "edit-bar");
  await page.fill('[data-testid="message-input"]', q.edited);
  await page.press('[data-testid="message-input"]', "Enter");
  await page.waitForURL(new RegExp(`m=${quotedReply}`));
  assert.equal(await row.getAttribute("data-edited"), "1");
  assert.equal((await row.locator('[data-testid="edited"]').innerText()).trim(), "Edited");
  assert.equal(await row.locator('[data-testid="message-text"]').innerText(), q.edited);
  assert.equal(await row.locator('[data-testid="quote-text"]').innerText(), q.first_line);
  await screenshot(page, "edited");
  // Delete for everyone: a tombstone; the list's preview and search no longer show the text.
  await row.hover();
  await row.locator('[data-testid="message-menu"]').click();
  await row.locator('[data-testid="delete-message"]').click();
  await page.waitForURL(new RegExp(`/c/${id}$`));
  assert.equal(await row.getAttribute("data-deleted"), "1");
  assert.equal((await row.locator('[data-testid="message-tombstone"]').innerText()).trim(), "You deleted this message");
  assert.equal(await row.locator('[data-testid="message-text"], [data-testid="quote"], [data-testid="edited"]').count(), 0);
  const preview = await page.locator(`[data-testid="conversation"][data-id="${id}"] [data-testid="conversation-preview"]`).innerText();
  assert.ok(!preview.includes(q.edited) && !preview.includes(q.text), preview);
  await row.scrollIntoViewIfNeeded();
  await screenshot(page, "deleted");
  await page.goto(`${BASE}/search?q=${encodeURIComponent(q.edited)}`);
  assert.equal(Number(await page.locator('[data-testid="search-count"]').getAttribute("data-total")), 0);
});

test("editing and deleting refuse what is not mine, unknown, empty, too long or too late", async () => {
  const q = facts.quote;
  const conversation = String(await idOf(q.name));
  const refused = [
    ["/api/messages/edit", { message: String(q.message_id), body: "hi" }, /only edit your own/],
    ["/api/messages/delete", { message: String(q.message_id) }, /only delete your own/],
    ["/api/messages/edit", { message: "99999999", body: "hi" }, /does not exist/],
    ["/api/messages/delete", { message: "1 OR 1=1" }, /does not exist/],
    ["/api/messages/edit", { message: String(q.old_mine_id), body: "changed my mind" }, /within 15 minutes/],
    ["/api/messages/edit", { message: String(q.old_mine_id), body: " \n " }, /Type a message/],
    ["/api/messages/edit", { message: String(q.old_mine_id), body: "x".repeat(10_000) }, /at most 4,000/],
    ["/api/messages/edit", { message: String(quotedReply), body: "back again" }, /was deleted/],
    ["/api/messages", { conversation, body: "hi", quote: String(facts.react.message_id) }, /not in this chat/],
    ["/api/messages", { conversation, body: "hi", quote: String(quotedReply) }, /was deleted/],
  ];
  for (const [path, fields, msg] of refused) {
    const r = await post(path, { conversation, ...fields });
    assert.equal(r.status, 303, path);
    assert.match(r.error, msg, `${path} ${JSON.stringify(fields).slice(0, 80)}`);
    assert.equal(new URL(r.location, BASE).pathname, `/c/${conversation}`);
  }
  // Deleting twice (a double submit) changes nothing more; signed out is sent to sign in.
  const again = await post("/api/messages/delete", { conversation, message: String(quotedReply) });
  assert.deepEqual([again.location, again.error], [`/c/${conversation}`, ""]);
  const signedOut = await post("/api/messages/edit", { message: String(quotedReply), body: "x" }, { signedIn: false });
  assert.equal(signedOut.location, "/login");
});
