import type { NextRequest } from "next/server";
import { parseMoney } from "@persona/ui/format";
import { SESSION_COOKIE, userForToken, type User } from "./auth";
import { BankError, getStatement, type Account, type Statement } from "./bank";
import { bankContext } from "./context";

/**
 * 303 See Other to a path on this same origin. The Location is relative on purpose: behind
 * nginx the app does not know its public host name, and browsers resolve it against the page.
 */
export function seeOther(path: string, extraHeaders: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { Location: path, "Cache-Control": "no-store", ...extraHeaders } });
}

/** `path?k=v...` skipping empty values. */
export function withQuery(path: string, params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** Only same-site paths may be redirected to after sign-in. */
export function safeNext(next: unknown): string {
  const s = typeof next === "string" ? next : "";
  return s.startsWith("/") && !s.startsWith("//") && !s.startsWith("/\\") ? s : "/";
}

export function requestUser(req: NextRequest): User | null {
  return userForToken(req.cookies.get(SESSION_COOKIE)?.value);
}

export function field(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
}

/** A posted id: the integer in `value`, or -1 (matches no row) when there is none. */
export function idValue(value: string): number {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? n : -1;
}

/** A posted amount in cents, read in the bank's locale; null when it is not a number. */
export function centsValue(value: string): number | null {
  return parseMoney(value, bankContext().locale);
}

/**
 * The POST handler of a form on a signed-in page (`page`, where the form is).
 *
 * Signed out: to the sign-in page, coming back to `page`. Signed in: reads `fields` as strings,
 * runs `act` and answers 303 to `page` with the query it returns. When `act` throws a
 * BankError, answers 303 to `failed(error, values)`: by default `page` again with the values (so
 * the form refills), the message and the field it is about. Any other error is not caught.
 */
export function formPost<F extends string>({
  page,
  fields,
  act,
  failed = (e, values) => withQuery(page, { ...values, error: e.message, field: e.field }),
}: {
  page: string;
  fields: readonly F[];
  act: (user: User, values: Record<F, string>) => Record<string, string | number>;
  failed?: (e: BankError, values: Record<F, string>) => string;
}) {
  return async function POST(req: NextRequest): Promise<Response> {
    const user = requestUser(req);
    if (!user) return seeOther(`/login?next=${page}`);
    const form = await req.formData();
    const values = Object.fromEntries(fields.map((name) => [name, field(form, name)])) as Record<F, string>;
    try {
      return seeOther(withQuery(page, act(user, values)));
    } catch (e) {
      if (e instanceof BankError) return seeOther(failed(e, values));
      throw e;
    }
  };
}

/**
 * The statement a download route (/statements/<id>/...) serves, when it is the signed-in user's;
 * otherwise the answer to give instead: to the sign-in page when signed out, 404 when it is
 * missing or someone else's.
 */
export async function requestStatement(
  req: NextRequest,
  params: Promise<{ id: string }>,
): Promise<{ user: User; account: Account; statement: Statement } | Response> {
  const user = requestUser(req);
  if (!user) return seeOther("/login?next=/statements");
  const found = getStatement(user.id, Number((await params).id));
  if (!found) return new Response("Statement not found", { status: 404 });
  return { user, ...found };
}

/** A file to download (or, `inline`, to show in the browser), never cached. */
export function fileResponse(body: BodyInit, contentType: string, fileName: string, inline = false): Response {
  return new Response(body, {
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": `${inline ? "inline" : "attachment"}; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
