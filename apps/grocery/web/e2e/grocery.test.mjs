// Basketful end to end, in headless Chromium against the production server (clock frozen at the world's now).
//
// APP_FACTS (tests/apps/grocery/test_web.py) holds values computed from the persona's WORLD and from
// builder/world/grocery.py: the order history (count, the last order's id, store, total, items), a product's
// price at each store, a three-product basket's subtotal at every store (the price comparison), the checkout's
// total with the persona's tip, the delivery window with one seat left and a full one. The tests run in order:
// sign-in, reads, shelves and search, cart and comparison, bad input, checkout (the seat), the second booking of
// the now-full window refused, reorder, lists. tests/apps/grocery/test_web.py then reads the bank's pending line and
// the confirmation mail.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;
const usual = facts.usual;
const usualName = facts.stores.find((s) => s.key === usual).name;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("bf_session", facts.session_token, { timeout: 20_000 }));
});

after(async () => {
  await browser?.close();
});

async function post(path, fields) {
  const res = await appFetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: `bf_session=${facts.session_token}` },
    body: new URLSearchParams(fields).toString(),
  });
  const location = res.headers.get("location") ?? "";
  return { status: res.status, location, error: new URL(location || "/", BASE).searchParams.get("error") ?? "" };
}

test("sign-in page accepts the persona's credentials and refuses a wrong password", async () => {
  const ctx2 = await browser.newContext();
  const p2 = await ctx2.newPage();
  await p2.goto(`${BASE}/`);
  assert.match(p2.url(), /\/login/);
  await p2.fill('input[name="username"]', facts.username);
  await p2.fill('input[name="password"]', "wrong-password");
  await p2.click('button[type="submit"]');
  await p2.locator(".bf-alert").waitFor();
  await screenshot(p2, "00-login-refused");
  await p2.fill('input[name="password"]', facts.password);
  await p2.click('button[type="submit"]');
  await p2.getByTestId("stores").waitFor();
  await ctx2.close();
});

test("the store picker lists the four stores and the world's last order", async () => {
  await page.goto(`${BASE}/`);
  const keys = await page.getByTestId("store").evaluateAll((els) => els.map((e) => e.getAttribute("data-key")));
  assert.deepEqual(keys, facts.stores.map((s) => s.key));
  const last = await page.getByTestId("last-order").innerText();
  assert.ok(last.includes(facts.history.last_store) && last.includes(facts.history.last_total), last);
  await screenshot(page, "01-stores");
});

test("order history equals the world's grocery orders; the last order's receipt", async () => {
  await page.goto(`${BASE}/orders`);
  assert.equal(await page.getByTestId("order").count(), facts.history.count);
  const first = page.getByTestId("order").first();
  assert.equal(await first.getAttribute("data-id"), facts.history.last_id);
  assert.equal(await first.getByTestId("order-total").innerText(), facts.history.last_total);
  await screenshot(page, "02-orders");
  await page.goto(`${BASE}/orders/${facts.history.last_id}`);
  assert.equal(await page.getByTestId("total").innerText(), facts.history.last_total);
  assert.equal(await page.getByTestId("item").count(), facts.history.last_items);
  await screenshot(page, "03-order");
});

test("a store's shelves: aisles, search, brand and price filters, unit prices", async () => {
  await page.goto(`${BASE}/store/${usual}`);
  assert.ok((await page.getByTestId("product").count()) >= 40);
  await screenshot(page, "04-store");
  await page.fill('input[name="q"]', facts.product.title);
  await page.press('input[name="q"]', "Enter");
  await page.waitForURL(/q=/);
  const ids = await page.getByTestId("product").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
  assert.ok(ids.includes(facts.product.id), ids.join(","));
  const tile = page.locator(`[data-testid="product"][data-id="${facts.product.id}"]`);
  assert.equal(await tile.getByTestId("price").innerText(), facts.product.prices[usual]);
  assert.match(await tile.locator(".bf-unit").innerText(), /\/(oz|fl oz|l|kg|100 ml|100 g|ct)$/);
  await screenshot(page, "05-search");
  await page.goto(`${BASE}/store/${usual}?aisle=yogurt&max=2`);
  const prices = await page.getByTestId("price").allInnerTexts();
  assert.ok(prices.length > 0);
  for (const p of prices) assert.ok(Number(p.replace(/[^0-9.]/g, "")) <= 2, p);
  await screenshot(page, "05b-filtered");
});

