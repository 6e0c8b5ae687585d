// Huddle end to end, in headless Chromium against the production server.
//
// APP_FACTS (tests/apps/workchat/test_web.py) holds values computed from the persona's world: the
// channel list with unread/mention badges from the world's read flags, #general's message count
// and last message, a thread's replies, a DM's last message, search counts. The tests run in
// order: reads first, then the workflows (post, thread reply, reactions, save, pin, edit, delete,
// status, bad input) with a DM posted early in a page of its own, and last the colleague's delayed DM
// reply arriving on that page by itself.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as loadFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = loadFacts();
const BASE = facts.base_url;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("hd_session", facts.session_token, { timeout: 15_000 }));
});

after(async () => {
  await browser?.close();
});

const text = async (locator) => (await locator.first().innerText()).trim();
const mainMessages = () => page.locator('[data-testid="messages"] > [data-testid="day"] [data-testid="message"]');
const cookieHeader = { cookie: `hd_session=${facts.session_token}` };

/**
 * POST a form to Huddle on the test server as the signed-in persona (or signed out with
 * `cookie: false`): {status, location}.
 */
async function postForm(path, fields, { cookie = true } = {}) {
  const res = await appFetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? cookieHeader : {}) },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, location: res.headers.get("location") ?? "" };
}

const said = (location) => decodeURIComponent(location.replace(/\+/g, " "));

async function send(composer, value) {
  const box = page.locator(`[data-testid="${composer}"] textarea`);
  await box.fill(value);
  const prev = new URL(page.url()).searchParams.get("posted");
  await Promise.all([
    page.waitForURL((u) => Boolean(u.searchParams.get("posted")) && u.searchParams.get("posted") !== prev),
    box.press("Enter"),
  ]);
}

test("the sidebar lists the world's channels and DMs with unread and mention badges from its read flags", async () => {
  await page.goto(`${BASE}/`);
  assert.equal(new URL(page.url()).pathname, "/c/general");
  assert.equal(await text(page.locator('[data-testid="workspace-name"]')), facts.workspace);
  const items = page.locator('[data-testid="channel-list"] .hd-side-item, [data-testid="dm-list"] .hd-side-item');
  const got = await items.evaluateAll((els) =>
    els.map((a) => ({
      name: a.getAttribute("data-testid").replace(/^channel-/, ""),
      label: a.querySelector(".hd-side-label").textContent.trim(),
      unread: a.getAttribute("data-unread") === "true",
      badge: Number(a.querySelector('[data-testid="badge"]')?.textContent ?? 0),
      bold: getComputedStyle(a).fontWeight,
    })),
  );
  assert.deepEqual(
    got.map(({ name, label, unread, badge }) => ({ name, label, unread, badge })),
    facts.sidebar.map(({ name, label, unread, badge }) => ({ name, label, unread, badge })),
  );
  for (const g of got) if (g.unread && g.name !== "general") assert.ok(Number(g.bold) >= 700, `${g.name} is bold`);
  const total = await page.locator('[data-testid="nav-activity"] .hd-badge').count();
  assert.equal(total ? Number(await text(page.locator('[data-testid="nav-activity"] .hd-badge'))) : 0, facts.mention_total);
  await screenshot(page, "general");
});

test("#general shows the world's last message at the bottom and its message count in the details", async () => {
  await page.goto(`${BASE}/c/general`);
  const last = mainMessages().last();
  assert.equal(await text(last.locator('[data-testid="text"]')), facts.general.last_text);
  // The sender's name is on the message or on the group it continues.
  const senders = await mainMessages().evaluateAll((els) => els.map((e) => e.getAttribute("data-sender")));
  assert.equal(senders.at(-1), facts.general.last_sender);
  await Promise.all([page.waitForURL(/details=about/), page.click('[data-testid="details-button"]')]);
  await page.locator('[data-testid="message-count"]').waitFor();
  assert.equal(Number(await page.locator('[data-testid="message-count"]').getAttribute("data-count")), facts.general.count);
  await Promise.all([page.waitForURL(/details=pinned/), page.click('[data-testid="tab-pinned"]')]);
  await page.locator('[data-testid="pinned-list"]').waitFor();
  assert.equal(await page.locator('[data-testid="pinned-list"] [data-testid="message"]').count(), facts.general.pinned);
  await screenshot(page, "general-details");
});

