// ZipRide end to end, in headless Chromium against the production server (clock frozen at the world's now).
//
// APP_FACTS (tests/apps/rides/test_web.py) holds values computed from the persona's WORLD and from
// builder/world/geo.py: the history's count and total, a month's count, a chosen ride's receipt, the
// estimate of a scheduled ride per ride type, the estimates of several place pairs, the last ride's fare.
// The tests run in order: reads, estimates, then writes (schedule + free cancel, late cancel with the fee,
// request now, rate and tip), then bad input and saved places. tests/apps/rides/test_web.py then reads what the
// app and the bank wrote.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("zr_session", facts.session_token, { timeout: 20_000 }));
});

after(async () => {
  await browser?.close();
});

const cookie = () => `zr_session=${facts.session_token}`;

async function post(path, fields) {
  const res = await appFetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams(fields).toString(),
  });
  const location = res.headers.get("location") ?? "";
  return { status: res.status, location, error: new URL(location || "/", BASE).searchParams.get("error") ?? "" };
}

async function getJson(path) {
  const res = await appFetch(`${BASE}${path}`, { headers: { cookie: cookie(), accept: "application/json" } });
  return { status: res.status, body: await res.json() };
}

const cents = async (testid) => Number(await page.getByTestId(testid).first().getAttribute("data-cents"));

test("sign-in page accepts the persona's credentials", async () => {
  const ctx2 = await browser.newContext();
  const p2 = await ctx2.newPage();
  await p2.goto(`${BASE}/`);
  assert.match(p2.url(), /\/login/);
  await p2.fill('input[name="username"]', facts.username);
  await p2.fill('input[name="password"]', "wrong-password");
  await p2.click('button[type="submit"]');
  await p2.locator(".zr-alert").waitFor();
  await p2.fill('input[name="password"]', facts.password);
  await p2.click('button[type="submit"]');
  await p2.getByTestId("route-form").waitFor();
  await screenshot(p2, "00-login-done");
  await ctx2.close();
});

test("activity is the world's rides: count, total, a month's rides", async () => {
  await page.goto(`${BASE}/activity`);
  assert.equal(Number(await page.getByTestId("ride-count").innerText()), facts.history.count);
  assert.equal(await cents("ride-total"), facts.history.total_cents);
  await screenshot(page, "01-activity");
  await page.goto(`${BASE}/activity?month=${facts.history.month}`);
  assert.equal(Number(await page.getByTestId("ride-count").innerText()), facts.history.month_count);
  assert.equal(await page.getByTestId("ride-row").count(), facts.history.month_count);
});

test("a chosen ride's receipt is the world's", async () => {
  const r = facts.receipt;
  await page.goto(`${BASE}/activity`);
  await page.locator(`[data-ride-id="${r.ride_id}"] a`).click();
  await page.getByTestId("receipt").waitFor();
  assert.equal(await page.getByTestId("ride-id").innerText(), r.ride_id);
  assert.equal(await page.getByTestId("pickup").innerText(), r.pickup);
  assert.equal(await page.getByTestId("dropoff").innerText(), r.dropoff);
  assert.equal(await page.getByTestId("driver").innerText(), r.driver);
  assert.equal(await page.getByTestId("plate").innerText(), r.plate);
  assert.equal(Number(await page.getByTestId("duration").innerText()), r.duration_minutes);
  assert.equal(await cents("fare"), r.fare_cents);
  assert.equal(await cents("total"), r.total_cents);
  assert.equal(await page.getByTestId("fare").innerText(), r.fare_text);
  assert.equal(await page.getByTestId("total").innerText(), r.total_text);
  await screenshot(page, "02-receipt");
});

