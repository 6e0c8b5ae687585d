import { sessionStore } from "@persona/platform/session";
import { db } from "./db";
import { dashContext } from "./context";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  phone: string;
  tip_percent: number;
  member_since: string;
}

/** Sign-in to DashBite: the `db_session` cookie (see @persona/platform/session). */
const store = sessionStore<User>({
  db,
  cookie: "db_session",
  now: () => dashContext().now,
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.phone, u.tip_percent, u.member_since FROM users u",
});

export const SESSION_COOKIE = store.cookie;
export const { userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;
