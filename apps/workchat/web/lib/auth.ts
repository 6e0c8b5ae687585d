import { sessionStore } from "@persona/platform/session";
import { chatContext } from "./context";
import { db } from "./db";

export interface User {
  id: number;
  person_id: number;
  username: string;
  name: string;
  email: string;
  title: string;
  status_emoji: string;
  status_text: string;
  status_expires_at: string | null;
}

/** Sign-in to Huddle: the `hd_session` cookie (see @persona/platform/session). */
const store = sessionStore<User>({
  db,
  cookie: "hd_session",
  now: () => chatContext().now,
  userSql:
    "SELECT u.id, u.person_id, u.username, p.name, p.email, p.title, u.status_emoji, u.status_text, u.status_expires_at " +
    "FROM users u JOIN people p ON p.id = u.person_id",
});

export const SESSION_COOKIE = store.cookie;
export const { userForToken, currentUser, requireUser, signIn, signOut, sessionCookie } = store;
/** The whole session store (the sign-in route is made from it). */
export const sessions = store;
