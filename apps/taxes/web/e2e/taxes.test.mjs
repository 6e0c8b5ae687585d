// Ledgerleaf Tax end to end, in headless Chromium against the production server (clock at the world's now).
//
// APP_FACTS (tests/apps/taxes/test_web.py) holds values computed from the persona's WORLD: the employer's form's wages
// and withholding (the paychecks' sums), the issued forms, the refund importing them gives, last year's return.
// Start a return, import the forms, refuse a bad amount, save and sign out, sign back in where it was left, review
// and file. tests/apps/taxes/test_web.py then reads what the app left behind.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { appFetch, facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const BASE = facts.base_url;

let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn("ll_session", facts.session_token, { timeout: 15_000 }));
});

after(async () => {
  await browser?.close();
});

test("home greets the persona, offers this year's return and last year's filed return as a PDF", async () => {
  await page.goto(`${BASE}/`);
  await page.getByRole("heading", { name: `Welcome back, ${facts.first_name}` }).waitFor();
  await page.getByTestId("start").waitFor();
  const rows = await page.getByTestId("returns").locator("tr").allInnerTexts();
  assert.equal(rows.length, 1);
  assert.ok(rows[0].includes(facts.last_year.label) && rows[0].includes(facts.last_year.confirmation), rows[0]);
  assert.ok(rows[0].includes(facts.last_year.amount_text), rows[0]);
  const res = await appFetch(`${BASE}/api/returns/${facts.last_year.id}/pdf`, { headers: { cookie: `ll_session=${facts.session_token}` } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/pdf");
  assert.ok((await res.text()).startsWith("%PDF-"));
  await screenshot(page, "home");
});

test("personal info is prefilled from the profile; saving moves to income", async () => {
  await page.getByTestId("start").click();
  await page.waitForURL(/\/return\/personal/);
  assert.equal(await page.locator('input[name="first_name"]').inputValue(), facts.first_name);
  assert.equal(await page.locator('input[name="city"]').inputValue(), facts.city);
  await screenshot(page, "personal");
  await page.getByRole("button", { name: facts.words.next }).click();
  await page.waitForURL(/\/return\/income/);
});

test("importing the issued forms fills the boxes with the paychecks' sums", async () => {
  for (const form of facts.forms) {
    await page.getByTestId(`import-${form}`).click();
    await page.waitForURL((u) => (u.searchParams.get("imported") ?? "").startsWith(`${form} `));
  }
  assert.equal(await page.locator(`input[name="${facts.wage_field}"]`).inputValue(), facts.wages_text);
  assert.equal(await page.locator(`input[name="${facts.withheld_field}"]`).inputValue(), facts.withheld_text);
  assert.equal(await page.getByTestId("meter-amount").innerText(), facts.refund_text);
  await screenshot(page, "income-imported");
});

test("a bad amount is refused with a message and nothing is saved", async () => {
  await page.locator(`input[name="${facts.wage_field}"]`).fill("12x,5");
  await page.getByRole("button", { name: facts.words.next }).click();
  await page.waitForURL(/error=/);
  const alert = await page.locator(".ll-alert").innerText();
  assert.ok(alert.includes("12x,5"), alert);
  assert.match(new URL(page.url()).pathname, /\/return\/income/);
  // The form shows the stored value again: the refused post wrote nothing.
  assert.equal(await page.locator(`input[name="${facts.wage_field}"]`).inputValue(), facts.wages_text);
  await screenshot(page, "income-refused");
});

test("a draft persists across sign-out: the step left on and every value", async () => {
  await page.getByRole("button", { name: facts.words.next }).click();
  await page.waitForURL(/\/return\/deductions/);
  await page.locator('input[name="donations"]').fill(facts.donation_text);
  await page.getByRole("button", { name: facts.words.exit }).click();
  await page.waitForURL((u) => u.pathname === "/");
  await page.getByRole("button", { name: facts.words.signOut }).click();
  await page.waitForURL(/\/login/);
  await page.locator('input[name="username"]').fill(facts.username);
  await page.locator('input[name="password"]').fill(facts.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname === "/");
  assert.ok((await page.getByTestId("left-on").innerText()).includes(facts.words.deductions));
  await page.getByTestId("continue").click();
  await page.waitForURL(/\/return\/deductions/);
  assert.equal(await page.locator('input[name="donations"]').inputValue(), facts.donation_text);
  await page.goto(`${BASE}/return/income`);
  assert.equal(await page.locator(`input[name="${facts.wage_field}"]`).inputValue(), facts.wages_text);
  await screenshot(page, "resumed");
});

test("review shows the result; filing needs the signature, then gives a confirmation", async () => {
  await page.goto(`${BASE}/return/deductions`);
  await page.locator('input[name="donations"]').fill("");
  await page.getByRole("button", { name: facts.words.next }).click();
  await page.waitForURL(/\/return\/review/);
  assert.equal(await page.getByTestId("result").innerText(), facts.refund_text);
  await screenshot(page, "review");
  await page.goto(`${BASE}/return/file`);
  await page.locator('input[name="consent"]').check();
  await page.locator('input[name="signature"]').fill("Someone Else");
  await page.getByRole("button", { name: facts.words.fileNow }).click();
  await page.waitForURL(/error=/);
  assert.ok((await page.locator(".ll-alert").innerText()).includes(facts.full_name));
  await page.locator('input[name="consent"]').check();
  await page.locator('input[name="signature"]').fill(facts.full_name);
  await page.getByRole("button", { name: facts.words.fileNow }).click();
  await page.waitForURL(/done=filed/);
  const confirmation = await page.getByTestId("confirmation").innerText();
  assert.match(confirmation, /^[0-9A-F]{12}$/);
  assert.ok((await page.getByTestId("next-money").innerText()).includes(facts.refund_text));
  await screenshot(page, "filed");
});
