import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Tidewell's tables; the file (apps/brokerage/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "account", "securities", "prices", "holdings", "cash_ledger", "orders", "dividends", "splits", "transfers", "recurring_investments", "watchlist"];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/brokerage/brokerage.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Tidewell", "brokerage", "brokerage.sqlite", REQUIRED_TABLES);
}
