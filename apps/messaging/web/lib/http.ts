import type { NextRequest } from "next/server";
import { field, seeOther, withQuery } from "@persona/platform/http";
import { requestUser, type User } from "./auth";
import { ChatError } from "./chat";

export { field, seeOther, withQuery };

/** A posted id: the integer in `value`, or NaN when it is not a plain positive integer. */
export function idValue(value: string): number {
  return /^\d{1,12}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

/**
 * The POST handler of a form: signed out, to the sign-in page; signed in, runs `act` on the
 * posted form and answers 303 to the path it returns. A ChatError answers 303 to `failed(error,
 * form)` (the form's page with `?error=`); nothing was written then. Any other error is not caught.
 */
export function formPost({
  act,
  failed,
}: {
  act: (user: User, form: FormData) => Promise<string> | string;
  failed: (e: ChatError, form: FormData) => string;
}) {
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
      if (e instanceof ChatError) return seeOther(failed(e, form));
      throw e;
    }
  };
}
