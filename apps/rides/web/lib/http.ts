import type { NextRequest } from "next/server";
import { field, idValue, json, jsonError, seeOther, withQuery } from "@persona/platform/http";
import { acceptsJson, formPoster } from "@persona/platform/forms";
import { requestUser } from "./auth";
import { RideError } from "./rides";

export { field, idValue, json, jsonError, seeOther, withQuery };

/** The POST handler of a form (@persona/platform/forms formRoute): signed out to sign-in; a RideError, or a body that is
 * no form, to `failed(error, form, req)` with the signed message; `Accept: application/json` gets JSON answers
 * (401, `{ok: true, next}`, 400/413 `{error}`); idempotent per `_idem` token or Idempotency-Key. */
export const formPost = formPoster({ user: requestUser, refusal: RideError, json: acceptsJson, unreadable: "failed" });

/** The ride id of `/api/rides/<id>/<action>` (null when it is not a plain id). */
export function rideIdOf(req: NextRequest): number | null {
  return idValue(req.nextUrl.pathname.split("/").at(-2) ?? "");
}

/** The ride page to return to after `/api/rides/<id>/<action>`, or the activity list for a malformed id. */
export function ridePage(req: NextRequest): string {
  const id = rideIdOf(req);
  return id === null ? "/activity" : `/rides/${id}`;
}
