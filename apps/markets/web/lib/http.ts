import type { NextRequest } from "next/server";
import { field, seeOther, withQuery } from "@persona/platform/http";
import { requestUser, type User } from "./auth";
import { MarketError } from "./markets";

export { field, seeOther, withQuery };

/**
 * The POST handler of a form: signed out, to the sign-in page; signed in, runs `act` on the posted form and
 * answers 303 to the path it returns. A MarketError answers 303 to `failed(error, form)` (the form's page with
 * `?error=`); nothing was written then.
 */
export function formPost({ act, failed }: { act: (user: User, form: FormData) => Promise<string> | string; failed: (e: MarketError, form: FormData) => string }) {
  return async function POST(req: NextRequest): Promise<Response> {
    const user = requestUser(req);
    if (!user) return seeOther("/login");
    let form: FormData;
    try {
      form = await req.formData();
    } catch {
      return seeOther(withQuery("/", { error: "That request could not be read." }));
    }
    try {
      return seeOther(await act(user, form));
    } catch (e) {
      if (e instanceof MarketError) return seeOther(failed(e, form));
      throw e;
    }
  };
}

/** A same-site path to go back to after a form ("/m/X", "/watchlist"): anything else becomes `fallback`. */
export function back(form: FormData, fallback: string): string {
  const v = field(form, "back");
  return /^\/[A-Za-z0-9/_\-?=&.%+]*$/.test(v) && !v.startsWith("//") ? v : fallback;
}