test("a product page shows the same product's price at every store", async () => {
  await page.goto(`${BASE}/product/${facts.product.id}?store=${usual}`);
  const rows = page.getByTestId("store-prices").locator("tr");
  assert.equal(await rows.count(), facts.stores.length);
  for (const s of facts.stores) {
    const row = rows.filter({ hasText: s.name });
    assert.equal(await row.locator("td").nth(1).innerText(), facts.product.prices[s.key], s.name);
  }
  await screenshot(page, "06-product");
});

test("cart per store: add the basket, the comparison across stores, substitution preference", async () => {
  for (const b of facts.basket) {
    await page.goto(`${BASE}/product/${b.id}?store=${usual}`);
    await page.fill('input[name="qty"]', String(b.qty));
    await page.getByRole("button", { name: "Add to cart" }).click();
    await page.getByTestId("added").waitFor();
  }
  await page.goto(`${BASE}/cart?store=${usual}`);
  assert.equal(await page.getByTestId("cart-line").count(), facts.basket.length);
  assert.equal(await page.getByTestId("subtotal").innerText(), facts.checkout.subtotal);
  for (const s of facts.stores) {
    const cell = page.getByTestId("compare").locator(`tr[data-key="${s.key}"]`).getByTestId("compare-subtotal");
    assert.equal(await cell.innerText(), facts.compare[s.key], s.name);
  }
  const line = page.locator(`[data-testid="cart-line"][data-id="${facts.basket[0].id}"]`);
  await line.locator('select[name="substitution"]').selectOption("none");
  await line.getByRole("button", { name: "Update" }).click();
  await page.waitForURL(/\/cart\?store=/);
  assert.match(await page.locator(`[data-testid="cart-line"][data-id="${facts.basket[0].id}"]`).innerText(), /Don't substitute/);
  assert.equal(await page.getByTestId("total").innerText(), facts.checkout.total);
  await page.locator(".bf-tip", { hasText: "10%" }).click();
  assert.equal(await page.getByTestId("total").innerText(), facts.checkout.total_tip10);
  // Any tip: "Other amount" takes what is typed, and the tip and total lines follow it.
  await page.getByTestId("tip-amount").fill("7.25");
  assert.equal(await page.getByTestId("tip").innerText(), facts.checkout.tip_custom);
  assert.equal(await page.getByTestId("total").innerText(), facts.checkout.total_custom);
  await screenshot(page, "07-cart-tip");
  await page.locator(".bf-tip", { hasText: `${facts.checkout.tip_percent}%` }).first().click();
  assert.equal(await page.getByTestId("total").innerText(), facts.checkout.total);
  await screenshot(page, "07-cart");
});

test("pickup: the store's pickup windows, no delivery fee and no tip", async () => {
  await page.goto(`${BASE}/cart?store=${usual}&fulfilment=pickup`);
  assert.match(await page.locator(".bf-windows legend").innerText(), /Pickup window/);
  assert.ok((await page.getByTestId("window").count()) > 0);
  assert.equal(await page.locator(".bf-tips").count(), 0);
  assert.doesNotMatch(await page.getByTestId("totals").innerText(), /Delivery fee|Tip/);
  await screenshot(page, "07b-pickup");
});

test("bad input is refused with a message and nothing changes", async () => {
  const bad = [
    ["/api/cart", { action: "add", store: usual, product: "BK00000000", qty: "1" }, /isn't in the catalogue/],
    ["/api/cart", { action: "add", store: usual, product: facts.basket[1].id, qty: "lots" }, /whole number/],
    ["/api/cart", { action: "add", store: "nowhere", product: facts.basket[1].id, qty: "1" }, /Choose a store/],
    ["/api/checkout", { store: usual, fulfilment: "delivery", window: String(facts.window_full), tip: "100", card: "1", instructions: "" }, /full/],
    ["/api/checkout", { store: usual, fulfilment: "drone", window: String(facts.window_one_left), tip: "100", card: "1", instructions: "" }, /delivery or pickup/],
    ["/api/checkout", { store: usual, fulfilment: "delivery", window: String(facts.window_one_left), tip: "-5", card: "1", instructions: "" }, /tip/],
    ["/api/checkout", { store: usual, fulfilment: "delivery", window: String(facts.window_one_left), tip: "custom", tip_amount: "a fiver", card: "1", instructions: "" }, /amount, like 4\.50/],
    ["/api/checkout", { store: usual, fulfilment: "delivery", window: String(facts.window_one_left), tip: "100", card: "99", instructions: "" }, /card/],
    ["/api/lists", { action: "create", name: "   " }, /name/],
    ["/api/reorder", { order: "BF000000000" }, /isn't in your history/],
  ];
  for (const [path, fields, want] of bad) {
    const r = await post(path, fields);
    assert.equal(r.status, 303, path);
    assert.match(r.error, want, `${path} ${JSON.stringify(fields)} -> ${r.location}`);
  }
  await page.goto(`${BASE}/cart?store=${usual}`);
  assert.equal(await page.getByTestId("subtotal").innerText(), facts.checkout.subtotal);
  const full = page.locator(`[data-testid="window"][data-window="${facts.window_full}"]`);
  assert.equal(await full.getAttribute("data-full"), "1");
  assert.ok(await full.locator("input").isDisabled());
});

test("checkout books the window's last seat, charges the card and shows the order", async () => {
  await page.goto(`${BASE}/cart?store=${usual}`);
  await page.locator(`[data-testid="window"][data-window="${facts.window_one_left}"]`).click();
  await screenshot(page, "08-checkout");
  await page.getByRole("button", { name: "Place order" }).click();
  await page.getByTestId("placed").waitFor();
  assert.equal(await page.getByTestId("total").innerText(), facts.checkout.total);
  assert.equal(await page.getByTestId("status").innerText(), "Order placed");
  await screenshot(page, "09-placed");
  await page.goto(`${BASE}/orders`);
  assert.equal(await page.getByTestId("order").count(), facts.history.count + 1);
});

test("the window is now full: a second order for it is refused and nothing is charged", async () => {
  const add = await post("/api/cart", { action: "add", store: usual, product: facts.basket[1].id, qty: "1" });
  assert.equal(add.error, "");
  const r = await post("/api/checkout", { store: usual, fulfilment: "delivery", window: String(facts.window_one_left), tip: "100", card: "1", instructions: "" });
  assert.match(r.error, /full/);
  await page.goto(`${BASE}/cart?store=${usual}`);
  const w = page.locator(`[data-testid="window"][data-window="${facts.window_one_left}"]`);
  assert.equal(await w.getAttribute("data-full"), "1");
  await page.locator(`[data-testid="cart-line"]`).first().locator('input[name="qty"]').fill("0");
  await page.locator(`[data-testid="cart-line"]`).first().getByRole("button", { name: "Update" }).click();
  await page.waitForURL(/\/cart\?store=/);
  assert.equal(await page.getByTestId("cart-line").count(), 0);
});

test("two checkouts racing for a window's last seat: one order, the other refused", async () => {
  const add = await post("/api/cart", { action: "add", store: usual, product: facts.basket[2].id, qty: "1" });
  assert.equal(add.error, "");
  const fields = { store: usual, fulfilment: "delivery", window: String(facts.window_race), tip: "100", card: "1", instructions: "" };
  const [a, b] = await Promise.all([post("/api/checkout", fields), post("/api/checkout", fields)]);
  const won = [a, b].filter((r) => r.error === "");
  const lost = [a, b].filter((r) => r.error !== "");
  assert.equal(won.length, 1, `${a.location} | ${b.location}`);
  assert.match(won[0].location, /\/orders\/BF\d{9}\?placed=1/);
  assert.match(lost[0].error, /full|filled up|empty/);
});

test("reorder puts the last world basket into its store's cart", async () => {
  await page.goto(`${BASE}/orders/${facts.history.last_id}`);
  await page.getByTestId("reorder").click();
  await page.waitForURL(/reordered=/);
  const ids = await page.getByTestId("cart-line").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")).sort());
  assert.deepEqual(ids, facts.history.last_skus);
  await screenshot(page, "10-reorder");
});

test("shopping lists: create one, save a product, move it into a cart", async () => {
  await page.goto(`${BASE}/lists`);
  await page.getByTestId("list-item").first().waitFor();
  await page.fill('[data-testid="new-list"] input[name="name"]', "Party snacks");
  await page.getByRole("button", { name: "Create list" }).click();
  await page.waitForURL(/list=\d+/);
  assert.equal(await page.getByTestId("list-name").innerText(), "Party snacks");
  await page.goto(`${BASE}/product/${facts.product.id}?store=${usual}`);
  await page.locator('select[name="list"]').selectOption({ label: "Party snacks" });
  await page.getByRole("button", { name: "Save" }).click();
  await page.waitForURL(/listed=/);
  await page.goto(`${BASE}/lists?list=${new URL(page.url()).searchParams.get("listed")}`);
  assert.equal(await page.getByTestId("list-item").count(), 1);
  await screenshot(page, "11-list");
  await page.getByRole("button", { name: new RegExp(`Add all to my ${usualName}`) }).click();
  await page.waitForURL(/from_list=/);
  const ids = await page.getByTestId("cart-line").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
  assert.ok(ids.includes(facts.product.id));
});
