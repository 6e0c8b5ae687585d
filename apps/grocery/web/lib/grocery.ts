import { idValue } from "@persona/platform/http";
import { floorUnit, parseMoney, toUnit } from "@persona/ui/format";
import { chargeCard, PaymentDeclined } from "@persona/platform/payments";
import { randomInt } from "node:crypto";
import { db } from "./db";
import { shopContext, type ShopContext } from "./context";
import { mailConfirmation } from "./mail";

/** A refusal the shopper can act on (bad input, a full window, a declined card): nothing was written. */
export class ShopError extends Error {}

/** Fees as the world charges them (builder/world/grocery.py): delivery 3.99 under 35.00, service 5 %. */
export const SERVICE_PERCENT = 5;
/** A window can be booked until this many minutes before it starts. */
export const CUTOFF_MINUTES = 60;
export const MAX_QTY = 24;
export const SUBSTITUTIONS = ["best_match", "specific", "none"] as const;
export type Substitution = (typeof SUBSTITUTIONS)[number];
export const SUB_LABEL: Record<string, string> = { best_match: "Best match", specific: "Specific item", none: "Don't substitute" };

export interface Store {
  id: number; key: string; name: string; tagline: string; address: string; city: string; opens: string; closes: string;
  radius: number; radius_unit: string; pickup: number; colour: string; position: number;
}
export interface Product {
  id: string; department: string; aisle: string; brand: string; title: string; size: string; unit_label: string;
  unit_count: number; list_price_cents: number; staple: string | null;
}
export interface PricedProduct extends Product { price_cents: number }
export interface Aisle { key: string; department: string; name: string; position: number; dept_name: string }
export interface CartLine extends PricedProduct { qty: number; substitution: Substitution; substitute_id: string | null; substitute_title: string | null }
export interface Window { id: number; store_id: number; kind: string; starts_at: string; ends_at: string; capacity: number; taken: number }
export interface Order {
  id: number; order_id: string; store_id: number; store_name: string; status: string; fulfilment: string; placed_at: string;
  window_start: string; window_end: string; address: string; subtotal_cents: number; delivery_fee_cents: number;
  service_fee_cents: number; tip_cents: number; total_cents: number; card_label: string; instructions: string;
  charge_auth: string | null; world_ref: string | null; item_count: number; store_key: string;
}
export interface OrderLine { product_id: string; name: string; size: string; qty: number; price_cents: number; substitution: string; substitute_id: string | null; brand: string }
export interface Card { id: number; label: string; last4: string; is_default: number }

export function stores(): Store[] {
  return db().prepare("SELECT * FROM stores ORDER BY position").all() as Store[];
}

export function storeByKey(key: string): Store | undefined {
  return db().prepare("SELECT * FROM stores WHERE key = ?").get(key) as Store | undefined;
}

export function aisles(): Aisle[] {
  return db().prepare("SELECT a.*, d.name AS dept_name FROM aisles a JOIN departments d ON d.key = a.department ORDER BY a.position").all() as Aisle[];
}

export function cards(): Card[] {
  return db().prepare("SELECT id, label, last4, is_default FROM cards ORDER BY id").all() as Card[];
}

export interface Filters { q?: string; aisle?: string; brand?: string; maxCents?: number | null; sort?: string; limit?: number; offset?: number }

const SORTS: Record<string, string> = {
  relevance: "p.department, p.aisle, p.title, p.brand",
  price: "pr.price_cents, p.title",
  unit: "CAST(pr.price_cents AS REAL) / p.unit_count, p.title",
  name: "p.title, p.brand",
};

