import { sessionStore } from "@persona/platform/session";
import { db } from "./db";
import { diningContext } from "./context";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  phone: string;
  home_city: string;
  points: number;
}

/** Sign-in to TableTime: the `tt_session` cookie (see @persona/platform/session). */
const store = sessionStore<User>({
  db,
  cookie: "tt_session",
  now: () => diningContext().now,
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.phone, u.home_city, u.points FROM users u",
});

export const SESSION_COOKIE = store.cookie;
export const { userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;
