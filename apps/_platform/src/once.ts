import crypto from "node:crypto";
import { NextRequest } from "next/server";
import { MAX_BODY_BYTES, safePath, seeOther, withQuery } from "./http";
import { processKey } from "./internal";

/**
 * Idempotent writes. Every form that charges, books, orders, sends money or posts carries a one-time token
 * (`<input type="hidden" name="_idem" value={idempotencyToken()} />`, rendered with the page); an API caller may
 * send an `Idempotency-Key` header instead (the IETF httpapi draft "The Idempotency-Key HTTP Header Field", as
 * Stripe and others take it). A route wrapped in `idempotent(...)` runs once per (route, user, key): a retry, a
 * double click or a second tab that posts the same form gets the first request's answer (status, Location, body)
 * and has no second effect, also while the first is still running. The same key with another body is refused
 * (422). A request without a key runs as before.
 *
 * Answers are kept in this process's memory for a day of its monotonic time (at most MAX_KEYS, oldest first
 * out): the one Node process serves every app, and a snapshot reset restores the memory with the databases.
 * Only answers that did something are remembered: a refusal (a 4xx, or a redirect carrying `error`) or a handler that
 * throws (a 500) is forgotten once it is given, so the person can correct the form and send it again.
 *
 * A review page (the flight, the stay's nights, the order about to be placed) renders its token with `pageToken(...)`
 * instead: the same for every render of the same review, so going back to it and submitting again (the browser
 * reloads a no-store page, with a new random token, and refills the fields) replays the first answer too.
 */

/** Form field that carries the token. */
export const IDEMPOTENCY_FIELD = "_idem";
/** How long an answer is kept (ms of process time). */
export const KEEP_MS = 24 * 3600_000;
/** Most answers kept at once. */
export const MAX_KEYS = 20_000;

const KEY = /^[A-Za-z0-9_.:-]{8,128}$/;

/** A fresh one-time token for a form: 32 hex characters (random; never stored in any seeded file). */
export function idempotencyToken(): string {
  return crypto.randomBytes(16).toString("hex");
}

/**
 * The token of a review page's form: 32 hex characters, the same every time the page shows the same thing (an HMAC
 * with this process's key over `parts`, e.g. the user id, the page and its search params). Search params are taken
 * in sorted order without `error`, `es` and `_idem`. Give the flow a nonce of its own (a random `n` in the link or
 * GET form that leads to the review) when the same review may rightly be confirmed twice (two identical stock orders).
 */
export function pageToken(...parts: unknown[]): string {
  const canon = (v: unknown): unknown => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      return Object.keys(v as Record<string, unknown>)
        .filter((k) => k !== "error" && k !== "es" && k !== IDEMPOTENCY_FIELD)
        .sort()
        .map((k) => [k, canon((v as Record<string, unknown>)[k])]);
    }
    return Array.isArray(v) ? v.map(canon) : v ?? null;
  };
  return crypto.createHmac("sha256", processKey()).update(`page-token\0${JSON.stringify(parts.map(canon))}`).digest("hex").slice(0, 32);
}

/** True when an answer turned the request down: a 4xx, or a redirect whose Location carries `error`. */
function refusal(a: Answer): boolean {
  if (a.status >= 400) return true;
  const location = a.headers.find(([k]) => k === "location")?.[1] ?? "";
  return a.status >= 300 && a.status < 400 && /[?&]error=/.test(location);
}

interface Answer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

interface Entry {
  at: number;
  digest: string;
  answer: Promise<Answer>;
}

const store: Map<string, Entry> = ((globalThis as unknown as { __personaOnce?: Map<string, Entry> }).__personaOnce ??= new Map<string, Entry>());

function prune(): void {
  const cutoff = performance.now() - KEEP_MS;
  for (const [k, e] of store) {
    if (e.at >= cutoff && store.size <= MAX_KEYS) break;
    store.delete(k);
  }
}

