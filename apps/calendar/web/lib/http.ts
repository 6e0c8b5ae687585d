import type { NextRequest } from "next/server";
import { field, json, jsonError, seeOther, withQuery } from "@persona/platform/http";
import { requestUser, type User } from "./auth";
import { CalError } from "./write";

export { field, json, jsonError, seeOther, withQuery };

/** Whether the client asked for JSON (a JSON body or `Accept: application/json`). */
export function wantsJson(req: NextRequest): boolean {
  return (req.headers.get("content-type") ?? "").includes("application/json") || (req.headers.get("accept") ?? "").startsWith("application/json");
}

/** The request's fields: a JSON object's string values, or the posted form's. */
export async function readFields(req: NextRequest): Promise<Record<string, string>> {
  if ((req.headers.get("content-type") ?? "").includes("application/json")) {
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      throw new CalError("The request body is not valid JSON.");
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) throw new CalError("The request body must be a JSON object.");
    return Object.fromEntries(Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, typeof v === "boolean" ? (v ? "1" : "") : v == null ? "" : String(v)]));
  }
  try {
    const form = await req.formData();
    const out: Record<string, string> = {};
    for (const [k, v] of form.entries()) if (typeof v === "string") out[k] = v;
    return out;
  } catch {
    throw new CalError("The request body could not be read as a form.");
  }
}

/**
 * A signed-in write: `act(user, fields)` returns the success path (form) or JSON body; a CalError
 * becomes a 303 back to `back(fields)` with the message (forms) or a JSON error with its status.
 */
export async function signedWrite(
  req: NextRequest,
  signedOutNext: string,
  act: (user: User, f: Record<string, string>) => Promise<{ path: string; body: unknown }> | { path: string; body: unknown },
  back: (f: Record<string, string>, e: CalError) => string,
): Promise<Response> {
  const user = requestUser(req);
  const asJson = wantsJson(req);
  if (!user) return asJson ? jsonError("Sign in first.", 401) : seeOther(`/login?next=${encodeURIComponent(signedOutNext)}`);
  let f: Record<string, string> = {};
  try {
    f = await readFields(req);
    const r = await act(user, f);
    return asJson ? json(r.body) : seeOther(r.path);
  } catch (e) {
    if (e instanceof CalError) return asJson ? jsonError(e.message, e.status, e.field) : seeOther(back(f, e));
    throw e;
  }
}
