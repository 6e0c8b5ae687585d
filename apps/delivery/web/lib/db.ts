import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** DashBite's tables; the file (apps/delivery/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["meta", "users", "sessions", "cards", "addresses", "restaurants", "menu_items", "promos", "orders", "order_items", "cart_items"];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/delivery/delivery.sqlite`). */
export function db(): Database.Database {
  return appDatabase("DashBite", "delivery", "delivery.sqlite", REQUIRED_TABLES);
}
