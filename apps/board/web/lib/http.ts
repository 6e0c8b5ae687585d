import type { NextRequest } from "next/server";
import { BadRequest, field, json, jsonError, readForm, readJson, safeNext, safePath, seeOther, withQuery } from "@persona/platform/http";
import { backWith as platformBackWith, formRoute } from "@persona/platform/forms";
import { requestUser, type User } from "./auth";
import { BoardError } from "./board";
import { boardContext } from "./context";

export { field, json, jsonError, safeNext, seeOther, withQuery };

/** `path` (a same-origin path, safePath; else "/") with `params` merged into its query, an `error` signed (withQuery). */
export function backWith(path: string, params: Record<string, string | number | null | undefined>): string {
  return platformBackWith(path, params, { drop: ["ok"], keepHash: true });
}

/**
 * The fields of a form post, strictly: urlencoded or multipart, within the platform's size limit, not empty; else
 * BadRequest (400, or 413 when too large).
 */
async function formFields(req: Request): Promise<Record<string, string>> {
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data"))
    throw new BadRequest("Send a form post or a JSON object (Content-Type: application/json).");
  const form = await readForm(req);
  const fields: Record<string, string> = {};
  for (const k of new Set(form.keys())) fields[k] = field(form, k);
  if (!Object.keys(fields).length) throw new BadRequest("The form is empty.");
  return fields;
}

/** The fields of a JSON object (readJson: 400 for an empty, malformed or non-object body); values text or numbers. */
async function jsonFields(req: Request): Promise<Record<string, string>> {
  const body = await readJson(req);
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    if (typeof v === "string") fields[k] = v;
    else if (typeof v === "number" && Number.isFinite(v)) fields[k] = String(v);
    else throw new BoardError(`The field "${k.slice(0, 40)}" must be text.`, k.slice(0, 40));
  }
  return fields;
}

type Act = (ctx: { user: User; now: string; prefix: string; fields: Record<string, string>; params: Record<string, string> }) => { result?: Record<string, unknown>; redirect?: string };

/** A JSON call: its Content-Type says so (a form post otherwise). */
function isJson(req: NextRequest): boolean {
  return (req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json");
}

/**
 * The POST handler of a Cairn form or JSON call (@persona/platform/forms formRoute). Signed out: 401 (JSON) or the
 * sign-in page. A body that is neither a form nor a JSON object answers 400 `{error}`. A form answers 303 to the path
 * `act` returns (its `back` field by default, same-origin only) and a refused one (BoardError) 303 to `back` with a
 * signed `?error=`; JSON answers `{ok: true, ...result}` or `{error, field}` with the error's status. Nothing is
 * written when a BoardError is thrown. Idempotent: a form's `_idem` token or an `Idempotency-Key` header acts once; a
 * repeat (a double click, a retried call) replays the first answer.
 */
export function post(act: Act, fallback: (params: Record<string, string>) => string) {
  return async function POST(req: NextRequest, { params }: { params: Promise<Record<string, string>> }): Promise<Response> {
    const p = await params;
    const back = (fields: Record<string, string>) => safePath(fields.back || fallback(p), fallback(p));
    return formRoute({
      user: requestUser,
      refusal: BoardError,
      json: isJson,
      read: (r) => (isJson(r) ? jsonFields(r) : formFields(r)),
      unreadable: "json",
      act: (user, fields, r) => {
        const ctx = boardContext();
        const out = act({ user, now: ctx.now, prefix: ctx.prefix, fields, params: p });
        return isJson(r) ? json({ ok: true, ...(out.result ?? {}) }) : seeOther(out.redirect ?? back(fields));
      },
      failed: (e, fields) => backWith(back(fields), { error: e.message }),
    })(req);
  };
}
