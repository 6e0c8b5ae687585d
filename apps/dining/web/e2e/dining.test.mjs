// TableTime end to end, in headless Chromium against the production server (clock at the world's now).
//
// APP_FACTS (tests/apps/dining/test_web.py) holds values computed from the persona's WORLD: the restaurant bookings
// (confirmation, day, time, party, companions, special request) split at the world's now, the restaurants booked
// most (the saved ones), a city's catalogue counts and restaurants to book. Reads first, then the race for the last
// table, a booking with a late-cancel fee, a change, a review, favourites and bad input. tests/apps/dining/test_web.py
// then checks what the app left: its rows, the bank's pending fee and the confirmation mail.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;
const cookie = () => `tt_session=${facts.session_token}`;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("tt_session", facts.session_token, { timeout: 15_000 }));
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
  return { status: res.status, location, error: new URL(location || "/", BASE).searchParams.get("error") ?? "" };
}

const rows = () =>
  page.locator('[data-testid="reservation"]').evaluateAll((els) =>
    els.map((e) => ({ confirmation: e.dataset.confirmation, day: e.dataset.day, time: e.dataset.time, party: Number(e.dataset.party), status: e.dataset.status })),
  );

test("the seeded cookie signs in; home greets the persona and lists the world's upcoming reservations", async () => {
  await page.goto(`${BASE}/`);
  assert.equal(new URL(page.url()).pathname, "/");
  await page.getByRole("heading", { name: `Find your table for any occasion, ${facts.first_name}` }).waitFor();
  const up = await page.locator('[data-testid="upcoming"]').evaluateAll((els) => els.map((e) => e.dataset.confirmation));
  assert.deepEqual(up, facts.upcoming.map((u) => u.confirmation));
  await screenshot(page, "home");
});

test("Reservations: upcoming and past equal the world's bookings (confirmation, day, time, party)", async () => {
  await page.goto(`${BASE}/reservations`);
  const up = await rows();
  assert.deepEqual(up, facts.upcoming.map((u) => ({ confirmation: u.confirmation, day: u.day, time: u.time, party: u.party, status: "booked" })));
  await screenshot(page, "reservations-upcoming");
  await page.goto(`${BASE}/reservations?tab=past`);
  const past = await rows();
  assert.equal(past.length, facts.past.length);
  assert.deepEqual(past.map((p) => p.confirmation).sort(), [...facts.past].sort());
  assert.ok(past.every((p) => p.status === "completed"));
  await screenshot(page, "reservations-past");
});

test("a past reservation shows who came, the party and the special request the world booked", async () => {
  const v = facts.with_companions;
  await page.goto(`${BASE}/reservations/${v.confirmation}`);
  assert.equal(await page.getByTestId("confirmation").innerText(), v.confirmation);
  assert.equal(await page.getByTestId("companions").innerText(), v.companions.join(", "));
  assert.equal(await page.getByTestId("party").innerText(), `${v.party} ${v.party === 1 ? "person" : "people"}`);
  assert.equal(await page.getByTestId("request").innerText(), v.request ?? "None");
  await screenshot(page, "reservation-past");
  const r = facts.with_request;
  await page.goto(`${BASE}/reservations/${r.confirmation}`);
  assert.equal(await page.getByTestId("request").innerText(), r.request);
});

test("search by cuisine and neighbourhood lists the catalogue's restaurants of the city", async () => {
  const s = facts.search;
  await page.goto(`${BASE}/search?${new URLSearchParams({ city: s.city, cuisine: s.cuisine, date: facts.later_day, time: "19:00", party: "2" })}`);
  assert.equal(Number(await page.getByTestId("result-count").getAttribute("data-count")), s.cuisine_count);
  await screenshot(page, "search-cuisine");
  await page.goto(`${BASE}/search?${new URLSearchParams({ city: s.city, hood: s.hood, date: facts.later_day, time: "19:00", party: "2" })}`);
  assert.equal(Number(await page.getByTestId("result-count").getAttribute("data-count")), s.hood_count);
  await page.goto(`${BASE}/search?${new URLSearchParams({ city: s.city, date: facts.later_day, time: "19:00", party: "2" })}`);
  assert.equal(Number(await page.getByTestId("result-count").getAttribute("data-count")), s.city_count);
  await screenshot(page, "search");
  // Text that looks like markup or SQL is only text.
  await page.goto(`${BASE}/search?${new URLSearchParams({ city: s.city, q: "<script>x</script>' OR 1=1 --" })}`);
  assert.equal(Number(await page.getByTestId("result-count").getAttribute("data-count")), 0);
  await page.goto(`${BASE}/search?${new URLSearchParams({ city: "Atlantis" })}`);
  assert.ok(Number(await page.getByTestId("result-count").getAttribute("data-count")) > 0, "an unknown city falls back to the home city");
  assert.equal(await page.getByTestId("notice").innerText(), `TableTime doesn't list restaurants in “Atlantis” yet; showing ${s.city}.`);
});

