import type { NextRequest } from "next/server";
import { SESSION_COOKIE, userForToken, type User } from "./auth";

/**
 * 303 See Other to a path on this same origin. The Location is relative on purpose: behind
 * nginx the app does not know its public host name, and browsers resolve it against the page.
 */
export function seeOther(path: string, extraHeaders: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { Location: path, "Cache-Control": "no-store", ...extraHeaders } });
}

/** `path?k=v...` skipping empty values. */
export function withQuery(path: string, params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** Only same-site paths may be redirected to after sign-in. */
export function safeNext(next: unknown): string {
  const s = typeof next === "string" ? next : "";
  return s.startsWith("/") && !s.startsWith("//") && !s.startsWith("/\\") ? s : "/";
}

export function requestUser(req: NextRequest): User | null {
  return userForToken(req.cookies.get(SESSION_COOKIE)?.value);
}

export function field(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
}

export function intField(form: FormData, name: string): number {
  const n = Number.parseInt(field(form, name), 10);
  return Number.isFinite(n) ? n : -1;
}
