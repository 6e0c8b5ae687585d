import { createHash } from "node:crypto";
import { addSeconds } from "@persona/platform/clock";
import { chargeCard, PaymentDeclined } from "@persona/platform/payments";
import { floorUnit, parseMoney, toUnit } from "@persona/ui/format";
import { db } from "./db";
import { dashContext, type DashContext } from "./context";
import { DashError } from "./http";

export { DashError };
import { money } from "./format";
import { mailConfirmation } from "./mail";

/**
 * DashBite's rules, in one place (pages and routes call these):
 * - Fees: the restaurant's delivery fee; a service fee of 10 % of the subtotal (half up); a small-order fee
 *   when the subtotal is under the restaurant's minimum. Tip: a percent of the subtotal (floored to the cent,
 *   as the world tips) or a custom amount. Promo codes take off the subtotal (percent, capped, or an amount)
 *   or the delivery fee; they hold between `starts_at` and `expires_at` (the app's clock), above a minimum
 *   subtotal, and first-order codes only for a customer with no orders.
 * - total = subtotal - discount + delivery + service + small-order fee + tip, charged at placement through
 *   @persona/platform/payments (pending in the bank at once), then the order is written in one transaction.
 * - Tracking (from the clock): placed, preparing (2 min after the kitchen starts), on the way (after the
 *   restaurant's longest prep time), delivered at the ETA. A scheduled order's kitchen starts before the slot.
 */

export const SERVICE_PERCENT = 10;
export const TIP_PERCENTS = [10, 15, 18, 20, 25];
export const TRAVEL_MINUTES = 15;
export const MAX_QTY = 20;
export const MAX_NOTE = 200;
export const SCHEDULE_DAYS = 7;
export const RATE_DAYS = 30;

export interface Restaurant {
  id: number;
  slug: string;
  name: string;
  cuisine: string;
  neighbourhood: string;
  address: string;
  delivery_fee_cents: number;
  minimum_cents: number;
  small_order_fee_cents: number;
  prep_min: number;
  prep_max: number;
  rating_x10: number;
  rating_count: number;
  price_level: number;
  opens: string;
  closes: string;
  usual: number;
}

export interface Choice {
  id: string;
  label: string;
  price_cents: number;
}

export interface OptionGroup {
  key: string;
  label: string;
  pick: "one" | "many";
  max: number;
  choices: Choice[];
}

export interface MenuItem {
  id: number;
  dish_id: string;
  restaurant_id: number;
  section: string;
  name: string;
  price_cents: number;
  popular: number;
  options: OptionGroup[];
  position: number;
}

export interface CartLine {
  id: number;
  menu_item_id: number;
  qty: number;
  option_ids: string[];
  options: string[];
  unit_price_cents: number;
  special_instructions: string;
  item: MenuItem;
}

export interface Order {
  id: number;
  order_id: string;
  restaurant_id: number;
  restaurant_name: string;
  restaurant_slug: string;
  status: string;
  placed_at: string;
  scheduled_for: string | null;
  eta_at: string;
  delivered_at: string | null;
  address: string;
  dropoff_instructions: string;
  subtotal_cents: number;
  discount_cents: number;
  promo_code: string | null;
  delivery_fee_cents: number;
  service_fee_cents: number;
  small_order_fee_cents: number;
  tip_cents: number;
  tip_percent: number | null;
  total_cents: number;
  card_id: number;
  card_label: string;
  card_last4: string;
  charge_auth: string | null;
  usual: number;
  reorder_of: string | null;
  rating: number | null;
  rating_comment: string | null;
  rated_at: string | null;
  rated_in_app: number;
  world_ref: string | null;
}

export interface OrderLine {
  id: number;
  position: number;
  menu_item_id: number | null;
  name: string;
  qty: number;
  unit_price_cents: number;
  options: string[];
  option_ids: string[];
  special_instructions: string;
}

export interface Card {
  id: number;
  account: string;
  brand: string;
  last4: string;
  holder: string;
  expiry: string;
  label: string;
  is_default: number;
}

export interface Address {
  id: number;
  label: string;
  line: string;
  instructions: string;
  is_default: number;
}