/** Products of a store matching the filters (search matches title, brand and aisle words; all words must match). */
export function searchProducts(storeId: number, f: Filters): { rows: PricedProduct[]; total: number; brands: string[] } {
  const where = ["pr.store_id = ?"];
  const args: (string | number)[] = [storeId];
  for (const word of (f.q ?? "").toLowerCase().split(/\s+/).filter(Boolean).slice(0, 6)) {
    where.push("(lower(p.title) LIKE ? OR lower(p.brand) LIKE ? OR lower(a.name) LIKE ?)");
    const like = `%${word.replace(/[%_]/g, "")}%`;
    args.push(like, like, like);
  }
  if (f.aisle) { where.push("(p.aisle = ? OR p.department = ?)"); args.push(f.aisle, f.aisle); }
  const brandWhere = [...where];
  const brandArgs = [...args];
  if (f.brand) { where.push("p.brand = ?"); args.push(f.brand); }
  if (f.maxCents != null) { where.push("pr.price_cents <= ?"); args.push(f.maxCents); }
  const from = "FROM products p JOIN prices pr ON pr.product_id = p.id JOIN aisles a ON a.key = p.aisle WHERE " + where.join(" AND ");
  const total = (db().prepare(`SELECT count(*) AS n ${from}`).get(...args) as { n: number }).n;
  const order = SORTS[f.sort ?? "relevance"] ?? SORTS.relevance;
  const rows = db().prepare(`SELECT p.*, pr.price_cents ${from} ORDER BY ${order}, p.id LIMIT ? OFFSET ?`).all(...args, f.limit ?? 60, f.offset ?? 0) as PricedProduct[];
  const brands = (db().prepare(`SELECT DISTINCT p.brand FROM products p JOIN prices pr ON pr.product_id = p.id JOIN aisles a ON a.key = p.aisle WHERE ${brandWhere.join(" AND ")} AND p.brand <> '' ORDER BY p.brand`).all(...brandArgs) as { brand: string }[]).map((b) => b.brand);
  return { rows, total, brands };
}

export function product(id: string): Product | undefined {
  return db().prepare("SELECT * FROM products WHERE id = ?").get(id) as Product | undefined;
}

/** The product's price at every store, cheapest first. */
export function pricesOf(id: string): { store_id: number; key: string; name: string; price_cents: number; colour: string }[] {
  return db().prepare("SELECT s.id AS store_id, s.key, s.name, s.colour, pr.price_cents FROM prices pr JOIN stores s ON s.id = pr.store_id WHERE pr.product_id = ? ORDER BY pr.price_cents, s.position").all(id) as never;
}

/** Products of the same aisle at the store, closest in price: the choices for a specific substitute. */
export function similar(storeId: number, p: Product, n = 8): PricedProduct[] {
  return db().prepare("SELECT p.*, pr.price_cents FROM products p JOIN prices pr ON pr.product_id = p.id AND pr.store_id = ? WHERE p.aisle = ? AND p.id <> ? ORDER BY abs(pr.price_cents - ?), p.id LIMIT ?")
    .all(storeId, p.aisle, p.id, p.list_price_cents, n) as PricedProduct[];
}

export function cartLines(storeId: number): CartLine[] {
  return db().prepare(`SELECT p.*, pr.price_cents, c.qty, c.substitution, c.substitute_id, s.title AS substitute_title
    FROM cart_items c JOIN products p ON p.id = c.product_id JOIN prices pr ON pr.product_id = p.id AND pr.store_id = c.store_id
    LEFT JOIN products s ON s.id = c.substitute_id WHERE c.store_id = ? ORDER BY c.id`).all(storeId) as CartLine[];
}

/** Number of items in each store's cart: store id -> count of units. */
export function cartCounts(): Map<number, number> {
  const rows = db().prepare("SELECT store_id, sum(qty) AS n FROM cart_items GROUP BY store_id").all() as { store_id: number; n: number }[];
  return new Map(rows.map((r) => [r.store_id, r.n]));
}

export interface Totals { subtotal_cents: number; delivery_fee_cents: number; service_fee_cents: number; tip_cents: number; total_cents: number }

