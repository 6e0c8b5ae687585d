import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Guildline's tables; the file (apps/network/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = [
  "users", "sessions", "profile", "experience", "education", "skills", "people", "invitations",
  "posts", "reactions", "comments", "jobs", "saved_jobs", "threads", "messages",
];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/network/network.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Guildline", "network", "network.sqlite", REQUIRED_TABLES);
}