export interface Promo {
  code: string;
  kind: "percent" | "amount" | "free_delivery";
  value: number;
  max_off_cents: number;
  min_subtotal_cents: number;
  starts_at: string;
  expires_at: string;
  first_order_only: number;
  description: string;
}

// --- catalogue --------------------------------------------------------------------------------------

const REST_COLS = "id, slug, name, cuisine, neighbourhood, address, delivery_fee_cents, minimum_cents, small_order_fee_cents, prep_min, prep_max, rating_x10, rating_count, price_level, opens, closes, usual";

/** Restaurants, best rated first (ties by name): all, or of `cuisine`, or matching `q` (name, cuisine, a dish). */
export function restaurants(filter: { cuisine?: string; q?: string } = {}): Restaurant[] {
  const q = (filter.q ?? "").trim().toLowerCase().slice(0, 80);
  const cuisine = (filter.cuisine ?? "").trim();
  const rows = db()
    .prepare(
      `SELECT ${REST_COLS} FROM restaurants r
       WHERE (? = '' OR r.cuisine = ?)
         AND (? = '' OR lower(r.name) LIKE ? OR lower(r.cuisine) LIKE ? OR lower(r.neighbourhood) LIKE ?
              OR EXISTS (SELECT 1 FROM menu_items m WHERE m.restaurant_id = r.id AND lower(m.name) LIKE ?))
       ORDER BY r.rating_x10 DESC, r.name`,
    )
    .all(cuisine, cuisine, q, `%${q}%`, `%${q}%`, `%${q}%`, `%${q}%`) as Restaurant[];
  return rows;
}

/** Cuisines with how many restaurants deliver each, by name. */
export function cuisines(): { cuisine: string; count: number }[] {
  return db().prepare("SELECT cuisine, COUNT(*) AS count FROM restaurants GROUP BY cuisine ORDER BY cuisine").all() as { cuisine: string; count: number }[];
}

export function restaurantBySlug(slug: string): Restaurant | undefined {
  return db().prepare(`SELECT ${REST_COLS} FROM restaurants WHERE slug = ?`).get(slug) as Restaurant | undefined;
}

export function restaurantById(id: number): Restaurant | undefined {
  return db().prepare(`SELECT ${REST_COLS} FROM restaurants WHERE id = ?`).get(id) as Restaurant | undefined;
}

type MenuRow = Omit<MenuItem, "options"> & { options_json: string };
const asItem = (r: MenuRow): MenuItem => ({ ...r, options: JSON.parse(r.options_json) as OptionGroup[] });

export function menu(restaurantId: number): MenuItem[] {
  return (db().prepare("SELECT * FROM menu_items WHERE restaurant_id = ? ORDER BY position").all(restaurantId) as MenuRow[]).map(asItem);
}

export function menuItem(id: number | null): MenuItem | undefined {
  if (id === null) return undefined;
  const r = db().prepare("SELECT * FROM menu_items WHERE id = ?").get(id) as MenuRow | undefined;
  return r ? asItem(r) : undefined;
}

/** `HH:MM` of a local ISO time. */
const hhmm = (iso: string) => iso.slice(11, 16);

/** Whether the restaurant takes orders at local time `iso` (its opening hours; closing after midnight not used). */
export function openAt(r: Restaurant, iso: string): boolean {
  const t = hhmm(iso);
  return r.opens <= t && t < r.closes;
}

/** Delivery estimate in minutes: prep + the ride over. */
export function etaRange(r: Restaurant): [number, number] {
  return [r.prep_min + TRAVEL_MINUTES, r.prep_max + TRAVEL_MINUTES + 5];
}

// --- options and the cart ------------------------------------------------------------------------------

/**
 * Check chosen `optionIds` (`key:choice`) against the dish's groups: each "one" group exactly one choice,
 * each "many" group at most `max`, no unknown ids. Returns labels (menu order), ids and the unit price.
 */
