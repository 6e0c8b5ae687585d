// DashBite end to end, in headless Chromium against the production server (clock at the world's day, 18:30).
//
// APP_FACTS (tests/apps/delivery/test_web.py) holds values computed from the persona's WORLD and DashBite's
// catalogue (builder/world/delivery.py): the history's count and total, a month's count, the last order to
// the cent, a cart's prices with options, promo outcomes, the usual order's reorder total. The tests run in
// order: sign-in, reads, search, the cart and checkout (promo refusals, SAVE5, tip 15 %, place), the bank's
// pending line, reorder the usual in one click, rate, bad input. tests/apps/delivery/test_web.py then reads what
// the app and the bank wrote.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("dash_session", facts.session_token, { timeout: 20_000 }));
});

after(async () => {
  await browser?.close();
});

const cookie = () => `dash_session=${facts.session_token}`;

async function post(path, fields) {
  const body = new URLSearchParams();
  for (const [k, v] of fields) body.append(k, v);
  const res = await appFetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: body.toString(),
  });
  const location = res.headers.get("location") ?? "";
  return { status: res.status, location, error: new URL(location || "/", BASE).searchParams.get("error") ?? "" };
}

const cents = async (testid, root = page) => Number(await root.getByTestId(testid).first().getAttribute("data-cents"));

test("sign-in page accepts the persona's credentials", async () => {
  const ctx2 = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const p2 = await ctx2.newPage();
  await p2.goto(`${BASE}/orders`);
  assert.match(p2.url(), /\/login/);
  await screenshot(p2, "00-login");
  await p2.fill('input[name="username"]', facts.username);
  await p2.fill('input[name="password"]', "wrong-password");
  await p2.click('button[type="submit"]');
  await p2.locator(".dbt-alert").waitFor();
  await p2.fill('input[name="password"]', facts.password);
  await p2.click('button[type="submit"]');
  await p2.getByTestId("restaurant-card").first().waitFor();
  await ctx2.close();
});

test("home: the usual order and every restaurant of the city", async () => {
  await page.goto(`${BASE}/`);
  const usual = page.getByTestId("usual-card");
  assert.match(await usual.innerText(), new RegExp(facts.usual.restaurant));
  assert.equal(await page.getByTestId("usual-items").innerText(), facts.usual.items.join(" · "));
  assert.equal(Number(await page.getByTestId("restaurant-count").innerText()), facts.restaurant_count);
  assert.equal(await page.getByTestId("restaurant-card").count(), facts.restaurant_count);
  await screenshot(page, "01-home");
});

test("search and cuisine filter", async () => {
  await page.goto(`${BASE}/?q=${encodeURIComponent(facts.search.q)}`);
  assert.ok((await page.getByTestId("restaurant-card").allInnerTexts()).some((t) => t.includes(facts.search.expect)));
  await page.goto(`${BASE}/?cuisine=${encodeURIComponent(facts.search.cuisine)}`);
  assert.equal(await page.getByTestId("restaurant-card").count(), facts.search.cuisine_count);
  await page.goto(`${BASE}/?q=zzzz-no-such-dish`);
  assert.equal(await page.getByTestId("restaurant-card").count(), 0);
  await page.getByText("No restaurants match").waitFor();
});

test("order history is the world's: count, total, a month", async () => {
  await page.goto(`${BASE}/orders`);
  assert.equal(Number(await page.getByTestId("order-count").innerText()), facts.history.count);
  assert.equal(await cents("order-total"), facts.history.total_cents);
  await screenshot(page, "02-orders");
  await page.goto(`${BASE}/orders?month=${facts.history.month}`);
  assert.equal(await page.getByTestId("order-row").count(), facts.history.month_count);
});