test("a thread: reply count and last reply under the root, the replies in the side panel", async () => {
  const t = facts.thread;
  await page.goto(`${BASE}/c/${t.channel}`);
  // Load earlier pages until the thread's root is on screen.
  let root = mainMessages().filter({ hasText: t.root_text }).filter({ has: page.locator('[data-testid="thread-summary"]') });
  for (let i = 0; i < 20 && !(await root.count()); i++) {
    await page.click('[data-testid="earlier"]');
    root = mainMessages().filter({ hasText: t.root_text }).filter({ has: page.locator('[data-testid="thread-summary"]') });
  }
  const summary = root.last().locator('[data-testid="thread-summary"]');
  assert.equal(Number(await summary.getAttribute("data-replies")), t.replies);
  assert.equal(await text(summary.locator("b")), `${t.replies} replies`);
  assert.match(await text(summary.locator('[data-testid="last-reply"]')), /^Last reply /);
  await summary.click();
  await page.waitForURL(/thread=/);
  const panel = page.locator('[data-testid="thread-panel"]');
  assert.equal(Number(await panel.locator('[data-testid="thread-reply-count"]').getAttribute("data-count")), t.replies);
  const replies = panel.locator('[data-testid="message"]');
  assert.equal(await replies.count(), t.replies + 1);
  assert.equal(await text(replies.last().locator('[data-testid="text"]')), t.last_reply_text);
  await screenshot(page, "thread");

  // Reply in the thread: it lands in the panel, not in the channel.
  const reply = "Thanks, I'll pick this up after stand-up.";
  await send("thread-composer", reply);
  assert.equal(await text(panel.locator('[data-testid="message"]').last().locator('[data-testid="text"]')), reply);
  assert.equal(Number(await panel.locator('[data-testid="thread-reply-count"]').getAttribute("data-count")), t.replies + 1);
  assert.notEqual(await text(mainMessages().last().locator('[data-testid="text"]')), reply);
});

test("a DM shows the world's last message and who it is with", async () => {
  const d = facts.dm;
  await page.goto(`${BASE}/c/${d.channel}`);
  assert.equal(await text(page.locator('[data-testid="channel-title"] [data-testid="title-text"]')), d.with);
  assert.equal(await text(mainMessages().last().locator('[data-testid="text"]')), d.last_text);
  const senders = await mainMessages().evaluateAll((els) => els.map((e) => e.getAttribute("data-sender")));
  assert.equal(senders.at(-1), d.last_sender);
  await screenshot(page, "dm");
});

// The DM is posted early, in a page of its own that stays open, and its reply is waited for last:
// the colleague's real delay (30 s to 3 min) runs while the other workflows do.
let dmPage;
let dmPostedAt;
const dmMessages = () => dmPage.locator('[data-testid="messages"] > [data-testid="day"] [data-testid="message"]');

test("posting in a DM asks the colleague, who is shown typing until the reply's delay has passed", async () => {
  const d = facts.dm;
  dmPage = await page.context().newPage();
  dmPage.setDefaultTimeout(15_000);
  await dmPage.goto(`${BASE}/c/${d.channel}`);
  const box = dmPage.locator('[data-testid="composer"] textarea');
  await box.fill(d.post);
  await Promise.all([dmPage.waitForURL((u) => Boolean(u.searchParams.get("posted"))), box.press("Enter")]);
  dmPostedAt = Date.now();
  const senders = await dmMessages().evaluateAll((els) => els.map((e) => e.getAttribute("data-sender")));
  assert.equal(await text(dmMessages().last().locator('[data-testid="text"]')), d.post);
  assert.equal(senders.at(-1), facts.me);
  assert.match(await text(dmPage.locator('[data-testid="typing"]')), new RegExp(`${d.with} is typing`));
  await screenshot(dmPage, "dm-pending");
});

test("HTML typed into a message is stored verbatim and shown as text; a mention is highlighted and answered in the thread", async () => {
  await page.goto(`${BASE}/c/random`);
  await send("composer", facts.html_text);
  const last = mainMessages().last().locator('[data-testid="text"]');
  assert.equal(await text(last), facts.html_text);
  assert.equal(await last.locator("b, script, img").count(), 0);
  assert.equal(await page.evaluate(() => window.__huddle_xss), undefined);

  await send("composer", facts.mention_post);
  const msg = mainMessages().last();
  assert.equal(await text(msg.locator('[data-testid="mention"]')), `@${facts.mention_colleague}`);
  assert.match(await text(page.locator('[data-testid="typing"]')), new RegExp(`${facts.mention_colleague} is typing`));
});

