import type { NextRequest } from "next/server";
import { field, seeOther, withQuery } from "@persona/platform/http";
import { PaymentDeclined } from "@persona/platform/payments";
import { requestUser, type User } from "./auth";
import { AirError } from "./air";
import { airContext, type AirContext } from "./context";

export { field, seeOther, withQuery };

/** A posted id: the integer in `value`, or NaN when it is not a plain positive integer. */
export function idValue(value: string): number {
  return /^\d{1,12}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

/** A posted PNR, upper-cased and trimmed (validated by the lookup). */
export function pnrValue(value: string): string {
  return value.trim().toUpperCase().slice(0, 12);
}

/**
 * The POST handler of a form: signed out, to the sign-in page; signed in, runs `act` and answers 303 to the path it
 * returns. An AirError or a declined card answers 303 to `failed(message, form)` (nothing was written then).
 */
export function formPost({
  act,
  failed,
}: {
  act: (ctx: AirContext, user: User, form: FormData) => Promise<string> | string;
  failed: (message: string, form: FormData) => string;
}) {
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
      return seeOther(await act(airContext(), user, form));
    } catch (e) {
      if (e instanceof AirError) return seeOther(failed(e.message, form));
      if (e instanceof PaymentDeclined) return seeOther(failed(`Your card was not charged: ${e.message}`, form));
      throw e;
    }
  };
}
