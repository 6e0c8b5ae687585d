import { BadRequest, field, idValue, json, jsonError, readFormPost, safePath, seeOther, withQuery } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import type { NextRequest } from "next/server";
import { requestUser, type User } from "./auth";
import { MailError } from "./mail";

export { BadRequest, field, idValue, json, jsonError, seeOther, withQuery };

/** A back-path with a notice or error on it (`?notice=` / `?error=`, signed by withQuery), same origin only (safePath). */
export function back(path: string, params: Record<string, string | number | null | undefined>): string {
  const p = safePath(path, "/");
  const [base, query] = p.split("#")[0]!.split("?");
  const keep = Object.fromEntries(new URLSearchParams(query ?? "").entries());
  delete keep.notice;
  delete keep.error;
  delete keep.es;
  return withQuery(base!, { ...keep, ...params });
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

/** The answer to a body that could not be read: its status (400/413) with `{error}`. */
export function badRequest(e: BadRequest): Response {
  return jsonError(e.message, e.status);
}

/**
 * A Mailbox form route: signed out goes to sign-in (`login`); the body is read with readFormPost (a bad one answers
 * 400 with a message); `act` answers the rest. Wrapped in idempotent(): a form's `_idem` token (or an
 * `Idempotency-Key` header) makes a repeated post replay the first answer with no second effect.
 */
export function formRoute(login: string, act: (req: NextRequest, user: User, form: FormData) => Promise<Response> | Response) {
  return idempotent(
    async (req) => {
      const user = requestUser(req);
      if (!user) return seeOther(login);
      let form: FormData;
      try {
        form = await readFormPost(req);
      } catch (e) {
        if (e instanceof BadRequest) return badRequest(e);
        throw e;
      }
      return act(req, user, form);
    },
    { user: (req) => requestUser(req)?.id },
  );
}
