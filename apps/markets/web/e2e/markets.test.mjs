// Hunchline end to end, in headless Chromium against the production server (clock at the world's now).
//
// APP_FACTS (tests/apps/markets/test_web.py) holds values computed from the persona's WORLD: the cash balance, the
// open markets, categories, open positions (shares, cost, value and P&L at the latest prices), the watchlist, a
// search by the home city, a market to buy (side, price, shares, total), an order over the balance, a closed
// market, the biggest payout. Reads first, then a buy through the confirmation step, refusals, a deposit from the
// bank. tests/apps/markets/test_web.py then checks both databases.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;
const cookie = () => `hl_session=${facts.session_token}`;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("hl_session", facts.session_token, { timeout: 15_000 }));
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

const data = (sel, keys) =>
  page.locator(sel).evaluateAll((els, keys) => els.map((e) => Object.fromEntries(keys.map((k) => [k, e.dataset[k]]))), keys);

const balance = async () => Number(await page.getByTestId("balance").getAttribute("data-cents"));

test("the seeded cookie signs in; the market list shows the open markets, categories and the world's cash", async () => {
  await page.goto(`${BASE}/`);
  assert.equal(new URL(page.url()).pathname, "/");
  await page.getByRole("heading", { name: new RegExp(facts.first_name) }).waitFor();
  const open = (await data('[data-testid="market"]', ["ticker"])).map((x) => x.ticker);
  assert.deepEqual(open, facts.open_tickers);
  const cats = Object.fromEntries((await data('[data-testid="category"]', ["key", "count"])).map((c) => [c.key, Number(c.count)]));
  for (const [k, n] of Object.entries(facts.categories)) assert.equal(cats[k], n, k);
  assert.equal(await balance(), facts.cash_cents);
  await screenshot(page, "markets");
});

test("search by the home city finds the local markets; a category tab filters", async () => {
  await page.goto(`${BASE}/?q=${encodeURIComponent(facts.search.q)}`);
  const hits = (await data('[data-testid="market"]', ["ticker"])).map((x) => x.ticker).sort();
  assert.deepEqual(hits, facts.search.tickers);
  await page.goto(`${BASE}/?cat=weather&state=all`);
  assert.equal(Number(await page.getByTestId("market-count").getAttribute("data-count")), facts.categories.weather ?? 0);
});

test("portfolio: cash and open positions (shares, cost, value, P&L) equal the world's", async () => {
  await page.goto(`${BASE}/portfolio`);
  assert.equal(Number(await page.getByTestId("cash").getAttribute("data-cents")), facts.cash_cents);
  assert.equal(Number(await page.getByTestId("deposited").getAttribute("data-cents")), facts.deposits_cents);
  const rows = await data('[data-testid="position"]', ["ticker", "side", "shares", "cost", "value", "pnl"]);
  rows.sort((a, b) => (a.ticker + a.side).localeCompare(b.ticker + b.side));
  assert.deepEqual(rows, facts.positions);
  await screenshot(page, "portfolio");
});

test("watchlist, resolved markets with payouts, activity history", async () => {
  await page.goto(`${BASE}/watchlist`);
  assert.deepEqual((await data('[data-testid="watched"]', ["ticker"])).map((x) => x.ticker).sort(), facts.watchlist);
  await page.goto(`${BASE}/resolved`);
  assert.equal(Number(await page.getByTestId("payout-total").getAttribute("data-cents")), facts.payout.total_cents);
  assert.equal(await page.locator('[data-testid="resolved"]').count(), facts.resolved_count);
  const row = page.locator(`[data-testid="resolved"][data-ticker="${facts.payout.ticker}"]`);
  assert.equal(Number(await row.getAttribute("data-payout")), facts.payout.amount_cents);
  await screenshot(page, "resolved");
  await page.goto(`${BASE}/activity`);
  assert.equal(Number(await page.getByTestId("activity-count").getAttribute("data-count")), facts.activity_count);
});

test("a market page draws the price history as an inline SVG chart and shows its rules", async () => {
  await page.goto(`${BASE}/m/${facts.buy.ticker}`);
  const chart = page.getByTestId("price-chart");
  assert.equal(Number(await chart.getAttribute("data-points")), facts.buy.history_days);
  assert.ok((await page.getByTestId("rules").innerText()).length > 40);
  assert.equal(await page.locator("svg[data-testid=price-chart] path.hl-line").count(), 1);
  await screenshot(page, "market");
});

test("a buy goes through the confirmation step (price x shares, no fee), moves the balance and adds a position", async () => {
  const b = facts.buy;
  const before = facts.cash_cents;
  await page.goto(`${BASE}/m/${b.ticker}`);
  const form = page.getByTestId("order-form");
  await form.locator(`input[name=side][value=${b.side}]`).check();
  await form.locator("input[name=action][value=buy]").check();
  await form.locator("input[name=shares]").fill(String(b.shares));
  await form.getByRole("button").click();
  await page.waitForURL(/\/confirm\?/);
  const c = page.getByTestId("confirm");
  assert.equal(Number(await c.getAttribute("data-price")), b.price_cents);
  assert.equal(Number(await c.getAttribute("data-total")), b.total_cents);
  assert.equal(Number(await c.getAttribute("data-after")), before - b.total_cents);
  await screenshot(page, "confirm");
  await page.getByTestId("place-order").click();
  await page.waitForURL(/traded=/);
  assert.equal(await balance(), before - b.total_cents);
  const held = page.getByTestId("held");
  assert.equal(Number(await held.getAttribute(`data-${b.side}`)), b.shares);
  await page.goto(`${BASE}/portfolio`);
  const row = page.locator(`[data-testid="position"][data-ticker="${b.ticker}"][data-side="${b.side}"]`);
  assert.equal(Number(await row.getAttribute("data-shares")), b.shares);
});