test("the app's estimate equals builder/world/geo.py on the same places", async () => {
  for (const pair of facts.pairs) {
    const { status, body } = await getJson(`/api/quote?${new URLSearchParams({ pickup: pair.pickup, dropoff: pair.dropoff })}`);
    assert.equal(status, 200, JSON.stringify(body));
    const zip = body.quotes.find((q) => q.ride_type === "zip");
    assert.deepEqual(
      [zip.distance_miles, zip.duration_minutes, zip.fare_cents, zip.distance_cents, zip.time_cents],
      [pair.distance_miles, pair.duration_minutes, pair.fare_cents, pair.distance_cents, pair.time_cents],
      `${pair.pickup} -> ${pair.dropoff}`,
    );
  }
});

let scheduledId = "";

test("a scheduled ride's estimate is the documented function of distance; scheduling charges, cancelling early refunds all", async () => {
  const s = facts.schedule;
  await page.goto(`${BASE}/?${new URLSearchParams({ pickup: s.pickup, dropoff: s.dropoff, when: "later", at: s.at })}`);
  await page.getByTestId("quote-form").waitFor();
  for (const [code, q] of Object.entries(s.quotes)) {
    assert.equal(await cents(`price-${code}`), q.fare_cents, code);
  }
  assert.equal(Number(await page.getByTestId("duration").innerText()), s.quotes.zip.duration_minutes);
  await screenshot(page, "03-estimate");
  await page.getByTestId("confirm").click();
  await page.getByTestId("ride-notice").waitFor();
  scheduledId = await page.getByTestId("ride-id").innerText();
  assert.equal(await cents("fare"), s.quotes.zip.fare_cents);
  await page.goto(`${BASE}/scheduled`);
  await page.getByTestId(`scheduled-${scheduledId}`).waitFor();
  await screenshot(page, "04-scheduled");
  assert.match(await page.getByTestId(`cancel-${scheduledId}`).innerText(), /free/);
  await page.getByTestId(`cancel-${scheduledId}`).click();
  await page.getByRole("status").waitFor();
  assert.equal(await page.getByTestId(`scheduled-${scheduledId}`).count(), 0);
});

test("cancelling within 60 minutes of pickup keeps the fee", async () => {
  const s = facts.schedule;
  const res = await post("/api/rides", { pickup: s.pickup, dropoff: s.dropoff, ride_type: "zip", when: "later", at: s.late_at, card: "1", purpose: "personal" });
  assert.equal(res.status, 303);
  assert.equal(res.error, "");
  await page.goto(`${BASE}/scheduled`);
  const button = page.locator('[data-testid^="cancel-"]').first();
  assert.match(await button.innerText(), /fee/);
  await button.click();
  await page.getByRole("status").waitFor();
});

