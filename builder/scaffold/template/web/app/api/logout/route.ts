import { app } from "@/__APP__/lib/app";
/** Sign out (@persona/platform/session signOutRoute): delete the session, clear the cookie. */
export const POST = app.signOutRoute;
