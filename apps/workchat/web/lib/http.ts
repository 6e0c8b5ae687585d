import type { NextRequest } from "next/server";
import { BadRequest, field, idValue as platformId, jsonError, MAX_QUERY_VALUE, readFormPost, safeNext, safePath, seeOther, withQuery } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import { SESSION_COOKIE, userForToken, type User } from "./auth";
import { ChatError } from "./actions";

export { field, safeNext, seeOther, withQuery };

export function requestUser(req: NextRequest): User | null {
  return userForToken(req.cookies.get(SESSION_COOKIE)?.value);
}

/** A posted id: digits only (@persona/platform/http idValue), or -1 (matches no row; `1 OR 1=1` is not 1). */
export function idValue(value: string): number {
  return platformId(value) ?? -1;
}

/**
 * `back` (a same-origin path, safePath; else "/") with `params` merged into its query: keeps its own query, drops
 * an old error/notice/field/draft; an empty value removes the key. Built with withQuery, so an `error` is signed.
 */
export function backTo(back: string, params: Record<string, string | number | null | undefined>, hash = ""): string {
  const u = new URL(safePath(back, "/"), "http://huddle.invalid");
  for (const k of ["error", "es", "field", "notice", "draft"]) u.searchParams.delete(k);
  const keep: Record<string, string> = Object.fromEntries(u.searchParams.entries());
  return `${withQuery(u.pathname, { ...keep, ...params })}${hash}`;
}

/**
 * The POST handler of a form: a body that is not a form answers 400 with a message; signed out goes to sign-in;
 * otherwise reads `fields`, runs `act` and answers 303 to the form's `back` path (or what `act` returns). A
 * ChatError goes back with a signed `error` (and `field`; the typed `draft` when it fits in a query value, MAX_QUERY_VALUE) and
 * changes nothing. Idempotent (@persona/platform/once): a form's `_idem` token posts once; a repeat (a double
 * click, a second tab) replays the first answer.
 */
export function formPost<F extends string>(fields: readonly F[], act: (user: User, values: Record<F | "back", string>) => Promise<string> | string) {
  return idempotent(
    async (req: NextRequest): Promise<Response> => {
      const user = requestUser(req);
      let form: FormData;
      try {
        form = await readFormPost(req);
      } catch (e) {
        if (e instanceof BadRequest) return jsonError(e.message, e.status);
        throw e;
      }
      const values = Object.fromEntries([...fields, "back"].map((name) => [name, field(form, name)])) as Record<F | "back", string>;
      if (!user) return seeOther(`/login?next=${encodeURIComponent(safeNext(values.back))}`);
      try {
        return seeOther(await act(user, values));
      } catch (e) {
        if (e instanceof ChatError) {
          const draft = "text" in values ? (values as Record<string, string>).text : "";
          return seeOther(backTo(values.back || "/", { error: e.message, field: e.field, draft: draft.length <= MAX_QUERY_VALUE ? draft : "" }));
        }
        throw e;
      }
    },
    { user: (req) => requestUser(req)?.id },
  );
}
