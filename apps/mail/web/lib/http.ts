import type { NextRequest } from "next/server";
import { BadRequest, field, idValue, json, jsonError, readFormPost, seeOther, withQuery } from "@persona/platform/http";
import { backWith, formPoster } from "@persona/platform/forms";
import { requestUser, type User } from "./auth";
import { MailError } from "./mail";

export { BadRequest, field, idValue, json, jsonError, seeOther, withQuery };

/** A back-path with a notice or error on it (`?notice=` / `?error=`, signed by withQuery), same origin only (safePath). */
export function back(path: string, params: Record<string, string | number | null | undefined>): string {
  return backWith(path, params, { drop: ["notice"] });
}

/** Most ids one request may name (a list page shows 50 conversations). */
export const MAX_IDS = 500;

/** Posted ids (a repeated field), digits only: a value like `1 OR 1=1` refuses the whole request (MailError). */
export function ids(values: FormDataEntryValue[], what = "selection"): number[] {
  if (values.length > MAX_IDS) throw new MailError(`Select at most ${MAX_IDS} items at a time.`, what);
  const out = values.map((v) => idValue(v));
  if (out.some((n) => n === null)) throw new MailError(`The ${what} is not valid.`, what);
  return [...new Set(out as number[])];
}

/** An optional posted id: "" is none (null), digits an id, anything else refused (MailError). */
export function optionalId(v: string, what: string): number | null {
  if (v === "") return null;
  const n = idValue(v);
  if (n === null) throw new MailError(`The ${what} is not valid.`, what);
  return n;
}

/** Mailbox form routes (@persona/platform/forms formRoute): a body that is not a form answers 400 with a message
 * (readFormPost); idempotent per `_idem` token or Idempotency-Key. */
export const post = formPoster({ user: requestUser, refusal: MailError, read: readFormPost, unreadable: "json" });

/** A Mailbox form route (@persona/platform/forms formRoute): signed out goes to sign-in (`login`); a body that is not a
 * form answers 400 with a message (readFormPost); `act` answers the rest (a MailError is its own to answer).
 * Idempotent per `_idem` token or Idempotency-Key. */
export function formRoute(login: string, act: (req: NextRequest, user: User, form: FormData) => Promise<Response> | Response) {
  return post({ signedOut: login, act: (user, form, req) => act(req, user, form) });
}