export function chooseOptions(item: MenuItem, optionIds: string[]): { labels: string[]; ids: string[]; unit_price_cents: number } {
  const wanted = new Set(optionIds.map((x) => x.trim()).filter(Boolean));
  const known = new Set(item.options.flatMap((g) => g.choices.map((c) => `${g.key}:${c.id}`)));
  for (const id of wanted) if (!known.has(id)) throw new DashError(`"${item.name}" has no option "${id.slice(0, 40)}".`);
  const labels: string[] = [];
  const ids: string[] = [];
  let price = item.price_cents;
  for (const g of item.options) {
    const picked = g.choices.filter((c) => wanted.has(`${g.key}:${c.id}`));
    if (g.pick === "one" && picked.length !== 1) throw new DashError(`Choose one ${g.label.toLowerCase()} for ${item.name}.`);
    if (g.pick === "many" && picked.length > g.max) throw new DashError(`Choose at most ${g.max} ${g.label.toLowerCase()} for ${item.name}.`);
    for (const c of picked) {
      labels.push(c.label);
      ids.push(`${g.key}:${c.id}`);
      price += c.price_cents;
    }
  }
  return { labels, ids, unit_price_cents: price };
}

/** A quantity from a form: an integer 1..MAX_QTY, else a DashError. */
export function quantity(value: string): number {
  const v = value.trim();
  if (!/^\d{1,3}$/.test(v) || Number(v) < 1 || Number(v) > MAX_QTY) throw new DashError(`Quantity must be a whole number from 1 to ${MAX_QTY}.`);
  return Number(v);
}

/** A free-text note: trimmed, at most MAX_NOTE characters (else a DashError), stored verbatim. */
export function note(value: string, what: string): string {
  const v = value.trim();
  if (v.length > MAX_NOTE) throw new DashError(`${what} can be at most ${MAX_NOTE} characters.`);
  return v;
}

export function cart(): CartLine[] {
  const rows = db().prepare("SELECT id, menu_item_id, qty, option_ids, special_instructions FROM cart_items ORDER BY id").all() as {
    id: number;
    menu_item_id: number;
    qty: number;
    option_ids: string;
    special_instructions: string;
  }[];
  return rows.flatMap((r) => {
    const item = menuItem(r.menu_item_id);
    if (!item) return [];
    const chosen = chooseOptions(item, JSON.parse(r.option_ids) as string[]);
    return [{ id: r.id, menu_item_id: r.menu_item_id, qty: r.qty, option_ids: chosen.ids, options: chosen.labels, unit_price_cents: chosen.unit_price_cents, special_instructions: r.special_instructions, item }];
  });
}

/** The restaurant the cart is from (the cart holds one restaurant at a time), or undefined when empty. */
export function cartRestaurant(lines: CartLine[] = cart()): Restaurant | undefined {
  return lines.length ? restaurantById(lines[0].item.restaurant_id) : undefined;
}

/** Add a dish to the cart. From another restaurant than the cart's: refused unless `replace` (then the cart is emptied first). */
export function addToCart(input: { menuItemId: number | null; qty: string; optionIds: string[]; instructions: string; replace: boolean }): MenuItem {
  const item = input.menuItemId !== null ? menuItem(input.menuItemId) : undefined;
  if (!item) throw new DashError("That dish isn't on the menu.");
  const qty = quantity(input.qty);
  const chosen = chooseOptions(item, input.optionIds);
  const text = note(input.instructions, "Special instructions");
  const current = cartRestaurant();
  if (current && current.id !== item.restaurant_id && !input.replace) {
    throw new DashError(`Your cart has items from ${current.name}. Start a new cart to order from another restaurant.`);
  }
  const ctx = dashContext();
  db().transaction(() => {
    if (current && current.id !== item.restaurant_id) db().prepare("DELETE FROM cart_items").run();
    db().prepare("INSERT INTO cart_items (menu_item_id, qty, option_ids, special_instructions, added_at) VALUES (?, ?, ?, ?, ?)").run(item.id, qty, JSON.stringify(chosen.ids), text, ctx.now);
  })();
  return item;
}

export function updateCartLine(lineId: number | null, qty: string): void {
  const n = quantity(qty);
  const info = db().prepare("UPDATE cart_items SET qty = ? WHERE id = ?").run(n, lineId);
  if (!info.changes) throw new DashError("That item is no longer in your cart.");
}

