import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { addDays, appNow } from "@persona/platform/clock";
import { newSessionToken, sessionCookieHeader, verifyPassword } from "@persona/platform/auth";
import { readMeta } from "@persona/platform/db";
import { db } from "./db";

export const SESSION_COOKIE = "__COOKIE__";
const SESSION_DAYS = 30;

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

/** The user whose unexpired session has this token, or null. */
export function userForToken(token: string | undefined | null): User | null {
  if (!token) return null;
  const row = db()
    .prepare("SELECT u.id, u.username, u.full_name FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token = ? AND s.expires_at > ?")
    .get(token, now()) as User | undefined;
  return row ?? null;
}

/** The signed-in user of this request, or a redirect to the sign-in page. */
export async function requireUser(): Promise<User> {
  const user = userForToken((await cookies()).get(SESSION_COOKIE)?.value);
  if (!user) redirect("/login");
  return user;
}

/** Check the credentials and create a session; returns the `Set-Cookie` value or null. */
export function signIn(username: string, password: string): string | null {
  const row = db().prepare("SELECT id, password_hash FROM users WHERE username = ? COLLATE NOCASE").get(username.trim()) as
    | { id: number; password_hash: string }
    | undefined;
  if (!row || !verifyPassword(password, row.password_hash)) return null;
  const token = newSessionToken();
  const at = now();
  db().prepare("INSERT INTO sessions (token, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)").run(token, row.id, at, addDays(at, SESSION_DAYS));
  return sessionCookieHeader(SESSION_COOKIE, token, SESSION_DAYS);
}

/** End the session of `token`; returns the `Set-Cookie` value that clears the cookie. */
export function signOut(token: string | undefined): string {
  if (token) db().prepare("DELETE FROM sessions WHERE token = ?").run(token);
  return sessionCookieHeader(SESSION_COOKIE, null, 0);
}
