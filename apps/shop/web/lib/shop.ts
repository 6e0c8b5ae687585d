import { addDays } from "@persona/platform/clock";
import { callApp } from "@persona/platform/internal";
import { chargeCard, PaymentDeclined, refundCard } from "@persona/platform/payments";
import { serviceDomain } from "@persona/platform/services";
import { idValue } from "@persona/platform/http";
import { randomInt } from "node:crypto";
import { db } from "./db";
import { shopContext, type ShopContext } from "./context";
import type { User } from "./auth";

/** A request the shop refuses: nothing was written; `message` is shown to the user. */
export class ShopError extends Error {
  constructor(message: string, readonly field?: string) {
    super(message);
  }
}

export const RETURN_DAYS = 30;
export const FREE_SHIPPING_FROM_CENTS = 3500;
export const SHIPPING_CENTS = 599;
export const SUBSCRIBE_DISCOUNT_PCT = 5;
export const SUBSCRIBE_WEEKS = [2, 4, 6, 8] as const;
export const MAX_QTY = 10;
export const PAGE_SIZE = 24;

export interface Department { key: string; name: string; position: number }
export interface Product {
  id: string; slug: string; department: string; line: string; brand: string; title: string; author: string | null;
  description: string; specs: string; rating_x10: number; review_count: number; gift: number; subscribe: number; min_price_cents: number;
}
export interface Variant { sku: string; product_id: string; position: number; label: string; price_cents: number }
export interface Review { id: number; product_id: string; user_id: number | null; author: string; rating: number; headline: string; body: string; verified: number; created_at: string }
export interface Card { id: number; account: string; brand: string; last4: string; holder: string; expiry: string; label: string; is_default: number }
export interface Address { id: number; label: string; name: string; line: string; is_default: number }
export interface Order {
  id: number; order_number: string; placed_at: string; subtotal_cents: number; shipping_cents: number; total_cents: number;
  ship_name: string; ship_address: string; card_id: number; authorization: string | null; carrier: string; tracking_number: string;
  shipped_at: string; delivered_at: string; gift_for: string | null; world_ref: string | null;
}
export interface OrderItem { id: number; order_id: number; sku: string; product_id: string; name: string; variant: string; qty: number; price_cents: number; slug: string; department?: string; brand?: string }
export interface ReturnRow { id: number; rma: string; order_item_id: number; reason: string; comment: string | null; refund_cents: number; authorization: string; created_at: string }
export interface CartLine { sku: string; qty: number; label: string; price_cents: number; product_id: string; slug: string; title: string; brand: string; department: string; subscribe: number }
export interface Subscription { id: number; sku: string; qty: number; every_weeks: number; price_cents: number; next_date: string; status: string; created_at: string; title: string; slug: string; label: string }

export type Tracking = "ordered" | "shipped" | "delivered";

export const RETURN_REASONS: Record<string, [string, string]> = {
  no_longer_needed: ["No longer needed", "Nicht mehr benötigt"],
  not_as_described: ["Not as described", "Entspricht nicht der Beschreibung"],
  wrong_size: ["Wrong size or fit", "Falsche Größe oder Passform"],
  damaged: ["Arrived damaged", "Beschädigt angekommen"],
  better_price: ["Found a better price", "Woanders günstiger gefunden"],
};

/* ---------- catalogue ---------- */

export function departments(): Department[] {
  return db().prepare("SELECT key, name, position FROM departments ORDER BY position").all() as Department[];
}

export function departmentName(key: string): string | null {
  return (db().prepare("SELECT name FROM departments WHERE key = ?").get(key) as { name: string } | undefined)?.name ?? null;
}

export interface SearchQuery { q: string; dept: string; brand: string; min: string; max: string; rating: string; sort: string; page: string }
export interface SearchResult { total: number; products: Product[]; brands: { brand: string; n: number }[]; page: number; pages: number; error: string | null }

const SORTS: Record<string, string> = {
  featured: "p.review_count * p.rating_x10 DESC, p.id",
  price_asc: "p.min_price_cents ASC, p.id",
  price_desc: "p.min_price_cents DESC, p.id",
  rating: "p.rating_x10 DESC, p.review_count DESC, p.id",
  reviews: "p.review_count DESC, p.id",
};

/** Parse a price filter typed in whole or decimal currency units ("25", "25.50", "25,50"): cents, null when empty.
 * Throws ShopError for anything else. */
export function parsePriceFilter(v: string, name: string): number | null {
  const s = v.trim();
  if (!s) return null;
  if (!/^\d{1,6}([.,]\d{1,2})?$/.test(s)) throw new ShopError(`${name} must be an amount like 25 or 25.50.`, name);
  return Math.round(Number(s.replace(",", ".")) * 100);
}

