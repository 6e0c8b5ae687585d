// __TITLE__ end to end in Chromium: signed in by the seeded cookie, sign-in page, a note added.
// Run by tests/apps/test_contract.py (APP_FACTS: base_url, cookie, credentials, full_name).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { facts as readFacts, openSignedIn, screenshot } from "@persona/platform/testing";

const facts = readFacts();
let browser;
let page;

before(async () => {
  ({ browser, page } = await openSignedIn(facts.cookie, facts.credentials.session_token));
});

after(async () => browser?.close());

test("the seeded session cookie signs the persona in", async () => {
  await page.goto(`${facts.base_url}/`);
  assert.equal((await page.getByTestId("greeting").innerText()).trim(), `Hello, ${facts.full_name}`);
  await screenshot(page, "home");
});

test("a note is added, stored verbatim and shown as text", async () => {
  const title = "<b>Weekend</b> plans & 'lists'";
  await page.fill("#title", title);
  await page.click("button:has-text(\"Add note\")");
  await page.waitForURL(`${facts.base_url}/`);
  assert.ok((await page.getByTestId("notes").innerText()).includes(title));
});

test("the sign-in page accepts the persona's credentials", async () => {
  const anon = await (await browser.newContext()).newPage();
  await anon.goto(`${facts.base_url}/`);
  assert.match(anon.url(), /\/login$/);
  await anon.fill("#username", facts.credentials.username);
  await anon.fill("#password", facts.credentials.password);
  await anon.click("button:has-text(\"Sign in\")");
  await anon.waitForURL(`${facts.base_url}/`);
  assert.ok((await anon.getByTestId("greeting").innerText()).includes(facts.full_name));
});
