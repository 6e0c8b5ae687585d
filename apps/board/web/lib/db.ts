import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Cairn's tables; the file (apps/board/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "meta", "people", "projects", "sprints", "tickets", "ticket_labels", "subtasks", "comments", "activity"];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/board/board.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Cairn", "board", "board.sqlite", REQUIRED_TABLES);
}
