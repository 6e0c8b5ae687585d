import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/**
 * Each app's one connection to its own seeded SQLite file.
 *
 * The file is created only by the Python side (apps/<name>/models.py + seed.py) and lives at
 * `$PERSONA_DATA_DIR/<name>/<file>` (default data dir `/var/lib/persona-desktop/apps`, the
 * guest layout). An app asks for its own database by its own name; nothing here lets one app
 * open another's file. The web side never creates tables.
 */

export const DEFAULT_DATA_DIR = "/var/lib/persona-desktop/apps";

export class DatabaseConfigError extends Error {}

const SAFE = /^[a-z][a-z0-9_]{0,30}$/;
const SAFE_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/;

/** Absolute path of app `name`'s database file `file` (both bare names, checked). */
export function databasePath(name: string, file: string): string {
  if (!SAFE.test(name) || !SAFE_FILE.test(file)) throw new DatabaseConfigError(`bad app database name ${name}/${file}`);
  return path.join(process.env.PERSONA_DATA_DIR || DEFAULT_DATA_DIR, name, file);
}

function open(title: string, name: string, file: string, requiredTables: readonly string[]): Database.Database {
  const where = databasePath(name, file);
  if (!fs.existsSync(where)) {
    throw new DatabaseConfigError(
      `${title}: ${where} does not exist. App databases are created only by the Python builder ` +
        `(apps/${name}/seed.py); set PERSONA_DATA_DIR to the folder holding <app>/<file>.`,
    );
  }
  const db = new Database(where, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  const have = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
  );
  const missing = ["meta", ...requiredTables].filter((t) => !have.has(t));
  if (missing.length) {
    db.close();
    throw new DatabaseConfigError(`${title}: ${where} is not this app's database (missing tables: ${missing.join(", ")}).`);
  }
  return db;
}

const cache = globalThis as unknown as { __personaDbs?: Map<string, Database.Database> };

/**
 * The shared connection to app `name`'s database `file`, opened on first use (read-write).
 * Throws DatabaseConfigError when the file is missing or lacks `meta` or one of `requiredTables`.
 */
export function appDatabase(title: string, name: string, file: string, requiredTables: readonly string[]): Database.Database {
  cache.__personaDbs ??= new Map();
  const key = `${name}/${file}`;
  let db = cache.__personaDbs.get(key);
  if (!db) {
    db = open(title, name, file, requiredTables);
    cache.__personaDbs.set(key, db);
  }
  return db;
}

/** Key/value rows of an app's `meta` table (as_of, now, timezone, locale, currency, ...). */
export function readMeta(db: Database.Database): Record<string, string> {
  const rows = db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}
