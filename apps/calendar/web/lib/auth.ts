import { sessionStore } from "@persona/platform/session";
import { db } from "./db";
import { calContext } from "./context";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  work_email: string | null;
}

/** Sign-in to Daybook: the `db_session` cookie (see @persona/platform/session). */
const store = sessionStore<User>({
  db,
  cookie: "db_session",
  now: () => calContext().now,
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.work_email FROM users u",
});

export const SESSION_COOKIE = store.cookie;
export const { userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;