test("reactions: add one from the hover menu, the count goes up, clicking it again takes it away", async () => {
  await page.goto(`${BASE}/c/general`);
  const last = mainMessages().last();
  const id = await last.getAttribute("data-id");
  const before = await last.locator('[data-testid="reaction"][data-emoji=":eyes:"]').count();
  const count0 = before ? Number(await last.locator('[data-testid="reaction"][data-emoji=":eyes:"]').getAttribute("data-count")) : 0;
  const mine0 = before ? await last.locator('[data-testid="reaction"][data-emoji=":eyes:"]').getAttribute("data-mine") : "false";
  assert.equal(mine0, "false");
  await last.hover();
  await last.locator('[data-testid="action-react-:eyes:"]').click();
  const msg = page.locator(`[data-testid="message"][data-id="${id}"]`).first();
  const chip = msg.locator('[data-testid="reaction"][data-emoji=":eyes:"][data-mine="true"]');
  await chip.waitFor();
  assert.equal(Number(await chip.getAttribute("data-count")), count0 + 1);
  assert.equal(await chip.getAttribute("data-mine"), "true");
  await chip.click();
  await page.waitForFunction(
    ([mid, n]) => {
      const c = document.querySelector(`[data-testid="message"][data-id="${mid}"] [data-testid="reaction"][data-emoji=":eyes:"]`);
      return n === 0 ? !c : c && Number(c.getAttribute("data-count")) === n && c.getAttribute("data-mine") === "false";
    },
    [id, count0],
  );
  // And add :tada: for good, from the emoji picker.
  await msg.hover();
  await msg.locator('[data-testid="add-reaction"]').click();
  await msg.locator('[data-testid="pick-:tada:"]').click();
  await page.locator(`[data-testid="message"][data-id="${id}"] [data-testid="reaction"][data-emoji=":tada:"][data-mine="true"]`).waitFor();
  await screenshot(page, "reactions");
});

test("save for later shows in Saved; pinning shows in the channel's pinned items", async () => {
  await page.goto(`${BASE}/c/general`);
  const target = mainMessages().nth((await mainMessages().count()) - 2);
  const id = await target.getAttribute("data-id");
  const body = await text(target.locator('[data-testid="text"]'));
  await target.hover();
  await Promise.all([page.waitForURL(/notice=/), target.locator('[data-testid="action-save"]').click()]);
  assert.match(await text(page.locator('[data-testid="notice"]')), /Saved for later/);
  await page.click('[data-testid="nav-saved"]');
  await page.waitForURL(/\/saved/);
  assert.equal(Number(await page.locator('[data-testid="saved-count"]').getAttribute("data-count")), 1);
  assert.equal(await text(page.locator('[data-testid="saved"] [data-testid="text"]')), body);
  await screenshot(page, "saved");

  await page.goto(`${BASE}/c/general`);
  const msg = page.locator(`[data-testid="message"][data-id="${id}"]`).first();
  await msg.hover();
  await msg.locator('[data-testid="more-actions"]').click();
  await Promise.all([page.waitForURL(/notice=/), msg.locator('[data-testid="action-pin"]').click()]);
  await Promise.all([page.waitForURL(/details=pinned/), page.click('[data-testid="pinned-button"]')]);
  const pins = page.locator('[data-testid="pinned-list"] [data-testid="message"]');
  await pins.first().waitFor();
  assert.equal(await pins.count(), facts.general.pinned + 1);
  assert.ok((await pins.allInnerTexts()).some((t) => t.includes(body)));
});

test("edit and delete own messages", async () => {
  await page.goto(`${BASE}/c/random`);
  await send("composer", "Lunch at noon tomorow?");
  let mine = mainMessages().last();
  const id = await mine.getAttribute("data-id");
  await mine.hover();
  await mine.locator('[data-testid="more-actions"]').click();
  await mine.locator('[data-testid="action-edit"]').click();
  await page.waitForURL(/edit=/);
  const form = page.locator('[data-testid="edit-form"]');
  await form.locator("textarea").fill("Lunch at noon tomorrow?");
  await Promise.all([page.waitForURL((u) => !u.search.includes("edit=")), form.locator('button[type="submit"]').click()]);
  mine = page.locator(`[data-testid="message"][data-id="${id}"]`);
  assert.equal(await text(mine.locator('[data-testid="text"]')), "Lunch at noon tomorrow? (edited)");

  await send("composer", "ignore this one");
  const gone = mainMessages().last();
  const goneId = await gone.getAttribute("data-id");
  await gone.hover();
  await gone.locator('[data-testid="more-actions"]').click();
  await Promise.all([page.waitForURL(/notice=/), gone.locator('[data-testid="action-delete"]').click()]);
  assert.equal(await page.locator(`[data-testid="message"][data-id="${goneId}"]`).count(), 0);
  // Someone else's message offers no edit or delete; the route refuses it too.
  const other = page.locator(`[data-testid="messages"] [data-testid="message"]:not([data-sender="${facts.me}"])`).last();
  assert.equal(await other.locator('[data-testid="action-edit"]').count(), 0);
  const res = await postForm(`/api/messages/${await other.getAttribute("data-id")}/delete`, { back: "/c/random" });
  assert.equal(res.status, 303);
  assert.match(said(res.location), /only change your own messages/);
});

