import type { NextRequest } from "next/server";
import { BadRequest, field, idValue, readForm, seeOther, withQuery } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import { PaymentDeclined } from "@persona/platform/payments";
import { requestUser, type User } from "./auth";
import { AirError } from "./air";
import { airContext, type AirContext } from "./context";

export { field, idValue, seeOther, withQuery };

/** A posted PNR, upper-cased and trimmed (validated by the lookup). */
export function pnrValue(value: string): string {
  return value.trim().toUpperCase().slice(0, 12);
}

/**
 * The POST handler of a form: signed out, to the sign-in page; signed in, runs `act` and answers 303 to the path it
 * returns. The body is read with the platform's size-limited reader; a body that is no form, an AirError or a declined
 * card answers 303 to `failed(message, form)` (the signed error banner; nothing was written then). Idempotent
 * (@persona/platform/once): a form's `_idem` token (or an Idempotency-Key header) runs once per user, a duplicate
 * (also a concurrent one) gets the first answer.
 */
export function formPost({
  act,
  failed,
}: {
  act: (ctx: AirContext, user: User, form: FormData) => Promise<string> | string;
  failed: (message: string, form: FormData) => string;
}) {
  return idempotent(
    async function POST(req: NextRequest): Promise<Response> {
      const user = requestUser(req);
      if (!user) return seeOther("/login");
      let form: FormData;
      try {
        form = await readForm(req);
      } catch (e) {
        if (e instanceof BadRequest) return seeOther(failed(e.message, new FormData()));
        throw e;
      }
      try {
        return seeOther(await act(airContext(), user, form));
      } catch (e) {
        if (e instanceof AirError) return seeOther(failed(e.message, form));
        if (e instanceof PaymentDeclined) return seeOther(failed(`Your card was not charged: ${e.message}`, form));
        throw e;
      }
    },
    { user: (req) => requestUser(req)?.id },
  );
}
