import { airline } from "./app";

export type { User } from "./app";
/** Sign-in to Meridian Air with the MileagePass number (see ./app and @persona/platform/session). */
export const { cookie: SESSION_COOKIE, userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie, sessions } = airline;
