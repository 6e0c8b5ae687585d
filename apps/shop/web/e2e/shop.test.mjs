// Shopwell end to end, in headless Chromium against the production server (clock at the world's now).
//
// APP_FACTS (tests/apps/shop/test_web.py) holds values computed from the persona's WORLD and the catalogue: the
// retail orders (number, total, tracking state at the world's now, ship-to, carrier, tracking number), a brand's
// search counts, a product to buy (two of its second variant: subtotal, shipping rule, total), an order line
// inside the 30-day return window and one outside it, a Subscribe & Save item, the card on file. The tests run
// in order: reads first, then a purchase, a return inside the window (refund) and one outside (refused),
// reorder, wish list, subscription, a review, bad input. tests/apps/shop/test_web.py then checks the bank and mail.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;
const cookie = () => `sw_session=${facts.session_token}`;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("sw_session", facts.session_token, { timeout: 15_000 }));
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

test("the seeded cookie signs in; home greets the persona and lists the parcels on the way", async () => {
  await page.goto(`${BASE}/`);
  assert.equal(new URL(page.url()).pathname, "/");
  await page.getByRole("heading", { name: new RegExp(facts.first_name) }).first().waitFor();
  const arriving = (await data('[data-testid="arriving"]', ["order"])).map((x) => x.order);
  assert.deepEqual(arriving, facts.in_transit);
  assert.equal(await page.locator('[data-testid="dept-tile"]').count(), facts.catalogue.departments);
  await screenshot(page, "home");
});

test("Your orders equal the world's retail orders (number, total, tracking state, items), page by page", async () => {
  await page.goto(`${BASE}/orders`);
  await screenshot(page, "orders");
  assert.equal(await page.getByTestId("order-count").getAttribute("data-count"), String(facts.orders.length));
  const rows = [];
  for (let n = 0; n < 50; n++) {
    rows.push(...(await data('[data-testid="order"]', ["order", "total", "state", "items"])));
    const next = page.getByTestId("next-page");
    if (!(await next.count())) break;
    await next.click();
    await page.waitForURL(new RegExp(`page=${n + 2}`));
  }
  assert.deepEqual(rows, facts.orders.map((o) => ({ order: o.order, total: String(o.total_cents), state: o.state, items: String(o.items) })));
});

test("an order in transit: tracking state, carrier and number, ship-to; the invoice is a PDF", async () => {
  const o = facts.orders.find((x) => x.order === facts.in_transit[0]);
  await page.goto(`${BASE}/orders/${o.order}`);
  const d = page.locator('[data-testid="order-detail"]');
  assert.equal(await d.getAttribute("data-state"), o.state);
  assert.equal(await d.getAttribute("data-total"), String(o.total_cents));
  assert.equal(await page.getByTestId("tracking").innerText(), o.tracking);
  assert.equal(await page.getByTestId("ship-address").innerText(), o.ship_address);
  assert.equal(await page.locator('[data-testid="return-form"]').count(), 0, "nothing to return before delivery");
  await screenshot(page, "order-in-transit");
  const pdf = await appFetch(`${BASE}/orders/${o.order}/invoice`, { headers: { cookie: cookie() } });
  assert.equal(pdf.status, 200);
  assert.match(pdf.headers.get("content-type"), /application\/pdf/);
  assert.ok((await pdf.text()).startsWith("%PDF-"));
  const anon = await appFetch(`${BASE}/orders/${o.order}/invoice`);
  assert.equal(anon.status, 303, "signed out: no invoice");
});

test("search: a brand's count, the 4-stars filter, price sort, a bad price filter", async () => {
  await page.goto(`${BASE}/s?q=${encodeURIComponent(facts.search.q)}`);
  assert.equal(await page.getByTestId("result-count").getAttribute("data-count"), String(facts.search.count));
  await screenshot(page, "search");
  await page.goto(`${BASE}/s?q=${encodeURIComponent(facts.search.q)}&rating=4`);
  assert.equal(await page.getByTestId("result-count").getAttribute("data-count"), String(facts.search.four_up));
  const ratings = (await data('[data-testid="product-card"]', ["rating"])).map((x) => Number(x.rating));
  assert.ok(ratings.every((r) => r >= 40));
  await page.goto(`${BASE}/s?dept=home&sort=price_asc`);
  const prices = (await data('[data-testid="product-card"]', ["price"])).map((x) => Number(x.price));
  assert.ok(prices.length > 5 && prices.every((p, i) => i === 0 || prices[i - 1] <= p), "ascending prices");
  await page.goto(`${BASE}/s?dept=home&min=abc`);
  await page.getByTestId("search-error").waitFor();
});