test("refused cleanly: selling more shares than held, an order over the balance, a closed market, bad fields", async () => {
  const b = facts.buy;
  const other = b.side === "yes" ? "no" : "yes";
  const cash = await (async () => {
    await page.goto(`${BASE}/portfolio`);
    return balance();
  })();
  let r = await post("/api/trades", { ticker: b.ticker, side: b.side, action: "sell", shares: String(b.shares + 1), price_cents: String(b.price_cents) });
  assert.equal(r.status, 303);
  assert.match(r.error, new RegExp(`hold ${b.shares} `));
  r = await post("/api/trades", { ticker: b.ticker, side: other, action: "sell", shares: "1", price_cents: String(100 - b.price_cents) });
  assert.match(r.error, /hold 0 /);
  r = await post("/api/trades", { ticker: facts.too_big.ticker, side: facts.too_big.side, action: "buy", shares: String(facts.too_big.shares * 2), price_cents: String(b.price_cents) });
  assert.match(r.error, /balance/);
  r = await post("/api/trades", { ticker: facts.closed.ticker, side: "yes", action: "buy", shares: "1", price_cents: "50" });
  assert.match(r.error, /closed/);
  for (const bad of [{ shares: "0" }, { shares: "2.5" }, { shares: "-3" }, { shares: "<b>9</b>" }, { side: "maybe" }, { action: "short" }, { ticker: "NOPE-1" }]) {
    r = await post("/api/trades", { ticker: b.ticker, side: b.side, action: "buy", shares: "1", price_cents: String(b.price_cents), ...bad });
    assert.equal(r.status, 303);
    assert.ok(r.error, JSON.stringify(bad));
  }
  // A confirmation whose price moved is refused.
  r = await post("/api/trades", { ticker: b.ticker, side: b.side, action: "buy", shares: "1", price_cents: String(b.price_cents + 1) });
  assert.match(r.error, /price changed/);
  // Signed out: to the sign-in page, nothing written.
  r = await post("/api/trades", { ticker: b.ticker, side: b.side, action: "buy", shares: "1", price_cents: String(b.price_cents) }, { withCookie: false });
  assert.equal(r.location, "/login");
  // The confirmation page of an oversized sale shows the error on the market page.
  await page.goto(`${BASE}/m/${b.ticker}/confirm?side=${b.side}&action=sell&shares=${b.shares + 1}`);
  await page.getByTestId("error").waitFor();
  await screenshot(page, "refused-sell");
  await page.goto(`${BASE}/portfolio`);
  assert.equal(await balance(), cash, "nothing moved");
});

test("a deposit from checking lands in Hunchline (and the bank, checked by pytest); bad amounts are refused", async () => {
  await page.goto(`${BASE}/portfolio`);
  const before = await balance();
  for (const amount of ["", "abc", "0", "-5", "99999999"]) {
    const r = await post("/api/transfers", { direction: "deposit", amount });
    assert.ok(r.error, amount);
  }
  let r = await post("/api/transfers", { direction: "sideways", amount: "10" });
  assert.ok(r.error);
  r = await post("/api/transfers", { direction: "withdraw", amount: String((before + 100) / 100) });
  assert.match(r.error, /balance/);
  const form = page.getByTestId("transfer-form");
  await form.locator("select[name=direction]").selectOption("deposit");
  await form.locator("input[name=amount]").fill(facts.deposit.amount);
  await form.getByRole("button").click();
  await page.waitForURL(/moved=HL-D-/);
  assert.equal(await balance(), before + facts.deposit.cents);
  await page.goto(`${BASE}/activity?kind=deposit`);
  const first = (await data('[data-testid="activity"]', ["kind", "amount"]))[0];
  assert.deepEqual(first, { kind: "deposit", amount: String(facts.deposit.cents) });
  await screenshot(page, "activity");
});

test("text is rendered escaped; the watchlist toggles; the login page works", async () => {
  await page.goto(`${BASE}/?q=${encodeURIComponent("<script>alert(1)</script>")}`);
  assert.equal(await page.locator("script:text('alert(1)')").count(), 0);
  await page.getByRole("heading", { name: /<script>/ }).waitFor();
  let r = await post("/api/watch", { ticker: "NOPE", on: "1", back: "/watchlist" });
  assert.ok(r.error);
  const t = facts.open_tickers.find((x) => !facts.watchlist.includes(x));
  r = await post("/api/watch", { ticker: t, on: "1", back: "/watchlist" });
  assert.equal(r.location, "/watchlist");
  r = await post("/api/watch", { ticker: t, on: "0", back: "/watchlist" });
  assert.equal(r.location, "/watchlist");
  const res = await appFetch(`${BASE}/login`);
  assert.equal(res.status, 200);
});
