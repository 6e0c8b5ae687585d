import { stays } from "./app";

export type { User } from "./app";
/** Sign-in to Bramblestay (see ./app and @persona/platform/session); `sessions` is the whole store. */
export const { cookie: SESSION_COOKIE, userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie, sessions } = stays;