test("a restaurant page shows the catalogue's address, menu in the city's currency, hours and reviews", async () => {
  const r = facts.restaurant;
  await page.goto(`${BASE}/r/${r.slug}?date=${facts.later_day}&party=2`);
  assert.equal(await page.getByTestId("restaurant-name").innerText(), r.name);
  assert.equal(await page.getByTestId("address").innerText(), r.address);
  const dishes = await page.locator('[data-testid="dish"]').allInnerTexts();
  assert.equal(dishes.length, r.dishes);
  assert.match(dishes[0], new RegExp(`^${r.first_dish.replace(/[()]/g, "\\$&")}\\s+${r.first_price.replace(/[$.]/g, "\\$&")}$`));
  assert.ok((await page.locator('[data-testid="review"]').count()) >= 3);
  assert.equal(await page.getByTestId("my-visits").count(), 0, "never booked there");
  await screenshot(page, "restaurant");
  const top = facts.most_visited;
  await page.goto(`${BASE}/r/${top.slug}`);
  assert.equal(Number(await page.getByTestId("my-visits").getAttribute("data-visits")), top.visits);
  const foreign = facts.foreign;
  await page.goto(`${BASE}/r/${foreign.slug}`);
  const first = (await page.locator('[data-testid="dish"]').allInnerTexts())[0];
  assert.ok(first.includes(foreign.first_price), `${first} has ${foreign.first_price}`);
  await screenshot(page, "restaurant-foreign");
});

test("the last table: of two concurrent bookings one wins, the other is refused; a cancellation frees it", async () => {
  const t = facts.last_table;
  const fields = { r: t.slug, date: t.day, time: t.time, party: String(t.party), request: "" };
  await page.goto(`${BASE}/r/${t.slug}?date=${t.day}&party=${t.party}`);
  assert.ok((await page.getByTestId("times").getAttribute("data-times")).split(",").includes(t.time), "free before");
  const [a, b] = await Promise.all([post("/api/reservations", fields), post("/api/reservations", fields)]);
  const won = [a, b].filter((x) => x.location.startsWith("/reservations/TT"));
  const lost = [a, b].filter((x) => x.error);
  assert.equal(won.length, 1, JSON.stringify([a, b]));
  assert.equal(lost.length, 1, JSON.stringify([a, b]));
  assert.match(lost[0].error, new RegExp(`^No table for ${t.party} is left at `));
  await page.goto(`${BASE}/r/${t.slug}?date=${t.day}&party=${t.party}`);
  assert.ok(!(await page.getByTestId("times").getAttribute("data-times")).split(",").includes(t.time), "taken after");
  const conf = won[0].location.split("/reservations/")[1].split("?")[0];
  const c = await post("/api/reservations/cancel", { confirmation: conf, confirm: "yes" });
  assert.ok(c.location.includes("done=cancelled"), c.location);
  await page.goto(`${BASE}/r/${t.slug}?date=${t.day}&party=${t.party}`);
  assert.ok((await page.getByTestId("times").getAttribute("data-times")).split(",").includes(t.time), "free again");
});

test("book through the pages with an occasion and a special request; cancelling within 24 hours charges the restaurant's fee", async () => {
  const l = facts.late;
  await page.goto(`${BASE}/r/${l.slug}?date=${l.day}&party=2`);
  const times = (await page.getByTestId("times").getAttribute("data-times")).split(",").filter(Boolean);
  assert.ok(times.length > 0, "a table tonight");
  await page.locator(`[data-testid="times"] a`).first().click();
  await page.getByTestId("book-form").waitFor();
  assert.equal(await page.getByTestId("book-restaurant").innerText(), l.name);
  assert.ok((await page.getByTestId("policy").innerText()).includes(l.fee_text));
  await page.getByTestId("occasion").selectOption(l.occasion);
  await page.locator('textarea[name="request"]').fill(l.request);
  await screenshot(page, "book");
  await page.getByRole("button", { name: "Complete reservation" }).click();
  await page.getByTestId("notice").waitFor();
  assert.equal(await page.getByTestId("request").innerText(), l.request);
  assert.equal(await page.getByTestId("occasion").getAttribute("data-occasion"), l.occasion);
  assert.equal(await page.getByTestId("occasion").innerText(), l.occasion_label);
  const conf = await page.getByTestId("confirmation").innerText();
  assert.match(conf, /^TT\d{8}$/);
  await screenshot(page, "booked");
  assert.ok((await page.getByTestId("fee-warning").innerText()).includes(l.fee_text));
  await page.locator('[data-testid="cancel-form"] input[name="confirm"]').check();
  await page.getByRole("button", { name: "Cancel reservation" }).click();
  await page.getByTestId("notice").waitFor();
  assert.equal(await page.getByTestId("fee").innerText(), l.fee_text);
  assert.equal(await page.getByTestId("detail").getAttribute("data-status"), "cancelled");
  await screenshot(page, "cancelled-fee");
});

