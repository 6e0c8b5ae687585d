import type { NextRequest } from "next/server";
import { parseMoney } from "@persona/ui/format";
import { field, idValue, seeOther, withQuery } from "@persona/platform/http";
import { fieldsOf, formRoute, overCap } from "@persona/platform/forms";
import { SESSION_COOKIE, userForToken, type User } from "./auth";
import { BankError, getStatement, type Account, type Statement } from "./bank";
import { bankContext } from "./context";

export { fileResponse, safeNext } from "@persona/platform/http";
export { field, idValue, seeOther, withQuery };

export function requestUser(req: NextRequest): User | null {
  return userForToken(req.cookies.get(SESSION_COOKIE)?.value);
}

/** Longest amount text a form may post ("1,000,000.00" and a currency sign fit). */
const AMOUNT_CHARS = 24;

/** A posted amount in cents, read in the bank's locale; null when it is not a plain amount (or absurdly long). */
export function centsValue(value: string): number | null {
  if (value.length > AMOUNT_CHARS) return null;
  return parseMoney(value, bankContext().locale);
}

/** What a field may hold at most (characters) unless the route says otherwise: ids, amounts, choices. */
const DEFAULT_CAP = 40;

const FIELD_WORDS: Record<string, string> = {
  name: "The name",
  email: "The email address",
  phone: "The mobile number",
  account_number: "The account number",
  category: "The category",
  memo: "The memo",
  amount: "The amount",
};

/**
 * The POST handler of a form on a signed-in page (`page`, where the form is; @persona/platform/forms formRoute), one
 * effect per form token (the form's hidden `_idem`): a double submit or a retry gets the first answer.
 *
 * Signed out: to the sign-in page, coming back to `page`. Signed in: reads the form with a size limit, refuses any of
 * `fields` longer than its cap (`caps[name]`, else 40 characters) before any other work, runs `act` and answers 303
 * to `page` with the query it returns. When `act` throws a BankError (or a field is too long, or the body is not a
 * form), answers 303 to `failed(error, values)`: by default `page` again with the values cut to their caps (so the
 * form refills), the signed message and the field it is about. Any other error is not caught.
 */
export function formPost<F extends string>({
  page,
  fields,
  caps = {},
  act,
  failed = (e, values) => withQuery(page, { ...values, error: e.message, field: e.field }),
}: {
  page: string;
  fields: readonly F[];
  caps?: Partial<Record<F, number>>;
  act: (user: User, values: Record<F, string>) => Record<string, string | number>;
  failed?: (e: BankError, values: Record<F, string>) => string;
}) {
  const capOf = (name: F): number => caps[name] ?? DEFAULT_CAP;
  const capped = (form: FormData) => Object.fromEntries(fields.map((name) => [name, Array.from(field(form, name)).slice(0, capOf(name)).join("")])) as Record<F, string>;
  return formRoute({
    user: requestUser,
    refusal: BankError,
    signedOut: withQuery("/login", { next: page }),
    unreadable: page,
    act: (user, form) => {
      const over = overCap(fieldsOf(form, fields), (name) => capOf(name as F), (name) => FIELD_WORDS[name] ?? "This field");
      if (over) throw new BankError(over.message, over.field);
      return withQuery(page, act(user, capped(form)));
    },
    failed: (e, form) => failed(e, capped(form)),
  });
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
  const id = idValue((await params).id);
  const found = id === null ? null : getStatement(user.id, id);
  if (!found) return new Response("Statement not found", { status: 404 });
  return { user, ...found };
}
