import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** ZipRide's tables; the file (apps/rides/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["meta", "users", "sessions", "places", "saved_places", "cards", "ride_types", "drivers", "rides"];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/rides/rides.sqlite`). */
export function db(): Database.Database {
  return appDatabase("ZipRide", "rides", "rides.sqlite", REQUIRED_TABLES);
}
