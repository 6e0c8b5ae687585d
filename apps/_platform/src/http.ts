/**
 * HTTP answers shared by every app's route handlers. Forms post to route handlers and get a
 * `303 See Other` with a *relative* Location: behind nginx an app does not know its public
 * host name, and the browser resolves the path against the page's own origin.
 */

/** 303 See Other to a path on this same origin. */
export function seeOther(path: string, extraHeaders: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { Location: path, "Cache-Control": "no-store", ...extraHeaders } });
}

/** `path?k=v...`, skipping empty values. */
export function withQuery(path: string, params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** Only same-origin paths may be redirected to (after sign-in, say); anything else becomes `/`. */
export function safeNext(next: unknown): string {
  const s = typeof next === "string" ? next : "";
  return s.startsWith("/") && !s.startsWith("//") && !s.startsWith("/\\") ? s : "/";
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
