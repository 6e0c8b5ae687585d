import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Meridian Air's tables; the file (apps/airline/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = [
  "users", "sessions", "meta", "airports", "aircraft", "fare_families", "routes", "cards", "loyalty",
  "bookings", "passengers", "segments", "seats", "miles_activity", "travel_credits", "payments",
];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/airline/airline.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Meridian Air", "airline", "airline.sqlite", REQUIRED_TABLES);
}
