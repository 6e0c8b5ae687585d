import { field, lookupId as idValue, readFormPost, seeOther, withQuery } from "@persona/platform/http";
import { formPoster } from "@persona/platform/forms";
import { requestUser } from "./auth";
import { ChatError } from "./chat";

export { field, idValue, seeOther, withQuery };

/** The POST handler of a form (@persona/platform/forms formRoute): signed out to sign-in; a body that is not a form
 * answers 400 with a message (readFormPost); a ChatError goes to `failed(error, form)` with the signed message;
 * idempotent per `_idem` token. */
export const formPost = formPoster({ user: requestUser, refusal: ChatError, read: readFormPost, unreadable: "json" });