test("schedule a message: hidden until its time, listed in Scheduled, rescheduled, sent now, deleted", async () => {
  const team = facts.team;
  const mainTexts = async () => (await mainMessages().locator('[data-testid="text"]').allInnerTexts()).map((t) => t.trim());
  await page.goto(`${BASE}/c/${team}`);
  await page.fill('[data-testid="composer"] textarea', facts.scheduled.first);
  await page.click('[data-testid="composer"] [data-testid="schedule-toggle"]');
  await page.getByRole("button", { name: "Tomorrow at 9:00 AM" }).click();
  const at = await page.inputValue('[data-testid="composer"] input[name="at"]');
  assert.match(at, /T09:00$/);
  await screenshot(page, "schedule-panel");
  await page.click('[data-testid="composer"] [data-testid="schedule-send"]');
  await page.waitForURL(/scheduled=/);
  assert.match(await text(page.locator('[data-testid="scheduled-notice"]')), /9:00/);
  assert.ok(!(await mainTexts()).includes(facts.scheduled.first), "a scheduled message is not in the channel yet");
  // A second one, scheduled over plain HTTP for the same time, to delete.
  const second = await postForm("/api/messages", { channel: team, text: facts.scheduled.second, when: "schedule", at, back: `/c/${team}` });
  assert.equal(second.status, 303);
  assert.match(second.location, /scheduled=/);
  await page.goto(`${BASE}/scheduled`);
  await screenshot(page, "scheduled");
  const rows = () => page.locator('[data-testid="scheduled-message"]').evaluateAll((els) => els.map((e) => ({ channel: e.dataset.channel, at: e.dataset.at, text: e.querySelector('[data-testid="scheduled-text"]').innerText.trim() })));
  assert.deepEqual(await rows(), [
    { channel: team, at: `${at}:00`, text: facts.scheduled.first },
    { channel: team, at: `${at}:00`, text: facts.scheduled.second },
  ]);
  assert.equal(await text(page.locator('[data-testid="nav-scheduled"] .hd-count-pill')), "2");
  // Reschedule the first an hour later, then send it now: it shows in the channel.
  const later = at.replace("T09:00", "T10:00");
  const first = page.locator('[data-testid="scheduled-message"]').first();
  await first.locator('input[name="at"]').fill(later);
  await first.locator('[data-testid="reschedule"]').click();
  await page.waitForURL(/done=reschedule/);
  assert.equal(await page.locator(`[data-testid="scheduled-message"][data-at="${later}:00"]`).count(), 1);
  await page.locator(`[data-testid="scheduled-message"][data-at="${later}:00"] [data-testid="send-now"]`).click();
  await page.waitForURL(/done=send/);
  await page.locator('[data-testid="scheduled-message"] [data-testid="delete"]').click();
  await page.waitForURL(/done=delete/);
  assert.equal(await page.locator('[data-testid="scheduled-message"]').count(), 0);
  await page.goto(`${BASE}/c/${team}`);
  assert.equal((await mainTexts()).at(-1), facts.scheduled.first);
  assert.ok(!(await mainTexts()).includes(facts.scheduled.second));
  // A time in the past, or past 120 days, is refused with the reason and schedules nothing.
  const past = await postForm("/api/messages", { channel: team, text: "late", when: "schedule", at: "2020-01-01T09:00", back: `/c/${team}` });
  assert.match(said(past.location), /time in the future/);
  const far = await postForm("/api/messages", { channel: team, text: "far", when: "schedule", at: "2099-01-01T09:00", back: `/c/${team}` });
  assert.match(said(far.location), /up to 120 days/);
});

