import { field, idValue, seeOther, withQuery } from "@persona/platform/http";
import { backField as back, formPoster } from "@persona/platform/forms";
import { requestUser } from "./auth";
import { ShopError } from "./shop";

export { back, field, idValue, seeOther, withQuery };

/** The POST handler of a form: signed out to sign-in, a ShopError back to `failed(error, form)` with the signed message
 * (@persona/platform/forms formRoute; a body that is not a form goes to the start page; idempotent per `_idem`). */
export const formPost = formPoster({ user: requestUser, refusal: ShopError });
