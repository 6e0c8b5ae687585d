import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Basketful's tables; the file (apps/grocery/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["meta", "users", "sessions", "cards", "departments", "aisles", "products", "stores", "prices",
  "windows", "window_seats", "orders", "order_items", "cart_items", "lists", "list_items"];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/grocery/grocery.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Basketful", "grocery", "grocery.sqlite", REQUIRED_TABLES);
}
