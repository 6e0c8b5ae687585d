import crypto from "node:crypto";
import http from "node:http";

/**
 * App-to-app calls over loopback, the way a card network or a mail server would connect two
 * services. All apps run in the one site process, so the shared secret is a random key made
 * once per process and never leaves it: an agent in the desktop (another user) can reach the
 * routes through nginx but cannot present the key. Calls go to 127.0.0.1:$PORT with the other
 * app's Host, so the middleware routes them like any request.
 */

const HEADER = "x-persona-internal";
const holder = globalThis as unknown as { __personaInternalKey?: string };

/** This process's random secret (made once per process, never written anywhere): the internal calls' key and the
 * key that signs error messages. */
export function processKey(): string {
  holder.__personaInternalKey ??= crypto.randomBytes(32).toString("hex");
  return holder.__personaInternalKey;
}

export class InternalCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * POST `body` as JSON to `path` of the app served at `domain` (e.g. "mailbox.test"); resolves to
 * the parsed JSON answer. Rejects with InternalCallError (status 0 when the server could not be
 * reached, else the HTTP status) after `timeoutMs`.
 */
export function callApp<T = unknown>(domain: string, path: string, body: unknown, timeoutMs = 10_000): Promise<T> {
  const payload = Buffer.from(JSON.stringify(body));
  const port = Number(process.env.PORT || 3100);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        timeout: timeoutMs,
        headers: { Host: domain, "Content-Type": "application/json", "Content-Length": payload.length, [HEADER]: processKey() },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            /* keep the text */
          }
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            const msg = (parsed as { error?: string } | null)?.error ?? text.slice(0, 200);
            reject(new InternalCallError(`${domain}${path} answered ${status}: ${msg}`, status));
          } else resolve(parsed as T);
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (e) => reject(new InternalCallError(`${domain}${path} unreachable: ${e.message}`, 0)));
    req.end(payload);
  });
}

/** In an internal route handler: a 403 Response unless the request carries this process's key, else null. */
export function internalOnly(req: Request): Response | null {
  const got = Buffer.from(req.headers.get(HEADER) ?? "");
  const want = Buffer.from(processKey());
  if (got.length === want.length && crypto.timingSafeEqual(got, want)) return null;
  return new Response(JSON.stringify({ error: "internal route: only other apps on this machine may call it" }), {
    status: 403,
    headers: { "Content-Type": "application/json" },
  });
}
