import type { NextRequest } from "next/server";
import { BadRequest, field, idValue as platformId, jsonError, readFormPost, safePath, seeOther, withQuery } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import { requestUser, type User } from "./auth";
import { NetworkError } from "./network";

export { field, seeOther, withQuery };

/** A posted id: digits only (@persona/platform/http idValue), else NaN (matches no row; `1 OR 1=1` is not 1). */
export function idValue(value: string): number {
  return platformId(value) ?? Number.NaN;
}

/** A same-app path to go back to (the `back` field, safePath), or `fallback`. */
export function backTo(form: FormData, fallback: string): string {
  return safePath(field(form, "back"), fallback);
}

/** `path` (a same-origin path that may carry a query already) with a signed `error` and its `field` set (withQuery). */
export function withError(path: string, e: NetworkError): string {
  const u = new URL(safePath(path, "/"), "http://guildline.invalid");
  for (const k of ["error", "es", "field"]) u.searchParams.delete(k);
  const keep: Record<string, string> = Object.fromEntries(u.searchParams.entries());
  return `${withQuery(u.pathname, { ...keep, error: e.message, field: e.field })}${u.hash}`;
}

/**
 * The POST handler of a form: signed out, to the sign-in page; a body that is not a form answers 400 with a
 * message; signed in, runs `act` on the posted form and answers 303 to the path it returns. A NetworkError answers
 * 303 to the form's page (`back`, else `fallback`) with a signed `?error=`; nothing was written then. Idempotent
 * (@persona/platform/once): a form's `_idem` token posts once; a repeat replays the first answer.
 */
export function formPost(fallback: string, act: (user: User, form: FormData) => Promise<string> | string) {
  return idempotent(
    async (req: NextRequest): Promise<Response> => {
      const user = requestUser(req);
      if (!user) return seeOther("/login");
      let form: FormData;
      try {
        form = await readFormPost(req);
      } catch (e) {
        if (e instanceof BadRequest) return jsonError(e.message, e.status);
        throw e;
      }
      try {
        return seeOther(await act(user, form));
      } catch (e) {
        if (e instanceof NetworkError) return seeOther(withError(backTo(form, fallback), e));
        throw e;
      }
    },
    { user: (req) => requestUser(req)?.id },
  );
}
