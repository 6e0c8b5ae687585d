// Tidewell end to end, in headless Chromium against the production server (clock at the world's now).
//
// APP_FACTS (tests/apps/brokerage/test_web.py) holds values computed from the persona's WORLD (builder/world/investing.py):
// the account value at the as-of closes (holdings x price + cash, to the cent), each holding's shares and value, the
// cash, the number of orders, a market buy (symbol, shares, its amount at the as-of close), a limit buy below the
// market (good 'til canceled, then cancelled) and a day one left open, a deposit from the bank. Reads first, then the
// buy, the limit orders, the transfer and bad input. tests/apps/brokerage/test_web.py then checks both databases and
// serves them again a day after the day order's session, where it reads expired.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;
const cookie = () => `tw_session=${facts.session_token}`;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("tw_session", facts.session_token, { timeout: 15_000 }));
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

const cents = async (testid) => Number(await page.getByTestId(testid).first().getAttribute("data-cents"));

test("the portfolio's value at the as-of closes equals holdings x prices + cash from the world, to the cent", async () => {
  await page.goto(`${BASE}/`);
  assert.equal(new URL(page.url()).pathname, "/");
  await page.getByText(facts.first_name).first().waitFor();
  assert.equal(await cents("portfolio-value"), facts.value_cents);
  assert.equal(await cents("cash"), facts.cash_cents);
  assert.equal(await cents("day-change"), facts.day_change_cents);
  const rows = await page
    .locator('[data-testid="holdings"] tbody tr')
    .evaluateAll((els) => els.map((e) => ({ symbol: e.dataset.symbol, shares: e.dataset.shares, value_cents: Number(e.dataset.valueCents) })));
  assert.deepEqual(rows, facts.holdings);
  await screenshot(page, "portfolio");
});

test("a symbol page charts its closes by range and shows the as-of price", async () => {
  const s = facts.buy.symbol;
  await page.goto(`${BASE}/stocks/${s}?range=1M`);
  assert.equal(await cents("price"), facts.buy.price_cents);
  const month = Number(await page.getByTestId("price-chart").getAttribute("data-points"));
  await page.getByRole("link", { name: "ALL", exact: true }).click();
  await page.waitForURL(/range=ALL/);
  const all = Number(await page.getByTestId("price-chart").getAttribute("data-points"));
  assert.equal(all, facts.buy.trading_days);
  assert.ok(month >= 18 && month <= 24, `1M has ${month} closes`);
  await screenshot(page, "symbol");
});

test("the order history lists the world's trades", async () => {
  await page.goto(`${BASE}/orders`);
  assert.equal(await page.locator('[data-testid="order-history"] tbody tr').count(), facts.order_count);
});

test("a market buy goes through the review step, fills at the as-of close and moves cash", async () => {
  const b = facts.buy;
  await page.goto(`${BASE}/stocks/${b.symbol}?side=buy`);
  await page.locator('[data-testid="order-form"] input[name="shares"]').fill(b.shares);
  await page.getByRole("button", { name: /Review order|Order prüfen/ }).click();
  await page.waitForURL(/\/review/);
  assert.equal(await cents("review-amount"), b.amount_cents);
  await screenshot(page, "review");
  await page.getByRole("button", { name: /Place buy order|Kauforder erteilen/ }).click();
  await page.waitForURL(/\/orders\?done=filled/);
  const first = page.locator('[data-testid="order-history"] tbody tr').first();
  assert.match(await first.innerText(), new RegExp(b.symbol));
  assert.equal(await first.getAttribute("data-status"), "filled");
  await page.goto(`${BASE}/`);
  assert.equal(await cents("cash"), facts.cash_cents - b.amount_cents);
  assert.equal(await cents("portfolio-value"), facts.value_cents);
});

/** Fill the ticket of `symbol` as a limit buy of `shares` at `limit`, good for `tif`, and review it. */
async function reviewLimitBuy(symbol, shares, limit, tif) {
  await page.goto(`${BASE}/stocks/${symbol}?side=buy`);
  await page.locator('select[name="type"]').selectOption("limit");
  await page.getByTestId("tif").selectOption(tif);
  await page.locator('[data-testid="order-form"] input[name="shares"]').fill(shares);
  await page.locator('[data-testid="order-form"] input[name="limit"]').fill(limit);
  await page.getByRole("button", { name: /Review order|Order prüfen/ }).click();
  await page.waitForURL(/\/review/);
}

test("a good-'til-canceled limit buy below the market stays open 90 days, holds buying power, and is cancelled", async () => {
  const l = facts.limit;
  await reviewLimitBuy(l.symbol, l.shares, l.limit, "gtc");
  const tif = page.getByTestId("review-tif");
  assert.equal(await tif.getAttribute("data-tif"), "gtc");
  assert.equal(await tif.getAttribute("data-expires"), l.gtc_expires);
  await screenshot(page, "review-gtc");
  await page.getByRole("button", { name: /Place buy order|Kauforder erteilen/ }).click();
  await page.waitForURL(/\/orders\?done=open/);
  const open = page.locator('[data-testid="open-orders"] tr[data-status="open"]');
  assert.equal(await open.count(), 1);
  assert.equal(await open.first().getAttribute("data-tif"), "gtc");
  assert.equal(await open.first().getAttribute("data-expires"), l.gtc_expires);
  const number = await open.first().getAttribute("data-order");
  await screenshot(page, "open-order");
  await page.goto(`${BASE}/`);
  const cash = facts.cash_cents - facts.buy.amount_cents;
  assert.equal(await cents("buying-power"), cash - l.reserved_cents);
  await page.goto(`${BASE}/orders`);
  await page.getByTestId(`cancel-${number}`).click();
  await page.waitForURL(/done=cancelled/);
  assert.equal(await page.locator('[data-testid="open-orders"]').count(), 0);
  assert.equal(await page.locator(`tr[data-order="${number}"]`).getAttribute("data-status"), "cancelled");
  await page.goto(`${BASE}/`);
  assert.equal(await cents("buying-power"), cash);
});