test("a party of 12 sends the restaurant a request: no table held, shown as Request sent, withdrawn but not changed", async () => {
  const t = facts.last_table;
  await page.goto(`${BASE}/r/${t.slug}?date=${t.day}&party=12`);
  await page.getByTestId("large-party-note").waitFor();
  const times = (await page.getByTestId("times").getAttribute("data-times")).split(",").filter(Boolean);
  assert.ok(times.includes(t.time), `${t.time} among ${times}`);
  await page.locator(`[data-testid="times"] a[href*="time=${t.time}"]`).click();
  await page.getByTestId("large-party").waitFor();
  await page.getByTestId("occasion").selectOption("business");
  await screenshot(page, "large-party-request");
  await page.getByRole("button", { name: "Send request" }).click();
  await page.getByTestId("notice").waitFor();
  assert.match(page.url(), /done=requested/);
  assert.equal(await page.getByTestId("detail").getAttribute("data-status"), "requested");
  assert.equal(await page.getByTestId("party").innerText(), "12 people");
  assert.equal(await page.locator(".tt-badge").first().innerText(), "Request sent");
  await page.getByTestId("request-box").waitFor();
  assert.equal(await page.getByTestId("modify-form").count(), 0);
  await screenshot(page, "large-party-sent");
  const conf = await page.getByTestId("confirmation").innerText();
  const change = await post("/api/reservations/modify", { confirmation: conf, date: t.day, time: t.time, party: "10" });
  assert.match(change.error, /can't be changed here; cancel it and send a new one/);
  // The request holds no table: the last table for 6 at that time is still free.
  await page.goto(`${BASE}/r/${t.slug}?date=${t.day}&party=${t.party}`);
  assert.ok((await page.getByTestId("times").getAttribute("data-times")).split(",").includes(t.time), "no table held");
  await page.goto(`${BASE}/reservations`);
  assert.equal(await page.locator(`[data-testid="reservation"][data-confirmation="${conf}"]`).getAttribute("data-status"), "requested");
});

test("modify an upcoming reservation's party; a time the restaurant doesn't seat is refused and changes nothing", async () => {
  const u = facts.upcoming[0];
  const bad = await post("/api/reservations/modify", { confirmation: u.confirmation, date: u.day, time: "03:00", party: String(u.party) });
  assert.match(bad.error, /doesn't seat guests at that time/);
  const ok = await post("/api/reservations/modify", { confirmation: u.confirmation, date: u.day, time: u.time, party: String(u.party + 1) });
  assert.ok(ok.location.includes("done=modified"), JSON.stringify(ok));
  await page.goto(`${BASE}/reservations/${u.confirmation}`);
  assert.equal(await page.getByTestId("party").innerText(), `${u.party + 1} people`);
  await screenshot(page, "modified");
  const same = await post("/api/reservations/modify", { confirmation: u.confirmation, date: u.day, time: u.time, party: String(u.party + 1) });
  assert.match(same.error, /That's the reservation you have/);
  const large = await post("/api/reservations/modify", { confirmation: u.confirmation, date: u.day, time: u.time, party: "12" });
  assert.match(large.error, /^Choose a party of 1 to 8 guests; for more, cancel and send a large-party request\.$/);
});

test("review the latest visit once; the text is shown as written (escaped)", async () => {
  const v = facts.to_review;
  await page.goto(`${BASE}/reservations/${v.confirmation}`);
  await page.locator('[data-testid="review-form"] input[name="rating"][value="5"]').check();
  await page.locator('[data-testid="review-form"] textarea[name="body"]').fill(v.body);
  await page.getByRole("button", { name: "Post review" }).click();
  await page.getByTestId("notice").waitFor();
  const again = await post("/api/reviews", { confirmation: v.confirmation, rating: "4", body: "Second thoughts about it all." });
  assert.equal(again.error, "You've already reviewed this visit.");
  await page.goto(`${BASE}/r/${v.slug}#reviews`);
  const mine = page.locator('[data-testid="review"][data-mine="1"]').filter({ hasText: v.body });
  assert.equal(await mine.count(), 1);
  assert.equal(await page.locator('[data-testid="review"] b').count(), 0, "no markup from user text");
  const early = await post("/api/reviews", { confirmation: facts.upcoming[facts.upcoming.length - 1].confirmation, rating: "5", body: "Can't review before dining." });
  assert.equal(early.error, "You can review a visit once you've dined there.");
});

test("favourites: the most-booked restaurants are saved; save and remove another", async () => {
  await page.goto(`${BASE}/favorites`);
  const slugs = await page.locator('[data-testid="favourite-card"]').evaluateAll((els) => els.map((e) => e.dataset.slug));
  assert.deepEqual([...slugs].sort(), [...facts.favourites].sort());
  await screenshot(page, "favorites");
  const r = facts.restaurant;
  await page.goto(`${BASE}/r/${r.slug}`);
  await page.getByTestId("favourite").click();
  await page.getByTestId("notice").waitFor();
  assert.equal(await page.getByTestId("favourite").getAttribute("aria-pressed"), "true");
  await page.goto(`${BASE}/favorites`);
  assert.equal(await page.locator(`[data-testid="favourite-card"][data-slug="${r.slug}"]`).count(), 1);
});

test("bad input is refused with a clear message and books nothing", async () => {
  const t = facts.last_table;
  const base = { r: t.slug, date: t.day, time: "19:00", party: "2", request: "" };
  const cases = [
    [{ party: "0" }, /^Choose a party of 1 to 20 guests/],
    [{ party: "abc" }, /^Choose a party of 1 to 20 guests/],
    [{ party: "21" }, /^Choose a party of 1 to 20 guests/],
    [{ party: "12.5" }, /^Choose a party of 1 to 20 guests/],
    [{ date: "2020-01-01" }, /^That date has passed\.$/],
    [{ date: "2026-02-30" }, /^Choose a date\.$/],
    [{ time: "25:00" }, /^Choose a time on the quarter hour\.$/],
    [{ time: "19:07" }, /^Choose a time on the quarter hour\.$/],
    [{ time: "04:00" }, /doesn't seat guests at that time/],
    [{ r: "no-such-place" }, /^Choose a restaurant\.$/],
    [{ request: "x".repeat(501) }, /^Keep the special request under 500 characters\.$/],
    [{ occasion: "wedding<script>" }, /^Choose an occasion from the list, or none\.$/],
    [{ occasion: "constructor" }, /^Choose an occasion from the list, or none\.$/],
    [{ date: facts.too_far }, /takes reservations up to 90 days ahead/],
  ];
  for (const [patch, want] of cases) {
    const res = await post("/api/reservations", { ...base, ...patch });
    assert.equal(res.status, 303);
    assert.match(res.error, want, JSON.stringify(patch));
  }
  const noConfirm = await post("/api/reservations/cancel", { confirmation: facts.upcoming[0].confirmation });
  assert.equal(noConfirm.error, "Tick the box to confirm the cancellation.");
  const past = await post("/api/reservations/cancel", { confirmation: facts.past[0], confirm: "yes" });
  assert.equal(past.error, "That reservation has already taken place.");
  const unknown = await post("/api/reservations/cancel", { confirmation: "TT00000000", confirm: "yes" });
  assert.equal(unknown.error, "We couldn't find that reservation.");
  const badRating = await post("/api/reviews", { confirmation: facts.past[0], rating: "9", body: "Ten out of five, would dine again." });
  assert.match(badRating.error, /rating from 1 to 5|already reviewed/);
  const fav = await post("/api/favorites", { slug: "nope", on: "1" });
  assert.equal(fav.error, "We couldn't find that restaurant.");
  const signedOut = await post("/api/reservations", base, { withCookie: false });
  assert.equal(signedOut.location, "/login");
  // A crafted ?error= (not signed by the app) shows no banner; the app's own refusal does.
  await page.goto(`${BASE}/book?r=${t.slug}&date=${t.day}&time=19:00&party=2&error=${encodeURIComponent("<i>x</i>")}`);
  assert.equal(await page.getByTestId("error").count(), 0);
  const refused = await post("/api/reservations", { ...base, party: "0" });
  await page.goto(`${BASE}${refused.location}`);
  assert.match(await page.getByTestId("error").innerText(), /^Choose a party of 1 to 20 guests/);
});

test("signed out, pages go to the sign-in page; the persona's password signs in", async () => {
  const ctx = await browser.newContext();
  const p = await ctx.newPage();
  await p.goto(`${BASE}/reservations`);
  assert.equal(new URL(p.url()).pathname, "/login");
  await screenshot(p, "login");
  await p.locator('input[name="username"]').fill(facts.username);
  await p.locator('input[name="password"]').fill(facts.password);
  await p.getByRole("button", { name: "Sign in" }).click();
  await p.waitForURL(`${BASE}/reservations`);
  await ctx.close();
});
