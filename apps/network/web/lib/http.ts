import { field, lookupId as idValue, readFormPost, seeOther, withQuery } from "@persona/platform/http";
import { backField as backTo, backWith, formPoster } from "@persona/platform/forms";
import { requestUser, type User } from "./auth";
import { NetworkError } from "./network";

export { backTo, field, idValue, seeOther, withQuery };

/** `path` (a same-origin path that may carry a query already) with a signed `error` and its `field` set (withQuery). */
export function withError(path: string, e: NetworkError): string {
  return backWith(path, { error: e.message, field: e.field }, { drop: ["field"], keepHash: true });
}

const post = formPoster({ user: requestUser, refusal: NetworkError, read: readFormPost, unreadable: "json" });

/** The POST handler of a form (@persona/platform/forms formRoute): signed out to sign-in; a body that is not a form
 * answers 400 with a message (readFormPost); a NetworkError goes back to the form's page (`back`, else `fallback`)
 * with the signed message and field; idempotent per `_idem` token. */
export function formPost(fallback: string, act: (user: User, form: FormData) => Promise<string> | string) {
  return post({ act, failed: (e, form) => withError(backTo(form, fallback), e) });
}