test("Mailbox has the scheduled ride's mail and its cancellation with the refund", async () => {
  if (!facts.apps.includes("mail")) return;
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await ctx.addCookies([{ name: "mb_session", value: facts.mail_token, domain: "mailbox.test", path: "/", httpOnly: true, sameSite: "Lax" }]);
    const mail = await ctx.newPage();
    for (const [q, name, subject] of [
      [`scheduled ${scheduledId}`, "07-mail-scheduled", "Your ride is scheduled"],
      [`cancelled ${scheduledId}`, "08-mail-cancelled", "Your scheduled ride was cancelled"],
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

test("requesting a ride now charges the card", async () => {
  const r = facts.request;
  await page.goto(`${BASE}/?${new URLSearchParams({ pickup: r.pickup, dropoff: r.dropoff })}`);
  assert.equal(await cents("price-zip"), r.estimate.fare_cents);
  await page.getByTestId("confirm").click();
  await page.getByTestId("ride-notice").waitFor();
  assert.equal(await cents("fare"), r.estimate.fare_cents);
  await screenshot(page, "05-requested");
  await page.goto(`${BASE}/`);
  await page.getByTestId("current-ride").waitFor();
});

test("rate and tip the last ride, once each", async () => {
  const l = facts.last;
  await page.goto(`${BASE}/activity`);
  await page.locator(`[data-ride-id="${l.ride_id}"] a`).click();
  await page.getByTestId("rate-form").waitFor();
  await page.locator('input[name="stars"][value="4"]').check();
  await page.locator('input[name="compliment"][value="Smooth driving"]').check();
  await page.getByRole("button", { name: "Submit rating" }).click();
  await page.getByTestId("ride-notice").waitFor();
  await page.getByTestId("tip-20").click();
  await page.getByTestId("ride-notice").waitFor();
  assert.equal(await cents("tip"), l.tip_before + l.tip_cents);
  await screenshot(page, "06-rated-tipped");
  const id = new URL(page.url()).pathname.split("/").at(-1);
  const again = await post(`/api/rides/${id}/tip`, { ride: id, percent: "20" });
  assert.match(again.error, /already/);
  const rerate = await post(`/api/rides/${id}/rate`, { ride: id, stars: "5" });
  assert.match(rerate.error, /already/);
});

test("bad input is refused with a clear message", async () => {
  await page.goto(`${BASE}/?${new URLSearchParams({ pickup: "Home", dropoff: facts.unknown_address })}`);
  assert.match(await page.getByTestId("request-error").innerText(), /couldn't find/);
  assert.equal(await page.getByTestId("quote-form").count(), 0);
  await screenshot(page, "07-unknown-address");
  const s = facts.schedule;
  const base = { pickup: s.pickup, dropoff: s.dropoff, ride_type: "zip", card: "1", purpose: "personal" };
  const soon = await post("/api/rides", { ...base, when: "later", at: facts.now.slice(0, 16) });
  assert.match(soon.error, /at least 15 minutes/);
  const far = await post("/api/rides", { ...base, when: "later", at: "2099-01-01T10:00" });
  assert.match(far.error, /30 days/);
  assert.match((await post("/api/rides", { ...base, when: "now", ride_type: "limo" })).error, /ride type/);
  assert.match((await post("/api/rides", { ...base, when: "now", card: "99" })).error, /card/);
  assert.match((await post("/api/rides", { ...base, when: "now", dropoff: facts.unknown_address })).error, /couldn't find/);
  assert.match((await post("/api/rides", { ...base, when: "now", dropoff: s.pickup })).error, /same place/);
  assert.match((await post("/api/rides/1/rate", { ride: "1", stars: "9" })).error, /1 to 5/);
  assert.match((await post("/api/rides/1/tip", { ride: "1", amount: "-3" })).error, /amount|greater/);
  const q = await getJson(`/api/quote?${new URLSearchParams({ pickup: "Home", dropoff: facts.unknown_address })}`);
  assert.equal(q.status, 400);
});

test("saved places: add, rename, delete; bad addresses refused", async () => {
  await page.goto(`${BASE}/places`);
  const before = await page.getByTestId("saved-row").count();
  await page.fill('[data-testid="add-place"] input[name="label"]', "Gym");
  await page.fill('[data-testid="add-place"] input[name="address"]', facts.unknown_address);
  await page.click('[data-testid="add-place"] button[type="submit"]');
  assert.match(await page.getByTestId("places-error").innerText(), /couldn't find/);
  await page.fill('[data-testid="add-place"] input[name="label"]', "Airport");
  await page.fill('[data-testid="add-place"] input[name="address"]', facts.schedule.dropoff);
  await page.click('[data-testid="add-place"] button[type="submit"]');
  await page.getByRole("status").waitFor();
  assert.equal(await page.getByTestId("saved-row").count(), before + 1);
  const row = page.getByTestId("saved-row").last();
  await row.locator('input[name="label"]').fill("Home");
  await row.getByRole("button", { name: "Rename" }).click();
  assert.match(await page.getByTestId("places-error").innerText(), /already have/);
  await page.getByTestId("saved-row").last().locator('input[name="label"]').fill("Airport run");
  await page.getByTestId("saved-row").last().getByRole("button", { name: "Rename" }).click();
  await page.getByRole("status").waitFor();
  await screenshot(page, "08-places");
  await page.getByTestId("saved-row").last().getByRole("button", { name: "Remove" }).click();
  await page.getByRole("status").waitFor();
  assert.equal(await page.getByTestId("saved-row").count(), before);
});
