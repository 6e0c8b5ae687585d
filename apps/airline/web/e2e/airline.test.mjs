// Meridian Air end to end, in headless Chromium against the production server.
//
// APP_FACTS (tests/apps/airline/test_web.py) holds what the WORLD predicts: the next trip's PNR, flight,
// departure text, seats and tickets; the past trips; the loyalty number; the search to book. The
// server's clock starts 23 h before the next departure, so online check-in is open for it and
// closed for the return. One browser session: reads first, then seat change, check-in, boarding
// pass (screen and PDF), a booking with the saved card.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;
const N = facts.next;
const ARTIFACTS = process.env.APP_ARTIFACTS;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("ma_session", facts.session_token, { timeout: 20_000 }));
});

after(async () => {
  await browser?.close();
});

const text = async (sel) => (await page.locator(sel).first().innerText()).trim();

test("My Trips: the next trip is the world's next booking; past trips are all there", async () => {
  await page.goto(`${BASE}/`);
  const pnrs = await page.locator('[data-testid="trips-upcoming"] [data-testid="pnr"]').allInnerTexts();
  assert.deepEqual(pnrs, facts.upcoming_pnrs);
  await screenshot(page, "01-my-trips");
  await page.click('[data-testid="tab-past"]');
  await page.waitForSelector('[data-testid="trips-past"]');
  const past = await page.locator('[data-testid="trips-past"] [data-testid="pnr"]').allInnerTexts();
  assert.deepEqual(past, facts.past_pnrs);
  await screenshot(page, "01b-past");
  await page.click('[data-testid="tab-cancelled"]');
  await page.waitForURL(/tab=cancelled/);
  assert.match(await text(".ma-empty"), /No cancelled trips/);
});

test("trip detail: PNR, tickets, segments in local times with zones, seats, fare", async () => {
  await page.goto(`${BASE}/trips/${N.pnr}`);
  assert.equal(await text('[data-testid="pnr"]'), N.pnr);
  assert.deepEqual(await page.locator('[data-testid="ticket"]').allInnerTexts(), N.tickets);
  const out = page.locator('[data-testid="journey-outbound"] [data-testid="segment"]').first();
  assert.equal(await out.getAttribute("data-flight"), N.flight_number);
  assert.equal((await out.locator('[data-testid="dep"]').innerText()).trim(), N.dep_text);
  assert.equal((await out.locator('[data-testid="arr"]').innerText()).trim(), N.arr_text);
  assert.deepEqual(await out.locator('[data-testid="seat"]').allInnerTexts(), N.seats);
  assert.equal(await text('[data-testid="fare-family"]'), N.fare_class);
  assert.equal(await text('[data-testid="fare-per-passenger"]'), N.fare_text);
  assert.equal(await text('[data-testid="total"]'), N.total_text);
  // Check-in: open for the outbound (23 h to go), not yet for the return.
  assert.equal(await page.locator('[data-testid="checkin-outbound"]').count(), 1);
  assert.match(await text('[data-testid="checkin-closed-return"]'), /Check-in opens/);
  await screenshot(page, "02-trip");
});

test("seat map: pick a free aisle seat; it persists on the trip page", async () => {
  await page.goto(`${BASE}/trips/${N.pnr}`);
  await page.locator('[data-testid="journey-outbound"] [data-testid="change-seat"]').first().click();
  await page.waitForURL(/\/seats\?/);
  assert.equal(await text('[data-testid="current-seat"]'), N.seats[0]);
  const aisle = page.locator(`[data-state="free"]`).filter({ hasText: new RegExp(`^(${N.aisle_letters.join("|")})$`) }).first();
  const seat = await aisle.getAttribute("data-seat");
  await screenshot(page, "03-seatmap");
  await aisle.click();
  await page.waitForURL(/saved=/);
  assert.equal(await text('[data-testid="seat-saved"]'), `Seat ${seat} is yours.`);
  assert.equal(await text('[data-testid="current-seat"]'), seat);
  // A taken seat is refused with a message and changes nothing.
  const taken = await page.locator('[data-state="taken"]').first().getAttribute("data-seat");
  await page.fill('[data-testid="seat-form"] input[name="seat"]', taken);
  await page.click('[data-testid="seat-form"] button');
  await page.waitForURL(/error=/);
  assert.match(await text('[data-testid="error"]'), /already taken/);
  assert.equal(await text('[data-testid="current-seat"]'), seat);
  await page.goto(`${BASE}/trips/${N.pnr}`);
  const seats = await page.locator('[data-testid="journey-outbound"] [data-testid="segment"]').first().locator('[data-testid="seat"]').allInnerTexts();
  assert.equal(seats[0], seat);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(path.join(ARTIFACTS, "new-seat.txt"), seat);
  facts.newSeat = seat;
});

