import type Database from "better-sqlite3";
import APPS from "../../_site/src/generated/apps.json";
import { appNow } from "./clock";
import { contextFromMeta, type AppContext } from "./context";
import { appDatabase, DatabaseConfigError, readMeta } from "./db";
import { sessionStore, signInRoute, signOutRoute, type SessionStore } from "./session";
import { signInPage, type SignInPageOptions } from "./signin";

/**
 * One factory for an app's server side: its database, its sessions, its context, its sign-in and sign-out routes
 * and its sign-in page, all from its app.yaml as site assembly generated it (builder/site.py `app_settings` ->
 * `_site/src/generated/apps.json`), so no app restates its cookie name, title or database file. An app writes
 * `export const bank = defineApp<User>({ name: "bank", userSql: "SELECT ... FROM users u" })` once (lib/app.ts) and
 * builds its own extras (a richer context, formatters) on what this returns.
 */

/** An app's settings, generated from its app.yaml and models.py at site assembly. */
export interface AppSettings {
  name: string;
  /** What people see ("Larkspur Bank"). */
  title: string;
  /** Its host name in the guest (`larkspurbank.test`). */
  domain: string;
  /** Its SQLite file name under `$PERSONA_DATA_DIR/<name>/`. */
  database: string;
  /** Its session cookie's name. */
  session_cookie: string;
  /** app.yaml `brand` (primary, accent, tagline...). */
  brand: Record<string, string>;
  /** The tables of its models.py, which its database file must hold. */
  tables: string[];
}

const SETTINGS = APPS as unknown as Record<string, AppSettings | undefined>;

/** The settings of app `name` in this build; throws DatabaseConfigError when the build has no such app. */
export function appSettings(name: string): AppSettings {
  const settings = SETTINGS[name];
  if (!settings) throw new DatabaseConfigError(`app ${name} is not in this site build (generated/apps.json)`);
  return settings;
}

/** What an app tells the factory beyond its app.yaml. */
export interface AppDefinition {
  /** The app's name (app.yaml `name`, its folder). */
  name: string;
  /**
   * The signed-in user's row: `SELECT <columns> FROM users u [JOIN ...]`, a constant of the app's code (never user
   * input); the session store appends the session join (see SessionStoreOptions.userSql).
   */
  userSql: string;
  /** Rewrites a typed username before the sign-in check (default: trimmed; the airline's member numbers are upper case). */
  normalizeUsername?: (username: string) => string;
  /** Lifetime of a session the sign-in form makes, in days (default 30). */
  sessionDays?: number;
}

/** An app's server side (see defineApp); its session functions are spread on it (currentUser, requireUser, ...). */
export interface PersonaApp<U> extends SessionStore<U> {
  settings: AppSettings;
  /** The one connection to the app's database (opened on first use; DatabaseConfigError when missing or wrong). */
  db(): Database.Database;
  /** The app's now, local ISO `YYYY-MM-DDTHH:MM:SS` in the persona's zone (never before the world's now). */
  now(): string;
  /** The context from the database's meta (see AppContext): now, today, language and formatters. */
  context(): AppContext;
  /** The session store itself. */
  sessions: SessionStore<U>;
  /** The `/api/session` POST handler (signInRoute): `export const POST = app.signInRoute;`. */
  signInRoute: (req: Request) => Promise<Response>;
  /** The `/api/logout` POST handler (signOutRoute): `export const POST = app.signOutRoute;`. */
  signOutRoute: ReturnType<typeof signOutRoute<U>>;
  /** The `/login` page component, the app's layout around the shared form: `export default app.signInPage({...});`. */
  signInPage(options: SignInPageOptions<AppContext>): ReturnType<typeof signInPage<U, AppContext>>;
}

/** The server side of app `def.name`, configured from its generated settings (throws when the build lacks it). */
export function defineApp<U>(def: AppDefinition): PersonaApp<U> {
  const settings = appSettings(def.name);
  const db = () => appDatabase(settings.title, settings.name, settings.database, settings.tables);
  const now = () => {
    const meta = readMeta(db());
    return appNow(meta.timezone || "UTC", meta.now);
  };
  const context = () => contextFromMeta(readMeta(db()));
  const sessions = sessionStore<U>({ db, cookie: settings.session_cookie, now, userSql: def.userSql, days: def.sessionDays });
  return {
    ...sessions,
    settings,
    db,
    now,
    context,
    sessions,
    signInRoute: signInRoute(sessions, def.normalizeUsername),
    signOutRoute: signOutRoute(sessions),
    signInPage: (options) => signInPage(sessions.currentUser, context, options),
  };
}
