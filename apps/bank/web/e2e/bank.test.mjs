// Larkspur Bank end to end, in headless Chromium against the production server.
//
// APP_FACTS names a JSON file of expected values computed from the persona's world by
// tests/apps/bank/test_web.py (credentials, closing balances, filter counts, statement totals,
// balances after each action), plus base_url. The tests run in order: reads first, then
// the money movements, each checked against the world's numbers.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { openSignedIn } from "@persona/platform/testing";

const facts = JSON.parse(fs.readFileSync(process.env.APP_FACTS ?? "", "utf8"));
const BASE = facts.base_url;
const HOST = new URL(BASE).hostname;
const ARTIFACTS = process.env.APP_ARTIFACTS;
const A = facts.accounts;

let browser;
let page; // signed in by the seeded session cookie, as the persona's Firefox is

before(async () => {
  ({ browser, page } = await openSignedIn("lb_session", facts.session_token, { timeout: 15_000 }));
});

after(async () => {
  await browser?.close();
});

async function shot(name) {
  if (!ARTIFACTS) return;
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

const text = async (locator) => (await locator.first().innerText()).trim();

async function balances() {
  await page.goto(`${BASE}/accounts`);
  return {
    checking: await text(page.locator('[data-testid="account-card-checking"] [data-testid="balance"]')),
    savings: await text(page.locator('[data-testid="account-card-savings"] [data-testid="balance"]')),
    card: await text(page.locator('[data-testid="account-card-credit_card"] [data-testid="balance"]')),
  };
}

async function accountHref(kind) {
  await page.goto(`${BASE}/accounts`);
  return page.locator(`[data-testid="account-card-${kind}"]`).getAttribute("href");
}

/** Select the option of <select id> whose text contains `needle`. */
async function choose(id, needle) {
  const value = await page.locator(`#${id} option`).evaluateAll((opts, n) => opts.find((o) => o.textContent.includes(n) && !o.disabled)?.value ?? null, needle);
  assert.ok(value, `no option containing ${needle} in #${id}`);
  await page.selectOption(`#${id}`, value);
}

async function resultTotal() {
  return Number(await page.locator('[data-testid="result-count"]').getAttribute("data-total"));
}

async function firstRow(kind) {
  await page.goto(BASE + (await accountHref(kind)));
  return text(page.locator('[data-testid="txn-row"]'));
}

test("the seeded session cookie signs in and shows the world's closing balances", async () => {
  await page.goto(`${BASE}/`);
  assert.equal(new URL(page.url()).pathname, "/");
  await shot("overview");
  const b = await balances();
  assert.equal(b.checking, A.checking.closing_text);
  assert.equal(b.savings, A.savings.closing_text);
  assert.equal(b.card, A.credit_card.owed_text);
  assert.equal(await text(page.locator('[data-testid="account-card-credit_card"] [data-testid="available-credit"]')), A.credit_card.available_text);
  // Account numbers are masked to their last four digits.
  const card = await text(page.locator('[data-testid="account-card-checking"]'));
  assert.match(card, new RegExp(`••••${A.checking.last4}`));
  assert.ok(!(await page.content()).includes(facts.session_token), "the token never appears in the page");
});

test("signed-out visitors are sent to the sign-in page; the form signs in with the password", async () => {
  const anon = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const p = await anon.newPage();
    await p.goto(`${BASE}/transfer`);
    assert.equal(new URL(p.url()).pathname, "/login");
    await anon.addCookies([{ name: "lb_session", value: "not-a-session", domain: HOST, path: "/" }]);
    await p.goto(`${BASE}/accounts`);
    assert.equal(new URL(p.url()).pathname, "/login");

    await p.fill("#username", facts.username);
    await p.fill("#password", "wrong-password");
    await p.click('[data-testid="login-form"] button[type="submit"]');
    await p.waitForURL(/\/login\?/);
    assert.match(await p.locator(".pui-alert-error").innerText(), /incorrect/i);

    await p.fill("#username", facts.username);
    await p.fill("#password", facts.password);
    await p.click('[data-testid="login-form"] button[type="submit"]');
    await p.waitForURL((u) => u.pathname === "/");
    assert.equal(await text(p.locator('[data-testid="account-card-checking"] [data-testid="balance"]')), A.checking.closing_text);

    const cookie = (await anon.cookies()).find((c) => c.name === "lb_session" && c.value !== "not-a-session");
    assert.ok(cookie, "sign-in sets lb_session");
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, "Lax");
    assert.equal(cookie.path, "/");
    assert.equal(cookie.domain, HOST, "host-only cookie");
    assert.equal(cookie.secure, false);

    await p.click('form[action="/api/logout"] button');
    await p.waitForURL(/\/login/);
    await p.goto(`${BASE}/accounts`);
    assert.equal(new URL(p.url()).pathname, "/login", "signing out ends the session");
  } finally {
    await anon.close();
  }
});

