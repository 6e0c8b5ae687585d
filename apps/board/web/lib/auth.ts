import { sessionStore } from "@persona/platform/session";
import { db } from "./db";
import { boardContext } from "./context";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  person_id: number;
}

/** Sign-in to Cairn: the `cn_session` cookie (see @persona/platform/session). */
const store = sessionStore<User>({
  db,
  cookie: "cn_session",
  now: () => boardContext().now,
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.person_id FROM users u",
});

export const SESSION_COOKIE = store.cookie;
export const { userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;
