import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** The bank's tables; the file (apps/bank/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "accounts", "transactions", "payees", "contacts", "statements", "card_authorizations", "external_transfers"];

/** The one connection to the seeded bank database (`$PERSONA_DATA_DIR/bank/bank.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Larkspur Bank", "bank", "bank.sqlite", REQUIRED_TABLES);
}