test("history: search, date filter and pagination agree with the world", async () => {
  const href = await accountHref("checking");
  await page.goto(BASE + href);
  assert.equal(await resultTotal(), A.checking.lines);
  assert.equal(await page.locator('[data-testid="txn-row"]').count(), Math.min(25, A.checking.lines));
  if (A.checking.lines > 25) {
    await page.click('a[rel="next"]');
    await page.waitForURL(/page=2/);
    assert.match(await text(page.locator('[data-testid="result-count"]')), new RegExp(`26–${Math.min(50, A.checking.lines)} of ${A.checking.lines}`));
  }

  await page.goto(BASE + href);
  await page.fill("#q", facts.search.q);
  await page.press("#q", "Enter");
  await page.waitForURL(/q=/);
  await shot("search");
  assert.equal(await resultTotal(), facts.search.count);
  const rows = page.locator('[data-testid="txn-row"]');
  assert.equal(await rows.count(), Math.min(25, facts.search.count));
  for (const row of await rows.allInnerTexts()) assert.ok(row.toLowerCase().includes(facts.search.q), row);

  await page.goto(BASE + href);
  await page.fill("#from", facts.date_filter.from);
  await page.fill("#to", facts.date_filter.to);
  await page.click('form[role="search"] button[type="submit"]');
  await page.waitForURL(/from=/);
  assert.equal(await resultTotal(), facts.date_filter.count);

  await page.fill("#q", facts.combined.q);
  await page.click('form[role="search"] button[type="submit"]');
  await page.waitForURL((u) => u.searchParams.get("q") === facts.combined.q && u.searchParams.get("from") === facts.combined.from);
  assert.equal(await resultTotal(), facts.combined.count);
  assert.ok(facts.combined.count > 0 && facts.combined.count < facts.date_filter.count && facts.date_filter.count < A.checking.lines);
});

test("statements: the CSV's totals and lines match the world's statement; the PDF downloads", async () => {
  const st = facts.statement;
  await page.goto(`${BASE}/statements`);
  const row = page.locator(`[data-testid="statement-row"][data-period-start="${st.period_start}"]`);
  assert.equal(await row.count(), 1);
  await shot("statements");

  const [csvDl] = await Promise.all([page.waitForEvent("download"), row.locator('[data-testid="download-csv"]').click()]);
  assert.match(csvDl.suggestedFilename(), /\.csv$/);
  const csv = fs.readFileSync(await csvDl.path(), "utf8");
  const lines = csv.trim().split(/\r?\n/);
  const summary = Object.fromEntries(lines.filter((l) => /^[A-Z][a-z ]+,/.test(l)).map((l) => l.split(",")));
  assert.equal(summary["Period start"], st.period_start);
  assert.equal(summary["Period end"], st.period_end);
  assert.equal(summary["Opening balance"], st.opening);
  assert.equal(summary["Total credits"], st.credits);
  assert.equal(summary["Total debits"], st.debits);
  assert.equal(summary["Closing balance"], st.closing);
  const header = lines.indexOf("Date,Description,Category,Type,Amount,Balance");
  assert.ok(header > 0, "CSV has a ledger header");
  const ledger = lines.slice(header + 1);
  assert.equal(ledger.length, st.lines);
  const cents = (s) => Math.round(Number(s) * 100);
  const amounts = ledger.map((l) => cents(l.split(",").at(-2)));
  assert.equal(
    amounts.filter((a) => a > 0).reduce((x, y) => x + y, 0),
    cents(st.credits),
  );
  assert.equal(-amounts.filter((a) => a < 0).reduce((x, y) => x + y, 0), cents(st.debits));
  assert.equal(cents(ledger.at(-1).split(",").at(-1)), cents(st.closing));

  const [pdfDl] = await Promise.all([page.waitForEvent("download"), row.locator('[data-testid="download-pdf"]').click()]);
  const pdfPath = await pdfDl.path();
  const pdf = fs.readFileSync(pdfPath);
  assert.equal(pdf.subarray(0, 5).toString(), "%PDF-");
  let pdfText = null;
  try {
    pdfText = execFileSync("pdftotext", ["-layout", pdfPath, "-"], { encoding: "utf8" });
  } catch {
    // poppler-utils not installed: the byte check above stands.
  }
  if (pdfText !== null) {
    assert.ok(pdfText.includes(st.closing_text), "the PDF shows the statement's closing balance");
    assert.ok(pdfText.includes(`Transactions (${st.lines})`));
  }
});