/**
 * The fees of a basket as the world charges them (builder/reference/grocery/catalogue.py `fees`): the delivery fee
 * and its free-from threshold in the persona's currency (`ctx`), the service fee half up to the currency's smallest
 * unit; the tip as given.
 */
export function totals(ctx: ShopContext, subtotal: number, tipCents: number, pickup: boolean): Totals {
  const delivery = pickup || subtotal >= ctx.freeDeliveryFromCents ? 0 : ctx.deliveryFeeCents;
  const service = toUnit(Math.floor((subtotal * SERVICE_PERCENT + 50) / 100), ctx.currency);
  const tip = pickup ? 0 : tipCents;
  return { subtotal_cents: subtotal, delivery_fee_cents: delivery, service_fee_cents: service, tip_cents: tip, total_cents: subtotal + delivery + service + tip };
}

/**
 * The tip of a delivery checkout in cents: `tip` a suggested option's cents, or "custom" with `amount` typed in the
 * persona's currency ("7.50", "$7.50"; "7,50" in de-DE), kept to the currency's smallest unit. Throws ShopError.
 */
export function tipCents(ctx: ShopContext, tip: string, amount: string): number {
  const t = tip.trim();
  if (t === "custom") {
    const cents = parseMoney(amount, ctx.locale);
    if (cents === null) throw new ShopError("Enter the tip as an amount, like 4.50.");
    return toUnit(cents, ctx.currency);
  }
  if (!/^\d{1,6}$/.test(t)) throw new ShopError("Choose a tip or enter another amount.");
  return Number(t);
}

export function tipFor(ctx: ShopContext, subtotal: number, percent: number): number {
  return floorUnit((subtotal * percent) / 100, ctx.currency);
}

/** The cart of every store priced at every store: what the same basket costs elsewhere (cheapest first). */
export function compare(storeId: number): { store: Store; subtotal_cents: number }[] {
  const lines = cartLines(storeId);
  if (!lines.length) return [];
  return stores().map((s) => {
    let subtotal = 0;
    for (const l of lines) {
      const pr = db().prepare("SELECT price_cents FROM prices WHERE store_id = ? AND product_id = ?").get(s.id, l.id) as { price_cents: number };
      subtotal += pr.price_cents * l.qty;
    }
    return { store: s, subtotal_cents: subtotal };
  }).sort((a, b) => a.subtotal_cents - b.subtotal_cents || a.store.position - b.store.position);
}

/** Windows of a store from now on (the next 7 days), with seats taken. */
export function windows(ctx: ShopContext, storeId: number, kind: string): Window[] {
  return db().prepare(`SELECT w.*, (SELECT count(*) FROM window_seats s WHERE s.window_id = w.id) AS taken FROM windows w
    WHERE w.store_id = ? AND w.kind = ? AND w.starts_at > ? ORDER BY w.starts_at`).all(storeId, kind, ctx.now.slice(0, 10) + "T00:00:00") as Window[];
}

function minutesUntil(now: string, iso: string): number {
  return (Date.parse(`${iso.slice(0, 19)}Z`) - Date.parse(`${now.slice(0, 19)}Z`)) / 60000;
}

export function windowOpen(ctx: ShopContext, w: Window): boolean {
  return w.taken < w.capacity && minutesUntil(ctx.now, w.starts_at) >= CUTOFF_MINUTES;
}

// --- writes -------------------------------------------------------------------------------------

function qtyValue(raw: string): number {
  if (!/^\d{1,3}$/.test(raw.trim())) throw new ShopError("Quantity must be a whole number.");
  const q = Number(raw.trim());
  if (q < 0 || q > MAX_QTY) throw new ShopError(`Quantity must be between 1 and ${MAX_QTY}.`);
  return q;
}

export function requireStore(key: string): Store {
  const s = storeByKey(key.trim());
  if (!s) throw new ShopError("Choose a store first.");
  return s;
}

