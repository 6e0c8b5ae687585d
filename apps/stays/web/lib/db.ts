import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Bramblestay's tables; the file (apps/stays/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "cards", "cities", "properties", "rooms", "bookings", "booking_nights", "reviews", "threads", "messages"];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/stays/stays.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Bramblestay", "stays", "stays.sqlite", REQUIRED_TABLES);
}
