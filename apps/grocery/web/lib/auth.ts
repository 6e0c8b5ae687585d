import { grocery } from "./app";
export type { User } from "./app";
export const { cookie: SESSION_COOKIE, userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie, sessions } = grocery;
