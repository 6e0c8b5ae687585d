import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Ledgerleaf Tax's tables; the file (apps/taxes/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "meta", "issued_forms", "returns", "return_values", "form_imports", "documents"];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/taxes/taxes.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Ledgerleaf Tax", "taxes", "taxes.sqlite", REQUIRED_TABLES);
}
