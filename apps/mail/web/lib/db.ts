import type Database from "better-sqlite3";
import { appNow } from "@persona/platform/clock";
import { appDatabase, readMeta } from "@persona/platform/db";

/** The mailbox's tables; the file (apps/mail/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "messages", "attachments", "labels", "message_labels", "contacts", "rsvps"];

/** The one connection to the seeded mail database (`$PERSONA_DATA_DIR/mail/mail.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Mailbox", "mail", "mail.sqlite", REQUIRED_TABLES);
}

export interface MailContext {
  timezone: string;
  locale: string;
  /** The reply engine's seed (the persona's seed). */
  seed: string;
  /** Local wall-clock now, `YYYY-MM-DDTHH:MM:SS`, never before the world's now. */
  now: string;
  today: string;
}

/** Facts from `meta` plus the app's now: one source of "today" for every page and route. */
export function mailContext(): MailContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  return { timezone, locale: meta.locale || "en-US", seed: meta.seed || "0", now, today: now.slice(0, 10) };
}
