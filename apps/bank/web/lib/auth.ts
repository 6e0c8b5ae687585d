import { bank } from "./app";

export type { User } from "./app";
/** Sign-in to the bank (see ./app and @persona/platform/session); `sessions` is the whole store. */
export const { cookie: SESSION_COOKIE, userForToken, currentUser, requireUser, signIn, signOut, sessionCookie, sessions } = bank;
