import type { NextRequest } from "next/server";
export { field, fileResponse, safeNext, seeOther, withQuery } from "@persona/platform/http";
import { parseMoney } from "@persona/ui/format";
import { field, seeOther, withQuery } from "@persona/platform/http";
import { SESSION_COOKIE, userForToken, type User } from "./auth";
import { BankError, getStatement, type Account, type Statement } from "./bank";
import { bankContext } from "./context";

export function requestUser(req: NextRequest): User | null {
  return userForToken(req.cookies.get(SESSION_COOKIE)?.value);
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