test("a transfer checking -> savings moves both balances by exactly the amount and shows in both histories", async () => {
  const t = facts.transfer;
  await page.goto(`${BASE}/transfer`);
  await choose("from", A.checking.name);
  await choose("to", A.savings.name);
  await page.fill("#amount", t.amount);
  await page.fill("#memo", "rainy day fund");
  await page.click('[data-testid="transfer-form"] button[type="submit"]');
  await page.waitForURL(/done=/);
  await shot("transfer-done");
  assert.equal(await text(page.locator('[data-testid="receipt-amount"]')), t.amount_text);

  const b = await balances();
  assert.equal(b.checking, t.checking_after_text);
  assert.equal(b.savings, t.savings_after_text);
  assert.equal(b.card, A.credit_card.owed_text);

  const out = await firstRow("checking");
  assert.match(out, /TRANSFER TO SAVINGS/);
  assert.ok(out.includes(`-${t.amount_text}`), out);
  assert.match(out, /rainy day fund/);
  const into = await firstRow("savings");
  assert.match(into, /TRANSFER FROM CHECKING/);
  assert.ok(into.includes(`+${t.amount_text}`), into);
});

test("a transfer over the available balance is refused and moves nothing", async () => {
  await page.goto(`${BASE}/transfer`);
  await choose("from", A.checking.name);
  await choose("to", A.savings.name);
  await page.fill("#amount", facts.transfer.too_much);
  await page.click('[data-testid="transfer-form"] button[type="submit"]');
  await page.waitForURL(/error=/);
  assert.match(await page.locator(".pui-alert-error").first().innerText(), /insufficient funds/i);
  await page.goto(`${BASE}/transfer`);
  await page.fill("#amount", "0");
  await choose("to", A.savings.name);
  await page.click('[data-testid="transfer-form"] button[type="submit"]');
  await page.waitForURL(/error=/);
  assert.match(await page.locator(".pui-alert-error").first().innerText(), /more than zero/i);
  const b = await balances();
  assert.equal(b.checking, facts.transfer.checking_after_text);
  assert.equal(b.savings, facts.transfer.savings_after_text);
});

test("bill pay debits checking and persists as a bill payment", async () => {
  const bill = facts.bill;
  await page.goto(`${BASE}/pay-bills`);
  await choose("payee", bill.payee);
  await page.fill("#amount", bill.amount);
  await page.click('[data-testid="billpay-form"] button[type="submit"]');
  await page.waitForURL(/done=/);
  await shot("billpay-done");
  assert.equal(await text(page.locator('[data-testid="receipt-amount"]')), bill.amount_text);
  assert.equal((await balances()).checking, bill.checking_after_text);
  const row = await firstRow("checking");
  assert.ok(row.includes(`BILL PAY ${bill.payee.toUpperCase()}`), row);
  assert.ok(row.includes(`-${bill.amount_text}`), row);
  await page.goto(`${BASE}/pay-bills`);
  assert.ok((await text(page.locator('[data-testid="activity"] table tbody tr'))).includes(bill.payee.toUpperCase()), "listed in payment activity");
});

test("cards: the world's cards listed; locking one shows it locked on the account, unlocking restores it", async () => {
  await page.goto(`${BASE}/cards`);
  const cards = page.locator('[data-testid="card"]');
  assert.deepEqual(await cards.evaluateAll((els) => els.map((e) => e.dataset.last4)), facts.cards);
  const last4 = facts.cards.at(-1);
  const card = page.locator(".pui-card", { has: page.locator(`[data-testid="card"][data-last4="${last4}"]`) });
  await card.locator('[data-testid="lock"]').click();
  await page.waitForURL(/locked=/);
  await shot("card-locked");
  assert.match(await text(page.locator('[data-testid="card-notice"]')), new RegExp(`ending ${last4} is locked`));
  assert.equal(await page.locator(`[data-testid="card"][data-last4="${last4}"]`).getAttribute("data-locked"), "1");
  assert.equal(await page.locator('[data-testid="card"][data-locked="1"]').count(), 1);
  const id = new URL(page.url()).searchParams.get("locked");
  await page.goto(`${BASE}/accounts/${id}`);
  assert.equal(await page.locator('[data-testid="card-locked"]').count(), 1);
  await page.goto(`${BASE}/cards`);
  await page.locator(".pui-card", { has: page.locator(`[data-testid="card"][data-last4="${last4}"]`) }).locator('[data-testid="unlock"]').click();
  await page.waitForURL(/unlocked=/);
  assert.equal(await page.locator('[data-testid="card"][data-locked="1"]').count(), 0);
});

