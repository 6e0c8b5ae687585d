import type { NextRequest } from "next/server";
import { BadRequest, field, idValue, json, jsonError, readForm, safePath, seeOther, withQuery } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import { requestUser, type User } from "./auth";
import { ShopError } from "./grocery";

export { field, idValue, json, jsonError, seeOther, withQuery };

function wantsJson(req: NextRequest): boolean {
  return (req.headers.get("accept") ?? "").includes("application/json");
}

/**
 * The POST handler of a form: signed out, to the sign-in page (401 for JSON); signed in, runs `act`
 * and answers 303 to the path it returns (JSON: `{ok: true, next}`). A ShopError answers 303 to
 * `failed(form)` with a signed `error` in the query (JSON: 400 `{error}`); nothing was written then. The body is
 * read with the platform's size-limited reader (a body that is not a form is refused the same way), and the
 * handler is idempotent per (route, user, `_idem` token or Idempotency-Key): a form posted twice has one effect.
 */
export function formPost({ act, failed }: {
  act: (user: User, form: FormData, req: NextRequest) => Promise<string> | string;
  failed: (form: FormData) => string;
}) {
  async function handle(req: NextRequest): Promise<Response> {
    const user = requestUser(req);
    if (!user) return wantsJson(req) ? jsonError("Sign in first.", 401) : seeOther("/login");
    let form: FormData;
    try {
      form = await readForm(req);
    } catch (e) {
      if (!(e instanceof BadRequest)) throw e;
      return wantsJson(req) ? jsonError(e.message, e.status) : seeOther(withQuery("/", { error: e.message }));
    }
    try {
      const next = await act(user, form, req);
      return wantsJson(req) ? json({ ok: true, next }) : seeOther(next);
    } catch (e) {
      if (e instanceof ShopError) return wantsJson(req) ? jsonError(e.message) : seeOther(addParam(failed(form), "error", e.message));
      throw e;
    }
  }
  return idempotent(handle, { user: (req) => requestUser(req)?.id });
}

/** A same-origin path to go back to (`/store/x?q=y`), else `fallback`. */
export function backTo(form: FormData, fallback: string): string {
  return safePath(field(form, "back"), fallback);
}

/** `path` (same-origin, else "/") with `key=value` set in its query (any earlier `key`, `added`, `error` dropped);
 * through withQuery, so an `error` is signed and every value capped. */
export function addParam(path: string, key: string, value: string): string {
  const [base, query = ""] = safePath(path, "/").split("#")[0].split("?");
  const q = new URLSearchParams(query);
  q.delete("added");
  q.delete("error");
  q.delete("es");
  q.delete(key);
  return withQuery(base, { ...Object.fromEntries(q), [key]: value });
}
