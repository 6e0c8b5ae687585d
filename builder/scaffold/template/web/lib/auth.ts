import { appNow } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { sessionStore } from "@persona/platform/session";
import { db } from "./db";

export interface User {
  id: number;
  username: string;
  full_name: string;
}

/** The app's now: the wall clock in the persona's zone, never before the world's now. */
export function now(): string {
  const meta = readMeta(db());
  return appNow(meta.timezone || "UTC", meta.now);
}

/** Sign-in to __TITLE__: the `__COOKIE__` cookie (see @persona/platform/session). */
const store = sessionStore<User>({ db, cookie: "__COOKIE__", now, userSql: "SELECT u.id, u.username, u.full_name FROM users u" });

export const SESSION_COOKIE = store.cookie;
export const { userForToken, requireUser, requestUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;