test("buy: variant, quantity two, checkout total = catalogue price x 2 + shipping rule; the card is charged", async () => {
  const b = facts.buy;
  await page.goto(`${BASE}/p/${b.slug}`);
  assert.equal(await page.getByTestId("product").getAttribute("data-price"), String(b.first_price_cents));
  await page.locator(`a[href="/p/${b.slug}?v=${b.sku}"]`).click();
  await page.waitForURL(new RegExp(`v=${b.sku}`));
  assert.equal(await page.getByTestId("product").getAttribute("data-price"), String(b.unit_cents));
  await screenshot(page, "product");
  await page.locator('[data-testid="add-form"] select[name="qty"]').selectOption("2");
  await page.getByTestId("add-to-cart").click();
  await page.waitForURL(/\/cart/);
  assert.equal(await page.getByTestId("cart-subtotal").getAttribute("data-cents"), String(b.subtotal_cents));
  assert.equal(await page.getByTestId("cart-count").innerText(), "2");
  await page.getByTestId("to-checkout").click();
  await page.waitForURL(/\/checkout/);
  assert.equal(await page.getByTestId("order-total").getAttribute("data-cents"), String(b.total_cents));
  const labels = await page.locator('[data-testid="card"]').allInnerTexts();
  assert.ok(labels[0].includes(facts.card.label), labels[0]);
  await screenshot(page, "checkout");
  await page.getByTestId("place-order").click();
  await page.waitForURL(/\/orders\/SW-\d{3}-\d{7}\?placed=1/);
  assert.equal(await page.getByTestId("order-detail").getAttribute("data-total"), String(b.total_cents));
  assert.equal(await page.getByTestId("cart-count").innerText(), "0");
  assert.match(await page.getByTestId("status").innerText(), /Ordered|Bestellt/);
  await screenshot(page, "order-placed");
});

test("a return inside the window is refunded at once; outside it and twice it is refused", async () => {
  const r = facts.return_inside;
  await page.goto(`${BASE}/orders/${r.order}`);
  const item = page.locator(`[data-testid="item"][data-sku="${r.sku}"]`);
  assert.equal(await item.getAttribute("data-returnable"), "1");
  await item.getByTestId("return-open").click();
  await item.locator('select[name="reason"]').selectOption("no_longer_needed");
  await screenshot(page, "return-form");
  await item.getByTestId("return-submit").click();
  await page.waitForURL(/returned=RMA-/);
  assert.match(await page.locator(`[data-testid="item"][data-sku="${r.sku}"] [data-testid="return-status"]`).innerText(), /RMA-/);
  assert.equal(await page.getByTestId("refunded").count(), 1);
  const itemId = await page.locator(`[data-testid="item"][data-sku="${r.sku}"]`).getAttribute("data-item");
  const again = await post("/api/returns", { item: itemId, order: r.order, reason: "no_longer_needed" });
  assert.match(again.error, /already|bereits/);
  const o = facts.return_outside;
  await page.goto(`${BASE}/orders/${o.order}`);
  const old = page.locator(`[data-testid="item"][data-sku="${o.sku}"]`);
  assert.equal(await old.getAttribute("data-returnable"), "0");
  const refused = await post("/api/returns", { item: await old.getAttribute("data-item"), order: o.order, reason: "no_longer_needed" });
  assert.match(refused.error, /window closed|Rückgabefrist/);
});

test("reorder puts a past order's lines back in the cart", async () => {
  const r = facts.return_inside;
  await page.goto(`${BASE}/orders/${r.order}`);
  await page.getByTestId("reorder").click();
  await page.waitForURL(/\/cart\?reordered=/);
  const skus = (await data('[data-testid="cart-line"]', ["sku"])).map((x) => x.sku);
  assert.ok(skus.includes(r.sku), skus.join(","));
  for (const sku of skus) assert.equal((await post("/api/cart", { action: "update", sku, qty: "0" })).status, 303);
});

