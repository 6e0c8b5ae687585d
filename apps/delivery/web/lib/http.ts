import type { NextRequest } from "next/server";
import { field, json, jsonError, seeOther, withQuery } from "@persona/platform/http";
import { requestUser, type User } from "./auth";

export { field, json, jsonError, seeOther, withQuery };

/** A refusal the customer should read (bad input, an expired code, a declined card): nothing was written. */
export class DashError extends Error {}

/** A posted id: the integer in `value`, or NaN when it is not a plain positive integer. */
export function idValue(value: string): number {
  return /^\d{1,12}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

function wantsJson(req: NextRequest): boolean {
  return (req.headers.get("accept") ?? "").includes("application/json");
}

/**
 * The POST handler of a form: signed out, to the sign-in page (401 for JSON); signed in, runs `act` and
 * answers 303 to the path it returns (JSON: `{ok: true, next}`). A DashError answers 303 to
 * `failed(error, form)` (JSON: 400 `{error}`); nothing was written then.
 */
export function formPost({
  act,
  failed,
}: {
  act: (user: User, form: FormData, req: NextRequest) => Promise<string> | string;
  failed: (e: DashError, form: FormData, req: NextRequest) => string;
}) {
  return async function POST(req: NextRequest, _ctx: unknown): Promise<Response> {
    const user = requestUser(req);
    if (!user) return wantsJson(req) ? jsonError("Sign in first.", 401) : seeOther("/login");
    let form: FormData;
    try {
      form = await req.formData();
    } catch {
      return wantsJson(req) ? jsonError("That request could not be read.") : seeOther(withQuery("/", { error: "That request could not be read." }));
    }
    try {
      const next = await act(user, form, req);
      return wantsJson(req) ? json({ ok: true, next }) : seeOther(next);
    } catch (e) {
      if (e instanceof DashError) return wantsJson(req) ? jsonError(e.message) : seeOther(failed(e, form, req));
      throw e;
    }
  };
}

/** The id segment `offset` places from the end of the request path (`/api/orders/12/rate`: offset 2 -> 12). */
export function pathId(req: NextRequest, offset = 2): number {
  return idValue(req.nextUrl.pathname.split("/").at(-offset) ?? "");
}
