import type { NextRequest } from "next/server";
import { field, seeOther, withQuery } from "@persona/platform/http";
import { requestUser, type User } from "./auth";
import { NetworkError } from "./network";

export { field, seeOther, withQuery };

/** A posted id: the integer in `value`, or NaN when it is not a plain positive integer. */
export function idValue(value: string): number {
  return /^\d{1,12}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

/** A same-app path to go back to (`back` field), or `fallback`. */
export function backTo(form: FormData, fallback: string): string {
  const b = field(form, "back");
  return b.startsWith("/") && !b.startsWith("//") && !b.includes("\\") ? b : fallback;
}

/** `path` (which may carry a query already) with `error` and `field` set. */
export function withError(path: string, e: NetworkError): string {
  const u = new URL(path, "http://guildline.invalid");
  u.searchParams.set("error", e.message);
  if (e.field) u.searchParams.set("field", e.field);
  return `${u.pathname}${u.search}`;
}

/**
 * The POST handler of a form: signed out, to the sign-in page; signed in, runs `act` on the posted
 * form and answers 303 to the path it returns. A NetworkError answers 303 to the form's page
 * (`back`, else `fallback`) with `?error=`; nothing was written then.
 */
export function formPost(fallback: string, act: (user: User, form: FormData) => Promise<string> | string) {
  return async function POST(req: NextRequest): Promise<Response> {
    const user = requestUser(req);
    if (!user) return seeOther("/login");
    let form: FormData;
    try {
      form = await req.formData();
    } catch {
      return seeOther(withQuery(fallback, { error: "That request could not be read." }));
    }
    try {
      return seeOther(await act(user, form));
    } catch (e) {
      if (e instanceof NetworkError) return seeOther(withError(backTo(form, fallback), e));
      throw e;
    }
  };
}
