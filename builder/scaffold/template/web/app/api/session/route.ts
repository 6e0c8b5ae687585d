import { app } from "@/__APP__/lib/app";

/** Sign-in form post (@persona/platform/session signInRoute: limited attempts, same-origin next): a session and its
 * cookie, or back to the form with an error. */
export const POST = app.signInRoute;