export function removeCartLine(lineId: number | null): void {
  const info = db().prepare("DELETE FROM cart_items WHERE id = ?").run(lineId);
  if (!info.changes) throw new DashError("That item is no longer in your cart.");
}

export function clearCart(): void {
  db().prepare("DELETE FROM cart_items").run();
}

// --- prices ----------------------------------------------------------------------------------------------

export interface Pricing {
  subtotal_cents: number;
  discount_cents: number;
  promo: Promo | null;
  delivery_fee_cents: number;
  service_fee_cents: number;
  small_order_fee_cents: number;
  tip_cents: number;
  tip_percent: number | null;
  total_cents: number;
}

export function promo(code: string): Promo | undefined {
  return db().prepare("SELECT * FROM promos WHERE code = ?").get(code.trim().toUpperCase()) as Promo | undefined;
}

export function promos(): Promo[] {
  return db().prepare("SELECT * FROM promos ORDER BY expires_at DESC, code").all() as Promo[];
}

export function orderCount(): number {
  return (db().prepare("SELECT COUNT(*) AS n FROM orders").get() as { n: number }).n;
}

/** Why `p` does not apply to a subtotal of `subtotal` now (a sentence), or null when it does. */
export function promoProblem(ctx: DashContext, p: Promo, subtotal: number): string | null {
  if (ctx.now < p.starts_at) return `${p.code} isn't active yet.`;
  if (ctx.now >= p.expires_at) return `${p.code} expired on ${p.expires_at.slice(0, 10)}.`;
  if (p.first_order_only && orderCount() > 0) return `${p.code} is only for your first order.`;
  if (subtotal < p.min_subtotal_cents) return `${p.code} needs a subtotal of at least ${money(ctx, p.min_subtotal_cents)}.`;
  return null;
}

/** The tip of a checkout: `tip` a percent of TIP_PERCENTS or the user's default (as text), or "custom" with `amount`. */
export function tipFor(ctx: DashContext, subtotal: number, tip: string, amount: string, defaultPercent: number): { cents: number; percent: number | null } {
  const t = tip.trim() || String(defaultPercent);
  if (t === "custom") {
    const cents = parseMoney(amount, ctx.locale);
    if (cents === null || cents < 0) throw new DashError("Enter the tip as an amount, like 4.50.");
    if (cents > Math.max(10000, subtotal)) throw new DashError(`A tip can be at most ${money(ctx, Math.max(10000, subtotal))}.`);
    return { cents, percent: null };
  }
  if (!/^\d{1,2}$/.test(t) || (Number(t) !== 0 && !TIP_PERCENTS.includes(Number(t)) && Number(t) !== defaultPercent)) {
    throw new DashError(`Choose a tip of ${[...new Set([...TIP_PERCENTS, defaultPercent])].sort((a, b) => a - b).join(", ")} % or a custom amount.`);
  }
  return { cents: floorUnit((subtotal * Number(t)) / 100, ctx.currency), percent: Number(t) };
}

/** Price the cart at `r`: the fee rules above; a bad promo code is a DashError. */
export function price(ctx: DashContext, r: Restaurant, lines: { qty: number; unit_price_cents: number }[], opts: { promo: string; tip: string; amount: string; defaultTip: number }): Pricing {
  const subtotal = lines.reduce((s, l) => s + l.qty * l.unit_price_cents, 0);
  let delivery = r.delivery_fee_cents;
  let discount = 0;
  let p: Promo | null = null;
  const code = opts.promo.trim();
  if (code) {
    if (!/^[A-Za-z0-9]{3,20}$/.test(code)) throw new DashError("Promo codes are 3 to 20 letters and digits.");
    const found = promo(code);
    if (!found) throw new DashError(`${code.toUpperCase()} isn't a DashBite promo code.`);
    const problem = promoProblem(ctx, found, subtotal);
    if (problem) throw new DashError(problem);
    p = found;
    if (found.kind === "percent") discount = Math.min(Math.floor((subtotal * found.value) / 100), found.max_off_cents);
    else if (found.kind === "amount") discount = Math.min(found.value, subtotal);
    else delivery = 0;
  }
  const service = toUnit(Math.floor((subtotal * SERVICE_PERCENT + 50) / 100), ctx.currency);
  const small = subtotal < r.minimum_cents ? r.small_order_fee_cents : 0;
  const tip = tipFor(ctx, subtotal, opts.tip, opts.amount, opts.defaultTip);
  return {
    subtotal_cents: subtotal,
    discount_cents: discount,
    promo: p,
    delivery_fee_cents: delivery,
    service_fee_cents: service,
    small_order_fee_cents: small,
    tip_cents: tip.cents,
    tip_percent: tip.percent,
    total_cents: subtotal - discount + delivery + service + small + tip.cents,
  };
}

