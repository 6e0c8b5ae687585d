// Bramblestay end to end, in headless Chromium against the production server (clock at the world's now).
//
// APP_FACTS (tests/apps/stays/test_web.py) holds values computed from the persona's WORLD: the hotel bookings
// (confirmation, dates, total = the hotel's check-out charge) split into upcoming and past at the world's
// today, the stays already reviewed, a city's inventory counts, and two stays to book whose totals the test
// computed from the documented price function. The tests run in order: reads first, then bookings, a
// cancellation inside the free window (refund) and one outside it (no refund), host messages, a review,
// bad input. tests/apps/stays/test_web.py then checks the bank's pending lines.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, launch, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;
const cookie = () => `bs_session=${facts.session_token}`;

let browser;
let page;
const made = {};

before(async () => {
  ({ browser, page } = await openSignedIn("bs_session", facts.session_token, { timeout: 15_000 }));
});

after(async () => {
  await browser?.close();
});

/** POST a form without following the redirect: {status, location, error}. */
async function post(path, fields, { withCookie = true } = {}) {
  const res = await appFetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(withCookie ? { cookie: cookie() } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
  const location = res.headers.get("location") ?? "";
  return { status: res.status, location, error: new URL(location, BASE).searchParams.get("error") ?? "" };
}

const plusDays = (day, n) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const tripRows = () =>
  page.locator('[data-testid="trip"]').evaluateAll((els) =>
    els.map((e) => ({ confirmation: e.dataset.confirmation, city: e.dataset.city, total: Number(e.dataset.total), checkIn: e.dataset.checkIn, checkOut: e.dataset.checkOut })),
  );

test("the seeded cookie signs in; home greets the persona and shows the upcoming trip", async () => {
  await page.goto(`${BASE}/`);
  assert.equal(new URL(page.url()).pathname, "/");
  await page.getByRole("heading", { name: `Where to next, ${facts.first_name}?` }).waitFor();
  const up = await page.locator('[data-testid="upcoming-trip"]').evaluateAll((els) => els.map((e) => e.dataset.confirmation));
  assert.deepEqual(up, facts.upcoming);
  await screenshot(page, "home");
});

test("Trips: upcoming and past equal the world's bookings (confirmation, dates, total)", async () => {
  const byConf = Object.fromEntries(facts.bookings.map((b) => [b.confirmation, b]));
  await page.goto(`${BASE}/trips?tab=upcoming`);
  const up = await tripRows();
  assert.deepEqual(up.map((t) => t.confirmation), facts.upcoming);
  await page.goto(`${BASE}/trips?tab=past`);
  await screenshot(page, "trips-past");
  const past = await tripRows();
  assert.deepEqual(past.map((t) => t.confirmation).sort(), [...facts.past].sort());
  for (const t of [...up, ...past]) {
    const b = byConf[t.confirmation];
    assert.equal(t.total, b.total_cents, `total of ${t.confirmation}`);
    assert.equal(t.checkIn, b.check_in);
    assert.equal(t.checkOut, b.check_out);
    assert.equal(t.city, b.city);
  }
  assert.equal(await page.locator('[data-testid="tab-cancelled"] .bs-count').innerText(), "0");
});

test("a past stay's detail shows the world's hotel, total and nightly rate; seeded reviews are shown as posted", async () => {
  const b = facts.bookings.find((x) => x.state === "past");
  await page.goto(`${BASE}/trips/${b.confirmation}`);
  assert.equal(await page.getByTestId("confirmation").innerText(), b.confirmation);
  assert.equal(await page.getByTestId("trip-property").innerText(), b.hotel);
  assert.equal(await page.getByTestId("total").innerText(), b.total_text);
  assert.match(await page.getByTestId("breakdown").innerText(), new RegExp(b.nightly_text.replace(/[$.]/g, "\\$&")));
  await screenshot(page, "trip-past");
  for (const conf of facts.reviewed) {
    await page.goto(`${BASE}/trips/${conf}`);
    await page.getByTestId("my-review").waitFor();
  }
});

test("the upcoming hotel states its free-cancellation deadline; the cancel step says cancelling is free", async () => {
  if (!facts.austin) return;
  await page.goto(`${BASE}/trips/${facts.austin}`);
  assert.match(await page.getByTestId("cancel-policy").innerText(), /^Free cancellation until /);
  await page.getByTestId("cancel-link").click();
  await page.getByTestId("cancel-terms").waitFor();
  assert.equal(await page.getByTestId("cancel-terms").getAttribute("data-free"), "1");
  assert.match(await page.getByTestId("cancel-terms").innerText(), /nothing will be charged/);
  await screenshot(page, "cancel-austin");
});

test("search: the city's inventory, type and rating filters, price sort; bad input is refused", async () => {
  const s = facts.search;
  const q = new URLSearchParams({ city: s.city, checkin: s.checkin, checkout: s.checkout, guests: "2" });
  await page.goto(`${BASE}/search?${q}`);
  await screenshot(page, "search");
  const all = await page.locator('[data-testid="result"]').count();
  assert.ok(all >= 8 && all <= s.count, `results ${all} of ${s.count}`);
  await page.goto(`${BASE}/search?${q}&type=rental`);
  const kinds = await page.locator('[data-testid="result"]').evaluateAll((els) => els.map((e) => e.dataset.kind));
  assert.ok(kinds.length >= 1 && kinds.length <= s.rentals && kinds.every((k) => k === "rental"), String(kinds));
  await page.goto(`${BASE}/search?${q}&rating=9`);
  const ratings = await page.locator('[data-testid="result"]').evaluateAll((els) => els.map((e) => Number(e.dataset.rating)));
  assert.ok(ratings.every((r) => r >= 90));
  await page.goto(`${BASE}/search?${q}&sort=price`);
  const totals = await page.locator('[data-testid="result"]').evaluateAll((els) => els.map((e) => Number(e.dataset.total)));
  assert.deepEqual(totals, [...totals].sort((a, b) => a - b));
  await page.goto(`${BASE}/search?${q}&free=1`);
  assert.ok((await page.locator('[data-testid="result"]').count()) >= 1);
  // Bad input: check-out before check-in, an unknown city, a past date, a bad price.
  await page.goto(`${BASE}/search?city=${encodeURIComponent(s.city)}&checkin=${s.checkout}&checkout=${s.checkin}&guests=2`);
  assert.equal(await page.getByTestId("search-error").innerText(), "Check-out must be after check-in.");
  await page.goto(`${BASE}/search?city=Atlantis&checkin=${s.checkin}&checkout=${s.checkout}&guests=2`);
  assert.match(await page.getByTestId("search-error").innerText(), /don't list stays in “Atlantis”/);
  await page.goto(`${BASE}/search?city=${encodeURIComponent(s.city)}&checkin=2020-01-01&checkout=2020-01-03&guests=2`);
  assert.equal(await page.getByTestId("search-error").innerText(), "Check-in can't be in the past.");
  await page.goto(`${BASE}/search?${q}&max=lots`);
  assert.match(await page.getByTestId("search-error").innerText(), /maximum price/);
  await page.goto(`${BASE}/search?${q}&rating=10`);
  assert.equal(await page.getByTestId("search-error").innerText(), "Choose a guest rating of 7+, 8+ or 9+.");
  await page.goto(`${BASE}/search?${q}&sort=cheapest`);
  assert.equal(await page.getByTestId("search-error").innerText(), "Choose one of the sort orders.");
});

test("book the rental with the saved card: the total is the documented price, the trip is upcoming", async () => {
  const r = facts.rental;
  await page.goto(`${BASE}/p/${r.slug}?checkin=${r.checkin}&checkout=${r.checkout}&guests=2`);
  assert.equal(await page.getByTestId("property-name").innerText(), r.name);
  assert.match(await page.getByTestId("host").innerText(), new RegExp(`Hosted by\\s+${r.host}`));
  assert.equal(await page.locator(".bs-gallery svg").count(), 3);
  assert.ok((await page.locator('[data-testid="review"]').count()) >= 1);
  await screenshot(page, "property");
  await page.getByTestId("reserve").first().click();
  await page.getByTestId("confirm-pay").waitFor();
  assert.equal(await page.getByTestId("total").innerText(), r.total_text);
  assert.match(await page.getByTestId("policy").innerText(), /^Free cancellation until /);
  await screenshot(page, "checkout");
  await page.getByTestId("confirm-pay").click();
  await page.getByTestId("booked").waitFor();
  await screenshot(page, "booked");
  made.rental = new URL(page.url()).pathname.split("/").pop();
  assert.match(made.rental, /^BR\d{8}$/);
  assert.match(await page.getByTestId("booked").innerText(), new RegExp(r.total_text.replace(/[$.]/g, "\\$&")));
  await page.goto(`${BASE}/trips?tab=upcoming`);
  const up = await tripRows();
  assert.ok(up.some((t) => t.confirmation === made.rental && t.total === r.total_cents));
});

test("the last room cannot be booked twice: sold out on the page, refused by the route", async () => {
  const r = facts.rental;
  await page.goto(`${BASE}/p/${r.slug}?checkin=${r.checkin}&checkout=${r.checkout}&guests=2`);
  await page.getByTestId("sold-out").first().waitFor();
  assert.equal(await page.getByTestId("reserve").count(), 0);
  const room = await page.getByTestId("offer").first().getAttribute("data-room");
  const res = await post("/api/bookings", { p: r.slug, room, plan: r.plan, checkin: r.checkin, checkout: r.checkout, guests: "2", card: "1", request: "" });
  assert.equal(res.status, 303);
  assert.equal(res.error, "Sorry, that room is no longer available for your dates.");
  // An overlapping stay (one night shared) is refused too.
  const res2 = await post("/api/bookings", { p: r.slug, room, plan: r.plan, checkin: plusDays(r.checkout, -1), checkout: plusDays(r.checkout, 2), guests: "2", card: "1", request: "" });
  assert.equal(res2.error, "Sorry, that room is no longer available for your dates.");
});

test("change dates: a night held by another booking blocks the change; a longer stay charges the difference, a shorter one refunds it", async () => {
  const r = facts.rental;
  const c = facts.change;
  // Another booking of the same (only) room two nights after the rental ends.
  await page.goto(`${BASE}/p/${r.slug}?checkin=${c.blocker_in}&checkout=${c.blocker_out}&guests=2`);
  const room = await page.getByTestId("offer").first().getAttribute("data-room");
  const blocker = await post("/api/bookings", { p: r.slug, room, plan: r.plan, checkin: c.blocker_in, checkout: c.blocker_out, guests: "2", card: "1", request: "" });
  assert.match(blocker.location, /booked=1/, blocker.error);
  made.blocker = new URL(blocker.location, BASE).pathname.split("/").pop();
  await page.goto(`${BASE}/trips/${made.rental}`);
  await page.getByTestId("change-link").click();
  await page.getByTestId("change-form").waitFor();
  assert.match(await page.getByTestId("current-dates").innerText(), new RegExp(r.total_text.replace(/[$.]/g, "\\$&")));
  // One of the new nights is the other booking's: refused on the page and by the route, nothing changes.
  await page.locator('input[name="checkin"]').fill(c.checkin);
  await page.locator('input[name="checkout"]').fill(c.blocked_out);
  await page.getByTestId("check-price").click();
  await page.getByTestId("change-error").waitFor();
  assert.match(await page.getByTestId("change-error").innerText(), /isn't available for all of those nights/);
  const blocked = await post("/api/change", { confirmation: made.rental, checkin: c.checkin, checkout: c.blocked_out, confirm: "yes" });
  assert.match(blocked.error, /isn't available for all of those nights\. Your booking is unchanged\./);
  const bad = await post("/api/change", { confirmation: made.rental, checkin: c.long_out, checkout: c.checkin, confirm: "yes" });
  assert.equal(bad.error, "Check-out must be after check-in.");
  const same = await post("/api/change", { confirmation: made.rental, checkin: r.checkin, checkout: r.checkout, confirm: "yes" });
  assert.equal(same.error, "Those are already the dates of this booking.");
  // Longer: the preview states the exact difference, the change charges it.
  await page.goto(`${BASE}/trips/${made.rental}/change?checkin=${c.checkin}&checkout=${c.long_out}`);
  await page.getByTestId("change-preview").waitFor();
  assert.equal(Number(await page.getByTestId("change-difference").getAttribute("data-cents")), c.up_cents);
  assert.match(await page.getByTestId("change-difference").innerText(), new RegExp(`charge the difference of ${c.up_text.replace(/[$.]/g, "\\$&")}`));
  await screenshot(page, "change-dates");
  await page.getByTestId("confirm-change").click();
  await page.getByTestId("changed-note").waitFor();
  assert.match(await page.getByTestId("changed-note").innerText(), new RegExp(`charged the difference of ${c.up_text.replace(/[$.]/g, "\\$&")}`));
  // Shorter: refund.
  await page.goto(`${BASE}/trips/${made.rental}/change?checkin=${c.checkin}&checkout=${c.short_out}`);
  assert.equal(Number(await page.getByTestId("change-difference").getAttribute("data-cents")), -c.down_cents);
  await page.getByTestId("confirm-change").click();
  await page.getByTestId("changed-note").waitFor();
  assert.match(await page.getByTestId("changed-note").innerText(), new RegExp(`refunded ${c.down_text.replace(/[$.]/g, "\\$&")}`));
  assert.equal(await page.getByTestId("change-row").count(), 2);
  await screenshot(page, "changed");
  await page.goto(`${BASE}/trips?tab=upcoming`);
  const up = await tripRows();
  const row = up.find((t) => t.confirmation === made.rental);
  assert.deepEqual([row.checkIn, row.checkOut, row.total], [c.checkin, c.short_out, c.short_cents]);
});

test("change dates is refused for a non-refundable rate and after the free-change window", async () => {
  const n = facts.nonref;
  await page.goto(`${BASE}/p/${n.slug}?checkin=${n.checkin}&checkout=${n.checkout}&guests=2`);
  await page.locator('[data-testid="offer"][data-plan="nonrefundable"]').filter({ hasText: n.room }).getByTestId("reserve").click();
  await page.getByTestId("confirm-pay").click();
  await page.getByTestId("booked").waitFor();
  made.nonref = new URL(page.url()).pathname.split("/").pop();
  assert.equal(await page.getByTestId("change-link").count(), 0);
  assert.match(await page.getByTestId("no-change").innerText(), /Non-refundable/);
  await page.goto(`${BASE}/trips/${made.nonref}/change`);
  assert.match(await page.getByTestId("change-refused").innerText(), /non-refundable rate: its dates can't be changed/);
  await screenshot(page, "change-refused");
  const res = await post("/api/change", { confirmation: made.nonref, checkin: n.checkout, checkout: plusDays(n.checkout, 2), confirm: "yes" });
  assert.match(res.error, /non-refundable rate/);
});

test("message the host: the message is kept verbatim and shown escaped", async () => {
  await page.goto(`${BASE}/trips/${made.rental}`);
  await page.locator('[data-testid="message-form"] textarea').fill("We land at 6 pm, is <b>late</b> check-in ok?");
  await page.locator('[data-testid="message-form"] button').click();
  await page.locator('[data-testid="message"][data-sender="guest"]').first().waitFor();
  assert.equal(await page.locator('[data-testid="message"][data-sender="guest"] p').first().innerText(), "We land at 6 pm, is <b>late</b> check-in ok?");
  assert.equal(await page.locator('[data-testid="thread"] b').count(), 0);
  const empty = await post("/api/messages", { confirmation: made.rental, body: "   " });
  assert.equal(empty.error, "Write a message first.");
  await page.goto(`${BASE}/messages`);
  assert.equal(await page.locator('[data-testid="thread-row"]').count(), 1);
});

test("cancel inside the free-cancellation window: full refund, the room is free again", async () => {
  const r = facts.rental;
  await page.goto(`${BASE}/trips/${made.rental}/cancel`);
  assert.equal(await page.getByTestId("cancel-terms").getAttribute("data-free"), "1");
  const final = facts.change.short_text;
  assert.match(await page.getByTestId("cancel-terms").innerText(), new RegExp(`full refund of ${final.replace(/[$.]/g, "\\$&")}`));
  // Without ticking the confirmation box the route refuses.
  const noConfirm = await post("/api/cancel", { confirmation: made.rental });
  assert.equal(noConfirm.error, "Tick the box to confirm the cancellation.");
  await page.locator('input[name="confirm"]').check();
  await page.getByTestId("confirm-cancel").click();
  await page.getByTestId("cancelled-note").waitFor();
  assert.match(await page.getByTestId("cancelled-note").innerText(), new RegExp(`refunded ${final.replace(/[$.]/g, "\\$&")}`));
  assert.equal(await page.getByTestId("trip-status").innerText(), "Cancelled");
  await screenshot(page, "cancelled-refund");
  await page.goto(`${BASE}/p/${r.slug}?checkin=${facts.change.checkin}&checkout=${facts.change.short_out}&guests=2`);
  await page.getByTestId("reserve").first().waitFor();
  const again = await post("/api/cancel", { confirmation: made.rental, confirm: "yes" });
  assert.equal(again.error, "This booking is already cancelled.");
});

test("the bank shows the booking's charge and its refund as pending lines on the card", async () => {
  if (!facts.apps.includes("bank")) return;
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await ctx.addCookies([{ name: "lb_session", value: facts.bank.token, domain: "larkspurbank.test", path: "/", httpOnly: true, sameSite: "Lax" }]);
    const bank = await ctx.newPage();
    await bank.goto(facts.bank.url);
    const pending = bank.getByTestId("pending");
    await pending.waitFor();
    await pending.scrollIntoViewIfNeeded();
    await screenshot(bank, "bank-pending");
    const rows = await pending.locator("tr").filter({ hasText: "BRAMBLESTAY*" }).allInnerTexts();
    // The bank shows the card's currency (the stay's price converted at the site's reference rate).
    const amount = facts.rental.card_text;
    assert.ok(rows.some((r) => /Refund pending/.test(r) && r.includes(facts.change.short_card_text)), rows.join("\n"));
    assert.ok(rows.some((r) => /Refund pending/.test(r) && r.includes(facts.change.down_card_text)), rows.join("\n"));
    assert.ok(rows.some((r) => /\bPending\b/.test(r) && !/Refund/.test(r) && r.includes(facts.change.up_card_text)), rows.join("\n"));
    assert.ok(rows.some((r) => /\bPending\b/.test(r) && !/Refund/.test(r) && r.includes(amount)), rows.join("\n"));
  } finally {
    await ctx.close();
  }
});

test("cancel after the free-cancellation deadline: the policy says so first, and nothing is refunded", async () => {
  const l = facts.late;
  await page.goto(`${BASE}/p/${l.slug}?checkin=${l.checkin}&checkout=${l.checkout}&guests=2`);
  await page.locator(`[data-testid="offer"][data-plan="${l.plan}"]`).filter({ hasText: l.room }).getByTestId("reserve").click();
  await page.getByTestId("confirm-pay").waitFor();
  assert.equal(await page.getByTestId("total").innerText(), l.total_text);
  await page.getByTestId("confirm-pay").click();
  await page.getByTestId("booked").waitFor();
  made.late = new URL(page.url()).pathname.split("/").pop();
  // Past its free-cancellation deadline the dates can't be changed either.
  assert.match(await page.getByTestId("no-change").innerText(), /no longer be changed online/);
  const change = await post("/api/change", { confirmation: made.late, checkin: plusDays(l.checkin, 1), checkout: plusDays(l.checkout, 1), confirm: "yes" });
  assert.match(change.error, /free-change window of this booking has closed/);
  await page.goto(`${BASE}/trips/${made.late}/cancel`);
  assert.equal(await page.getByTestId("cancel-terms").getAttribute("data-free"), "0");
  assert.match(await page.getByTestId("cancel-terms").innerText(), /won't get a refund/);
  await screenshot(page, "cancel-late");
  await page.locator('input[name="confirm"]').check();
  await page.getByTestId("confirm-cancel").click();
  await page.getByTestId("cancelled-note").waitFor();
  assert.match(await page.getByTestId("cancelled-note").innerText(), /no refund was issued/);
});

test("review a past stay once (1-5 and text); bad ratings and a second review are refused", async () => {
  const conf = facts.to_review;
  const bad = await post("/api/reviews", { confirmation: conf, rating: "7", body: "Nice stay overall, thanks." });
  assert.equal(bad.error, "Choose a rating from 1 to 5.");
  const short = await post("/api/reviews", { confirmation: conf, rating: "5", body: "ok" });
  assert.match(short.error, /at least 10 characters/);
  const upcoming = facts.austin && (await post("/api/reviews", { confirmation: facts.austin, rating: "5", body: "Can't review a future stay." }));
  if (upcoming) assert.equal(upcoming.error, "You can review a stay once you have checked out.");
  await page.goto(`${BASE}/trips/${conf}`);
  await page.locator('[data-testid="review-form"] input[name="rating"][value="5"]').check();
  await page.locator('[data-testid="review-form"] textarea').fill("Spotless room, quiet at night and a five-minute walk to everything.");
  await page.locator('[data-testid="review-form"] button').click();
  await page.getByTestId("my-review").waitFor();
  await screenshot(page, "reviewed");
  const twice = await post("/api/reviews", { confirmation: conf, rating: "4", body: "Trying to review a second time." });
  assert.equal(twice.error, "You have already reviewed this stay.");
});

test("bad input and signed-out requests are refused cleanly", async () => {
  const l = facts.late;
  const guests = await post("/api/bookings", { p: l.slug, room: "1", plan: l.plan, checkin: l.checkin, checkout: l.checkout, guests: "0", card: "1" });
  assert.equal(guests.error, "Enter the number of guests (1-8).");
  const noProp = await post("/api/bookings", { p: "no-such-place", room: "1", plan: "flexible", checkin: l.checkin, checkout: l.checkout, guests: "2", card: "1" });
  assert.equal(noProp.error, "That property doesn't exist.");
  const signedOut = await post("/api/bookings", { p: l.slug }, { withCookie: false });
  assert.equal(signedOut.location, "/login");
  const missing = await appFetch(`${BASE}/trips/00000000`, { headers: { cookie: cookie() } });
  assert.equal(missing.status, 404);
  await page.goto(`${BASE}/p/no-such-place`);
  await page.getByRole("heading", { name: "We couldn't find that page" }).waitFor();
});

test("Mailbox shows Bramblestay's mails: the new dates with the calendar file, the cancellation with the refund", async () => {
  if (!facts.apps.includes("mail")) return;
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await ctx.addCookies([{ name: "mb_session", value: facts.mail_token, domain: "mailbox.test", path: "/", httpOnly: true, sameSite: "Lax" }]);
    const mail = await ctx.newPage();
    for (const [q, name, subject] of [
      [`new dates ${made.rental}`, "mail-changed", "Your reservation has new dates"],
      [`cancelled ${made.rental}`, "mail-cancelled", "Your reservation is cancelled"],
      [`confirmed ${made.rental}`, "mail-booked", "Reservation confirmed"],
    ]) {
      await mail.goto(`http://mailbox.test/search?q=${encodeURIComponent(q)}`);
      // The newest conversation whose subject starts so; its message then opens.
      await mail.locator('[data-testid="conversation"]').filter({ hasText: subject }).first().locator("a.mb-row-link").click();
      await mail.waitForURL(/\/t\//);
      await mail.getByRole("heading", { name: new RegExp(`^${subject}`) }).first().waitFor();
      await screenshot(mail, name);
    }
  } finally {
    await ctx.close();
  }
});

test("the sign-in form accepts the persona's password and refuses a wrong one", async () => {
  const b = await launch();
  try {
    const ctx = await b.newContext();
    const p = await ctx.newPage();
    await p.goto(`${BASE}/trips`);
    assert.equal(new URL(p.url()).pathname, "/login");
    await p.fill('input[name="username"]', facts.username);
    await p.fill('input[name="password"]', "wrong-password");
    await p.click('button[type="submit"]');
    await p.locator(".bs-alert").waitFor();
    await screenshot(p, "login-error");
    await p.fill('input[name="password"]', facts.password);
    await p.click('button[type="submit"]');
    await p.getByTestId("user-name").waitFor();
    assert.equal(await p.getByTestId("user-name").innerText(), facts.full_name);
  } finally {
    await b.close();
  }
});
