import { signInRoute } from "@persona/platform/session";
import { sessions } from "@/__APP__/lib/auth";

export const dynamic = "force-dynamic";

/** Sign-in form post (@persona/platform/session signInRoute: limited attempts, same-origin next): a session and its
 * cookie, or back to the form with an error. */
export const POST = signInRoute(sessions);