test("scheduled payments: the world's recurring ones listed; schedule one, change it, stop an AutoPay", async () => {
  const sc = facts.scheduled;
  const rows = () => page.locator('[data-testid="scheduled-row"]').evaluateAll((els) =>
    els.map((e) => ({ payee: e.dataset.payee, date: e.dataset.date, cents: Number(e.dataset.amountCents), method: e.dataset.method })));
  await page.goto(`${BASE}/pay-bills`);
  assert.deepEqual(await rows(), sc.rows);
  await choose("payee", sc.payee);
  await page.fill("#amount", sc.amount);
  await page.fill("#date", sc.date);
  await page.selectOption("#frequency", "once");
  await shot("schedule-form");
  await page.click('[data-testid="billpay-form"] button[type="submit"]');
  await page.waitForURL(/scheduled=/);
  await shot("scheduled");
  assert.match(await text(page.locator('[data-testid="scheduled-notice"]')), new RegExp(sc.payee.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  const mine = (await rows()).find((r) => r.payee === sc.payee && r.date === sc.date);
  assert.equal(mine?.cents, Math.round(Number(sc.amount) * 100));
  // Change it: amount and date.
  await page.locator(`[data-testid="scheduled-row"][data-payee="${sc.payee}"][data-date="${sc.date}"] a`).click();
  await page.waitForURL(/\/pay-bills\/scheduled\/\d+$/);
  const editUrl = page.url();
  await page.fill("#amount", sc.new_amount);
  await page.fill("#date", sc.new_date);
  await page.click('[data-testid="save"]');
  await page.waitForURL(/changed=/);
  assert.ok((await rows()).some((r) => r.payee === sc.payee && r.date === sc.new_date && r.cents === Math.round(Number(sc.new_amount) * 100)));
  // Bad dates are refused with the reason, on the payment's page; nothing changes. (The date field's min and max
  // stop them in the browser; the server refuses them all the same.)
  const unbounded = () => page.locator("#date").evaluate((el) => { el.removeAttribute("min"); el.removeAttribute("max"); });
  await page.goto(editUrl);
  await unbounded();
  await page.fill("#date", sc.today);
  await page.click('[data-testid="save"]');
  await page.waitForURL(/error=/);
  assert.match(await text(page.locator(".pui-alert-error")), /after today/);
  await page.goto(editUrl);
  await unbounded();
  await page.fill("#date", sc.too_late);
  await page.click('[data-testid="save"]');
  await page.waitForURL(/error=/);
  assert.match(await text(page.locator(".pui-alert-error")), /up to 365 days/);
  // A repeat that is neither once nor monthly is refused before any money moves.
  const balanceBefore = (await balances()).checking;
  await page.goto(`${BASE}/pay-bills`);
  await choose("payee", sc.payee);
  await page.fill("#amount", sc.amount);
  await page.locator("#frequency").evaluate((el) => { el.options[0].value = "weekly"; });
  await page.click('[data-testid="billpay-form"] button[type="submit"]');
  await page.waitForURL(/error=/);
  assert.match(await text(page.locator(".pui-alert-error")), /once or every month/);
  assert.equal((await balances()).checking, balanceBefore);
  // Stop an AutoPay the world runs: gone from the list, the others stay.
  await page.goto(`${BASE}/pay-bills`);
  const before = (await rows()).length;
  await page.locator(`[data-testid="scheduled-row"][data-payee="${sc.stop}"] a`).first().click();
  await page.waitForURL(/\/pay-bills\/scheduled\/\d+$/);
  assert.equal(await page.locator('[data-testid="scheduled-form"]').count(), 0, "an AutoPay's amount is the payee's to change");
  await page.click('[data-testid="cancel"]');
  await page.waitForURL(/cancelled=/);
  await shot("autopay-stopped");
  assert.equal((await rows()).length, before - 1);
  assert.equal((await rows()).filter((r) => r.payee === sc.stop).length, 0);
});

test("send money debits checking with a Zelle line to the contact", async () => {
  const p2p = facts.p2p;
  await page.goto(`${BASE}/send-money`);
  await choose("contact", p2p.contact);
  await page.fill("#amount", p2p.amount);
  await page.fill("#memo", p2p.memo);
  await page.click('[data-testid="send-form"] button[type="submit"]');
  await page.waitForURL(/done=/);
  await shot("send-done");
  assert.equal(await text(page.locator('[data-testid="receipt-amount"]')), p2p.amount_text);
  assert.equal((await balances()).checking, p2p.checking_after_text);
  const row = await firstRow("checking");
  assert.ok(row.includes(`ZELLE TO ${p2p.contact.toUpperCase()}`), row);
  assert.ok(row.includes(`-${p2p.amount_text}`), row);
  assert.ok(row.includes(p2p.memo), row);
  // Persisted: a fresh page load in a new context still shows it.
  const again = await browser.newContext();
  try {
    await again.addCookies([{ name: "lb_session", value: facts.session_token, domain: HOST, path: "/" }]);
    const p = await again.newPage();
    await p.goto(`${BASE}/accounts`);
    assert.equal(await text(p.locator('[data-testid="account-card-checking"] [data-testid="balance"]')), p2p.checking_after_text);
  } finally {
    await again.close();
  }
});
