import type { NextRequest } from "next/server";
import { BadRequest, field, idValue, readForm, seeOther, withQuery } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import { requestUser, type User } from "./auth";
import { DiningError } from "./tabletime";

export { field, idValue, seeOther, withQuery };

/**
 * The POST handler of a form: signed out, to the sign-in page; signed in, runs `act` on the posted form and
 * answers 303 to the path it returns. A DiningError answers 303 to `failed(error, form)` (the form's page with a
 * signed `?error=`); nothing was written then. The body is read with the platform's size-limited reader (a body
 * that is not a form goes to the start page with an error), and the handler is idempotent per (route, user,
 * `_idem` token): a form posted twice (a double click, two tabs, a retry) has one effect and gets one answer.
 */
export function formPost({ act, failed }: { act: (user: User, form: FormData) => Promise<string> | string; failed: (e: DiningError, form: FormData) => string }) {
  async function handle(req: NextRequest): Promise<Response> {
    const user = requestUser(req);
    if (!user) return seeOther("/login");
    let form: FormData;
    try {
      form = await readForm(req);
    } catch (e) {
      if (e instanceof BadRequest) return seeOther(withQuery("/", { error: e.message }));
      throw e;
    }
    try {
      return seeOther(await act(user, form));
    } catch (e) {
      if (e instanceof DiningError) return seeOther(failed(e, form));
      throw e;
    }
  }
  return idempotent(handle, { user: (req) => requestUser(req)?.id });
}
