import type Database from "better-sqlite3";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { addDays } from "./clock";
import { newSessionToken, sessionCookieHeader, verifyPassword } from "./auth";

/**
 * Sign-in for an app whose database has the platform's two tables:
 * `users(id, username, password_hash, ...)` and `sessions(token, user_id, created_at, expires_at)`
 * (builder/appkit.py). The persona's Firefox carries a seeded session's token as the app's cookie;
 * the sign-in form makes new sessions. Times are the app's local ISO now.
 */
export interface SessionStoreOptions {
  /** The app's database. */
  db: () => Database.Database;
  /** Its session cookie's name (app.yaml `session_cookie`). */
  cookie: string;
  /** The app's now, local ISO (appNow). */
  now: () => string;
  /**
   * The user row to load: `SELECT <columns> FROM users u [JOIN ...]`, a constant of the app's
   * code (never user input); the store appends the session join and the parameters.
   */
  userSql: string;
  /** Lifetime of a session the sign-in form makes, in days (default 30). */
  days?: number;
}

export interface SessionStore<U> {
  cookie: string;
  days: number;
  /** The user whose unexpired session has this token, or null. */
  userForToken(token: string | undefined | null): U | null;
  /** The signed-in user of this request (server components), cached per request. */
  currentUser(): Promise<U | null>;
  /** The signed-in user, or a redirect to `/login`. */
  requireUser(): Promise<U>;
  /** The signed-in user of a route handler's request, or null. */
  requestUser(req: { cookies: { get(name: string): { value: string } | undefined } }): U | null;
  /** Check username + password; a new session's token, or null. */
  signIn(username: string, password: string): string | null;
  /** End the session of `token` (if any). */
  signOut(token: string | undefined | null): void;
  /** `Set-Cookie` value carrying `token` (null clears the cookie). */
  sessionCookie(token: string | null): string;
}

/** The session functions of one app (see SessionStoreOptions). */
export function sessionStore<U>(opts: SessionStoreOptions): SessionStore<U> {
  const days = opts.days ?? 30;
  const byToken = `${opts.userSql} JOIN sessions s ON s.user_id = u.id WHERE s.token = ? AND s.expires_at > ?`;
  const userForToken = (token: string | undefined | null): U | null => {
    if (!token) return null;
    return (opts.db().prepare(byToken).get(token, opts.now()) as U | undefined) ?? null;
  };
  const currentUser = cache(async (): Promise<U | null> => userForToken((await cookies()).get(opts.cookie)?.value));
  return {
    cookie: opts.cookie,
    days,
    userForToken,
    currentUser,
    async requireUser() {
      const user = await currentUser();
      if (!user) redirect("/login");
      return user;
    },
    requestUser: (req) => userForToken(req.cookies.get(opts.cookie)?.value),
    signIn(username, password) {
      const row = opts.db().prepare("SELECT id, password_hash FROM users WHERE username = ? COLLATE NOCASE").get(username.trim()) as
        | { id: number; password_hash: string }
        | undefined;
      if (!row || !verifyPassword(password, row.password_hash)) return null;
      const now = opts.now();
      const token = newSessionToken();
      opts.db().prepare("INSERT INTO sessions (token, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)").run(token, row.id, now, addDays(now, days));
      return token;
    },
    signOut(token) {
      if (token) opts.db().prepare("DELETE FROM sessions WHERE token = ?").run(token);
    },
    sessionCookie: (token) => sessionCookieHeader(opts.cookie, token, days),
  };
}
