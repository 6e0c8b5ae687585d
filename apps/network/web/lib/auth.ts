import { sessionStore } from "@persona/platform/session";
import { db } from "./db";
import { networkContext } from "./context";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
}

/** Sign-in to Guildline: the `gl_session` cookie (see @persona/platform/session). */
const store = sessionStore<User>({
  db,
  cookie: "gl_session",
  now: () => networkContext().now,
  userSql: "SELECT u.id, u.username, u.full_name, u.email FROM users u",
});

export const SESSION_COOKIE = store.cookie;
export const { userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;
