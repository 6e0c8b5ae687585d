import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** TableTime's tables; the file (apps/dining/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "cards", "restaurants", "hours", "menu_items", "dining_tables", "reservations", "table_holds", "favourites", "reviews"];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/dining/dining.sqlite`). */
export function db(): Database.Database {
  return appDatabase("TableTime", "dining", "dining.sqlite", REQUIRED_TABLES);
}
