import type { NextRequest } from "next/server";
import { BadRequest, field, json, jsonError, MAX_BODY_BYTES, readForm, readJson, safePath, seeOther, withQuery } from "@persona/platform/http";
import { backWith, formRoute, overCap } from "@persona/platform/forms";
import { requestUser, type User } from "./auth";
import { idToken } from "./ids";
import { CalError, FIELD_CAPS } from "./write";

export { field, idToken, json, jsonError, safePath, seeOther, withQuery };

/** Whether the client asked for JSON (a JSON body or `Accept: application/json`). */
export function wantsJson(req: NextRequest): boolean {
  return (req.headers.get("content-type") ?? "").includes("application/json") || (req.headers.get("accept") ?? "").startsWith("application/json");
}

/** Longest value of a field the forms do not name in FIELD_CAPS (characters). */
const OTHER_CAP = 200;

/** How the forms name a field in a sentence; any other is `The "<name>" field`. */
const FIELD_WORDS: Record<string, string> = { title: "The title", location: "The location", description: "The description" };

/** Throw CalError (naming the field) for the first field longer than its cap: checked before any other work. The
 * title counts characters (code points), the rest UTF-16 units (what a browser's maxlength counts). */
export function checkCaps(f: Record<string, string>): void {
  const capOf = (k: string) => (Object.prototype.hasOwnProperty.call(FIELD_CAPS, k) ? FIELD_CAPS[k]! : OTHER_CAP);
  const words = (k: string) => (Object.prototype.hasOwnProperty.call(FIELD_WORDS, k) ? FIELD_WORDS[k]! : `The "${k.slice(0, 40)}" field`);
  const over = overCap(f, capOf, words, (k, v) => (k === "title" ? [...v].length : v.length));
  if (over) throw new CalError(over.message, over.field);
}

/**
 * The request's fields: a JSON object's values (text, numbers and booleans; anything else is refused), or the posted
 * form's text fields (urlencoded or multipart), read with a size limit. Throws BadRequest (400/413 with a message) for
 * a body that is neither, an empty one, or one too large. (checkCaps then checks the fields' lengths.)
 */
export async function readFields(req: NextRequest, limit = MAX_BODY_BYTES): Promise<Record<string, string>> {
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  // No prototype: a field named like an Object property (`__proto__`, `constructor`) is a field like any other.
  const out: Record<string, string> = Object.create(null);
  if (type.includes("application/json")) {
    const body = await readJson(req, limit);
    for (const [k, v] of Object.entries(body)) {
      if (typeof v === "string") out[k] = v;
      else if (typeof v === "number" && Number.isFinite(v)) out[k] = String(v);
      else if (typeof v === "boolean") out[k] = v ? "1" : "";
      else if (v === null) out[k] = "";
      else throw new BadRequest(`The field "${k.slice(0, 40)}" must be text.`);
    }
  } else {
    if (type && !type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
      throw new BadRequest("Send a form (application/x-www-form-urlencoded or multipart/form-data) or a JSON object.");
    }
    const form = await readForm(req, limit);
    for (const [k, v] of form.entries()) if (typeof v === "string") out[k] = v;
  }
  if (!Object.keys(out).length) throw new BadRequest("The request has no fields.");
  return out;
}

/**
 * `path` (a same-origin path, else `fallback`) with `params` set (the error signed by withQuery); the path's own
 * query is kept, less any old notice/error.
 */
export function back(path: unknown, fallback: string, params: Record<string, string | number | null | undefined>): string {
  return safePath(backWith(safePath(path, fallback), params, { drop: ["notice"], fallback }), fallback);
}

/**
 * A signed-in write (@persona/platform/forms formRoute): `act(user, fields)` returns the success path (form) or JSON
 * body; a CalError becomes a 303 back to `onError(fields, e)` with the message (forms) or a JSON error with its
 * status; a body that is no form or JSON object a 400/413 with a message. Fields over their caps (checkCaps) are
 * refused before any other work. Idempotent: a form's `_idem` token (or an `Idempotency-Key` header) has one effect,
 * the first answer replayed to a retry, a double click or a second tab.
 */
export function signedWrite(
  req: NextRequest,
  signedOutNext: string,
  act: (user: User, f: Record<string, string>) => Promise<{ path: string; body: unknown }> | { path: string; body: unknown },
  onError: (f: Record<string, string>, e: CalError) => string,
  opts: { maxBytes?: number } = {},
): Promise<Response> {
  const limit = opts.maxBytes ?? MAX_BODY_BYTES;
  return formRoute({
    user: requestUser,
    refusal: CalError,
    json: wantsJson,
    signedOut: withQuery("/login", { next: safePath(signedOutNext, "/") }),
    read: (r) => readFields(r, limit),
    unreadable: "json",
    maxBytes: limit,
    act: async (user, f, r) => {
      checkCaps(f); // before any other work; a refused form still refills from `f` (each value cut to 300 characters)
      const out = await act(user, f);
      return wantsJson(r) ? json(out.body) : seeOther(safePath(out.path, "/week"));
    },
    failed: (e, f) => safePath(onError(f, e), "/week"),
  })(req);
}

export { BadRequest, readJson };
