// Screenshots of a trip's change and cancellation mails in Mailbox. Not a test file (run_e2e runs *.test.mjs):
// tests/apps/airline/test_web.py runs it after it changed and cancelled the trip over HTTP, with the e2e's
// environment (APP_FACTS, SITE_PORT, CHROMIUM_PATH, APP_ARTIFACTS) and the PNR as its argument.
import { facts as readFacts, launch, screenshot } from "@persona/platform/testing";

const facts = readFacts();
const pnr = process.argv[2];
const browser = await launch();
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await ctx.addCookies([{ name: "mb_session", value: facts.mail_token, domain: "mailbox.test", path: "/", httpOnly: true, sameSite: "Lax" }]);
  const mail = await ctx.newPage();
  for (const [subject, name] of [["Your itinerary has changed", "09-mail-changed"], ["Your trip is cancelled", "10-mail-cancelled"]]) {
    await mail.goto(`http://mailbox.test/search?q=${encodeURIComponent(pnr)}`);
    await mail.locator('[data-testid="conversation"]').filter({ hasText: subject }).first().locator("a.mb-row-link").click();
    await mail.waitForURL(/\/t\//);
    await mail.getByRole("heading", { name: new RegExp(`^${subject}`) }).first().waitFor();
    await screenshot(mail, name);
  }
} finally {
  await browser.close();
}
