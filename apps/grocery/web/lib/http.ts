import type { NextRequest } from "next/server";
import { field, idValue, json, jsonError, seeOther, withQuery } from "@persona/platform/http";
import { acceptsJson, backField as backTo, backWith, formPoster } from "@persona/platform/forms";
import { requestUser, type User } from "./auth";
import { ShopError } from "./grocery";

export { backTo, field, idValue, json, jsonError, seeOther, withQuery };

const post = formPoster({ user: requestUser, refusal: ShopError, json: acceptsJson });

/** The POST handler of a form (@persona/platform/forms formRoute): signed out to sign-in; a ShopError to `failed(form)`
 * with the signed `error` set (addParam); a body that is no form to the start page; `Accept: application/json` gets
 * JSON answers (401, `{ok: true, next}`, 400/413 `{error}`); idempotent per `_idem` token or Idempotency-Key. */
export function formPost({ act, failed }: { act: (user: User, form: FormData, req: NextRequest) => Promise<string> | string; failed: (form: FormData) => string }) {
  return post({ act, failed: (e, form) => addParam(failed(form), "error", e.message) });
}

/** `path` (same-origin, else "/") with `key=value` set in its query (any earlier `key`, `added`, `error` dropped);
 * through withQuery, so an `error` is signed and every value capped. */
export function addParam(path: string, key: string, value: string): string {
  return backWith(path, { [key]: value }, { drop: ["added", key] });
}
