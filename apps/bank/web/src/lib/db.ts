import fs from "node:fs";
import Database from "better-sqlite3";

/**
 * The one connection to the seeded bank database.
 *
 * The file is created only by the Python side (apps/bank/models.py + seed.py); this app
 * opens it read-write and never creates tables. DATABASE_PATH must point at it.
 */

const REQUIRED_TABLES = ["users", "sessions", "accounts", "transactions", "payees", "contacts", "statements", "meta"];

export class DatabaseConfigError extends Error {}

function open(): Database.Database {
  const file = process.env.DATABASE_PATH;
  if (!file) {
    throw new DatabaseConfigError(
      "Larkspur Bank: DATABASE_PATH is not set. Point it at the seeded bank.sqlite written by the Python builder (apps/bank/seed.py).",
    );
  }
  if (!fs.existsSync(file)) {
    throw new DatabaseConfigError(
      `Larkspur Bank: DATABASE_PATH=${file} does not exist. The database is created only by the Python builder; this app never creates it.`,
    );
  }
  const db = new Database(file, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  const have = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
  const missing = REQUIRED_TABLES.filter((t) => !have.has(t));
  if (missing.length) {
    db.close();
    throw new DatabaseConfigError(`Larkspur Bank: ${file} is not a Larkspur Bank database (missing tables: ${missing.join(", ")}).`);
  }
  return db;
}

const globalForDb = globalThis as unknown as { __larkspurDb?: Database.Database };

/** The shared connection, opened on first use. */
export function db(): Database.Database {
  if (!globalForDb.__larkspurDb) globalForDb.__larkspurDb = open();
  return globalForDb.__larkspurDb;
}
