import { sessionStore } from "@persona/platform/session";
import { db, mailContext } from "./db";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  work_email: string | null;
  signature: string;
}

/** Sign-in to Mailbox: the `mb_session` cookie (see @persona/platform/session). */
const store = sessionStore<User>({
  db,
  cookie: "mb_session",
  now: () => mailContext().now,
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.work_email, u.signature FROM users u",
});

export const SESSION_COOKIE = store.cookie;
export const { userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;

/** The user's own addresses (personal first), lower-cased. */
export function ownAddresses(user: User): string[] {
  return [user.email, user.work_email].filter((a): a is string => !!a).map((a) => a.toLowerCase());
}