test("the last order equals the world's to the cent", async () => {
  const l = facts.last;
  await page.goto(`${BASE}/orders`);
  await page.locator(`[data-order-id="${l.order_id}"] a`).first().click();
  await page.getByTestId("order").waitFor();
  assert.equal(await page.getByTestId("order-id").innerText(), l.order_id);
  const names = await page.getByTestId("line-name").allInnerTexts();
  assert.deepEqual(names, l.items.map((x) => x.name));
  const qtys = (await page.getByTestId("line-qty").allInnerTexts()).map(Number);
  assert.deepEqual(qtys, l.items.map((x) => x.qty));
  const prices = await page.getByTestId("line-price").evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-cents"))));
  assert.deepEqual(prices, l.items.map((x) => x.line_cents));
  for (const [id, key] of [["subtotal", "subtotal_cents"], ["delivery", "delivery_fee_cents"], ["service", "service_fee_cents"], ["tip", "tip_cents"], ["total", "total_cents"]]) {
    assert.equal(await cents(id), l[key], id);
  }
  assert.equal(await page.getByTestId("total").innerText(), l.total_text);
  assert.equal(await page.getByTestId("address").innerText(), l.delivery_address);
  assert.equal(await page.getByTestId("track").getAttribute("data-state"), "delivered");
  await screenshot(page, "03-last-order");
});

