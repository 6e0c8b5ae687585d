import type { NextRequest } from "next/server";
import { BadRequest, field, idValue as platformId, jsonError, readFormPost, seeOther, withQuery } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import { requestUser, type User } from "./auth";
import { ChatError } from "./chat";

export { field, seeOther, withQuery };

/** A posted id: digits only (@persona/platform/http idValue), else NaN (matches no row; `1 OR 1=1` is not 1). */
export function idValue(value: string): number {
  return platformId(value) ?? Number.NaN;
}

/**
 * The POST handler of a form: signed out, to the sign-in page; a body that is not a form answers 400 with a
 * message; signed in, runs `act` on the posted form and answers 303 to the path it returns. A ChatError answers
 * 303 to `failed(error, form)` (the form's page with a signed `?error=`); nothing was written then. Any other error
 * is not caught. Idempotent (@persona/platform/once): a form's `_idem` token posts once, a repeat replays the answer.
 */
export function formPost({
  act,
  failed,
}: {
  act: (user: User, form: FormData) => Promise<string> | string;
  failed: (e: ChatError, form: FormData) => string;
}) {
  return idempotent(
    async (req: NextRequest): Promise<Response> => {
      const user = requestUser(req);
      if (!user) return seeOther("/login");
      let form: FormData;
      try {
        form = await readFormPost(req);
      } catch (e) {
        if (e instanceof BadRequest) return jsonError(e.message, e.status);
        throw e;
      }
      try {
        return seeOther(await act(user, form));
      } catch (e) {
        if (e instanceof ChatError) return seeOther(failed(e, form));
        throw e;
      }
    },
    { user: (req) => requestUser(req)?.id },
  );
}
