import { sessionStore } from "@persona/platform/session";
import { db } from "./db";
import { bankContext } from "./context";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  phone: string;
  address: string;
}

/** Sign-in to Larkspur Bank: the `lb_session` cookie (see @persona/platform/session). */
const store = sessionStore<User>({
  db,
  cookie: "lb_session",
  now: () => bankContext().now,
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.phone, u.address FROM users u",
});

export const SESSION_COOKIE = store.cookie;
export const { userForToken, currentUser, requireUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;
