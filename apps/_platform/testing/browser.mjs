// The e2e kit every app's tests share: Debian's Chromium through playwright-core (never a
// downloaded browser), with every app host name (*.test) resolved to the one test server, so
// pages load from their real origins (http://larkspurbank.test/...) and cookies stay per host.
//
// The pytest side (tests/app_e2e.py) sets APP_FACTS (a JSON file of values the world
// predicts, with base_url), SITE_PORT (the server's loopback port) and APP_ARTIFACTS (where
// screenshots go).
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Chromium with `*.test` mapped to 127.0.0.1:$SITE_PORT (when set). */
export function launch() {
  const port = process.env.SITE_PORT;
  const args = port ? [...CHROMIUM_ARGS, `--host-resolver-rules=MAP *.test 127.0.0.1:${port}`] : CHROMIUM_ARGS;
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args, headless: true });
}

/** The facts file named by APP_FACTS. */
export function facts() {
  const file = process.env.APP_FACTS;
  if (!file) throw new Error("APP_FACTS is not set: run the e2e tests through pytest (tests/app_e2e.py)");
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** A signed-in browser context: the app's session cookie on its host, as the persona's Firefox has it. */
export async function signedIn(browser, { cookie, token, host }, options = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true, ...options });
  await ctx.addCookies([{ name: cookie, value: token, domain: host, path: "/", httpOnly: true, sameSite: "Lax" }]);
  return ctx;
}

/**
 * Chromium with a page signed in to the app under test: its `cookie` set to `token` on the host of
 * `facts().base_url`, a 1280x800 context that accepts downloads, and `timeout` ms for every wait.
 * Resolves to `{browser, ctx, page}`; close `browser` when done.
 */
export async function openSignedIn(cookie, token, { timeout = 20_000 } = {}) {
  const browser = await launch();
  const ctx = await signedIn(browser, { cookie, token, host: new URL(facts().base_url).hostname });
  const page = await ctx.newPage();
  page.setDefaultTimeout(timeout);
  return { browser, ctx, page };
}

/** Save a 1280x800 screenshot of `page` as APP_ARTIFACTS/<name>.png (no-op without APP_ARTIFACTS). */
export async function screenshot(page, name) {
  const dir = process.env.APP_ARTIFACTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/**
 * A request to an app on the test server by its host name, as a browser would send it: to
 * 127.0.0.1:$SITE_PORT with `Host: <host>` (node:http, because fetch() drops a Host header set
 * by hand). Redirects are not followed. Resolves to a fetch-like `{status, headers, text(), json()}`.
 */
export function appFetch(url, init = {}) {
  const u = new URL(url);
  const headers = { ...(init.headers ?? {}), host: u.host };
  const body = init.body === undefined ? undefined : Buffer.from(typeof init.body === "string" ? init.body : init.body);
  if (body) headers["content-length"] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: Number(process.env.SITE_PORT || u.port || 80), path: `${u.pathname}${u.search}`, method: init.method ?? "GET", headers },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({
            status: res.statusCode,
            ok: res.statusCode >= 200 && res.statusCode < 300,
            headers: new Headers(Object.entries(res.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, String(v)]]))),
            text: async () => text,
            json: async () => JSON.parse(text),
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
