import type { NextRequest } from "next/server";
import { field, idValue, json, jsonError, seeOther, withQuery } from "@persona/platform/http";
import { acceptsJson, formPoster } from "@persona/platform/forms";
import { requestUser } from "./auth";

export { field, idValue, json, jsonError, seeOther, withQuery };

/** A refusal the customer should read (bad input, an expired code, a declined card): nothing was written. */
export class DashError extends Error {}

/** The POST handler of a form (@persona/platform/forms formRoute): signed out to sign-in; a DashError, or a body that is
 * no form, to `failed(error, form, req)` with the signed message; `Accept: application/json` gets JSON answers
 * (401, `{ok: true, next}`, 400/413 `{error}`); idempotent per `_idem` token or Idempotency-Key. */
export const formPost = formPoster({ user: requestUser, refusal: DashError, json: acceptsJson, unreadable: "failed" });

/** The id segment `offset` places from the end of the request path (`/api/orders/12/rate`: offset 2 -> 12), or null. */
export function pathId(req: NextRequest, offset = 2): number | null {
  return idValue(req.nextUrl.pathname.split("/").at(-offset) ?? "");
}
