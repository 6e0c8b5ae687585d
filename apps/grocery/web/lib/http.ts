import type { NextRequest } from "next/server";
import { field, json, jsonError, seeOther, withQuery } from "@persona/platform/http";
import { requestUser, type User } from "./auth";
import { ShopError } from "./grocery";

export { field, json, jsonError, seeOther, withQuery };

function wantsJson(req: NextRequest): boolean {
  return (req.headers.get("accept") ?? "").includes("application/json");
}

/**
 * The POST handler of a form: signed out, to the sign-in page (401 for JSON); signed in, runs `act`
 * and answers 303 to the path it returns (JSON: `{ok: true, next}`). A ShopError answers 303 to
 * `failed(error, form)` with `error` in the query (JSON: 400 `{error}`); nothing was written then.
 */
export function formPost({ act, failed }: {
  act: (user: User, form: FormData, req: NextRequest) => Promise<string> | string;
  failed: (form: FormData) => string;
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
      if (e instanceof ShopError) return wantsJson(req) ? jsonError(e.message) : seeOther(addParam(failed(form), "error", e.message));
      throw e;
    }
  };
}

/** A same-site path to go back to (`/store/x?q=y`), else `fallback`. */
export function backTo(form: FormData, fallback: string): string {
  const v = field(form, "back");
  return v.startsWith("/") && !v.startsWith("//") ? v : fallback;
}

/** `path` with `key=value` set in its query (any earlier `key`, `added` or `error` dropped). */
export function addParam(path: string, key: string, value: string): string {
  const [base, query = ""] = path.split("#")[0].split("?");
  const q = new URLSearchParams(query);
  q.delete("added");
  q.delete("error");
  q.set(key, value);
  return `${base}?${q.toString()}`;
}