export function requireProduct(id: string): Product {
  const p = /^BK\d{8}$/.test(id.trim()) ? product(id.trim()) : undefined;
  if (!p) throw new ShopError("That product isn't in the catalogue.");
  return p;
}

/** Add `qty` of a product to a store's cart (adds to what is there, at most MAX_QTY). */
export function addToCart(storeKey: string, productId: string, qtyRaw: string): Store {
  const s = requireStore(storeKey);
  const p = requireProduct(productId);
  const q = qtyValue(qtyRaw || "1");
  if (q < 1) throw new ShopError("Quantity must be at least 1.");
  const ctx = shopContext();
  const have = db().prepare("SELECT qty FROM cart_items WHERE store_id = ? AND product_id = ?").get(s.id, p.id) as { qty: number } | undefined;
  if ((have?.qty ?? 0) + q > MAX_QTY) throw new ShopError(`You can have at most ${MAX_QTY} of one item.`);
  db().prepare("INSERT INTO cart_items (store_id, product_id, qty, substitution, substitute_id, added_at) VALUES (?, ?, ?, 'best_match', NULL, ?) ON CONFLICT(store_id, product_id) DO UPDATE SET qty = qty + excluded.qty")
    .run(s.id, p.id, q, ctx.now);
  return s;
}

/** Change a cart line: quantity (0 removes it) and substitution preference. */
export function updateCart(storeKey: string, productId: string, qtyRaw: string, subRaw: string, substituteRaw: string): Store {
  const s = requireStore(storeKey);
  const p = requireProduct(productId);
  const line = db().prepare("SELECT id FROM cart_items WHERE store_id = ? AND product_id = ?").get(s.id, p.id);
  if (!line) throw new ShopError("That item isn't in your cart.");
  const q = qtyValue(qtyRaw || "1");
  if (q === 0) {
    db().prepare("DELETE FROM cart_items WHERE store_id = ? AND product_id = ?").run(s.id, p.id);
    return s;
  }
  const sub = (subRaw || "best_match") as Substitution;
  if (!SUBSTITUTIONS.includes(sub)) throw new ShopError("Choose a substitution preference.");
  let substitute: string | null = null;
  if (sub === "specific") {
    const alt = requireProduct(substituteRaw || "x");
    if (alt.id === p.id) throw new ShopError("Pick a different product as the replacement.");
    substitute = alt.id;
  }
  db().prepare("UPDATE cart_items SET qty = ?, substitution = ?, substitute_id = ? WHERE store_id = ? AND product_id = ?").run(q, sub, substitute, s.id, p.id);
  return s;
}

/** A new order number `BF` + 9 digits (an FNV-1a hash of now, a counter and a random salt), not in `orders`. Called
 * inside the transaction that inserts the order, so no two checkouts can draw the same one (the bank is idempotent
 * per reference, and `orders.order_id` is UNIQUE). */
function newOrderId(ctx: ShopContext): string {
  const used = db().prepare("SELECT 1 FROM orders WHERE order_id = ?");
  const salt = randomInt(1_000_000_000);
  for (let n = 0; ; n++) {
    const seed = `${ctx.now}|${salt}|${n}`;
    let h = 2166136261;
    for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619) >>> 0;
    const id = `BF${String(1 + (h % 9))}${String(h).padStart(10, "0").slice(-8)}`;
    if (!used.get(id)) return id;
  }
}

/** A checkout form: `tip` is the tip in cents (a suggested option) or "custom" with `tip_amount` typed in the currency. */
export interface CheckoutInput { store: string; fulfilment: string; window: string; tip: string; tip_amount?: string; card: string; instructions: string }

interface CartRow { product_id: string; qty: number; substitution: string; substitute_id: string | null; added_at: string }