/** Search the catalogue: words of `q` must all appear in the title, brand or department; filters are exact. */
export function search(sq: SearchQuery): SearchResult {
  const where: string[] = [];
  const args: (string | number)[] = [];
  let error: string | null = null;
  const words = sq.q.trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
  for (const w of words) {
    where.push("(lower(p.title) LIKE ? ESCAPE '\\' OR lower(p.brand) LIKE ? ESCAPE '\\' OR lower(d.name) LIKE ? ESCAPE '\\' OR lower(coalesce(p.author, '')) LIKE ? ESCAPE '\\')");
    const like = `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    args.push(like, like, like, like);
  }
  if (sq.dept) {
    where.push("p.department = ?");
    args.push(sq.dept);
  }
  let min: number | null = null;
  let max: number | null = null;
  try {
    min = parsePriceFilter(sq.min, "min");
    max = parsePriceFilter(sq.max, "max");
    if (min !== null && max !== null && min > max) throw new ShopError("The lowest price must not be above the highest.", "min");
  } catch (e) {
    if (!(e instanceof ShopError)) throw e;
    error = e.message;
    min = max = null;
  }
  if (min !== null) {
    where.push("p.min_price_cents >= ?");
    args.push(min);
  }
  if (max !== null) {
    where.push("p.min_price_cents <= ?");
    args.push(max);
  }
  const rating = /^[1-4]$/.test(sq.rating) ? Number(sq.rating) : 0;
  if (rating) {
    where.push("p.rating_x10 >= ?");
    args.push(rating * 10);
  }
  const base = `FROM products p JOIN departments d ON d.key = p.department ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`;
  const brands = db().prepare(`SELECT p.brand AS brand, COUNT(*) AS n ${base} GROUP BY p.brand HAVING p.brand != '' ORDER BY n DESC, p.brand LIMIT 30`).all(...args) as { brand: string; n: number }[];
  const whereBrand = sq.brand ? `${where.length ? " AND" : " WHERE"} p.brand = ?` : "";
  const bargs = sq.brand ? [...args, sq.brand] : args;
  const total = (db().prepare(`SELECT COUNT(*) AS n ${base}${whereBrand}`).get(...bargs) as { n: number }).n;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(Math.max(1, /^\d{1,4}$/.test(sq.page) ? Number(sq.page) : 1), pages);
  const order = SORTS[sq.sort] ?? SORTS.featured;
  const products = db()
    .prepare(`SELECT p.* ${base}${whereBrand} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...bargs, PAGE_SIZE, (page - 1) * PAGE_SIZE) as Product[];
  return { total, products, brands, page, pages, error };
}

export function productBySlug(slug: string): Product | undefined {
  return db().prepare("SELECT * FROM products WHERE slug = ?").get(slug) as Product | undefined;
}

export function productById(id: string): Product | undefined {
  return db().prepare("SELECT * FROM products WHERE id = ?").get(id) as Product | undefined;
}

export function variantsOf(productId: string): Variant[] {
  return db().prepare("SELECT * FROM variants WHERE product_id = ? ORDER BY position").all(productId) as Variant[];
}

export function variant(sku: string): (Variant & { slug: string; title: string; subscribe: number }) | undefined {
  return db().prepare("SELECT v.*, p.slug, p.title, p.subscribe FROM variants v JOIN products p ON p.id = v.product_id WHERE v.sku = ?").get(sku) as
    | (Variant & { slug: string; title: string; subscribe: number })
    | undefined;
}

export function reviewsOf(productId: string, limit = 8): Review[] {
  return db().prepare("SELECT * FROM reviews WHERE product_id = ? ORDER BY (user_id IS NULL), created_at DESC, id DESC LIMIT ?").all(productId, limit) as Review[];
}

export function myReview(userId: number, productId: string): Review | undefined {
  return db().prepare("SELECT * FROM reviews WHERE product_id = ? AND user_id = ?").get(productId, userId) as Review | undefined;
}

export function related(p: Product, limit = 6): Product[] {
  return db().prepare("SELECT * FROM products WHERE department = ? AND id != ? ORDER BY (line = ?) DESC, review_count DESC, id LIMIT ?").all(p.department, p.id, p.line, limit) as Product[];
}

export function popular(dept: string | null, limit = 8): Product[] {
  return (dept
    ? db().prepare("SELECT * FROM products WHERE department = ? ORDER BY review_count * rating_x10 DESC, id LIMIT ?").all(dept, limit)
    : db().prepare("SELECT * FROM products ORDER BY review_count * rating_x10 DESC, id LIMIT ?").all(limit)) as Product[];
}

/** Whether the persona received the product (an order line delivered by now): they may review it. */
export function hasBought(userId: number, productId: string): boolean {
  return !!db()
    .prepare("SELECT 1 FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.user_id = ? AND i.product_id = ? AND o.delivered_at <= ? LIMIT 1")
    .get(userId, productId, shopContext().now);
}

