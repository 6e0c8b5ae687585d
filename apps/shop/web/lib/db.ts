import type Database from "better-sqlite3";
import { appDatabase } from "@persona/platform/db";

/** Shopwell's tables; the file (apps/shop/models.py + seed.py) must have them all. */
const REQUIRED_TABLES = ["users", "sessions", "cards", "addresses", "departments", "products", "variants", "reviews", "orders", "order_items", "returns", "cart_items", "wishlist", "subscriptions"];

/** The one connection to the seeded database (`$PERSONA_DATA_DIR/shop/shop.sqlite`). */
export function db(): Database.Database {
  return appDatabase("Shopwell", "shop", "shop.sqlite", REQUIRED_TABLES);
}