test("check-in inside the window: boarding pass with the new seat, group and sequence; PDF download", async () => {
  await page.goto(`${BASE}/trips/${N.pnr}`);
  await page.click('[data-testid="checkin-outbound"]');
  await page.waitForURL(/boarding-pass\?/);
  assert.match(await text('[data-testid="checked-in"]'), /checked in/);
  const pass = page.locator('[data-testid="pass"]').first();
  assert.equal((await pass.locator('[data-testid="pass-name"]').innerText()).trim(), N.bcbp_name);
  assert.equal((await pass.locator('[data-testid="pass-flight"]').innerText()).trim(), N.flight_number);
  assert.equal((await pass.locator('[data-testid="pass-seat"]').innerText()).trim(), facts.newSeat);
  assert.equal((await pass.locator('[data-testid="pass-group"]').innerText()).trim(), String(N.boarding_group));
  assert.equal((await pass.locator('[data-testid="pass-dep"]').innerText()).trim(), N.dep_text);
  const bcbp = await pass.locator('[data-testid="pass-qr"]').getAttribute("data-bcbp");
  assert.equal(bcbp.slice(0, 2), "M1");
  assert.equal(bcbp.slice(60, 61), ">");
  await screenshot(page, "04-boarding-pass");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="pass-pdf"]')]);
  const file = path.join(ARTIFACTS, "boarding-pass.pdf");
  await download.saveAs(file);
  assert.equal(fs.readFileSync(file).subarray(0, 5).toString(), "%PDF-");
  fs.writeFileSync(path.join(ARTIFACTS, "bcbp.txt"), bcbp);
});

test("search, choose a fare, pay with the saved card: the new trip is in My Trips", async () => {
  const B = facts.book;
  await page.goto(`${BASE}/book`);
  await page.selectOption('select[name="from"]', B.origin);
  await page.selectOption('select[name="to"]', B.destination);
  await page.fill('input[name="date"]', B.date);
  await page.click('[data-testid="search-form"] button[type="submit"]');
  await page.waitForURL(/\/book\/results/);
  await screenshot(page, "05-results");
  const row = page.locator(`[data-testid="result"][data-key="${B.option}"]`);
  assert.equal(await row.count(), 1, `no departure ${B.option}`);
  await row.locator('button[data-family="MAIN"]').click();
  await page.waitForURL(/\/book\/review/);
  const total = await text('[data-testid="review-total"]');
  await screenshot(page, "06-review");
  await page.click('[data-testid="purchase"]');
  await page.waitForURL(/booked=1/);
  assert.match(await text('[data-testid="booked"]'), /Your trip is booked/);
  assert.equal(await text('[data-testid="total"]'), total);
  const pnr = await text('[data-testid="pnr"]');
  fs.writeFileSync(path.join(ARTIFACTS, "booked.json"), JSON.stringify({ pnr, total }));
  await screenshot(page, "07-booked");
  await page.goto(`${BASE}/`);
  const pnrs = await page.locator('[data-testid="trips-upcoming"] [data-testid="pnr"]').allInnerTexts();
  assert.ok(pnrs.includes(pnr));
});

test("an absurd traveller count is refused with a message, not capped", async () => {
  const B = facts.book;
  for (const pax of ["40", "0", "2.5", "six"]) {
    await page.goto(`${BASE}/book/results?from=${B.origin}&to=${B.destination}&date=${B.date}&pax=${encodeURIComponent(pax)}`);
    assert.match(await text('[data-testid="error"]'), /^Book 1 to 6 travell?ers at a time/);
    assert.equal(await page.locator('[data-testid="result"]').count(), 0);
  }
  await screenshot(page, "05b-too-many-travellers");
  await page.goto(`${BASE}/book/review?from=${B.origin}&to=${B.destination}&out=${encodeURIComponent(B.option)}&family=MAIN&pax=9`);
  assert.match(await text('[data-testid="error"]'), /^Book 1 to 6 travell?ers at a time/);
});

test("the confirmation mail is in Mailbox with the trip's calendar file", async () => {
  if (!facts.apps.includes("mail")) return;
  const { pnr } = JSON.parse(fs.readFileSync(path.join(ARTIFACTS, "booked.json"), "utf8"));
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await ctx.addCookies([{ name: "mb_session", value: facts.mail_token, domain: "mailbox.test", path: "/", httpOnly: true, sameSite: "Lax" }]);
    const mail = await ctx.newPage();
    await mail.goto(`http://mailbox.test/search?q=${encodeURIComponent(`confirmed ${pnr}`)}`);
    await mail.locator('[data-testid="conversation"]').filter({ hasText: "Booking confirmed" }).first().locator("a.mb-row-link").click();
    await mail.waitForURL(/\/t\//);
    await mail.getByText(`${pnr}.ics`).first().waitFor();
    assert.ok((await mail.getByText(`Confirmation code (PNR): ${pnr}`).count()) >= 1);
    await screenshot(mail, "07b-confirmation-mail");
  } finally {
    await ctx.close();
  }
});

test("MileagePass: number, tier and this year's status miles", async () => {
  await page.goto(`${BASE}/loyalty`);
  assert.equal(await text('[data-testid="loyalty-number"]'), facts.loyalty.number);
  assert.equal(await text('[data-testid="tier"]'), facts.loyalty.tier);
  assert.equal(await text('[data-testid="status-miles"]'), facts.loyalty.status_miles_text);
  await screenshot(page, "08-loyalty");
});