/** Whether the persona ever ordered the product (delivered or not). */
export function hasOrdered(userId: number, productId: string): boolean {
  return !!db().prepare("SELECT 1 FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.user_id = ? AND i.product_id = ? LIMIT 1").get(userId, productId);
}

/** Products of past orders, most recent first (Buy it again). */
export function buyAgain(userId: number, limit = 8): Product[] {
  return db()
    .prepare(
      `SELECT p.* FROM products p JOIN (SELECT i.product_id, MAX(o.placed_at) AS last FROM order_items i JOIN orders o ON o.id = i.order_id
        WHERE o.user_id = ? GROUP BY i.product_id) b ON b.product_id = p.id ORDER BY b.last DESC, p.id LIMIT ?`,
    )
    .all(userId, limit) as Product[];
}

/* ---------- account ---------- */

export function cardsOf(userId: number): Card[] {
  return db().prepare("SELECT * FROM cards WHERE user_id = ? ORDER BY is_default DESC, id").all(userId) as Card[];
}

export function addressesOf(userId: number): Address[] {
  return db().prepare("SELECT * FROM addresses WHERE user_id = ? ORDER BY is_default DESC, id").all(userId) as Address[];
}

export interface NewAddress { name: string; street: string; city: string; region: string; postcode: string; label: string }

/** Save a delivery address (a present's recipient, say), formatted as the persona's country writes it:
 * "street, city, REGION postcode" (US), "street, city postcode" (UK), "street, postcode city" (elsewhere).
 * Returns its id. Throws ShopError (nothing saved). */
