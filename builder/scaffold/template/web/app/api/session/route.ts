import { app } from "@/__APP__/lib/app";
/** Sign-in form post (@persona/platform/session signInRoute: limited attempts, same-origin next). */
export const POST = app.signInRoute;
