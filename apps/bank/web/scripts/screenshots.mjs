#!/usr/bin/env node
// Screenshot the main pages of a running Larkspur Bank at 1280x800.
// usage: SITE_PORT=<port of the site> node scripts/screenshots.mjs <base url> <session token> <out dir>
import fs from "node:fs";
import path from "node:path";
import { launch } from "@persona/platform/testing";

const [base = "http://larkspurbank.test", token, out = "screenshots"] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });
const browser = await launch();
try {
  const anon = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const p0 = await anon.newPage();
  await p0.goto(`${base}/login`);
  await p0.screenshot({ path: path.join(out, "login.png") });
  await anon.close();

  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const host = new URL(base).hostname;
  if (token) await ctx.addCookies([{ name: "lb_session", value: token, domain: host, path: "/", httpOnly: true, sameSite: "Lax" }]);
  const page = await ctx.newPage();
  await page.goto(`${base}/accounts`);
  await page.screenshot({ path: path.join(out, "accounts.png") });
  const first = await page.locator('[data-testid="account-card-checking"]').getAttribute("href");
  const pages = [
    ["account", first ?? "/accounts"],
    ["account-search", `${first}?q=coffee`],
    ["transfer", "/transfer"],
    ["pay-bills", "/pay-bills"],
    ["send-money", "/send-money"],
    ["statements", "/statements"],
    ["profile", "/profile"],
  ];
  for (const [name, url] of pages) {
    await page.goto(base + url);
    await page.screenshot({ path: path.join(out, `${name}.png`) });
  }
  await page.goto(`${base}/accounts`);
  await page.screenshot({ path: path.join(out, "accounts-full.png"), fullPage: true });
} finally {
  await browser.close();
}
console.log(`screenshots in ${out}`);
