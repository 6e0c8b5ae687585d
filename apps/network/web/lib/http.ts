import { BadRequest, field, lookupId as idValue, readFormPost, seeOther, withQuery } from "@persona/platform/http";
import { backField as backTo, backWith, formPoster } from "@persona/platform/forms";
import type { NextRequest } from "next/server";
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

/** The largest body the idempotency check reads for a form with a file: the site's own limit, so that a file over
 * the form's limit still reaches the form's refusal rather than a bare 413. */
const FILE_BODY_BYTES = 25 * 1024 * 1024;

/** formPost for a form that carries a file: the form may hold up to `maxBytes` (the file and its fields; past it,
 * `tooLarge` is the message); a refusal, and a body too large or not a form, go back to `back(req)` (the form's
 * page, from the route's query) with the message. */
export function formPostFile(
  maxBytes: number,
  tooLarge: string,
  back: (req: NextRequest) => string,
  act: (user: User, form: FormData, req: NextRequest) => Promise<string> | string,
) {
  const read = async (req: NextRequest) => {
    try {
      return await readFormPost(req, maxBytes);
    } catch (e) {
      if (e instanceof BadRequest && e.status === 413) throw new BadRequest(tooLarge, 413);
      throw e;
    }
  };
  return post({ act, failed: (e, _form, req) => withError(back(req), e), read, maxBytes: FILE_BODY_BYTES, unreadable: "failed" });
}
