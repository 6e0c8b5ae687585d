import type Database from "better-sqlite3";
import { cookies } from "next/headers";
import type { NextRequest } from "next/server";
import { redirect } from "next/navigation";
import { cache } from "react";
import { addDays } from "./clock";
import { newSessionToken, sessionCookieHeader, verifyPassword } from "./auth";
import { BadRequest, field, readForm, safeNext, seeOther, withQuery } from "./http";

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
  /**
   * Check username + password (`client`: who is asking, for the per-client limit): a new session's token, or why
   * not. Attempts are limited per account and per client (SIGN_IN_LIMITS); a refused one costs no password check.
   */
  signIn(username: string, password: string, client?: string): Promise<SignInResult>;
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
    async signIn(username, password, client = "local") {
      const account = `${opts.cookie}\0${username.trim().toLowerCase()}`;
      const clientKey = `${opts.cookie}\0client\0${client}`;
      const wait = Math.max(lockedFor(account, SIGN_IN_LIMITS.perAccount), lockedFor(clientKey, SIGN_IN_LIMITS.perClient));
      if (wait > 0) return { ok: false, reason: "locked", retryAfterSeconds: wait };
      // Counted as failed until the password is found right, so concurrent attempts cannot pass the limit.
      noteFailure(account);
      const c = noteFailure(clientKey);
      const row = opts.db().prepare("SELECT id, password_hash FROM users WHERE username = ? COLLATE NOCASE").get(username.trim()) as
        | { id: number; password_hash: string }
        | undefined;
      if (!row || !(await verifyPassword(password, row.password_hash))) return { ok: false, reason: "invalid" };
      forget(account);
      forget(clientKey, c);
      const now = opts.now();
      const token = newSessionToken();
      opts.db().prepare("INSERT INTO sessions (token, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)").run(token, row.id, now, addDays(now, days));
      return { ok: true, token };
    },
    signOut(token) {
      if (token) opts.db().prepare("DELETE FROM sessions WHERE token = ?").run(token);
    },
    sessionCookie: (token) => sessionCookieHeader(opts.cookie, token, days),
  };
}

/** What a sign-in attempt came to. */
export type SignInResult = { ok: true; token: string } | { ok: false; reason: "invalid" } | { ok: false; reason: "locked"; retryAfterSeconds: number };

/**
 * Failed sign-ins allowed in `windowMs` per account (one app's username) and per client (the address nginx
 * forwards) before further attempts are refused until the oldest failure leaves the window. A success forgets the
 * account's failures. Counted in this process's memory on its monotonic clock (never the persona's clock, which is
 * frozen): a restart of the server clears them, and a snapshot reset puts them back as they were at the reset point,
 * with the rest of the machine's state, so one episode's lockout never reaches the next.
 */
export const SIGN_IN_LIMITS = { perAccount: 5, perClient: 30, windowMs: 10 * 60_000 };

const attempts: Map<string, number[]> = ((globalThis as unknown as { __personaSignIns?: Map<string, number[]> }).__personaSignIns ??= new Map<string, number[]>());

function recent(key: string): number[] {
  const cutoff = performance.now() - SIGN_IN_LIMITS.windowMs;
  const times = (attempts.get(key) ?? []).filter((t) => t > cutoff);
  if (times.length) attempts.set(key, times);
  else attempts.delete(key);
  return times;
}

/** Seconds until `key` may try again (0: now). */
function lockedFor(key: string, limit: number): number {
  const times = recent(key);
  if (times.length < limit) return 0;
  return Math.max(1, Math.ceil((times[times.length - limit] + SIGN_IN_LIMITS.windowMs - performance.now()) / 1000));
}

function noteFailure(key: string): number {
  const t = performance.now();
  attempts.set(key, [...recent(key), t]);
  if (attempts.size > 10_000) attempts.delete(attempts.keys().next().value as string);
  return t;
}

/** Forget `key`'s failures: all of them, or only the one noted at `at`. */
function forget(key: string, at?: number): void {
  if (at === undefined) attempts.delete(key);
  else attempts.set(key, recent(key).filter((t) => t !== at));
}

/** The message a sign-in page shows for `?error=locked` (English, German). */
export const SIGN_IN_LOCKED = {
  en: "Too many sign-in attempts. Wait a few minutes, then try again.",
  de: "Zu viele Anmeldeversuche. Bitte warten Sie einige Minuten und versuchen Sie es dann erneut.",
};

/** Who is signing in, for the per-client limit: the address nginx saw (X-Real-IP, which nginx sets from the
 * connection and a client cannot forge through it), else "local". */
export function clientOf(req: Request): string {
  return (req.headers.get("x-real-ip") ?? "").trim().slice(0, 64) || "local";
}

/**
 * The sign-in form's POST handler (`/api/session`): reads `username`, `password` and `next` (a form of at most
 * 16 KB), signs in through `store` and answers 303 to `next` (a same-origin path, else `/`) with the session
 * cookie. A wrong username or password goes back to `/login?error=invalid` (with the username and next, so the
 * form refills); too many attempts to `/login?error=locked`; a body that is no form to `/login?error=invalid`.
 * `normalize` rewrites the typed username (the airline's member numbers are upper case).
 */
export function signInRoute<U>(store: SessionStore<U>, normalize: (username: string) => string = (u) => u.trim()) {
  return async function POST(req: Request): Promise<Response> {
    let form: FormData;
    try {
      form = await readForm(req, 16 * 1024);
    } catch (e) {
      if (e instanceof BadRequest) return seeOther(withQuery("/login", { error: "invalid" }));
      throw e;
    }
    const username = normalize(field(form, "username")).slice(0, 200);
    const next = safeNext(field(form, "next"));
    const back = { username: username.slice(0, 80), next: next === "/" ? "" : next };
    if (!username) return seeOther(withQuery("/login", { error: "invalid", ...back }));
    const result = await store.signIn(username, field(form, "password").slice(0, 1024), clientOf(req));
    if (!result.ok) return seeOther(withQuery("/login", { error: result.reason, ...back }));
    return seeOther(next, { "Set-Cookie": store.sessionCookie(result.token) });
  };
}

/**
 * The sign-out form's POST handler (`/api/logout`): ends the request's session (if any), clears the cookie and
 * answers 303 to `/login?signed_out=1`.
 */
export function signOutRoute<U>(store: SessionStore<U>) {
  return async function POST(req: NextRequest): Promise<Response> {
    store.signOut(req.cookies.get(store.cookie)?.value);
    return seeOther("/login?signed_out=1", { "Set-Cookie": store.sessionCookie(null) });
  };
}