function replay(a: Answer): Response {
  // A cookie the first answer set is not set again.
  const headers = a.headers.filter(([k]) => k !== "set-cookie");
  return new Response(a.body.length ? new Uint8Array(a.body) : null, { status: a.status, headers: [...headers, ["Idempotent-Replayed", "true"]] });
}

function keyOf(req: Request, body: Buffer): string | null {
  const header = req.headers.get("idempotency-key");
  if (header !== null) return header.trim();
  const type = req.headers.get("content-type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded")) return new URLSearchParams(body.toString("utf8")).get(IDEMPOTENCY_FIELD);
  if (type.startsWith("multipart/form-data")) {
    const m = body.toString("latin1").match(/name="_idem"\r\n\r\n([^\r\n]{0,200})\r\n/);
    return m ? m[1] : null;
  }
  return null;
}

/**
 * Wrap a POST handler so each (route, user, key) has one effect (see the module docstring). `user` names who is
 * asking (a user id; null when signed out, then the key is scoped to nobody). The body is read here, at most
 * `maxBytes` (413 past it), and handed on unchanged. A malformed key (not 8-128 of `A-Za-z0-9_.:-`) answers 400.
 */
export function idempotent(
  handler: (req: NextRequest) => Promise<Response>,
  opts: { user: (req: NextRequest) => string | number | null | undefined; maxBytes?: number },
): (req: NextRequest) => Promise<Response> {
  const limit = opts.maxBytes ?? MAX_BODY_BYTES;
  return async function POST(req: NextRequest): Promise<Response> {
    const declared = Number(req.headers.get("content-length") ?? "0");
    if (declared > limit) return tooLarge(limit);
    const body = Buffer.from(await req.arrayBuffer());
    if (body.length > limit) return tooLarge(limit);
    const rebuilt = new NextRequest(req.url, { method: req.method, headers: req.headers, body: body.length ? new Uint8Array(body) : undefined });
    const key = keyOf(req, body);
    if (key === null || key === "") return handler(rebuilt);
    if (!KEY.test(key)) return problem(400, "The Idempotency-Key must be 8 to 128 letters, digits or _ . : -.");
    const path = new URL(req.url).pathname;
    const id = `${path}\0${opts.user(rebuilt) ?? ""}\0${key}`;
    const digest = crypto.createHash("sha256").update(body).digest("hex");
    prune();
    const seen = store.get(id);
    if (seen) {
      if (seen.digest !== digest) return alreadySent(req);
      return replay(await seen.answer);
    }
    const answer = (async (): Promise<Answer> => {
      const res = await handler(rebuilt);
      const headers: [string, string][] = [];
      res.headers.forEach((v, k) => headers.push([k, v]));
      return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
    })();
    store.set(id, { at: performance.now(), digest, answer });
    try {
      const a = await answer;
      if (a.status >= 500 || refusal(a)) store.delete(id);
      return new Response(a.body.length ? new Uint8Array(a.body) : null, { status: a.status, headers: a.headers });
    } catch (e) {
      store.delete(id);
      throw e;
    }
  };
}

const ALREADY_SENT = "This form was already sent once, with other values, and that was done. Start over to do it again.";

/** The same key with another body: a browser's form goes back to the page it came from (its Referer on this host)
 * with a signed error; an API caller gets 422. */
function alreadySent(req: Request): Response {
  const type = req.headers.get("content-type") ?? "";
  const referer = req.headers.get("referer");
  if (referer && (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data"))) {
    try {
      const from = new URL(referer);
      const host = (req.headers.get("host") ?? "").toLowerCase();
      if (from.host.toLowerCase() === host) {
        const page = safePath(`${from.pathname}`, "/");
        return seeOther(withQuery(page, { error: ALREADY_SENT }));
      }
    } catch {
      /* an unreadable Referer: answer as to an API caller */
    }
  }
  return problem(422, ALREADY_SENT);
}

function problem(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: message }), { status, headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" } });
}

function tooLarge(limit: number): Response {
  return problem(413, `The request is too large (over ${Math.round(limit / 1024)} KB).`);
}
