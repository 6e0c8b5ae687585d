import { bank } from "./app";
export type { User } from "./app";
export const { cookie: SESSION_COOKIE, userForToken, currentUser, requireUser, signIn, signOut, sessionCookie, sessions } = bank;