// --- addresses and cards ---------------------------------------------------------------------------------

export function cards(): Card[] {
  return db().prepare("SELECT * FROM cards ORDER BY id").all() as Card[];
}

export function addresses(): Address[] {
  return db().prepare("SELECT id, label, line, instructions, is_default FROM addresses ORDER BY is_default DESC, id").all() as Address[];
}

/** Save a new delivery address (label unique, line 8-200 characters); returns its id. */
export function addAddress(label: string, line: string, instructions: string): number {
  const l = label.trim();
  const a = line.trim();
  if (!l || l.length > 40) throw new DashError("Give the address a label of up to 40 characters, like Mum's.");
  if (a.length < 8 || a.length > MAX_NOTE) throw new DashError("Enter the full address: street and number, city and postcode.");
  if (db().prepare("SELECT 1 FROM addresses WHERE lower(label) = lower(?)").get(l)) throw new DashError(`You already have an address called ${l}.`);
  const info = db().prepare("INSERT INTO addresses (label, line, instructions, is_default, world_ref) VALUES (?, ?, ?, 0, NULL)").run(l, a, note(instructions, "Drop-off instructions"));
  return Number(info.lastInsertRowid);
}

// --- orders ----------------------------------------------------------------------------------------------

const ORDER_SQL = `SELECT o.*, r.slug AS restaurant_slug, c.label AS card_label, c.last4 AS card_last4
  FROM orders o JOIN restaurants r ON r.id = o.restaurant_id JOIN cards c ON c.id = o.card_id`;

// An order whose card the bank has not yet answered for is `pending`: it holds the cart's dishes but is shown
// nowhere until the charge is authorised (a declined card deletes it and puts the dishes back in the cart).

export function orders(month = ""): Order[] {
  return db().prepare(`${ORDER_SQL} WHERE o.status != 'pending' AND (? = '' OR substr(o.placed_at, 1, 7) = ?) ORDER BY o.placed_at DESC, o.id DESC`).all(month, month) as Order[];
}

export function order(id: number | null): Order | undefined {
  return id === null ? undefined : (db().prepare(`${ORDER_SQL} WHERE o.id = ? AND o.status != 'pending'`).get(id) as Order | undefined);
}

export function orderByCode(code: string): Order | undefined {
  return db().prepare(`${ORDER_SQL} WHERE o.order_id = ? AND o.status != 'pending'`).get(code) as Order | undefined;
}

export function orderLines(orderId: number): OrderLine[] {
  const rows = db().prepare("SELECT id, position, menu_item_id, name, qty, unit_price_cents, options_json, option_ids, special_instructions FROM order_items WHERE order_id = ? ORDER BY position").all(orderId) as (Omit<OrderLine, "options" | "option_ids"> & { options_json: string; option_ids: string })[];
  return rows.map((r) => ({ ...r, options: JSON.parse(r.options_json) as string[], option_ids: JSON.parse(r.option_ids) as string[] }));
}

/** The usual order: the latest order flagged usual. */
export function usualOrder(): Order | undefined {
  return db().prepare(`${ORDER_SQL} WHERE o.usual = 1 AND o.status != 'pending' ORDER BY o.placed_at DESC LIMIT 1`).get() as Order | undefined;
}