test("notifications: a channel set to Nothing and muted shows muted in the sidebar, and the choice is kept", async () => {
  const ch = facts.notify.channel;
  await page.goto(`${BASE}/c/${ch}?details=notifications`);
  await page.check('[data-testid="notify-form"] input[value="nothing"]');
  await page.check('[data-testid="notify-form"] input[name="muted"]');
  await page.click('[data-testid="notify-save"]');
  await page.waitForURL(/notice=/);
  await screenshot(page, "notifications");
  assert.equal(await page.locator('[data-testid="muted-chip"]').count(), 1);
  const item = page.locator(`[data-testid="channel-${ch}"]`);
  assert.match(await item.getAttribute("class"), /is-muted/);
  assert.equal(await item.locator('[data-testid="badge"]').count(), 0);
  await page.reload();
  assert.ok(await page.locator('[data-testid="notify-form"] input[value="nothing"]').isChecked());
  assert.ok(await page.locator('[data-testid="notify-form"] input[name="muted"]').isChecked());
  const bad = await postForm(`/api/channels/${ch}/notifications`, { notify: "sometimes", back: `/c/${ch}?details=notifications` });
  assert.match(said(bad.location), /all new messages, mentions or nothing/);
});

test("status: set with emoji and clear-after, shown in the sidebar and kept across reloads", async () => {
  await page.goto(`${BASE}/status`);
  await page.selectOption('[data-testid="status-emoji"]', ":palm_tree:");
  await page.fill('[data-testid="status-text"]', "On vacation");
  await page.selectOption('[data-testid="status-clear"]', "date");
  const until = new Date(Date.now() + 9 * 86400_000).toISOString().slice(0, 10);
  await page.fill('[data-testid="status-date"]', until);
  await Promise.all([page.waitForURL(/notice=/), page.click('[data-testid="status-save"]')]);
  await page.goto(`${BASE}/c/general`);
  assert.match(await text(page.locator('[data-testid="status-line"]')), /🌴 On vacation · until /);
  await page.reload();
  assert.match(await text(page.locator('[data-testid="status-line"]')), /On vacation/);
  await page.goto(`${BASE}/status`);
  assert.equal(await text(page.locator('[data-testid="current-status-text"]')), "On vacation");
  await screenshot(page, "status");
});

test("bad input is refused with a clear message and changes nothing", async () => {
  const cases = [
    ["/api/messages", { channel: "general", text: "   \n ", back: "/c/general" }, /Write a message/],
    ["/api/messages", { channel: "general", text: "x".repeat(4001), back: "/c/general" }, /at most 4,000 characters/],
    ["/api/messages", { channel: "no-such-channel", text: "hello", back: "/c/general" }, /does not exist/],
    ["/api/messages", { channel: "general", text: "hello", thread: "99999999", back: "/c/general" }, /no longer exists/],
    ["/api/messages/1/react", { emoji: "<script>", back: "/c/general" }, /Pick one of the emoji/],
    ["/api/messages/abc/save", { back: "/c/general" }, /no longer exists/],
    ["/api/status", { emoji: "", text: "", clear: "never", back: "/status" }, /Type a status/],
    ["/api/status", { emoji: "", text: "x".repeat(101), clear: "never", back: "/status" }, /at most 100/],
    ["/api/status", { emoji: "", text: "Away", clear: "date", date: "2001-01-01", back: "/status" }, /past/],
    ["/api/status", { emoji: "", text: "Away", clear: "forever", back: "/status" }, /when the status should clear/],
  ];
  for (const [path, fields, message] of cases) {
    const res = await postForm(path, fields);
    assert.equal(res.status, 303, path);
    assert.match(said(res.location), message, `${path} ${JSON.stringify(fields).slice(0, 60)}`);
  }
  // Signed out: to the sign-in page, nothing written.
  const anon = await postForm("/api/messages", { channel: "general", text: "hi", back: "/c/general" }, { cookie: false });
  assert.equal(anon.status, 303);
  assert.match(anon.location, /^\/login/);
  // The empty message shows its error in the composer.
  await page.goto(`${BASE}/c/general`);
  await page.locator('[data-testid="composer"] textarea').fill("   ");
  await Promise.all([page.waitForURL(/error=/), page.locator('[data-testid="composer"] button[type="submit"]').click()]);
  assert.match(await text(page.locator('[data-testid="composer-error"]')), /Write a message before sending/);
});

