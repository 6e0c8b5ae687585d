import { addDays } from "@persona/platform/clock";
import { newSessionToken, sessionCookieHeader, verifyPassword } from "@persona/platform/auth";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { chatContext } from "./context";
import { db } from "./db";

export const SESSION_COOKIE = "hd_session";
/** Lifetime of a session made by the sign-in form. */
export const SESSION_DAYS = 30;

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

/** The user whose unexpired session has this token, or null. */
export function userForToken(token: string | undefined | null): User | null {
  if (!token) return null;
  const { now } = chatContext();
  const row = db()
    .prepare(
      `SELECT u.id, u.person_id, u.username, p.name, p.email, p.title, u.status_emoji, u.status_text, u.status_expires_at
         FROM sessions s JOIN users u ON u.id = s.user_id JOIN people p ON p.id = u.person_id
        WHERE s.token = ? AND s.expires_at > ?`,
    )
    .get(token, now) as User | undefined;
  return row ?? null;
}

/** The signed-in user of this request (from the hd_session cookie), or null. Cached per request. */
export const currentUser = cache(async (): Promise<User | null> => {
  const jar = await cookies();
  return userForToken(jar.get(SESSION_COOKIE)?.value);
});

/** The signed-in user, or a redirect to the sign-in page. */
export async function requireUser(): Promise<User> {
  const user = await currentUser();
  if (!user) redirect("/login");
  return user;
}

/** Check the credentials and create a session row; returns its token or null. */
export function signIn(username: string, password: string): string | null {
  const row = db().prepare("SELECT id, password_hash FROM users WHERE username = ? COLLATE NOCASE").get(username.trim()) as
    | { id: number; password_hash: string }
    | undefined;
  if (!row || !verifyPassword(password, row.password_hash)) return null;
  const { now } = chatContext();
  const token = newSessionToken();
  db().prepare("INSERT INTO sessions (token, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)").run(token, row.id, now, addDays(now, SESSION_DAYS));
  return token;
}

export function signOut(token: string | undefined | null) {
  if (token) db().prepare("DELETE FROM sessions WHERE token = ?").run(token);
}

/** `Set-Cookie` value of the session cookie (see @persona/platform/auth). */
export function sessionCookie(token: string | null): string {
  return sessionCookieHeader(SESSION_COOKIE, token, SESSION_DAYS);
}