export type TrackState = "scheduled" | "placed" | "preparing" | "on_the_way" | "delivered";
export const TRACK_STEPS: [TrackState, string][] = [
  ["placed", "Order placed"],
  ["preparing", "Preparing"],
  ["on_the_way", "On the way"],
  ["delivered", "Delivered"],
];

/** Where an order is at `now`: see the rules at the top; history is delivered. */
export function trackState(o: Order, now: string, r?: Restaurant): TrackState {
  if (o.status === "delivered" || now >= o.eta_at) return "delivered";
  const rest = r ?? restaurantById(o.restaurant_id);
  const prepMax = rest?.prep_max ?? 20;
  const kitchen = o.scheduled_for ? addSeconds(o.eta_at, -(prepMax + TRAVEL_MINUTES) * 60) : o.placed_at;
  if (now < kitchen) return "scheduled";
  if (now < addSeconds(kitchen, 120)) return "placed";
  if (now < addSeconds(kitchen, prepMax * 60)) return "preparing";
  return "on_the_way";
}

/** A new order number `DB-<8 digits>` no order (of any status) has: call it inside the transaction that inserts
 * the order, so two checkouts at once never get the same one (a collision draws again). */
function newOrderId(ctx: DashContext): string {
  const taken = db().prepare("SELECT 1 FROM orders WHERE order_id = ?");
  const n = orderCount();
  for (let k = 0; ; k++) {
    const digest = createHash("sha256").update(`${ctx.now}|${n}|${k}`).digest();
    const digits = String(10_000_000 + (digest.readUInt32BE(0) % 90_000_000));
    const id = `DB-${digits}`;
    if (!taken.get(id)) return id;
  }
}

export interface Checkout {
  addressId: number | null;
  when: string;
  at: string;
  tip: string;
  amount: string;
  promo: string;
  cardId: number | null;
  dropoff: string;
}

/** A real local date and time `YYYY-MM-DDTHH:MM` (not 2026-02-30T25:00)? */
export function isLocalMinute(text: string): boolean {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)$/.exec(text);
  if (!m) return false;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && t.getUTCHours() === h && t.getUTCMinutes() === mi;
}

/** The delivery time of a checkout: now + the estimate, or a scheduled `at` (local `YYYY-MM-DDTHH:MM`). */
function deliveryTime(ctx: DashContext, r: Restaurant, when: string, at: string): { eta: string; scheduled: string | null } {
  const [, hi] = etaRange(r);
  const earliest = addSeconds(ctx.now, hi * 60).slice(0, 19);
  if (when === "now" || when === "") {
    if (!openAt(r, ctx.now)) throw new DashError(`${r.name} is closed now (open ${r.opens}-${r.closes}). Schedule the delivery for later.`);
    return { eta: earliest, scheduled: null };
  }
  if (when !== "later") throw new DashError("Choose delivery now or schedule it.");
  if (!isLocalMinute(at.trim())) throw new DashError("Pick a delivery date and time.");
  const slot = `${at.trim()}:00`;
  if (slot < earliest) throw new DashError(`The earliest delivery from ${r.name} is ${earliest.slice(11, 16)} today.`);
  if (slot > `${addSeconds(ctx.now, SCHEDULE_DAYS * 86400).slice(0, 10)}T23:59:59`) throw new DashError(`Deliveries can be scheduled up to ${SCHEDULE_DAYS} days ahead.`);
  const kitchen = addSeconds(slot, -(r.prep_max + TRAVEL_MINUTES) * 60);
  if (!openAt(r, kitchen) || !openAt(r, addSeconds(slot, -60))) throw new DashError(`${r.name} delivers between ${r.opens} and ${r.closes}. Pick a time in those hours.`);
  return { eta: slot, scheduled: slot };
}

