import { field, idValue, seeOther, withQuery } from "@persona/platform/http";
import { formPoster } from "@persona/platform/forms";
import { PaymentDeclined } from "@persona/platform/payments";
import { requestUser, type User } from "./auth";
import { AirError } from "./air";
import { airContext, type AirContext } from "./context";

export { field, idValue, seeOther, withQuery };

/** A posted PNR, upper-cased and trimmed (validated by the lookup). */
export function pnrValue(value: string): string {
  return value.trim().toUpperCase().slice(0, 12);
}

const post = formPoster({
  user: requestUser,
  refusal: AirError,
  alsoRefused: (e) => (e instanceof PaymentDeclined ? new AirError(`Your card was not charged: ${e.message}`) : null),
  unreadable: "failed",
});

/** The POST handler of a form (@persona/platform/forms formRoute): signed out to sign-in; an AirError, a declined card
 * ("Your card was not charged: ...") or a body that is no form to `failed(message, form)` with the signed message;
 * idempotent per `_idem` token or Idempotency-Key. */
export function formPost({
  act,
  failed,
}: {
  act: (ctx: AirContext, user: User, form: FormData) => Promise<string> | string;
  failed: (message: string, form: FormData) => string;
}) {
  return post({ act: (user, form) => act(airContext(), user, form), failed: (e, form) => failed(e.message, form) });
}
