import type { NextRequest } from "next/server";
import { field, json, jsonError, safeNext, seeOther, withQuery } from "@persona/platform/http";
import { requestUser, type User } from "./auth";
import { BoardError } from "./board";
import { boardContext } from "./context";

export { field, json, jsonError, safeNext, seeOther, withQuery };

/**
 * The POST handler of a Cairn form or JSON call. Signed out: 401 (JSON) or the sign-in page. A form answers 303
 * to the path `act` returns (its `back` field by default) and a refused one (BoardError) 303 to `back` with
 * `?error=`; JSON answers `{ok: true, ...result}` or `{error, field}` with the error's status. Nothing is
 * written when a BoardError is thrown.
 */
export function post(act: (ctx: { user: User; now: string; prefix: string; fields: Record<string, string>; params: Record<string, string> }) => { result?: Record<string, unknown>; redirect?: string }, fallback: (params: Record<string, string>) => string) {
  return async function POST(req: NextRequest, { params }: { params: Promise<Record<string, string>> }): Promise<Response> {
    const isJson = (req.headers.get("content-type") ?? "").includes("application/json");
    const p = await params;
    const user = requestUser(req);
    if (!user) return isJson ? jsonError("Sign in first.", 401) : seeOther("/login");
    const fields: Record<string, string> = {};
    try {
      if (isJson) {
        const body = (await req.json()) as unknown;
        if (!body || typeof body !== "object" || Array.isArray(body)) throw new Error("not an object");
        for (const [k, v] of Object.entries(body)) {
          if (typeof v === "string") fields[k] = v;
          else if (typeof v === "number") fields[k] = String(v);
          else throw new BoardError(`The field "${k.slice(0, 40)}" must be text.`, k);
        }
      } else {
        const form = await req.formData();
        for (const k of new Set(form.keys())) fields[k] = field(form, k);
      }
    } catch (e) {
      if (e instanceof BoardError) return isJson ? jsonError(e.message, e.status, e.field) : seeOther(withQuery(fallback(p), { error: e.message }));
      return isJson ? jsonError("That request could not be read.", 400) : seeOther(withQuery(fallback(p), { error: "That request could not be read." }));
    }
    const back = safeNext(fields.back || fallback(p));
    const ctx = boardContext();
    try {
      const out = act({ user, now: ctx.now, prefix: ctx.prefix, fields, params: p });
      return isJson ? json({ ok: true, ...(out.result ?? {}) }) : seeOther(out.redirect ?? back);
    } catch (e) {
      if (e instanceof BoardError) return isJson ? jsonError(e.message, e.status, e.field) : seeOther(withQuery(back, { error: e.message }));
      throw e;
    }
  };
}