/** Check a checkout against the cart; the pricing and what would be written. Throws DashError on bad input. */
export function reviewCheckout(ctx: DashContext, user: { tip_percent: number }, input: Checkout, lines: CartLine[] = cart()) {
  const r = cartRestaurant(lines);
  if (!r || !lines.length) throw new DashError("Your cart is empty.");
  const address = addresses().find((a) => a.id === input.addressId);
  if (!address) throw new DashError("Choose a delivery address.");
  const card = cards().find((c) => c.id === input.cardId);
  if (!card) throw new DashError("Choose a card to pay with.");
  const dropoff = note(input.dropoff, "Drop-off instructions");
  const pricing = price(ctx, r, lines, { promo: input.promo, tip: input.tip, amount: input.amount, defaultTip: user.tip_percent });
  const time = deliveryTime(ctx, r, input.when, input.at);
  return { r, address, card, dropoff, pricing, time };
}

/** Place the cart as an order. Reserve first: one immediate transaction checks the checkout against the cart, takes
 * a new order number, writes the order (`pending`) with its dishes and empties the cart; then the card is charged
 * (pending in the bank at once) and the order is placed; a declined card deletes the order and puts the dishes back
 * in the cart. Two checkouts of one cart make one order: the second finds the cart empty. Mails the confirmation. */
