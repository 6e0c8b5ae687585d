import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Parley's tables; the file (apps/messaging/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "contacts", "conversations", "members", "messages", "reactions"];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/messaging/messaging.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Parley", "messaging", "messaging.sqlite", REQUIRED_TABLES);
}