test("search with in:#channel and from:@name counts what the world has", async () => {
  const s = facts.search;
  await page.goto(`${BASE}/search?q=${encodeURIComponent(s.q)}`);
  assert.equal(Number(await page.locator('[data-testid="result-count"]').getAttribute("data-total")), s.count);
  await page.fill('[data-testid="search-form"] input', s.q_word);
  await Promise.all([page.waitForURL(/q=/), page.press('[data-testid="search-form"] input', "Enter")]);
  assert.equal(Number(await page.locator('[data-testid="result-count"]').getAttribute("data-total")), s.count_word);
  await screenshot(page, "search");
  // The channel header's search box searches that channel.
  await page.goto(`${BASE}/c/general`);
  await page.fill('[data-testid="channel-search"] input[name="q"]', s.general_word);
  await Promise.all([page.waitForURL(/\/search\?/), page.press('[data-testid="channel-search"] input[name="q"]', "Enter")]);
  assert.equal(Number(await page.locator('[data-testid="result-count"]').getAttribute("data-total")), s.general_count);
  assert.equal(await page.locator('[data-testid="search-form"] input').inputValue(), `in:#general ${s.general_word}`);
  await page.goto(`${BASE}/search?q=${encodeURIComponent(s.q_unknown)}`);
  assert.match(await text(page.locator('[data-testid="search-unknown"]')), /No channel called/);
  // A quote or a percent sign is just text to search for.
  await page.goto(`${BASE}/search?q=${encodeURIComponent("'%_\" OR 1=1 --")}`);
  assert.equal(Number(await page.locator('[data-testid="result-count"]').getAttribute("data-total")), 0);
});

test("Mentions & reactions lists the latest mention of the persona", async () => {
  await page.goto(`${BASE}/activity`);
  if (facts.activity.latest_mention_text) {
    assert.equal(await text(page.locator('[data-testid="activity-mention"] [data-testid="text"]')), facts.activity.latest_mention_text);
  }
  await screenshot(page, "activity");
  await page.goto(`${BASE}/activity?show=mentions`);
  assert.equal(await page.locator('[data-testid="activity-reaction"]').count(), 0);
  assert.ok(!facts.activity.latest_mention_text || (await page.locator('[data-testid="activity-mention"]').count()) > 0);
  await page.goto(`${BASE}/threads`);
  assert.ok((await page.locator('[data-testid="thread-card"]').count()) > 0);
  await screenshot(page, "threads");
});

test("signed-out visitors get the sign-in page, which accepts the persona's password", async () => {
  const anon = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const p = await anon.newPage();
    await p.goto(`${BASE}/c/general`);
    assert.equal(new URL(p.url()).pathname, "/login");
    await p.fill("#username", facts.username);
    await p.fill("#password", "wrong");
    await Promise.all([p.waitForURL(/error=/), p.click('[data-testid="login-form"] button[type="submit"]')]);
    await p.fill("#password", facts.password);
    await Promise.all([p.waitForURL((u) => u.pathname.startsWith("/c/")), p.click('[data-testid="login-form"] button[type="submit"]')]);
    assert.equal(await p.locator('[data-testid="workspace-name"]').innerText(), facts.workspace);
    await screenshot(p, "signed-in");
  } finally {
    await anon.close();
  }
});

test("the colleague's DM reply shows by itself once its delay has passed", { timeout: 300_000 }, async () => {
  // The DM page has stayed open since the post; it refreshes itself when the reply is delivered
  // (ReplyWatcher), with no reload here.
  await dmPage.waitForFunction(
    (name) => {
      const all = document.querySelectorAll('[data-testid="messages"] [data-testid="message"]');
      return all.length && all[all.length - 1].getAttribute("data-sender") === name;
    },
    facts.dm.with,
    { timeout: 240_000, polling: 1000 },
  );
  const waited = (Date.now() - dmPostedAt) / 1000;
  assert.ok(waited >= 25, `the reply came after ${waited}s, not instantly`);
  assert.equal(await dmPage.locator('[data-testid="typing"]').count(), 0);
  // The conversation stays at its newest line: the reply is in view, not under the composer.
  await dmPage.waitForFunction(
    () => {
      const scroll = document.querySelector('[data-testid="message-scroll"]');
      const all = scroll.querySelectorAll('[data-testid="message"]');
      return all[all.length - 1].getBoundingClientRect().bottom <= scroll.getBoundingClientRect().bottom + 1;
    },
    null,
    { timeout: 5000 },
  );
  await screenshot(dmPage, "dm-replied");
});
