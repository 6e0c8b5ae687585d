import type { NextRequest } from "next/server";
import { BadRequest, field, readForm, safePath, seeOther, withQuery } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import { requestUser, type User } from "./auth";
import { BrokerError } from "./broker";

export { field, seeOther, withQuery };

/**
 * The POST handler of a form, one effect per form token (`idempotent`: the form's hidden `_idem`; a double submit or
 * a retry gets the first answer): signed out, to the sign-in page; signed in, reads the form with a size limit, runs
 * `act` on it and answers 303 to the path it returns. A BrokerError answers 303 to `failed(error, form)` (the form's
 * page with the signed `?error=`); nothing was written then. A body that is no form goes back to the start page
 * with the reader's message.
 */
export function formPost({ act, failed }: { act: (user: User, form: FormData) => Promise<string> | string; failed: (e: BrokerError, form: FormData) => string }) {
  async function POST(req: NextRequest): Promise<Response> {
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
      if (e instanceof BrokerError) return seeOther(failed(e, form));
      throw e;
    }
  }
  return idempotent(POST, { user: (req) => requestUser(req)?.id });
}

/** A same-origin path to go back to after a form ("/stocks/TMIX", "/watchlist"): anything else becomes `fallback`. */
export function back(form: FormData, fallback: string): string {
  return safePath(field(form, "back"), fallback);
}