/**
 * Place the cart of a store. Validate, then reserve first: in one immediate transaction re-check the window has a
 * seat, take the cart (it is emptied), and write the order (its `charge_auth` empty while the bank answers), its
 * items and its seat in the window (UNIQUE (window_id, seat)); then charge the card (pending in the bank at once) and
 * fill in the authorisation. A refused charge removes the order and the seat and gives the cart back. So two
 * checkouts of one cart at once make one order and one charge (the second finds the cart empty), and a window never
 * holds more orders than its capacity. Returns the order id.
 */
export async function checkout(input: CheckoutInput): Promise<string> {
  const ctx = shopContext();
  const s = requireStore(input.store);
  const preview = cartLines(s.id);
  if (!preview.length) throw new ShopError("Your cart at this store is empty.");
  const fulfilment = input.fulfilment.trim() || "delivery";
  if (fulfilment !== "delivery" && fulfilment !== "pickup") throw new ShopError("Choose delivery or pickup.");
  if (fulfilment === "pickup" && !s.pickup) throw new ShopError(`${s.name} doesn't offer pickup.`);
  const windowId = idValue(input.window.trim());
  if (windowId === null) throw new ShopError("Choose a delivery window.");
  const w = db().prepare("SELECT w.*, (SELECT count(*) FROM window_seats x WHERE x.window_id = w.id) AS taken FROM windows w WHERE w.id = ?").get(windowId) as Window | undefined;
  if (!w || w.store_id !== s.id || w.kind !== fulfilment) throw new ShopError("That window isn't offered for this order.");
  if (minutesUntil(ctx.now, w.starts_at) < CUTOFF_MINUTES) throw new ShopError("That window has closed for orders. Choose a later one.");
  if (w.taken >= w.capacity) throw new ShopError("That window is full. Choose another one.");
  const tip = fulfilment === "delivery" ? tipCents(ctx, input.tip, input.tip_amount ?? "") : 0;
  const previewSubtotal = preview.reduce((a, l) => a + l.price_cents * l.qty, 0);
  if (tip > Math.max(2000, previewSubtotal)) throw new ShopError("That tip is more than the order itself.");
  const cardId = idValue(input.card.trim());
  const card = cardId === null ? undefined : (db().prepare("SELECT id, label, last4 FROM cards WHERE id = ?").get(cardId) as Card | undefined);
  if (!card) throw new ShopError("Choose a card.");
  if (input.instructions.length > 500) throw new ShopError("Delivery instructions are limited to 500 characters.");
  const instructions = input.instructions;
  const user = db().prepare("SELECT address FROM users ORDER BY id LIMIT 1").get() as { address: string };
  const address = fulfilment === "pickup" ? s.address : user.address;
  const taken = db().transaction(() => {
    const lines = cartLines(s.id);
    if (!lines.length) throw new ShopError("Your cart at this store is empty.");
    const seat = (db().prepare("SELECT count(*) AS n FROM window_seats WHERE window_id = ?").get(w.id) as { n: number }).n + 1;
    if (seat > w.capacity) throw new ShopError("That window just filled up. Choose another one.");
    const subtotal = lines.reduce((a, l) => a + l.price_cents * l.qty, 0);
    if (tip > Math.max(2000, subtotal)) throw new ShopError("That tip is more than the order itself.");
    const t = totals(ctx, subtotal, tip, fulfilment === "pickup");
    const rows = db().prepare("SELECT product_id, qty, substitution, substitute_id, added_at FROM cart_items WHERE store_id = ? ORDER BY id").all(s.id) as CartRow[];
    const orderId = newOrderId(ctx);
    const info = db().prepare(`INSERT INTO orders (order_id, store_id, status, fulfilment, placed_at, window_start, window_end, window_id, address,
      subtotal_cents, delivery_fee_cents, service_fee_cents, tip_cents, total_cents, card_id, instructions, charge_auth, world_ref)
      VALUES (?, ?, 'placed', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`).run(orderId, s.id, fulfilment, ctx.now, w.starts_at, w.ends_at, w.id,
      address, t.subtotal_cents, t.delivery_fee_cents, t.service_fee_cents, t.tip_cents, t.total_cents, card.id, instructions);
    const id = Number(info.lastInsertRowid);
    db().prepare("INSERT INTO window_seats (window_id, seat, order_id, world_ref) VALUES (?, ?, ?, NULL)").run(w.id, seat, id);
    const add = db().prepare("INSERT INTO order_items (order_id, product_id, name, size, qty, price_cents, substitution, substitute_id, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    lines.forEach((l, i) => add.run(id, l.id, l.title, l.size, l.qty, l.price_cents, l.substitution, l.substitute_id, i + 1));
    db().prepare("DELETE FROM cart_items WHERE store_id = ?").run(s.id);
    return { id, orderId, t, rows, count: lines.length };
  }).immediate();
  const { orderId, t } = taken;
  let auth;
  try {
    auth = await chargeCard({ app: "grocery", merchant: `BASKETFUL*${orderId.slice(2)}`, amount_cents: t.total_cents, card_last4: card.last4,
      reference: orderId, category: "groceries", memo: `${s.name}: ${taken.count} item${taken.count === 1 ? "" : "s"}` });
  } catch (e) {
    // Nothing was charged: the order and its seat go, the cart comes back (added to whatever is in it now).
    db().transaction(() => {
      db().prepare("DELETE FROM window_seats WHERE order_id = ?").run(taken.id);
      db().prepare("DELETE FROM order_items WHERE order_id = ?").run(taken.id);
      db().prepare("DELETE FROM orders WHERE id = ? AND charge_auth IS NULL").run(taken.id);
      const put = db().prepare(`INSERT INTO cart_items (store_id, product_id, qty, substitution, substitute_id, added_at) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT(store_id, product_id) DO UPDATE SET qty = min(?, qty + excluded.qty)`);
      for (const r of taken.rows) put.run(s.id, r.product_id, r.qty, r.substitution, r.substitute_id, r.added_at, MAX_QTY);
    }).immediate();
    if (e instanceof PaymentDeclined) throw new ShopError(`Your card was declined: ${e.message}`);
    throw e;
  }
  db().prepare("UPDATE orders SET charge_auth = ? WHERE id = ?").run(auth.authorization, taken.id);
  await mailConfirmation(ctx, orderId);
  return orderId;
}

export function orders(): Order[] {
  return db().prepare(`SELECT o.*, s.name AS store_name, s.key AS store_key, c.label AS card_label, (SELECT sum(qty) FROM order_items i WHERE i.order_id = o.id) AS item_count
    FROM orders o JOIN stores s ON s.id = o.store_id JOIN cards c ON c.id = o.card_id ORDER BY o.placed_at DESC, o.id DESC`).all() as Order[];
}

export function order(orderId: string): { order: Order; lines: OrderLine[] } | null {
  const o = db().prepare(`SELECT o.*, s.name AS store_name, s.key AS store_key, c.label AS card_label, (SELECT sum(qty) FROM order_items i WHERE i.order_id = o.id) AS item_count
    FROM orders o JOIN stores s ON s.id = o.store_id JOIN cards c ON c.id = o.card_id WHERE o.order_id = ?`).get(orderId) as Order | undefined;
  if (!o) return null;
  const lines = db().prepare("SELECT i.product_id, i.name, i.size, i.qty, i.price_cents, i.substitution, i.substitute_id, p.brand FROM order_items i JOIN products p ON p.id = i.product_id WHERE i.order_id = ? ORDER BY i.position").all(o.id) as OrderLine[];
  return { order: o, lines };
}

/** Put every item of a past order into its store's cart (today's prices; quantities add up, capped). */
export function reorder(orderId: string): Store {
  const found = order(orderId.trim());
  if (!found) throw new ShopError("That order isn't in your history.");
  const s = db().prepare("SELECT * FROM stores WHERE id = ?").get(found.order.store_id) as Store;
  const ctx = shopContext();
  db().transaction(() => {
    for (const l of found.lines) {
      db().prepare("INSERT INTO cart_items (store_id, product_id, qty, substitution, substitute_id, added_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(store_id, product_id) DO UPDATE SET qty = min(?, qty + excluded.qty)")
        .run(s.id, l.product_id, l.qty, l.substitution, l.substitute_id, ctx.now, MAX_QTY);
    }
  })();
  return s;
}

// --- lists ----------------------------------------------------------------------------------------

export interface ListRow { id: number; name: string; created_at: string; world_ref: string | null; n: number }

export function lists(): ListRow[] {
  return db().prepare("SELECT l.*, (SELECT count(*) FROM list_items i WHERE i.list_id = l.id) AS n FROM lists l ORDER BY l.id").all() as ListRow[];
}

export function listItems(listId: number, storeId: number): (PricedProduct & { qty: number })[] {
  return db().prepare("SELECT p.*, pr.price_cents, i.qty FROM list_items i JOIN products p ON p.id = i.product_id JOIN prices pr ON pr.product_id = p.id AND pr.store_id = ? WHERE i.list_id = ? ORDER BY i.id").all(storeId, listId) as never;
}

export function createList(nameRaw: string): number {
  const name = nameRaw.trim();
  if (!name) throw new ShopError("Give the list a name.");
  if (name.length > 60) throw new ShopError("List names are limited to 60 characters.");
  if (db().prepare("SELECT 1 FROM lists WHERE lower(name) = lower(?)").get(name)) throw new ShopError("You already have a list with that name.");
  return Number(db().prepare("INSERT INTO lists (name, created_at, world_ref) VALUES (?, ?, NULL)").run(name, shopContext().now).lastInsertRowid);
}

function requireList(idRaw: string): ListRow {
  const id = idValue(idRaw.trim());
  const l = id === null ? undefined : (db().prepare("SELECT *, 0 AS n FROM lists WHERE id = ?").get(id) as ListRow | undefined);
  if (!l) throw new ShopError("That list doesn't exist.");
  return l;
}

export function addToList(listRaw: string, productId: string, qtyRaw: string): ListRow {
  const l = requireList(listRaw);
  const p = requireProduct(productId);
  const q = qtyValue(qtyRaw || "1");
  if (q < 1) throw new ShopError("Quantity must be at least 1.");
  db().prepare("INSERT INTO list_items (list_id, product_id, qty, added_at) VALUES (?, ?, ?, ?) ON CONFLICT(list_id, product_id) DO UPDATE SET qty = excluded.qty").run(l.id, p.id, q, shopContext().now);
  return l;
}

export function removeFromList(listRaw: string, productId: string): ListRow {
  const l = requireList(listRaw);
  const p = requireProduct(productId);
  if (!db().prepare("DELETE FROM list_items WHERE list_id = ? AND product_id = ?").run(l.id, p.id).changes) throw new ShopError("That item isn't on the list.");
  return l;
}

/** Move a whole list into one store's cart. */
export function listToCart(listRaw: string, storeKey: string): Store {
  const l = requireList(listRaw);
  const s = requireStore(storeKey);
  const items = db().prepare("SELECT product_id, qty FROM list_items WHERE list_id = ?").all(l.id) as { product_id: string; qty: number }[];
  if (!items.length) throw new ShopError("That list is empty.");
  const ctx = shopContext();
  db().transaction(() => {
    for (const it of items) {
      db().prepare("INSERT INTO cart_items (store_id, product_id, qty, substitution, substitute_id, added_at) VALUES (?, ?, ?, 'best_match', NULL, ?) ON CONFLICT(store_id, product_id) DO UPDATE SET qty = min(?, qty + excluded.qty)")
        .run(s.id, it.product_id, it.qty, ctx.now, MAX_QTY);
    }
  })();
  return s;
}
