import { sessionStore } from "@persona/platform/session";
import { db } from "./db";
import { airContext } from "./context";

export interface User {
  id: number;
  username: string;
  full_name: string;
  given_name: string;
  surname: string;
  email: string;
  home_airport: string;
  seat_preference: string;
}

/** Sign-in to Meridian Air with the MileagePass number: the `ma_session` cookie. */
const store = sessionStore<User>({
  db,
  cookie: "ma_session",
  now: () => airContext().now,
  userSql:
    "SELECT u.id, u.username, u.full_name, u.given_name, u.surname, u.email, u.home_airport, u.seat_preference FROM users u",
});

export const SESSION_COOKIE = store.cookie;
export const { userForToken, currentUser, requireUser, requestUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;