export function addAddress(userId: number, a: NewAddress): number {
  const ctx = shopContext();
  const name = a.name.trim().replace(/\s+/g, " ");
  const street = a.street.trim();
  const city = a.city.trim();
  const region = a.region.trim().toUpperCase();
  const postcode = a.postcode.trim().toUpperCase();
  const label = a.label.trim() || name;
  if (!/^[\p{L}][\p{L} .'-]{1,79}$/u.test(name)) throw new ShopError(ctx.t("Enter the recipient's full name (letters only).", "Geben Sie den vollständigen Namen ein (nur Buchstaben)."), "name");
  if (street.length < 3 || street.length > 100 || !/\p{L}/u.test(street)) throw new ShopError(ctx.t("Enter the street and house number.", "Geben Sie Straße und Hausnummer ein."), "street");
  if (city.length < 2 || city.length > 60 || !/^[\p{L}][\p{L} .'-]*$/u.test(city)) throw new ShopError(ctx.t("Enter the town or city.", "Geben Sie den Ort ein."), "city");
  if (!/^[A-Z0-9][A-Z0-9 -]{2,9}$/.test(postcode)) throw new ShopError(ctx.t("Enter a valid postcode.", "Geben Sie eine gültige Postleitzahl ein."), "postcode");
  if (ctx.locale === "en-US" && !/^[A-Z]{2}$/.test(region)) throw new ShopError("Enter the two-letter state.", "region");
  if (label.length > 40) throw new ShopError(ctx.t("Keep the label under 40 characters.", "Die Bezeichnung darf höchstens 40 Zeichen haben."), "label");
  const line = ctx.locale === "en-US" ? `${street}, ${city}, ${region} ${postcode}` : ctx.locale === "en-GB" ? `${street}, ${city} ${postcode}` : `${street}, ${postcode} ${city}`;
  if (db().prepare("SELECT 1 FROM addresses WHERE user_id = ? AND name = ? AND line = ?").get(userId, name, line)) throw new ShopError(ctx.t("That address is already saved.", "Diese Adresse ist bereits gespeichert."));
  const info = db().prepare("INSERT INTO addresses (user_id, label, name, line, is_default) VALUES (?, ?, ?, ?, 0)").run(userId, label, name, line);
  return Number(info.lastInsertRowid);
}

/* ---------- cart ---------- */

function quantity(v: string): number {
  if (!/^\d{1,2}$/.test(v.trim())) throw new ShopError(`Choose a quantity from 1 to ${MAX_QTY}.`, "qty");
  const n = Number(v);
  if (n < 1 || n > MAX_QTY) throw new ShopError(`Choose a quantity from 1 to ${MAX_QTY}.`, "qty");
  return n;
}

export function cartOf(userId: number): CartLine[] {
  return db()
    .prepare(
      `SELECT c.sku, c.qty, v.label, v.price_cents, p.id AS product_id, p.slug, p.title, p.brand, p.department, p.subscribe
       FROM cart_items c JOIN variants v ON v.sku = c.sku JOIN products p ON p.id = v.product_id WHERE c.user_id = ? ORDER BY c.added_at, c.sku`,
    )
    .all(userId) as CartLine[];
}

export function cartCount(userId: number): number {
  return (db().prepare("SELECT COALESCE(SUM(qty), 0) AS n FROM cart_items WHERE user_id = ?").get(userId) as { n: number }).n;
}

export function shippingFor(subtotal: number): number {
  return subtotal >= FREE_SHIPPING_FROM_CENTS ? 0 : SHIPPING_CENTS;
}

/** Add `qty` of variant `sku` to the cart (adds to what is there, at most MAX_QTY per line). */
export function addToCart(userId: number, sku: string, qtyText: string): Variant {
  const v = variant(sku);
  if (!v) throw new ShopError("Choose an option of this product.", "sku");
  const qty = quantity(qtyText || "1");
  const have = (db().prepare("SELECT qty FROM cart_items WHERE user_id = ? AND sku = ?").get(userId, sku) as { qty: number } | undefined)?.qty ?? 0;
  if (have + qty > MAX_QTY) throw new ShopError(`You can buy up to ${MAX_QTY} of one item per order.`, "qty");
  db().prepare("INSERT INTO cart_items (user_id, sku, qty, added_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, sku) DO UPDATE SET qty = qty + excluded.qty").run(userId, sku, qty, shopContext().now);
  return v;
}

export function updateCart(userId: number, sku: string, qtyText: string): void {
  const row = db().prepare("SELECT qty FROM cart_items WHERE user_id = ? AND sku = ?").get(userId, sku);
  if (!row) throw new ShopError("That item is not in your cart.");
  if (qtyText === "0") {
    db().prepare("DELETE FROM cart_items WHERE user_id = ? AND sku = ?").run(userId, sku);
    return;
  }
  db().prepare("UPDATE cart_items SET qty = ? WHERE user_id = ? AND sku = ?").run(quantity(qtyText), userId, sku);
}

/* ---------- orders ---------- */

const CARRIERS: Record<string, string> = { "en-US": "UPS", "en-GB": "Royal Mail", "de-DE": "DHL" };

function digits(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += String(randomInt(10));
  return s;
}

function trackingNumber(carrier: string): string {
  const alnum = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
  if (carrier === "UPS") return "1Z" + Array.from({ length: 6 }, () => alnum[randomInt(alnum.length)]).join("") + digits(10);
  if (carrier === "Royal Mail") return "RM" + digits(9) + "GB";
  if (carrier === "DHL") return "00340" + digits(15);
  return digits(14);
}

function newOrderNumber(): string {
  for (;;) {
    const n = `SW-${digits(3)}-${digits(7)}`;
    if (!db().prepare("SELECT 1 FROM orders WHERE order_number = ?").get(n)) return n;
  }
}

/** The statement descriptor the bank prints for an order (the world's: SHOPWELL*<3 digits><4 digits>). */
export function merchantOf(orderNumber: string): string {
  return `SHOPWELL*${orderNumber.slice(3, 6)}${orderNumber.slice(7, 11)}`;
}

export function trackingOf(o: Order, now: string): Tracking {
  if (o.delivered_at <= now) return "delivered";
  return o.shipped_at <= now ? "shipped" : "ordered";
}

/** The last day (YYYY-MM-DD) the order's items can be returned: RETURN_DAYS after delivery. */
export function returnUntil(o: Order): string {
  return addDays(`${o.delivered_at.slice(0, 10)}T00:00:00`, RETURN_DAYS).slice(0, 10);
}

export function ordersOf(userId: number, year?: string): Order[] {
  return (year
    ? db().prepare("SELECT * FROM orders WHERE user_id = ? AND substr(placed_at, 1, 4) = ? ORDER BY placed_at DESC, id DESC").all(userId, year)
    : db().prepare("SELECT * FROM orders WHERE user_id = ? ORDER BY placed_at DESC, id DESC").all(userId)) as Order[];
}

export function orderYears(userId: number): string[] {
  return (db().prepare("SELECT DISTINCT substr(placed_at, 1, 4) AS y FROM orders WHERE user_id = ? ORDER BY y DESC").all(userId) as { y: string }[]).map((r) => r.y);
}

export function orderByNumber(userId: number, number: string): Order | undefined {
  return db().prepare("SELECT * FROM orders WHERE user_id = ? AND order_number = ?").get(userId, number) as Order | undefined;
}

export function itemsOf(orderId: number): OrderItem[] {
  return db().prepare("SELECT i.*, p.slug, p.department, p.brand FROM order_items i JOIN products p ON p.id = i.product_id WHERE i.order_id = ? ORDER BY i.id").all(orderId) as OrderItem[];
}

export function returnsOf(orderId: number): ReturnRow[] {
  return db().prepare("SELECT r.* FROM returns r JOIN order_items i ON i.id = r.order_item_id WHERE i.order_id = ? ORDER BY r.id").all(orderId) as ReturnRow[];
}

export function cardById(userId: number, id: number): Card | undefined {
  return db().prepare("SELECT * FROM cards WHERE user_id = ? AND id = ?").get(userId, id) as Card | undefined;
}

/** Mail the persona through the mail app's internal deliver route (best effort: the order stands without it). */
async function mail(user: User, subject: string, body: string): Promise<void> {
  const host = serviceDomain("mail-delivery");
  if (!host) return;
  try {
    await callApp(host, "/api/internal/deliver", { from: { name: "Shopwell", email: "orders@shopwell.test" }, to: [user.email], subject, body, folder: "inbox", attachments: [] }, 5000);
  } catch {
    /* the mail app is not on this machine, or refused: the order stands */
  }
}

function itemLines(ctx: ShopContext, items: { name: string; variant: string; qty: number; price_cents: number }[]): string {
  return items.map((i) => `${i.qty} x ${i.name}${i.variant ? ` (${i.variant})` : ""}    ${ctx.money(i.qty * i.price_cents)}`).join("\n");
}

/** The cart's rows as stored (to give a cart back exactly when a charge is refused). */
interface CartRow { sku: string; qty: number; added_at: string }

/** Place the cart as an order shipped to `addressId`, paid with card `cardId`. Reserve first: in one immediate
 * transaction take the cart (it is emptied) and write the order and its lines, its `authorization` empty while the
 * bank answers; then charge the card (the bank shows it pending at once) and fill the authorization in. A refused
 * charge removes the order and gives the cart back. So two checkouts of one cart at once make one order and one
 * charge: the second finds the cart empty. Mails a confirmation. Returns the order number. Throws ShopError
 * (nothing charged, nothing kept). */
export async function placeOrder(user: User, addressText: string, cardText: string): Promise<string> {
  const ctx = shopContext();
  const empty = () => new ShopError(ctx.t("Your cart is empty.", "Ihr Warenkorb ist leer."));
  if (!cartCount(user.id)) throw empty();
  const addressId = idValue(addressText);
  const address = addressId === null ? undefined : addressesOf(user.id).find((a) => a.id === addressId);
  if (!address) throw new ShopError(ctx.t("Choose a delivery address.", "Wählen Sie eine Lieferadresse."), "address");
  const cardId = idValue(cardText);
  const card = cardId === null ? undefined : cardById(user.id, cardId);
  if (!card) throw new ShopError(ctx.t("Choose one of your saved cards.", "Wählen Sie eine gespeicherte Karte."), "card");
  const now = ctx.now;
  const carrier = CARRIERS[ctx.locale] ?? "UPS";
  const shipped = `${addDays(now, 1).slice(0, 10)}T08:00:00`;
  const delivered = `${addDays(now, 3).slice(0, 10)}T14:00:00`;
  const taken = db().transaction(() => {
    const lines = cartOf(user.id);
    if (!lines.length) throw empty();
    const rows = db().prepare("SELECT sku, qty, added_at FROM cart_items WHERE user_id = ?").all(user.id) as CartRow[];
    const subtotal = lines.reduce((s, l) => s + l.qty * l.price_cents, 0);
    const shipping = shippingFor(subtotal);
    const number = newOrderNumber();
    const info = db()
      .prepare(
        `INSERT INTO orders (order_number, user_id, placed_at, subtotal_cents, shipping_cents, total_cents, ship_name, ship_address, card_id,
          authorization, carrier, tracking_number, shipped_at, delivered_at, gift_for, world_ref) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, NULL)`,
      )
      .run(number, user.id, now, subtotal, shipping, subtotal + shipping, address.name, address.line, card.id, carrier, trackingNumber(carrier), shipped, delivered,
        address.is_default ? null : address.name);
    const id = Number(info.lastInsertRowid);
    const add = db().prepare("INSERT INTO order_items (order_id, sku, product_id, name, variant, qty, price_cents) VALUES (?, ?, ?, ?, ?, ?, ?)");
    for (const l of lines) add.run(id, l.sku, l.product_id, l.title, l.label, l.qty, l.price_cents);
    db().prepare("DELETE FROM cart_items WHERE user_id = ?").run(user.id);
    return { id, number, lines, rows, subtotal, shipping, total: subtotal + shipping };
  }).immediate();
  const { number, lines, subtotal, shipping, total } = taken;
  let auth;
  try {
    auth = await chargeCard({ app: "shop", merchant: merchantOf(number), amount_cents: total, card_last4: card.last4, reference: number, category: "shopping",
      memo: `Shopwell order ${number}, ${lines.reduce((s, l) => s + l.qty, 0)} item(s)` });
  } catch (e) {
    // Nothing was charged: drop the order and put the cart back as it was (added to whatever is in it now).
    db().transaction(() => {
      db().prepare("DELETE FROM order_items WHERE order_id = ?").run(taken.id);
      db().prepare("DELETE FROM orders WHERE id = ? AND authorization IS NULL").run(taken.id);
      const put = db().prepare(
        "INSERT INTO cart_items (user_id, sku, qty, added_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, sku) DO UPDATE SET qty = min(?, qty + excluded.qty)",
      );
      for (const r of taken.rows) put.run(user.id, r.sku, r.qty, r.added_at, MAX_QTY);
    }).immediate();
    if (e instanceof PaymentDeclined) throw new ShopError(ctx.t(`Your card was declined: ${e.message}. Nothing was charged.`, `Ihre Karte wurde abgelehnt: ${e.message}. Es wurde nichts belastet.`), "card");
    throw e;
  }
  db().prepare("UPDATE orders SET authorization = ? WHERE id = ?").run(auth.authorization, taken.id);
  const first = user.full_name.split(" ")[0];
  await mail(user, ctx.t(`Your Shopwell order ${number} has been placed`, `Ihre Shopwell-Bestellung ${number} ist eingegangen`),
    ctx.t(
      `Hi ${first},\n\nThanks for shopping with us. Arriving ${ctx.day(delivered)}.\n\nOrder ${number}, placed ${ctx.date(now)}\n\n${itemLines(ctx, lines.map((l) => ({ name: l.title, variant: l.label, qty: l.qty, price_cents: l.price_cents })))}\n\nSubtotal: ${ctx.money(subtotal)}\nShipping: ${ctx.money(shipping)}\nOrder total: ${ctx.money(total)}\nPaid with: ${card.label}\n\nShip to: ${address.name}, ${address.line}\n\nView or manage your order: http://shopwell.test/orders/${number}\n\nShopwell\n`,
      `Hallo ${first},\n\nvielen Dank für Ihre Bestellung. Voraussichtliche Lieferung: ${ctx.day(delivered)}.\n\nBestellung ${number} vom ${ctx.date(now)}\n\n${itemLines(ctx, lines.map((l) => ({ name: l.title, variant: l.label, qty: l.qty, price_cents: l.price_cents })))}\n\nZwischensumme: ${ctx.money(subtotal)}\nVersand: ${ctx.money(shipping)}\nGesamtbetrag: ${ctx.money(total)}\nBezahlt mit: ${card.label}\n\nLieferadresse: ${address.name}, ${address.line}\n\nBestellung ansehen: http://shopwell.test/orders/${number}\n\nShopwell\n`,
    ));
  return number;
}

/** Put every line of a past order back in the cart (Buy it again), at today's prices. Returns how many lines. */
export function reorder(userId: number, number: string): number {
  const o = orderByNumber(userId, number);
  if (!o) throw new ShopError("That order doesn't exist.");
  const items = itemsOf(o.id);
  db().transaction(() => {
    for (const i of items) {
      const have = (db().prepare("SELECT qty FROM cart_items WHERE user_id = ? AND sku = ?").get(userId, i.sku) as { qty: number } | undefined)?.qty ?? 0;
      if (have + i.qty > MAX_QTY) throw new ShopError(`You can buy up to ${MAX_QTY} of one item per order.`);
      db().prepare("INSERT INTO cart_items (user_id, sku, qty, added_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, sku) DO UPDATE SET qty = qty + excluded.qty").run(userId, i.sku, i.qty, shopContext().now);
    }
  }).immediate();
  return items.length;
}

/** Whether order line `item` can be returned now: delivered, not returned, and today within RETURN_DAYS of delivery.
 * Answers null when it can, else the reason. */
export function returnRefusal(ctx: ShopContext, o: Order, itemId: number): string | null {
  if (trackingOf(o, ctx.now) !== "delivered") return ctx.t("This order hasn't been delivered yet.", "Diese Bestellung wurde noch nicht geliefert.");
  if (db().prepare("SELECT 1 FROM returns WHERE order_item_id = ?").get(itemId)) return ctx.t("This item has already been returned.", "Dieser Artikel wurde bereits zurückgegeben.");
  if (ctx.today > returnUntil(o)) return ctx.t(`The return window closed on ${ctx.date(returnUntil(o))}.`, `Die Rückgabefrist ist am ${ctx.date(returnUntil(o))} abgelaufen.`);
  return null;
}

/** Return a delivered order line inside the window: refund qty x price to the order's card at once (refundCard,
 * reference = the RMA), record the return and mail the label. Reserve first: the return row is written (its
 * `authorization` empty) in the same immediate transaction that checks the line can still be returned, then the
 * bank refunds, then the authorization is filled in; a refused refund removes the row. So one line is refunded
 * once however often the form is posted. Returns the RMA. Throws ShopError (nothing refunded). */
export async function returnItem(user: User, itemText: string, reason: string, commentText: string): Promise<{ rma: string; order: string }> {
  const ctx = shopContext();
  const itemId = idValue(itemText);
  if (itemId === null) throw new ShopError(ctx.t("Choose an item to return.", "Wählen Sie einen Artikel."), "item");
  const item = db().prepare("SELECT i.* FROM order_items i JOIN orders o ON o.id = i.order_id WHERE i.id = ? AND o.user_id = ?").get(itemId, user.id) as OrderItem | undefined;
  if (!item) throw new ShopError(ctx.t("Choose an item to return.", "Wählen Sie einen Artikel."), "item");
  const o = db().prepare("SELECT * FROM orders WHERE id = ?").get(item.order_id) as Order;
  if (!(reason in RETURN_REASONS) || !Object.prototype.hasOwnProperty.call(RETURN_REASONS, reason)) throw new ShopError(ctx.t("Choose a reason for the return.", "Wählen Sie einen Rückgabegrund."), "reason");
  const comment = commentText.trim();
  if (comment.length > 500) throw new ShopError(ctx.t("Comments are limited to 500 characters.", "Kommentare sind auf 500 Zeichen begrenzt."), "comment");
  const card = cardById(user.id, o.card_id);
  if (!card) throw new ShopError("The card of this order is no longer on file.");
  const refund = item.qty * item.price_cents;
  const rma = `RMA-${o.order_number.slice(3, 6)}${o.order_number.slice(7)}-${item.id}`;
  db().transaction(() => {
    const refusal = returnRefusal(ctx, o, item.id);
    if (refusal) throw new ShopError(refusal);
    db().prepare("INSERT INTO returns (rma, order_item_id, reason, comment, refund_cents, authorization, created_at) VALUES (?, ?, ?, ?, ?, '', ?)").run(rma, item.id, reason, comment || null, refund, ctx.now);
  }).immediate();
  let auth;
  try {
    auth = await refundCard({ app: "shop", merchant: merchantOf(o.order_number), amount_cents: refund, card_last4: card.last4, reference: rma, category: "shopping", memo: `Return of ${item.name}` });
  } catch (e) {
    db().prepare("DELETE FROM returns WHERE rma = ? AND authorization = ''").run(rma);
    if (e instanceof PaymentDeclined) throw new ShopError(ctx.t(`The refund could not be issued: ${e.message}. Nothing was changed.`, `Die Erstattung ist fehlgeschlagen: ${e.message}. Nichts wurde geändert.`));
    throw e;
  }
  db().prepare("UPDATE returns SET authorization = ? WHERE rma = ?").run(auth.authorization, rma);
  const first = user.full_name.split(" ")[0];
  await mail(user, ctx.t(`Your return ${rma} for order ${o.order_number}`, `Ihre Rücksendung ${rma} zu Bestellung ${o.order_number}`),
    ctx.t(
      `Hi ${first},\n\nWe've received your return of ${item.qty} x ${item.name}${item.variant ? ` (${item.variant})` : ""}.\n\nRefund: ${ctx.money(refund)} to ${card.label}. It appears on your card right away.\n\nDrop the parcel at any ${o.carrier} location within 14 days with the return code ${rma}.\n\nShopwell\n`,
      `Hallo ${first},\n\nwir haben Ihre Rücksendung von ${item.qty} x ${item.name}${item.variant ? ` (${item.variant})` : ""} erhalten.\n\nErstattung: ${ctx.money(refund)} auf ${card.label}. Sie erscheint sofort auf Ihrer Karte.\n\nBitte geben Sie das Paket innerhalb von 14 Tagen mit dem Rücksendecode ${rma} bei ${o.carrier} ab.\n\nShopwell\n`,
    ));
  return { rma, order: o.order_number };
}

/* ---------- wish list, reviews, subscriptions ---------- */

export function wishlistOf(userId: number): (Product & { added_at: string })[] {
  return db().prepare("SELECT p.*, w.added_at FROM wishlist w JOIN products p ON p.id = w.product_id WHERE w.user_id = ? ORDER BY w.added_at DESC, p.id").all(userId) as (Product & { added_at: string })[];
}

export function inWishlist(userId: number, productId: string): boolean {
  return !!db().prepare("SELECT 1 FROM wishlist WHERE user_id = ? AND product_id = ?").get(userId, productId);
}

export function setWishlist(userId: number, productId: string, on: boolean): Product {
  const p = productById(productId);
  if (!p) throw new ShopError("That product doesn't exist.");
  if (on) db().prepare("INSERT OR IGNORE INTO wishlist (user_id, product_id, added_at, world_ref) VALUES (?, ?, ?, NULL)").run(userId, productId, shopContext().now);
  else db().prepare("DELETE FROM wishlist WHERE user_id = ? AND product_id = ?").run(userId, productId);
  return p;
}

/** Write the persona's review of a product they bought (one per product). Throws ShopError. */
export function addReview(user: User, productId: string, ratingText: string, headlineText: string, bodyText: string): Product {
  const ctx = shopContext();
  const p = productById(productId);
  if (!p) throw new ShopError("That product doesn't exist.");
  if (!hasBought(user.id, p.id)) throw new ShopError(ctx.t("You can review products once they have been delivered to you.", "Sie können Produkte bewerten, sobald sie geliefert wurden."));
  if (!/^[1-5]$/.test(ratingText)) throw new ShopError(ctx.t("Choose 1 to 5 stars.", "Wählen Sie 1 bis 5 Sterne."), "rating");
  const headline = headlineText.trim();
  const body = bodyText.trim();
  if (!headline || headline.length > 120) throw new ShopError(ctx.t("Add a headline (up to 120 characters).", "Geben Sie eine Überschrift an (bis 120 Zeichen)."), "headline");
  if (body.length < 10 || body.length > 2000) throw new ShopError(ctx.t("Write between 10 and 2,000 characters.", "Schreiben Sie zwischen 10 und 2.000 Zeichen."), "body");
  if (myReview(user.id, p.id)) throw new ShopError(ctx.t("You have already reviewed this product.", "Sie haben dieses Produkt bereits bewertet."));
  const parts = user.full_name.split(" ");
  db().prepare("INSERT INTO reviews (product_id, user_id, author, rating, headline, body, verified, created_at, world_ref) VALUES (?, ?, ?, ?, ?, ?, 1, ?, NULL)").run(
    p.id, user.id, `${parts[0]} ${parts[parts.length - 1][0]}.`, Number(ratingText), headline, body, ctx.now);
  return p;
}

export function subscriptionsOf(userId: number): Subscription[] {
  return db()
    .prepare("SELECT s.*, p.title, p.slug, v.label FROM subscriptions s JOIN variants v ON v.sku = s.sku JOIN products p ON p.id = v.product_id WHERE s.user_id = ? ORDER BY s.status, s.created_at DESC, s.id DESC")
    .all(userId) as Subscription[];
}

/** Subscribe & Save: deliver variant `sku` every `weeks` weeks at 5 % off to the default address with the default
 * card; the first delivery ships in a week. Charged when each delivery ships. Throws ShopError. */
export function subscribe(userId: number, sku: string, weeksText: string, qtyText: string): Subscription {
  const ctx = shopContext();
  const v = variant(sku);
  if (!v) throw new ShopError("Choose an option of this product.", "sku");
  if (!v.subscribe) throw new ShopError(ctx.t("Subscribe & Save isn't offered for this product.", "Spar-Abo ist für dieses Produkt nicht verfügbar."));
  const weeks = Number(weeksText);
  if (!/^\d$/.test(weeksText) || !(SUBSCRIBE_WEEKS as readonly number[]).includes(weeks)) throw new ShopError(ctx.t("Choose how often: every 2, 4, 6 or 8 weeks.", "Wählen Sie den Rhythmus: alle 2, 4, 6 oder 8 Wochen."), "weeks");
  const qty = quantity(qtyText || "1");
  const address = addressesOf(userId)[0];
  const card = cardsOf(userId)[0];
  if (!address || !card) throw new ShopError(ctx.t("Add a delivery address and a card to your account first.", "Hinterlegen Sie zuerst eine Lieferadresse und eine Karte."));
  const price = Math.round((v.price_cents * (100 - SUBSCRIBE_DISCOUNT_PCT)) / 100);
  // One active subscription per item: checked and written in one transaction.
  const id = db().transaction(() => {
    if (db().prepare("SELECT 1 FROM subscriptions WHERE user_id = ? AND sku = ? AND status = 'active'").get(userId, sku)) throw new ShopError(ctx.t("You already subscribe to this item.", "Sie haben diesen Artikel bereits abonniert."));
    const info = db()
      .prepare("INSERT INTO subscriptions (user_id, sku, qty, every_weeks, price_cents, next_date, address_id, card_id, status, created_at, cancelled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, NULL)")
      .run(userId, sku, qty, weeks, price, addDays(ctx.now, 7).slice(0, 10), address.id, card.id, ctx.now);
    return Number(info.lastInsertRowid);
  }).immediate();
  return subscriptionsOf(userId).find((s) => s.id === id)!;
}

export function cancelSubscription(userId: number, idText: string): void {
  const id = idValue(idText);
  if (id === null) throw new ShopError("That subscription doesn't exist.");
  const res = db().prepare("UPDATE subscriptions SET status = 'cancelled', cancelled_at = ? WHERE id = ? AND user_id = ? AND status = 'active'").run(shopContext().now, id, userId);
  if (!res.changes) throw new ShopError("That subscription doesn't exist or is already cancelled.");
}
