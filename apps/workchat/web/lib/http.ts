import type { NextRequest } from "next/server";
import { field, idValue as platformId, MAX_QUERY_VALUE, readFormPost, safeNext, seeOther, withQuery } from "@persona/platform/http";
import { backWith, fieldsOf, formPoster } from "@persona/platform/forms";
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
  return `${backWith(back, params, { drop: ["field", "notice", "draft"] })}${hash}`;
}

const post = formPoster({
  user: requestUser,
  refusal: ChatError,
  read: readFormPost,
  unreadable: "json",
  signedOut: (form) => `/login?next=${encodeURIComponent(safeNext(field(form, "back")))}`,
});

/**
 * The POST handler of a form (@persona/platform/forms formRoute): a body that is not a form answers 400 with a
 * message; signed out goes to sign-in (back to the form's `back` after); otherwise reads `fields`, runs `act` and
 * answers 303 to the path it returns. A ChatError goes back with a signed `error` (and `field`; the typed `draft`
 * when it fits in a query value, MAX_QUERY_VALUE) and changes nothing. Idempotent per `_idem` token.
 */
export function formPost<F extends string>(fields: readonly F[], act: (user: User, values: Record<F | "back", string>) => Promise<string> | string) {
  const valuesOf = (form: FormData) => fieldsOf(form, [...fields, "back" as const]);
  return post({
    act: (user, form) => act(user, valuesOf(form)),
    failed: (e, form) => {
      const values: Record<string, string> = valuesOf(form);
      const draft = "text" in values ? values.text : "";
      return backTo(values.back || "/", { error: e.message, field: e.field, draft: draft.length <= MAX_QUERY_VALUE ? draft : "" });
    },
  });
}