test("a day limit buy works through its trading day (test_web.py reads it expired the day after)", async () => {
  const l = facts.limit;
  await reviewLimitBuy(l.symbol, "1", l.limit, "day");
  assert.equal(await page.getByTestId("review-tif").getAttribute("data-expires"), l.day_expires);
  await page.getByRole("button", { name: /Place buy order|Kauforder erteilen/ }).click();
  await page.waitForURL(/\/orders\?done=open/);
  const open = page.locator('[data-testid="open-orders"] tr[data-status="open"]');
  assert.equal(await open.count(), 1);
  assert.equal(await open.first().getAttribute("data-tif"), "day");
  assert.equal(await open.first().getAttribute("data-expires"), l.day_expires);
  await screenshot(page, "open-day-order");
});

test("a deposit from the bank lands in Tidewell's cash", async (t) => {
  if (!facts.apps.includes("bank")) return t.skip("no bank in this build");
  await page.goto(`${BASE}/transfers`);
  await page.locator('select[name="direction"]').selectOption("deposit");
  await page.locator('[data-testid="transfer-form"] input[name="amount"]').fill(facts.deposit.amount);
  await page.getByRole("button", { name: /^(Transfer|Überweisen)$/ }).click();
  await page.waitForURL(/done=deposit/);
  await screenshot(page, "transfer");
  await page.goto(`${BASE}/`);
  assert.equal(await cents("cash"), facts.cash_cents - facts.buy.amount_cents + facts.deposit.amount_cents);
});

test("bad input is refused with a message and changes nothing", async () => {
  const s = facts.buy.symbol;
  const before = await (async () => {
    await page.goto(`${BASE}/`);
    return cents("cash");
  })();
  for (const [fields, what] of [
    [{ symbol: s, side: "buy", type: "market", shares: "-3", confirm: "yes" }, "negative shares"],
    [{ symbol: s, side: "buy", type: "market", shares: "1e3", confirm: "yes" }, "exponent"],
    [{ symbol: s, side: "buy", type: "market", shares: "1" }, "no confirmation"],
    [{ symbol: s, side: "buy", type: "market", shares: "99999999", confirm: "yes" }, "no buying power"],
    [{ symbol: s, side: "sell", type: "market", shares: facts.sell_too_many, confirm: "yes" }, "more than held"],
    [{ symbol: s, side: "buy", type: "limit", shares: "1", limit: "<script>", confirm: "yes" }, "limit not money"],
    [{ symbol: "ZZZZ", side: "buy", type: "market", shares: "1", confirm: "yes" }, "unknown symbol"],
    [{ symbol: s, side: "hold", type: "market", shares: "1", confirm: "yes" }, "bad side"],
    [{ symbol: s, side: "buy", type: "market", shares: "1", tif: "gtc", confirm: "yes" }, "a market order good 'til canceled"],
    [{ symbol: s, side: "buy", type: "limit", shares: "1", limit: "1.00", tif: "forever", confirm: "yes" }, "unknown time in force"],
  ]) {
    const r = await post("/api/orders", fields);
    assert.equal(r.status, 303, what);
    assert.ok(r.error, `${what}: ${r.location}`);
  }
  for (const amount of ["", "abc", "-5", "12.345", "999999999"]) {
    const r = await post("/api/transfers", { direction: "deposit", amount });
    assert.ok(r.error, `transfer ${amount}: ${r.location}`);
  }
  assert.ok((await post("/api/transfers", { direction: "sideways", amount: "5" })).error);
  assert.ok((await post("/api/orders/cancel", { order: "nope" })).error);
  const signedOut = await post("/api/orders", { symbol: s, side: "buy", type: "market", shares: "1", confirm: "yes" }, { withCookie: false });
  assert.match(signedOut.location, /\/login/);
  await page.goto(`${BASE}/`);
  assert.equal(await cents("cash"), before);
});

test("the watchlist adds and removes a symbol", async () => {
  const s = facts.watch_add;
  await page.goto(`${BASE}/stocks/${s}`);
  await page.getByTestId("watch-toggle").click();
  await page.waitForURL(/done=watch/);
  await page.goto(`${BASE}/watchlist`);
  assert.equal(await page.locator(`[data-testid="watchlist"] tr[data-symbol="${s}"]`).count(), 1);
  await page.locator(`[data-testid="watchlist"] tr[data-symbol="${s}"] button`).click();
  await page.waitForURL(/done=watch/);
  assert.equal(await page.locator(`[data-testid="watchlist"] tr[data-symbol="${s}"]`).count(), 0);
});

test("/login signs in with the persona's password", async () => {
  const ctx = await browser.newContext();
  const p = await ctx.newPage();
  await p.goto(`${BASE}/login`);
  await p.locator('input[name="username"]').fill(facts.username);
  await p.locator('input[name="password"]').fill(facts.password);
  await p.locator('[data-testid="login-form"] button[type="submit"]').click();
  await p.waitForURL(`${BASE}/`);
  await p.getByTestId("portfolio-value").waitFor();
  await ctx.close();
});
