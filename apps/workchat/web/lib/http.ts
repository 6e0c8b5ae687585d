import type { NextRequest } from "next/server";
import { field, safeNext, seeOther, withQuery } from "@persona/platform/http";
import { SESSION_COOKIE, userForToken, type User } from "./auth";
import { ChatError } from "./actions";

export { field, safeNext, seeOther, withQuery };

export function requestUser(req: NextRequest): User | null {
  return userForToken(req.cookies.get(SESSION_COOKIE)?.value);
}

/** A posted id: the integer in `value` (digits only), or -1 (matches no row). */
export function idValue(value: string): number {
  return /^\d{1,12}$/.test(value.trim()) ? Number(value.trim()) : -1;
}

/** `back` with `params` merged into its query (keeps its own query, drops old error/notice). */
export function backTo(back: string, params: Record<string, string | number | null | undefined>, hash = ""): string {
  const safe = safeNext(back);
  const u = new URL(safe, "http://huddle.local");
  u.searchParams.delete("error");
  u.searchParams.delete("field");
  u.searchParams.delete("notice");
  u.searchParams.delete("draft");
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") u.searchParams.set(k, String(v));
  return `${u.pathname}${u.search}${hash}`;
}

/**
 * The POST handler of a form: signed out goes to sign-in; otherwise reads `fields`, runs `act` and
 * answers 303 to the form's `back` path (or what `act` returns). A ChatError goes back with
 * `error` (and `field`; the typed `draft` when it is short enough to carry) and changes nothing.
 */
export function formPost<F extends string>(fields: readonly F[], act: (user: User, values: Record<F | "back", string>) => Promise<string> | string) {
  return async function POST(req: NextRequest): Promise<Response> {
    const user = requestUser(req);
    let form: FormData;
    try {
      form = await req.formData();
    } catch {
      return new Response("Send the form fields as a form post.", { status: 400 });
    }
    const values = Object.fromEntries([...fields, "back"].map((name) => [name, field(form, name)])) as Record<F | "back", string>;
    if (!user) return seeOther(`/login?next=${encodeURIComponent(safeNext(values.back))}`);
    try {
      return seeOther(await act(user, values));
    } catch (e) {
      if (e instanceof ChatError) {
        const draft = "text" in values ? (values as Record<string, string>).text : "";
        return seeOther(backTo(values.back || "/", { error: e.message, field: e.field, draft: draft.length <= 1500 ? draft : "" }));
      }
      throw e;
    }
  };
}
