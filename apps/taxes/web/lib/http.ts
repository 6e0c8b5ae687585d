import type { NextRequest } from "next/server";
import { seeOther, withQuery } from "@persona/platform/http";
import { requestUser, type User } from "./auth";
import { taxContext, type TaxContext } from "./context";
import { FieldError } from "./fields";

/**
 * The POST handler of a form: signed out, to the sign-in page; signed in, runs `act` and answers 303 to the path
 * it returns. A FieldError answers 303 to `back(form)` with `?error=&field=`; nothing was written then.
 */
export function formPost(act: (ctx: TaxContext, user: User, form: FormData) => string, back: (form: FormData) => string) {
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
      return seeOther(act(taxContext(), user, form));
    } catch (e) {
      if (e instanceof FieldError) return seeOther(withQuery(back(form), { error: e.message, field: e.field }));
      throw e;
    }
  };
}
