/**
 * HTTP answers shared by every app's route handlers. Forms post to route handlers and get a
 * `303 See Other` with a *relative* Location: behind nginx an app does not know its public
 * host name, and the browser resolves the path against the page's own origin.
 */
import crypto from "node:crypto";
import { processKey } from "./internal";

/** 303 See Other to a path on this same origin. */
export function seeOther(path: string, extraHeaders: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { Location: path, "Cache-Control": "no-store", ...extraHeaders } });
}

/** Longest value `withQuery` puts into a URL (characters): a form refilled after an error keeps what was typed up to
 * this, and no request can make a Location header as long as its own body. */
export const MAX_QUERY_VALUE = 300;

/** `path?k=v...`, skipping empty values and cutting each value to MAX_QUERY_VALUE characters (never inside a
 * character). An `error` value is signed (`es`, see errorMessage) so a page shows only the app's own messages. */
export function withQuery(path: string, params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === "") continue;
    const text = String(v);
    q.set(k, text.length > MAX_QUERY_VALUE ? Array.from(text).slice(0, MAX_QUERY_VALUE).join("") : text);
  }
  const error = q.get("error");
  if (error) q.set("es", errorSignature(error));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

function errorSignature(message: string): string {
  return crypto.createHmac("sha256", processKey()).update(`error\0${message}`).digest("hex").slice(0, 20);
}

/**
 * The error banner text of a page's search params: `error` when the app itself put it there (withQuery signed it
 * with this process's key, `es`), else "" (a link someone crafted shows no banner). Pass the page's awaited
 * searchParams.
 */
export function errorMessage(sp: Record<string, string | string[] | undefined>): string {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
  const error = one(sp.error);
  const sig = Buffer.from(one(sp.es));
  if (!error) return "";
  const want = Buffer.from(errorSignature(error));
  return sig.length === want.length && crypto.timingSafeEqual(sig, want) ? error : "";
}

/** Where the rules below are checked: a placeholder origin, never contacted. */
const SAME_ORIGIN = "http://app.invalid";

/**
 * A same-origin path to redirect to (`/inbox?x=1#top`), or `fallback` for anything else. The value is parsed
 * against the app's origin with the WHATWG URL rules a browser applies to a Location header, so whatever passes
 * lands on this origin: it must start with one `/`, and may hold no backslash, no control character or space
 * (a browser drops tabs and line breaks, which turns `/\t/evil.example` into `//evil.example`), no `//` at the
 * start, none of those percent-encoded, and must resolve to this origin. Used for sign-in `next`, form `back` and error redirects.
 */
export function safePath(value: unknown, fallback = "/"): string {
  const s = typeof value === "string" ? value : "";
  if (!s.startsWith("/") || s.startsWith("//") || s.length > 2000) return fallback;
  if (/[\\\u0000-\u0020\u007f-\u009f\u2028\u2029]/.test(s)) return fallback;
  // The same in the path, percent-encoded (a server or proxy on the way may decode a Location once more).
  if (/%(?:[01][0-9a-f]|20|7f|5c)/i.test(s.split(/[?#]/)[0])) return fallback;
  let url: URL;
  try {
    url = new URL(s, `${SAME_ORIGIN}/`);
  } catch {
    return fallback;
  }
  if (url.origin !== SAME_ORIGIN || url.pathname.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Only same-origin paths may be redirected to after sign-in: `safePath(next, "/")`. */
export function safeNext(next: unknown): string {
  return safePath(next, "/");
}

/** Thrown by the strict readers below (and by a route for a request no form of its app sends): a 400 (or `status`)
 * with this message, about `field` when one is named; nothing was read or written. */
export class BadRequest extends Error {
  constructor(
    message: string,
    readonly status = 400,
    readonly field = "",
  ) {
    super(message);
  }
}

/** A record id typed into a form or path: digits only (no sign, space or trailing text), 1 ... 2^53-1; else null. */
export function idValue(value: unknown): number | null {
  const s = typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
  if (!/^[0-9]{1,15}$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 && Number.isSafeInteger(n) ? n : null;
}

/** A record id to look a row up by: idValue, or NaN when it is not one (NaN matches no row: `1 OR 1=1` is not 1). */
export function lookupId(value: unknown): number {
  return idValue(value) ?? Number.NaN;
}

/** Largest request body the form and JSON readers take (bytes); the site refuses larger ones before any route. */
export const MAX_BODY_BYTES = 256 * 1024;

async function bodyBytes(req: Request, limit: number): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new BadRequest(`The request is too large (over ${Math.round(limit / 1024)} KB).`, 413);
  if (!req.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BadRequest(`The request is too large (over ${Math.round(limit / 1024)} KB).`, 413);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/**
 * The JSON object a route was sent, read with a size limit. Throws BadRequest (400) for an empty body, malformed
 * JSON, or anything but an object; 413 over `limit` bytes.
 */
export async function readJson(req: Request, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const bytes = await bodyBytes(req, limit);
  if (!bytes.length) throw new BadRequest("The request has no body: send a JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new BadRequest("The request body is not valid JSON.");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new BadRequest("The request body must be a JSON object.");
  return value as Record<string, unknown>;
}

/** The text a route was sent (UTF-8), read with a size limit. Throws BadRequest: 413 over `limit` bytes, 400 when
 * the body is empty or only white space. */
export async function readText(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const text = (await bodyBytes(req, limit)).toString("utf8");
  if (!text.trim()) throw new BadRequest("The request has no body.");
  return text;
}

/**
 * The form a route was sent (urlencoded or multipart), read with a size limit. Throws BadRequest: 413 over `limit`
 * bytes, 400 when the body is not a form.
 */
export async function readForm(req: Request, limit = MAX_BODY_BYTES): Promise<FormData> {
  const bytes = await bodyBytes(req, limit);
  const type = req.headers.get("content-type") ?? "application/x-www-form-urlencoded";
  try {
    return await new Response(new Uint8Array(bytes), { headers: { "Content-Type": type } }).formData();
  } catch {
    throw new BadRequest("The request is not a form.");
  }
}

/**
 * The form of a browser's form post, strictly: `readForm` (size-limited), and only urlencoded or multipart, not empty.
 * Anything else (JSON, text, a multipart body without its boundary, no body) throws BadRequest (400, or 413 when too
 * large); nothing is read further.
 */
export async function readFormPost(req: Request, limit = MAX_BODY_BYTES): Promise<FormData> {
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data"))
    throw new BadRequest("Send this as a form post (application/x-www-form-urlencoded or multipart/form-data).");
  const form = await readForm(req, limit);
  if (form.keys().next().done) throw new BadRequest("The form is empty.");
  return form;
}

/** A JSON field as a string: strings as given, else "" (numbers, objects and arrays are not text). */
export function textOf(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  return typeof v === "string" ? v : "";
}

/** A posted form field as a string ("" when absent or a file). */
export function field(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
}

/** A JSON answer, never cached. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** A JSON error `{error, field?}` with `status` (400 by default). */
export function jsonError(message: string, status = 400, fieldName?: string): Response {
  return json(fieldName ? { error: message, field: fieldName } : { error: message }, status);
}

/** A file to download (or, `inline`, to show in the browser), never cached. The name is ASCII-quoted, RFC 6266 with RFC 5987 for the rest. */
export function fileResponse(body: BodyInit, contentType: string, fileName: string, inline = false): Response {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return new Response(body, {
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "Cache-Control": "no-store",
    },
  });
}