test("cart: a dish with options and instructions, a plain dish; promo rules; tip; place the order", async () => {
  const c = facts.cart;
  await page.goto(`${BASE}/store/${c.slug}`);
  assert.equal(await page.getByTestId("restaurant-name").innerText(), c.restaurant);
  await screenshot(page, "04-store");
  await page.locator(`[data-dish-id="${c.dish_id}"] a.dbt-dish-name`).click();
  await page.getByTestId("item-form").waitFor();
  assert.equal(await page.getByTestId("item-name").innerText(), c.dish);
  for (const id of c.option_ids) await page.getByTestId("item-form").locator(`input[value="${id}"]`).check();
  await page.fill('input[name="qty"]', String(c.qty));
  await page.fill('textarea[name="instructions"]', c.instructions);
  await screenshot(page, "05-item-options");
  await page.getByTestId("add-to-cart").click();
  await page.getByTestId("added").waitFor();
  await page.locator(`[data-dish-id="${c.plain_id}"] button.dbt-add`).click();
  await page.getByTestId("added").waitFor();
  assert.equal(Number(await page.getByTestId("cart-count").innerText()), c.qty + 1);
  await page.goto(`${BASE}/checkout`);
  const lines = await page.getByTestId("cart-line").evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-cents"))));
  assert.deepEqual(lines, [c.qty * c.unit_cents, c.plain_cents]);
  // The instructions render as text, never as markup.
  assert.ok((await page.getByTestId("cart-line").first().innerText()).includes(c.instructions));
  assert.equal(await page.locator(".dbt-line b").count(), 0);
  assert.equal(await cents("subtotal"), c.before.subtotal_cents);
  // An expired code, a first-order code: refused, the totals without a discount.
  for (const [code, why] of [["HARVEST10", /expired/], ["WELCOME20", /first order/], ["NOPE42", /isn't a DashBite promo code/]]) {
    await page.fill('input[name="promo"]', code);
    await page.getByTestId("update-totals").click();
    assert.match(await page.getByTestId("error").innerText(), why);
    assert.equal(await page.getByTestId("discount").count(), 0);
  }
  await page.fill('input[name="promo"]', "SAVE5");
  await page.locator(`input[name="tip"][value="${c.tip_percent}"]`).check();
  await page.getByTestId("update-totals").click();
  assert.equal(await page.getByTestId("error").count(), 0);
  const w = c.with_save5;
  for (const [id, key] of [["subtotal", "subtotal_cents"], ["discount", "discount_cents"], ["delivery", "delivery_fee_cents"], ["service", "service_fee_cents"], ["tip", "tip_cents"], ["total", "total_cents"]]) {
    assert.equal(await cents(id), w[key], id);
  }
  await page.fill('input[name="dropoff"]', c.dropoff);
  await screenshot(page, "06-checkout");
  await page.getByTestId("place-order").click();
  await page.getByTestId("placed").waitFor();
  assert.equal(await cents("total"), w.total_cents);
  assert.ok(["placed", "preparing"].includes(await page.getByTestId("track").getAttribute("data-state")));
  await screenshot(page, "07-tracking");
});

test("reorder the usual in one click: a new order at catalogue prices and the usual tip", async () => {
  await page.goto(`${BASE}/`);
  await page.getByTestId("reorder-usual").click();
  await page.getByTestId("placed").waitFor();
  const r = facts.usual.reorder;
  for (const [id, key] of [["subtotal", "subtotal_cents"], ["delivery", "delivery_fee_cents"], ["service", "service_fee_cents"], ["tip", "tip_cents"], ["total", "total_cents"]]) {
    assert.equal(await cents(id), r[key], id);
  }
  assert.deepEqual(await page.getByTestId("line-name").allInnerTexts(), facts.usual.items);
  await screenshot(page, "08-reordered");
});

test("rate a recent order once", async () => {
  if (!facts.rate) return;
  await page.goto(`${BASE}/orders`);
  await page.locator(`[data-order-id="${facts.rate.order_id}"] a`).first().click();
  await page.getByTestId("rate-form").waitFor();
  await page.locator('input[name="stars"][value="4"]').check();
  await page.fill('textarea[name="comment"]', "Good, <i>a bit</i> late");
  await page.getByRole("button", { name: "Rate order" }).click();
  await page.getByTestId("rating").waitFor();
  assert.equal(await page.getByTestId("rating").getAttribute("data-stars"), "4");
  const again = await post(page.url().replace(BASE, "").split("?")[0].replace("/orders/", "/api/orders/") + "/rate", [["stars", "5"], ["comment", ""]]);
  assert.match(again.error, /already rated/);
});

test("bad input is refused and changes nothing", async () => {
  const item = await post("/api/cart", [["action", "add"], ["item", "999999"], ["qty", "1"]]);
  assert.match(item.error, /isn't on the menu/);
  const empty = await post("/api/orders", [["address", "1"], ["when", "now"], ["tip", "15"], ["card", "1"]]);
  assert.match(empty.error, /cart is empty/);
  const res = await appFetch(`${BASE}/store/${facts.cart.slug}`, { headers: { cookie: cookie() } });
  const html = await res.text();
  const mid = html.match(/href="\/store\/[^"/]+\/item\/(\d+)"/)[1];
  const qty = await post("/api/cart", [["action", "add"], ["item", mid], ["qty", "0"]]);
  assert.match(qty.error, /Quantity/);
  const bogus = await post("/api/cart", [["action", "add"], ["item", mid], ["qty", "1"], ["option", "size:galactic"]]);
  assert.match(bogus.error, /has no option|Choose/);
  const plain = html.match(new RegExp(`data-dish-id="${facts.cart.plain_id}"[\\s\\S]*?name="item" value="(\\d+)"`))[1];
  const ok = await post("/api/cart", [["action", "add"], ["item", plain], ["qty", "1"]]);
  assert.equal(ok.status, 303);
  assert.equal(ok.error, "");
  const past = await post("/api/orders", [["address", "1"], ["when", "later"], ["at", `${facts.now.slice(0, 10)}T08:00`], ["tip", "15"], ["card", "1"]]);
  assert.match(past.error, /earliest delivery/);
  const far = await post("/api/orders", [["address", "1"], ["when", "later"], ["at", "2099-01-01T19:00"], ["tip", "15"], ["card", "1"]]);
  assert.match(far.error, /up to 7 days/);
  const tip = await post("/api/orders", [["address", "1"], ["when", "now"], ["tip", "37"], ["card", "1"]]);
  assert.match(tip.error, /Choose a tip/);
  const card = await post("/api/orders", [["address", "1"], ["when", "now"], ["tip", "15"], ["card", "99"]]);
  assert.match(card.error, /card/);
  await post("/api/cart", [["action", "clear"]]);
  await page.goto(`${BASE}/checkout`);
  await page.getByText("Your cart is empty.").waitFor();
  await page.goto(`${BASE}/account`);
  assert.equal(await page.getByTestId("card-row").first().getAttribute("data-last4"), facts.card.last4);
  await screenshot(page, "09-account");
});
