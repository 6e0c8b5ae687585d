import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Daybook's tables; the file (apps/calendar/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "calendars", "events", "overrides", "attendees", "reminders", "rsvp_replies"];

/** The one connection to the seeded calendar database (`$PERSONA_DATA_DIR/calendar/calendar.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Daybook", "calendar", "calendar.sqlite", REQUIRED_TABLES);
}