test("wish list, Subscribe & Save (then cancel) and a review stored verbatim, shown escaped", async () => {
  const s = facts.subscribe;
  await page.goto(`${BASE}/p/${s.slug}`);
  const was = await page.getByTestId("wishlist-toggle").getAttribute("data-on");
  await page.getByTestId("wishlist-toggle").click();
  await page.waitForLoadState("load");
  assert.notEqual(await page.getByTestId("wishlist-toggle").getAttribute("data-on"), was);
  await page.locator('[data-testid="subscribe-form"] select[name="weeks"]').selectOption("6");
  await page.getByTestId("subscribe").click();
  await page.waitForURL(/\/subscriptions\?subscribed=/);
  const subs = await data('[data-testid="subscription"]', ["sku", "weeks", "status"]);
  assert.deepEqual(subs[0], { sku: s.sku, weeks: "6", status: "active" });
  await screenshot(page, "subscriptions");
  const twice = await post("/api/subscriptions", { action: "subscribe", sku: s.sku, weeks: "4", qty: "1" });
  assert.match(twice.error, /already|bereits/);
  await page.getByRole("button", { name: /Cancel subscription|Abo kündigen/ }).first().click();
  await page.waitForURL(/cancelled=1/);
  const r = facts.return_inside;
  await page.goto(`${BASE}/p/${r.slug}`);
  const form = page.getByTestId("review-form");
  await form.locator('select[name="rating"]').selectOption("4");
  await form.locator('input[name="headline"]').fill("Sturdy <b>and</b> simple");
  await form.locator('textarea[name="body"]').fill("Works as described. <b>not bold</b> & no surprises.");
  await form.getByRole("button").click();
  await page.waitForURL(/reviewed=1/);
  const mine = page.locator('[data-testid="review"][data-mine="1"]').first();
  assert.match(await mine.innerText(), /<b>not bold<\/b> & no surprises/);
  assert.equal(await mine.locator("b", { hasText: "not bold" }).count(), 0);
  assert.equal(await page.getByTestId("review-form").count(), 0, "one review per product");
  await screenshot(page, "review");
});

test("a new delivery address for a present: refused when incomplete, then saved and offered at checkout", async () => {
  const g = facts.gift_address;
  await page.goto(`${BASE}/account?back=/checkout`);
  await page.locator("#new-address summary").click();
  const form = page.getByTestId("address-form");
  await form.locator('input[name="name"]').fill(g.name);
  await form.locator('input[name="street"]').fill(g.street);
  await form.locator('input[name="city"]').fill(g.city);
  if (g.region) await form.locator('input[name="region"]').fill(g.region);
  await form.locator('input[name="postcode"]').fill("??");
  await page.getByTestId("address-save").click();
  await page.getByTestId("error").waitFor();
  assert.equal(await page.locator(`[data-testid="saved-address"][data-name="${g.name}"]`).count(), 0);
  const again = page.getByTestId("address-form");
  await again.locator('input[name="name"]').fill(g.name);
  await again.locator('input[name="street"]').fill(g.street);
  await again.locator('input[name="city"]').fill(g.city);
  if (g.region) await again.locator('input[name="region"]').fill(g.region);
  await again.locator('input[name="postcode"]').fill(g.postcode);
  await again.locator('input[name="label"]').fill(g.label);
  assert.equal((await post("/api/cart", { action: "add", sku: facts.buy.sku, qty: "1" })).status, 303);
  await page.getByTestId("address-save").click();
  await page.waitForURL(/\/checkout\?address=\d+&saved=1/);
  const picked = page.locator('[data-testid="address"] input:checked');
  assert.equal(await picked.locator("xpath=ancestor::label").getAttribute("data-name"), g.name);
  assert.ok((await picked.locator("xpath=ancestor::label").innerText()).includes(g.line));
  await screenshot(page, "checkout-gift-address");
  assert.equal((await post("/api/cart", { action: "update", sku: facts.buy.sku, qty: "0" })).status, 303);
});

test("bad input is refused with a message and changes nothing", async () => {
  const b = facts.buy;
  assert.match((await post("/api/cart", { action: "add", sku: b.sku, qty: "99" })).error, /quantity|Menge|1 to 10/i);
  assert.match((await post("/api/cart", { action: "add", sku: "NOPE-1", qty: "1" })).error, /option/i);
  assert.match((await post("/api/orders", { address: "1", card: "1" })).error, /empty|leer/i);
  assert.equal((await post("/api/cart", { action: "add", sku: b.sku, qty: "1" })).status, 303);
  assert.match((await post("/api/orders", { address: "1", card: "999" })).error, /card|Karte/i);
  assert.match((await post("/api/orders", { address: "x", card: "1" })).error, /address|Lieferadresse/i);
  assert.equal((await post("/api/cart", { action: "update", sku: b.sku, qty: "0" })).status, 303);
  assert.match((await post("/api/reviews", { product: "SWNOPE", rating: "5", headline: "x", body: "long enough body" })).error, /exist/);
  assert.match((await post("/api/subscriptions", { action: "subscribe", sku: facts.subscribe.sku, weeks: "3", qty: "1" })).error, /2, 4, 6|2, 4, 6 oder 8/);
  assert.match((await post("/api/returns", { item: "1", order: facts.in_transit[0], reason: "bogus" })).error, /reason|Grund|delivered|geliefert/i);
  const anon = await post("/api/cart", { action: "add", sku: b.sku, qty: "1" }, { withCookie: false });
  assert.equal(anon.location, "/login");
});
