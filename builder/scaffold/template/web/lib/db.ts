import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** The one connection to this app's own database (`$PERSONA_DATA_DIR/__APP__/__APP__.sqlite`). */
export function db(): Database.Database {
  return appDatabase("__TITLE__", "__APP__", "__APP__.sqlite", ["users", "sessions", "notes"]);
}
