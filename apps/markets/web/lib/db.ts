import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Hunchline's tables; the file (apps/markets/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "categories", "markets", "prices", "activity", "positions", "watchlist"];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/markets/markets.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Hunchline", "markets", "markets.sqlite", REQUIRED_TABLES);
}
