import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Huddle's tables; the file (apps/workchat/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "people", "channels", "channel_members", "messages", "mentions", "reactions", "saved_items"];

/** The one connection to the seeded Huddle database (`$PERSONA_DATA_DIR/workchat/workchat.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Huddle", "workchat", "workchat.sqlite", REQUIRED_TABLES);
}
