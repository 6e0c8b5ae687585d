import { sessionStore } from "@persona/platform/session";
import { db } from "./db";
import { rideContext } from "./context";

export interface User {
  id: number;
  username: string;
  full_name: string;
  email: string;
  phone: string;
  rating_x100: number;
  member_since: string;
}

/** Sign-in to ZipRide: the `zr_session` cookie (see @persona/platform/session). */
const store = sessionStore<User>({
  db,
  cookie: "zr_session",
  now: () => rideContext().now,
  userSql: "SELECT u.id, u.username, u.full_name, u.email, u.phone, u.rating_x100, u.member_since FROM users u",
});

export const SESSION_COOKIE = store.cookie;
export const { userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;
