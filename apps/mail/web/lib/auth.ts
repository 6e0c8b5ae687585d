import { mail } from "./app";
import type { User } from "./app";
export type { User } from "./app";
export const { cookie: SESSION_COOKIE, userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie, sessions } = mail;

/** The user's own addresses (personal first), lower-cased. */
export function ownAddresses(user: User): string[] {
  return [user.email, user.work_email].filter((a): a is string => !!a).map((a) => a.toLowerCase());
}