export async function placeOrder(user: { tip_percent: number }, input: Checkout, extra: { usual?: boolean; reorderOf?: string | null } = {}): Promise<number> {
  const ctx = dashContext();
  const d = db();
  const usual = extra.usual ?? false;
  const held = d.transaction(() => {
    const lines = cart();
    const { r, card, address, dropoff, pricing, time } = reviewCheckout(ctx, user, input, lines);
    const orderId = newOrderId(ctx);
    const kept = d.prepare("SELECT menu_item_id, qty, option_ids, special_instructions, added_at FROM cart_items ORDER BY id").all() as { menu_item_id: number; qty: number; option_ids: string; special_instructions: string; added_at: string }[];
    const info = d
      .prepare(
        `INSERT INTO orders (order_id, restaurant_id, restaurant_name, status, placed_at, scheduled_for, eta_at, delivered_at, address,
          dropoff_instructions, subtotal_cents, discount_cents, promo_code, delivery_fee_cents, service_fee_cents, small_order_fee_cents,
          tip_cents, tip_percent, total_cents, card_id, charge_auth, usual, reorder_of, rating, rating_comment, rated_at, rated_in_app, world_ref)
         VALUES (?, ?, ?, 'pending', ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, NULL, NULL, NULL, 0, NULL)`,
      )
      .run(
        orderId, r.id, r.name, ctx.now, time.scheduled, time.eta, address.line, dropoff, pricing.subtotal_cents, pricing.discount_cents,
        pricing.promo?.code ?? null, pricing.delivery_fee_cents, pricing.service_fee_cents, pricing.small_order_fee_cents, pricing.tip_cents,
        pricing.tip_percent, pricing.total_cents, card.id, usual ? 1 : 0, extra.reorderOf ?? null,
      );
    const oid = Number(info.lastInsertRowid);
    const ins = d.prepare("INSERT INTO order_items (order_id, position, menu_item_id, name, qty, unit_price_cents, options_json, option_ids, special_instructions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    lines.forEach((l, k) => ins.run(oid, k + 1, l.item.id, l.item.name, l.qty, l.unit_price_cents, JSON.stringify(l.options), JSON.stringify(l.option_ids), l.special_instructions));
    d.prepare("DELETE FROM cart_items").run();
    return { oid, orderId, r, card, total: pricing.total_cents, items: lines.reduce((n, l) => n + l.qty, 0), kept };
  }).immediate();
  let auth;
  try {
    auth = await chargeCard({
      app: "delivery",
      merchant: `DASHBITE*${held.r.name}`.toUpperCase().slice(0, 60),
      amount_cents: held.total,
      card_last4: held.card.last4,
      reference: held.orderId,
      category: "restaurants",
      memo: `${held.r.name}: ${held.items} items`,
    });
  } catch (e) {
    d.transaction(() => {
      if (!d.prepare("SELECT 1 FROM orders WHERE id = ? AND status = 'pending'").get(held.oid)) return;
      d.prepare("DELETE FROM order_items WHERE order_id = ?").run(held.oid);
      d.prepare("DELETE FROM orders WHERE id = ?").run(held.oid);
      // The dishes go back in the cart unless a new cart was started meanwhile.
      if (!(d.prepare("SELECT COUNT(*) AS n FROM cart_items").get() as { n: number }).n) {
        const put = d.prepare("INSERT INTO cart_items (menu_item_id, qty, option_ids, special_instructions, added_at) VALUES (?, ?, ?, ?, ?)");
        for (const c of held.kept) put.run(c.menu_item_id, c.qty, c.option_ids, c.special_instructions, c.added_at);
      }
    }).immediate();
    if (e instanceof PaymentDeclined) throw new DashError(`Your card was declined: ${e.message}`);
    throw e;
  }
  d.prepare("UPDATE orders SET status = 'placed', charge_auth = ? WHERE id = ? AND status = 'pending'").run(auth.authorization, held.oid);
  await mailConfirmation(ctx, order(held.oid)!, orderLines(held.oid));
  return held.oid;
}

/** Put a past order's dishes in the cart again (current menu prices, same options); dishes gone from the menu are skipped. */
export function reorderToCart(orderId: number | null): { added: number; skipped: string[]; order: Order } {
  const o = order(orderId);
  if (!o) throw new DashError("That order doesn't exist.");
  const lines = orderLines(o.id);
  const ctx = dashContext();
  const skipped: string[] = [];
  const rows: [number, number, string, string][] = [];
  for (const l of lines) {
    const item = l.menu_item_id ? menuItem(l.menu_item_id) : undefined;
    if (!item) {
      skipped.push(l.name);
      continue;
    }
    try {
      const chosen = chooseOptions(item, l.option_ids);
      rows.push([item.id, l.qty, JSON.stringify(chosen.ids), l.special_instructions]);
    } catch {
      skipped.push(l.name);
    }
  }
  if (!rows.length) throw new DashError("None of those dishes are on the menu any more.");
  db().transaction(() => {
    db().prepare("DELETE FROM cart_items").run();
    const ins = db().prepare("INSERT INTO cart_items (menu_item_id, qty, option_ids, special_instructions, added_at) VALUES (?, ?, ?, ?, ?)");
    for (const r of rows) ins.run(r[0], r[1], r[2], r[3], ctx.now);
  })();
  return { added: rows.length, skipped, order: o };
}

/** Reorder in one click: the past order's dishes, delivered now to the default address with the default card and tip. */
export async function reorderNow(user: { tip_percent: number }, orderId: number | null): Promise<number> {
  const { order: o } = reorderToCart(orderId);
  const address = addresses().find((a) => a.line === o.address) ?? addresses()[0];
  const card = cards().find((c) => c.id === o.card_id) ?? cards()[0];
  try {
    return await placeOrder(user, { addressId: address.id, when: "now", at: "", tip: String(user.tip_percent), amount: "", promo: "", cardId: card.id, dropoff: "" }, { usual: !!o.usual, reorderOf: o.order_id });
  } catch (e) {
    if (e instanceof DashError) clearCart();
    throw e;
  }
}

/** Rate a delivered, unrated order (1-5 stars, an optional comment) within RATE_DAYS of delivery. */
export function rateOrder(orderId: number | null, starsText: string, comment: string): void {
  const o = order(orderId);
  if (!o) throw new DashError("That order doesn't exist.");
  const ctx = dashContext();
  if (trackState(o, ctx.now) !== "delivered") throw new DashError("You can rate the order once it has been delivered.");
  if (o.rating !== null) throw new DashError("You have already rated this order.");
  if (addSeconds(o.eta_at, RATE_DAYS * 86400) < ctx.now) throw new DashError(`Orders can be rated for ${RATE_DAYS} days after delivery.`);
  if (!/^[1-5]$/.test(starsText.trim())) throw new DashError("Choose from 1 to 5 stars.");
  const text = comment.trim();
  if (text.length > 500) throw new DashError("Keep the comment under 500 characters.");
  db().prepare("UPDATE orders SET rating = ?, rating_comment = ?, rated_at = ?, rated_in_app = 1 WHERE id = ? AND rating IS NULL").run(Number(starsText.trim()), text, ctx.now, o.id);
}
