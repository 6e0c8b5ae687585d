import type { NextRequest } from "next/server";
import { BadRequest, field, idValue, json, jsonError, readForm, seeOther, withQuery } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import { requestUser, type User } from "./auth";

export { field, idValue, json, jsonError, seeOther, withQuery };

/** A refusal the customer should read (bad input, an expired code, a declined card): nothing was written. */
export class DashError extends Error {}

function wantsJson(req: NextRequest): boolean {
  return (req.headers.get("accept") ?? "").includes("application/json");
}

/**
 * The POST handler of a form: signed out, to the sign-in page (401 for JSON); signed in, runs `act` and
 * answers 303 to the path it returns (JSON: `{ok: true, next}`). The body is read with the platform's size-limited
 * reader; a body that is no form or a DashError answers 303 to `failed(error, form)` (the signed error banner;
 * JSON: 400 or 413 `{error}`); nothing was written then. Idempotent (@persona/platform/once): a form's `_idem`
 * token (or an Idempotency-Key header) runs once, a duplicate (also a concurrent one) gets the first answer.
 */
export function formPost({
  act,
  failed,
}: {
  act: (user: User, form: FormData, req: NextRequest) => Promise<string> | string;
  failed: (e: DashError, form: FormData, req: NextRequest) => string;
}) {
  return idempotent(
    async function POST(req: NextRequest): Promise<Response> {
      const user = requestUser(req);
      if (!user) return wantsJson(req) ? jsonError("Sign in first.", 401) : seeOther("/login");
      let form: FormData;
      try {
        form = await readForm(req);
      } catch (e) {
        if (!(e instanceof BadRequest)) throw e;
        return wantsJson(req) ? jsonError(e.message, e.status) : seeOther(failed(new DashError(e.message), new FormData(), req));
      }
      try {
        const next = await act(user, form, req);
        return wantsJson(req) ? json({ ok: true, next }) : seeOther(next);
      } catch (e) {
        if (e instanceof DashError) return wantsJson(req) ? jsonError(e.message) : seeOther(failed(e, form, req));
        throw e;
      }
    },
    { user: (req) => requestUser(req)?.id },
  );
}

/** The id segment `offset` places from the end of the request path (`/api/orders/12/rate`: offset 2 -> 12), or null. */
export function pathId(req: NextRequest, offset = 2): number | null {
  return idValue(req.nextUrl.pathname.split("/").at(-offset) ?? "");
}
