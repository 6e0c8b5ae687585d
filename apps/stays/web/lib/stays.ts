import { addSeconds } from "@persona/platform/clock";
import { chargeCard, PaymentDeclined, refundCard } from "@persona/platform/payments";
import { idValue } from "@persona/platform/http";
import { randomInt } from "node:crypto";
import { db } from "./db";
import { stayContext } from "./context";
import { mailBooked, mailCancelled, mailChanged } from "./mail";
import { cancelDeadline, isDate, MAX_NIGHTS, nightsBetween, plusDays, quote, stayNights, type Quote } from "./rates";

/** A request the app refuses: nothing was written; `message` is shown to the user. */
export class StayError extends Error {
  constructor(message: string, readonly field?: string) {
    super(message);
  }
}

export interface City {
  id: number;
  name: string;
  region: string | null;
  country: string;
  zone: string;
  tax_bp: number;
  city_fee_cents: number;
  season: string;
  lat: number;
  lon: number;
}

export interface Property {
  id: number;
  slug: string;
  city_id: number;
  kind: "hotel" | "rental";
  name: string;
  chain: string | null;
  neighbourhood: string;
  address: string;
  stars: number | null;
  rating_x10: number;
  review_count: number;
  description: string;
  amenities: string;
  host_name: string | null;
  host_since: string | null;
  base_rate_cents: number;
  cleaning_fee_cents: number;
  policy: string;
  lat: number;
  lon: number;
  art: number;
}

export interface Room {
  id: number;
  property_id: number;
  name: string;
  sleeps: number;
  beds: string;
  factor_pct: number;
  units: number;
}

export interface Booking {
  id: number;
  confirmation: string;
  user_id: number;
  property_id: number;
  room_id: number;
  check_in: string;
  check_out: string;
  nights: number;
  guests: number;
  rate_plan: string;
  nightly_cents: number;
  subtotal_cents: number;
  taxes_cents: number;
  fees_cents: number;
  total_cents: number;
  payment: string;
  card_id: number;
  authorization: string | null;
  paid_at: string | null;
  status: string;
  cancel_until: string | null;
  booked_at: string;
  cancelled_at: string | null;
  refund_cents: number;
  cancel_fee_cents: number;
  special_request: string | null;
  folio: string | null;
  /** The stay's calendar UID when the calendar already holds it (a world booking); else null. */
  calendar_uid: string | null;
  world_ref: string | null;
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

export const cities = (): City[] => db().prepare("SELECT * FROM cities ORDER BY name").all() as City[];
export const cityById = (id: number): City | undefined => db().prepare("SELECT * FROM cities WHERE id = ?").get(id) as City | undefined;
export const cityByName = (name: string): City | undefined =>
  db().prepare("SELECT * FROM cities WHERE name = ? COLLATE NOCASE").get(name.trim()) as City | undefined;
export const propertyBySlug = (slug: string): Property | undefined =>
  db().prepare("SELECT * FROM properties WHERE slug = ?").get(slug) as Property | undefined;
export const propertyById = (id: number): Property | undefined => db().prepare("SELECT * FROM properties WHERE id = ?").get(id) as Property | undefined;
export const roomsOf = (propertyId: number): Room[] =>
  db().prepare("SELECT * FROM rooms WHERE property_id = ? ORDER BY factor_pct, name").all(propertyId) as Room[];
export const roomById = (id: number): Room | undefined => db().prepare("SELECT * FROM rooms WHERE id = ?").get(id) as Room | undefined;
export const cardsOf = (userId: number): Card[] =>
  db().prepare("SELECT * FROM cards WHERE user_id = ? ORDER BY is_default DESC, id").all(userId) as Card[];

export function amenities(p: Property): string[] {
  try {
    const a = JSON.parse(p.amenities);
    return Array.isArray(a) ? a.map(String) : [];
  } catch {
    return [];
  }
}

/** Rooms of `roomId` still free on every night of the stay (units minus active bookings' nights; the nights of
 * booking `exceptBooking` are not counted, for a change of its own dates). */
export function freeUnits(room: Room, checkIn: string, checkOut: string, exceptBooking = 0): number {
  const row = db()
    .prepare("SELECT MAX(n) AS held FROM (SELECT COUNT(*) AS n FROM booking_nights WHERE room_id = ? AND night >= ? AND night < ? AND booking_id != ? GROUP BY night)")
    .get(room.id, checkIn, checkOut, exceptBooking) as { held: number | null };
  return room.units - (row.held ?? 0);
}

/** The rate plans a property sells: its own policy, and for hotels a non-refundable rate too. */
export function plansOf(p: Property): string[] {
  return p.kind === "hotel" ? [p.policy, "nonrefundable"] : [p.policy];
}

/** The price function's inputs for a room (amounts in cents of the city's currency). */
export function priceInputs(p: Property, room: Room, city: City) {
  return {
    currency: stayContext().cityCurrency(city.name),
    base_rate_cents: p.base_rate_cents,
    factor_pct: room.factor_pct,
    season: city.season,
    tax_bp: city.tax_bp,
    city_fee_cents: city.city_fee_cents,
    kind: p.kind,
    cleaning_fee_cents: p.cleaning_fee_cents,
  };
}

export interface StayQuery {
  checkIn: string;
  checkOut: string;
  guests: number;
}

/** Validate dates and guests of a search or booking; throws StayError with the field at fault. */
export function checkStay(checkIn: string, checkOut: string, guestsText: string, today: string): StayQuery {
  if (!isDate(checkIn)) throw new StayError("Choose a check-in date.", "checkin");
  if (!isDate(checkOut)) throw new StayError("Choose a check-out date.", "checkout");
  if (checkIn < today) throw new StayError("Check-in can't be in the past.", "checkin");
  if (checkIn > plusDays(today, 500)) throw new StayError("Bookings open up to 500 days ahead.", "checkin");
  const nights = nightsBetween(checkIn, checkOut);
  if (nights < 1) throw new StayError("Check-out must be after check-in.", "checkout");
  if (nights > MAX_NIGHTS) throw new StayError(`Stays are limited to ${MAX_NIGHTS} nights.`, "checkout");
  if (!/^\d{1,2}$/.test(guestsText.trim())) throw new StayError("Enter the number of guests (1-8).", "guests");
  const guests = Number(guestsText.trim());
  if (guests < 1 || guests > 8) throw new StayError("Enter the number of guests (1-8).", "guests");
  return { checkIn, checkOut, guests };
}

export interface Offer {
  property: Property;
  room: Room;
  plan: string;
  quote: Quote;
  free: number;
  cancelUntil: string | null;
}

/** The cheapest bookable offer of each room of `p` for the stay, per plan (rooms too small or full are left out). */
export function offersFor(p: Property, city: City, q: StayQuery, personaZone: string): Offer[] {
  const out: Offer[] = [];
  for (const room of roomsOf(p.id)) {
    if (room.sleeps < q.guests) continue;
    const free = freeUnits(room, q.checkIn, q.checkOut);
    for (const plan of plansOf(p)) {
      out.push({
        property: p,
        room,
        plan,
        quote: quote(priceInputs(p, room, city), q.checkIn, q.checkOut, plan),
        free,
        cancelUntil: cancelDeadline(q.checkIn, city.zone, personaZone, plan),
      });
    }
  }
  return out;
}

export interface SearchFilters {
  type: string;
  maxNightly: number | null;
  minRating: number | null;
  freeCancel: boolean;
  sort: string;
}

export interface SearchHit {
  property: Property;
  best: Offer;
  freeCancel: boolean;
}

/** Properties of `city` with a free room for the stay, filtered and sorted. */
export function search(city: City, q: StayQuery, f: SearchFilters, personaZone: string): SearchHit[] {
  const props = db().prepare("SELECT * FROM properties WHERE city_id = ? ORDER BY id").all(city.id) as Property[];
  const hits: SearchHit[] = [];
  for (const p of props) {
    if (f.type === "hotel" || f.type === "rental") {
      if (p.kind !== f.type) continue;
    }
    if (f.minRating != null && p.rating_x10 < f.minRating * 10) continue;
    let offers = offersFor(p, city, q, personaZone).filter((o) => o.free > 0);
    if (f.freeCancel) offers = offers.filter((o) => o.cancelUntil != null);
    if (!offers.length) continue;
    const best = offers.reduce((a, b) => (b.quote.nightly_cents < a.quote.nightly_cents ? b : a));
    if (f.maxNightly != null && best.quote.nightly_cents > f.maxNightly) continue;
    hits.push({ property: p, best, freeCancel: offers.some((o) => o.cancelUntil != null) });
  }
  const byPrice = (a: SearchHit, b: SearchHit) => a.best.quote.total_cents - b.best.quote.total_cents || a.property.id - b.property.id;
  if (f.sort === "price") hits.sort(byPrice);
  else if (f.sort === "price_desc") hits.sort((a, b) => -byPrice(a, b));
  else if (f.sort === "rating") hits.sort((a, b) => b.property.rating_x10 - a.property.rating_x10 || b.property.review_count - a.property.review_count || a.property.id - b.property.id);
  else hits.sort((a, b) => b.property.rating_x10 * Math.log(10 + b.property.review_count) - a.property.rating_x10 * Math.log(10 + a.property.review_count) || a.property.id - b.property.id);
  return hits;
}

/** The persona's bookings joined with their property, room and city, newest check-in first. */
export interface TripRow extends Booking {
  property_name: string;
  slug: string;
  kind: string;
  address: string;
  host_name: string | null;
  chain: string | null;
  art: number;
  room_name: string;
  city: string;
  city_zone: string;
  reviewed: number;
}

const TRIP_SQL = `SELECT b.*, p.name AS property_name, p.slug, p.kind, p.address, p.host_name, p.chain, p.art,
  r.name AS room_name, c.name AS city, c.zone AS city_zone,
  EXISTS(SELECT 1 FROM reviews v WHERE v.booking_id = b.id) AS reviewed
  FROM bookings b JOIN properties p ON p.id = b.property_id JOIN rooms r ON r.id = b.room_id JOIN cities c ON c.id = p.city_id`;

export function trips(userId: number): TripRow[] {
  return db().prepare(`${TRIP_SQL} WHERE b.user_id = ? ORDER BY b.check_in DESC, b.id DESC`).all(userId) as TripRow[];
}

export function trip(userId: number, confirmation: string): TripRow | undefined {
  return db().prepare(`${TRIP_SQL} WHERE b.user_id = ? AND b.confirmation = ?`).get(userId, confirmation) as TripRow | undefined;
}

/** upcoming (confirmed, not yet checked out), past (checked out) or cancelled. */
export function tripState(t: Booking, today: string): "upcoming" | "current" | "past" | "cancelled" {
  if (t.status === "cancelled") return "cancelled";
  if (t.check_out <= today) return "past";
  if (t.check_in <= today) return "current";
  return "upcoming";
}

function newConfirmation(): string {
  const exists = db().prepare("SELECT 1 FROM bookings WHERE confirmation = ?");
  for (;;) {
    const c = `BR${String(randomInt(10_000_000, 100_000_000))}`;
    if (!exists.get(c)) return c;
  }
}

const merchantOf = (name: string) => `BRAMBLESTAY* ${name.normalize("NFKD").replace(/[^\x20-\x7e]/g, "")}`.toUpperCase().slice(0, 60);

export interface BookRequest {
  slug: string;
  room: string;
  checkIn: string;
  checkOut: string;
  guests: string;
  plan: string;
  card: string;
  request: string;
}

/** Bookings whose cancellation or change of dates is waiting for the card network (ids): a second one waits its
 * turn. The one Node process serves every request, so this set and the transactions below see every request. */
const BUSY = new Set<number>();

/** Refuse a cancellation or change while the booking's own payment or another change is still under way. */
function notBusy(t: Booking): void {
  if (BUSY.has(t.id) || (t.payment === "pay_now" && !t.authorization)) throw new StayError("This booking is being updated. Reload the page in a moment and try again.");
}

/**
 * Book a stay with a card on file. Validate, then reserve first: in one immediate transaction check the room is
 * free every night and write the booking and its nights (the confirmation number drawn in the same transaction; the
 * booking's `authorization` empty while the bank answers); then charge the card through the card network (reference
 * = the confirmation) and fill the authorization in. A refused charge removes the booking and frees its nights. So
 * of two bookings racing for a room's last unit one gets it, and one card authorisation is made per booking. Throws
 * StayError (nothing charged, nothing kept) on bad input, a full room or a declined card.
 */
export async function book(userId: number, r: BookRequest): Promise<string> {
  const ctx = stayContext();
  const p = propertyBySlug(r.slug);
  if (!p) throw new StayError("That property doesn't exist.");
  const city = cityById(p.city_id)!;
  const q = checkStay(r.checkIn, r.checkOut, r.guests, ctx.today);
  const roomId = idValue(r.room);
  const room = roomId === null ? undefined : roomById(roomId);
  if (!room || room.property_id !== p.id) throw new StayError("Choose a room.", "room");
  if (room.sleeps < q.guests) throw new StayError(`${room.name} sleeps up to ${room.sleeps}.`, "guests");
  if (!plansOf(p).includes(r.plan)) throw new StayError("Choose a rate.", "plan");
  const cardId = idValue(r.card);
  const card = cardsOf(userId).find((c) => c.id === cardId);
  if (!card) throw new StayError("Choose a card on file.", "card");
  const request = r.request.trim();
  if (request.length > 500) throw new StayError("Special requests are limited to 500 characters.", "request");
  const gone = () => new StayError("Sorry, that room is no longer available for your dates.");
  if (freeUnits(room, q.checkIn, q.checkOut) < 1) throw gone();
  const price = quote(priceInputs(p, room, city), q.checkIn, q.checkOut, r.plan);
  const cur = ctx.cityCurrency(city.name);
  const now = ctx.now;
  const held = db().transaction(() => {
    if (freeUnits(room, q.checkIn, q.checkOut) < 1) throw gone();
    const confirmation = newConfirmation();
    const info = db()
      .prepare(
        `INSERT INTO bookings (confirmation, user_id, property_id, room_id, check_in, check_out, nights, guests, rate_plan,
          nightly_cents, subtotal_cents, taxes_cents, fees_cents, total_cents, payment, card_id, authorization, paid_at,
          status, cancel_until, booked_at, cancelled_at, refund_cents, cancel_fee_cents, special_request, folio, world_ref)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pay_now', ?, NULL, ?, 'confirmed', ?, ?, NULL, 0, 0, ?, NULL, NULL)`,
      )
      .run(confirmation, userId, p.id, room.id, q.checkIn, q.checkOut, price.nights.length, q.guests, r.plan, price.nightly_cents,
        price.subtotal_cents, price.taxes_cents, price.fees_cents, price.total_cents, card.id, now,
        cancelDeadline(q.checkIn, city.zone, ctx.timezone, r.plan), now, request || null);
    const id = Number(info.lastInsertRowid);
    const night = db().prepare("INSERT INTO booking_nights (booking_id, night, room_id) VALUES (?, ?, ?)");
    for (const n of stayNights(q.checkIn, q.checkOut)) night.run(id, n, room.id);
    return { id, confirmation };
  }).immediate();
  const { confirmation } = held;
  let auth;
  try {
    auth = await chargeCard({
      app: "stays",
      merchant: merchantOf(p.name),
      amount_cents: ctx.toCard(price.total_cents, cur),
      card_last4: card.last4,
      reference: confirmation,
      category: "travel",
      memo: `${p.name}, ${q.checkIn} to ${q.checkOut}, ${price.nights.length} night${price.nights.length === 1 ? "" : "s"}`,
    });
  } catch (e) {
    // Nothing was charged: the booking goes and its nights are free again.
    db().transaction(() => {
      db().prepare("DELETE FROM booking_nights WHERE booking_id = ?").run(held.id);
      db().prepare("DELETE FROM bookings WHERE id = ? AND authorization IS NULL").run(held.id);
    }).immediate();
    if (e instanceof PaymentDeclined) throw new StayError(`Your card was declined: ${e.message}`, "card");
    throw e;
  }
  db().prepare("UPDATE bookings SET authorization = ? WHERE id = ?").run(auth.authorization, held.id);
  await mailBooked(ctx, trip(userId, confirmation)!, card.label);
  return confirmation;
}

/** What cancelling `t` now would do: free (refund what was paid) or not, and what it costs. */
export function cancelTerms(t: Booking, now: string): { free: boolean; refund_cents: number; fee_cents: number } {
  const free = t.cancel_until != null && now <= t.cancel_until;
  if (t.payment === "pay_now") return { free, refund_cents: free ? t.total_cents : 0, fee_cents: 0 };
  // Paid at the property: nothing was charged; a late cancellation costs the first night with its tax.
  const first = Math.round(t.subtotal_cents / t.nights);
  return { free, refund_cents: 0, fee_cents: free ? 0 : first + Math.round((t.taxes_cents * first) / t.subtotal_cents) };
}

/**
 * Cancel an upcoming booking. Inside the free-cancellation window a prepaid booking is refunded in full
 * (refundCard, reference = the confirmation); outside it nothing is refunded (a pay-at-property booking is
 * charged its first night). Reserve first: one immediate transaction checks the booking can be cancelled and marks
 * it cancelled with its refund and fee (its nights stay held); then the card network moves the money; then the
 * nights are released. A refusal puts the booking back as it was. So a cancellation posted twice at once refunds
 * once: the second finds the booking cancelled. Throws StayError when the booking can't be cancelled.
 */
export async function cancel(userId: number, confirmation: string): Promise<{ free: boolean; refund_cents: number; fee_cents: number }> {
  const ctx = stayContext();
  const now = ctx.now;
  const { t, terms } = db().transaction(() => {
    const t = trip(userId, confirmation);
    if (!t) throw new StayError("That booking doesn't exist.");
    if (t.status === "cancelled") throw new StayError("This booking is already cancelled.");
    if (t.check_in <= ctx.today) throw new StayError("This stay has already started and can't be cancelled online.");
    notBusy(t);
    const terms = cancelTerms(t, now);
    db().prepare("UPDATE bookings SET status = 'cancelled', cancelled_at = ?, refund_cents = ?, cancel_fee_cents = ? WHERE id = ?").run(now, terms.refund_cents, terms.fee_cents, t.id);
    BUSY.add(t.id);
    return { t, terms };
  }).immediate();
  try {
    const card = db().prepare("SELECT * FROM cards WHERE id = ?").get(t.card_id) as Card;
    const cur = ctx.cityCurrency(t.city);
    try {
      if (terms.refund_cents > 0) {
        // The bank refunds at most what was charged under a reference: the booking's first charge under the
        // confirmation, what a change of dates added on top under `<confirmation>-R`.
        const first = (db().prepare("SELECT old_total_cents FROM booking_changes WHERE booking_id = ? ORDER BY id LIMIT 1").get(t.id) as { old_total_cents: number } | undefined)?.old_total_cents ?? t.total_cents;
        const main = Math.min(first, terms.refund_cents);
        await refundCard({ app: "stays", merchant: merchantOf(t.property_name), amount_cents: ctx.toCard(main, cur), card_last4: card.last4, reference: t.confirmation, category: "travel", memo: `cancelled ${t.check_in} to ${t.check_out}` });
        if (terms.refund_cents > main) {
          await refundCard({ app: "stays", merchant: merchantOf(t.property_name), amount_cents: ctx.toCard(terms.refund_cents - main, cur), card_last4: card.last4, reference: `${t.confirmation}-R`, category: "travel", memo: `cancelled ${t.check_in} to ${t.check_out}: changed dates` });
        }
      }
      if (terms.fee_cents > 0) {
        await chargeCard({ app: "stays", merchant: merchantOf(t.property_name), amount_cents: ctx.toCard(terms.fee_cents, cur), card_last4: card.last4, reference: `${t.confirmation}-X`, category: "travel", memo: "late cancellation: first night" });
      }
    } catch (e) {
      db().prepare("UPDATE bookings SET status = ?, cancelled_at = ?, refund_cents = ?, cancel_fee_cents = ? WHERE id = ?").run(t.status, t.cancelled_at, t.refund_cents, t.cancel_fee_cents, t.id);
      if (e instanceof PaymentDeclined) throw new StayError(`The card network refused: ${e.message}. The booking is unchanged.`);
      throw e;
    }
    db().prepare("DELETE FROM booking_nights WHERE booking_id = ?").run(t.id);
    await mailCancelled(ctx, t, terms, card.label);
    return terms;
  } finally {
    BUSY.delete(t.id);
  }
}

/** Whether the dates of `t` can be changed at `now` (local, persona zone): only an upcoming, confirmed booking
 * on a rate with free cancellation, inside its window. `reason` says why not. */
export function changeTerms(t: Booking, now: string, today: string): { allowed: boolean; reason: string } {
  if (t.status === "cancelled") return { allowed: false, reason: "This booking is cancelled." };
  if (t.check_in <= today) return { allowed: false, reason: "This stay has already started; the property can help with your dates." };
  if (t.cancel_until == null) return { allowed: false, reason: "This is a non-refundable rate: its dates can't be changed. You can keep or cancel the booking (without a refund)." };
  if (now > t.cancel_until) return { allowed: false, reason: "The free-change window of this booking has closed, so its dates can't be changed online." };
  return { allowed: true, reason: "" };
}

/** The price of `t`'s room and rate for new dates (the site's own price function), for the change page. */
export function changeQuote(t: Booking, checkIn: string, checkOut: string): Quote {
  const p = propertyById(t.property_id)!;
  return quote(priceInputs(p, roomById(t.room_id)!, cityById(p.city_id)!), checkIn, checkOut, t.rate_plan);
}

export interface ChangeResult {
  /** New total minus old total (cents): charged when > 0, refunded when < 0 (prepaid bookings). */
  difference_cents: number;
  total_cents: number;
  reference: string;
}

/**
 * Change the dates of an upcoming booking (same room, guests and rate): allowed while the booking may be
 * cancelled for free (changeTerms); re-priced with the site's price function; the room must be free on every
 * new night (the booking's own nights don't count against it; the last room can't be double-booked). A prepaid
 * booking's difference is charged or refunded through the card network under `<confirmation>-C<n>`; a
 * pay-at-property booking only changes what the property will charge. Prices are in the city's currency; the card
 * network is asked for the card's currency at the reference rate (`ctx.toCard`). Reserve first: one immediate
 * transaction checks the new nights, holds them beside the old ones, writes the new dates and prices and a
 * `booking_changes` row; then the card network moves the difference; then the old nights are released (a refusal
 * puts the booking back as it was and releases the new ones instead). Mails the new dates. Throws StayError
 * (nothing charged or kept).
 */
export async function changeDates(userId: number, confirmation: string, checkIn: string, checkOut: string): Promise<ChangeResult> {
  const ctx = stayContext();
  const now = ctx.now;
  const r = db().transaction(() => {
    const t = trip(userId, confirmation);
    if (!t) throw new StayError("That booking doesn't exist.");
    const terms = changeTerms(t, now, ctx.today);
    if (!terms.allowed) throw new StayError(terms.reason);
    const q = checkStay(checkIn, checkOut, String(t.guests), ctx.today);
    if (q.checkIn === t.check_in && q.checkOut === t.check_out) throw new StayError("Those are already the dates of this booking.", "checkin");
    notBusy(t);
    const p = propertyById(t.property_id)!;
    const city = cityById(p.city_id)!;
    const room = roomById(t.room_id)!;
    if (freeUnits(room, q.checkIn, q.checkOut, t.id) < 1) throw new StayError(`Sorry, the ${room.name} isn't available for all of those nights. Your booking is unchanged.`);
    const price = quote(priceInputs(p, room, city), q.checkIn, q.checkOut, t.rate_plan);
    const diff = price.total_cents - t.total_cents;
    const n = 1 + (db().prepare("SELECT COUNT(*) AS n FROM booking_changes WHERE booking_id = ?").get(t.id) as { n: number }).n;
    const reference = `${t.confirmation}-C${n}`;
    const oldNights = new Set(stayNights(t.check_in, t.check_out));
    const newNights = stayNights(q.checkIn, q.checkOut);
    const added = newNights.filter((d) => !oldNights.has(d));
    const released = [...oldNights].filter((d) => !newNights.includes(d));
    const night = db().prepare("INSERT INTO booking_nights (booking_id, night, room_id) VALUES (?, ?, ?)");
    for (const d of added) night.run(t.id, d, room.id);
    db().prepare(`UPDATE bookings SET check_in = ?, check_out = ?, nights = ?, nightly_cents = ?, subtotal_cents = ?, taxes_cents = ?, fees_cents = ?,
      total_cents = ?, cancel_until = ? WHERE id = ?`).run(q.checkIn, q.checkOut, price.nights.length, price.nightly_cents, price.subtotal_cents,
      price.taxes_cents, price.fees_cents, price.total_cents, cancelDeadline(q.checkIn, city.zone, ctx.timezone, t.rate_plan), t.id);
    const change = Number(db().prepare(`INSERT INTO booking_changes (booking_id, old_check_in, old_check_out, new_check_in, new_check_out, old_total_cents, new_total_cents,
      difference_cents, reference, authorization, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`).run(t.id, t.check_in, t.check_out, q.checkIn,
      q.checkOut, t.total_cents, price.total_cents, diff, reference, now).lastInsertRowid);
    BUSY.add(t.id);
    return { t, q, room, price, diff, n, reference, added, released, change, cur: ctx.cityCurrency(city.name) };
  }).immediate();
  const { t, q, diff, reference } = r;
  try {
    const card = db().prepare("SELECT * FROM cards WHERE id = ?").get(t.card_id) as Card;
    const memo = `new dates ${q.checkIn} to ${q.checkOut} (were ${t.check_in} to ${t.check_out})`;
    const moved = ctx.toCard(Math.abs(diff), r.cur);
    let authorization: string | null = null;
    const prepaid = t.payment === "pay_now";
    try {
      if (prepaid && diff > 0) authorization = (await chargeCard({ app: "stays", merchant: merchantOf(t.property_name), amount_cents: moved, card_last4: card.last4, reference, category: "travel", memo })).authorization;
      if (prepaid && diff < 0) authorization = (await refundCard({ app: "stays", merchant: merchantOf(t.property_name), amount_cents: moved, card_last4: card.last4, reference, category: "travel", memo })).authorization;
    } catch (e) {
      // Nothing moved: the booking gets its old dates and prices back, the new nights go.
      db().transaction(() => {
        const drop = db().prepare("DELETE FROM booking_nights WHERE booking_id = ? AND night = ?");
        for (const d of r.added) drop.run(t.id, d);
        db().prepare(`UPDATE bookings SET check_in = ?, check_out = ?, nights = ?, nightly_cents = ?, subtotal_cents = ?, taxes_cents = ?, fees_cents = ?,
          total_cents = ?, cancel_until = ? WHERE id = ?`).run(t.check_in, t.check_out, t.nights, t.nightly_cents, t.subtotal_cents, t.taxes_cents, t.fees_cents,
          t.total_cents, t.cancel_until, t.id);
        db().prepare("DELETE FROM booking_changes WHERE id = ?").run(r.change);
      }).immediate();
      if (e instanceof PaymentDeclined) throw new StayError(`Your card was declined: ${e.message}. Your booking is unchanged.`, "card");
      throw e;
    }
    db().transaction(() => {
      const drop = db().prepare("DELETE FROM booking_nights WHERE booking_id = ? AND night = ?");
      for (const d of r.released) drop.run(t.id, d);
      db().prepare("UPDATE booking_changes SET authorization = ? WHERE id = ?").run(authorization, r.change);
    }).immediate();
    await mailChanged(ctx, trip(userId, confirmation)!, { check_in: t.check_in, check_out: t.check_out }, diff, card.label, r.n);
    return { difference_cents: diff, total_cents: r.price.total_cents, reference };
  } finally {
    BUSY.delete(t.id);
  }
}

export interface ChangeRow {
  old_check_in: string;
  old_check_out: string;
  new_check_in: string;
  new_check_out: string;
  difference_cents: number;
  changed_at: string;
}

/** The date changes of a booking, oldest first. */
export const changesOf = (bookingId: number): ChangeRow[] =>
  db().prepare("SELECT old_check_in, old_check_out, new_check_in, new_check_out, difference_cents, changed_at FROM booking_changes WHERE booking_id = ? ORDER BY id").all(bookingId) as ChangeRow[];

export interface ReviewRow {
  id: number;
  author: string;
  author_city: string | null;
  language: string;
  rating: number;
  body: string;
  stayed: string;
  created_at: string;
  booking_id: number | null;
}

export const reviewsOf = (propertyId: number): ReviewRow[] =>
  db().prepare("SELECT * FROM reviews WHERE property_id = ? ORDER BY created_at DESC, id DESC").all(propertyId) as ReviewRow[];

export const reviewOfBooking = (bookingId: number): ReviewRow | undefined =>
  db().prepare("SELECT * FROM reviews WHERE booking_id = ?").get(bookingId) as ReviewRow | undefined;

/** Review a past stay once: rating 1-5, text 10-2000 characters (stored verbatim). Throws StayError. */
export function review(userId: number, fullName: string, confirmation: string, ratingText: string, body: string, language: string): void {
  const ctx = stayContext();
  const t = trip(userId, confirmation);
  if (!t) throw new StayError("That booking doesn't exist.");
  if (tripState(t, ctx.today) !== "past") throw new StayError("You can review a stay once you have checked out.");
  if (!/^[1-5]$/.test(ratingText.trim())) throw new StayError("Choose a rating from 1 to 5.", "rating");
  const text = body.trim();
  if (text.length < 10) throw new StayError("Tell other guests a little more (at least 10 characters).", "body");
  if (text.length > 2000) throw new StayError("Reviews are limited to 2,000 characters.", "body");
  const parts = fullName.trim().split(/\s+/);
  const author = parts.length > 1 ? `${parts[0]} ${parts[parts.length - 1]![0]}.` : parts[0]!;
  const ok = db().transaction(() => {
    if (reviewOfBooking(t.id)) return false;
    db()
      .prepare("INSERT INTO reviews (property_id, booking_id, author, author_city, language, rating, body, stayed, created_at, world_ref) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, NULL)")
      .run(t.property_id, t.id, author, language, Number(ratingText.trim()), text, t.check_in.slice(0, 7), ctx.now);
    db().prepare("UPDATE properties SET review_count = review_count + 1 WHERE id = ?").run(t.property_id);
    return true;
  })();
  if (!ok) throw new StayError("You have already reviewed this stay.");
}

export interface MessageRow {
  id: number;
  sender: string;
  body: string;
  sent_at: string;
}

export function threadOf(bookingId: number): { id: number } | undefined {
  return db().prepare("SELECT id FROM threads WHERE booking_id = ?").get(bookingId) as { id: number } | undefined;
}

/** Messages of a thread visible at `now`. */
export function messagesOf(threadId: number, now: string): MessageRow[] {
  return db().prepare("SELECT id, sender, body, sent_at FROM messages WHERE thread_id = ? AND sent_at <= ? ORDER BY sent_at, id").all(threadId, now) as MessageRow[];
}

const HOST_REPLIES = [
  "Hi {first}, thanks for your message! Check-in is from 3 pm; I'll send the door code the morning you arrive. — {host}",
  "Hello {first}! Happy to help. The place is ready for you; let me know your arrival time and I'll be around. — {host}",
  "Thanks {first}, noted! If you need anything during your stay just message me here. — {host}",
];
const HOTEL_REPLY = "Dear {first}, thank you for your message. We have noted your request on reservation {conf}. — Guest Services, {title}";

/** Send a message to the host (rentals) or the property's guest services (hotels) about a booking; the other
 * side answers a few minutes later (a fixed reply chosen by the thread's length). Throws StayError. */
export function sendMessage(userId: number, fullName: string, confirmation: string, body: string): void {
  const ctx = stayContext();
  const t = trip(userId, confirmation);
  if (!t) throw new StayError("That booking doesn't exist.");
  const text = body.trim();
  if (!text) throw new StayError("Write a message first.", "body");
  if (text.length > 2000) throw new StayError("Messages are limited to 2,000 characters.", "body");
  const first = fullName.trim().split(/\s+/)[0] ?? "";
  db().transaction(() => {
    let th = threadOf(t.id);
    if (!th) {
      const info = db().prepare("INSERT INTO threads (property_id, booking_id, created_at, world_ref) VALUES (?, ?, ?, NULL)").run(t.property_id, t.id, ctx.now);
      th = { id: Number(info.lastInsertRowid) };
    }
    const n = (db().prepare("SELECT COUNT(*) AS n FROM messages WHERE thread_id = ? AND sender = 'guest'").get(th.id) as { n: number }).n;
    db().prepare("INSERT INTO messages (thread_id, sender, body, sent_at, world_ref) VALUES (?, 'guest', ?, ?, NULL)").run(th.id, text, ctx.now);
    const reply = (t.kind === "rental" ? HOST_REPLIES[n % HOST_REPLIES.length]! : HOTEL_REPLY)
      .replace("{first}", first)
      .replace("{host}", t.host_name ?? "")
      .replace("{conf}", t.confirmation)
      .replace("{title}", t.property_name);
    db().prepare("INSERT INTO messages (thread_id, sender, body, sent_at, world_ref) VALUES (?, 'host', ?, ?, NULL)").run(th.id, reply, addSeconds(ctx.now, 60 * (2 + (n % 3))));
  })();
}

/** All message threads of the persona with their last visible message. */
export function threads(userId: number, now: string) {
  return db()
    .prepare(
      `SELECT t.id, b.confirmation, p.name AS property_name, p.kind, p.host_name, p.art,
        (SELECT body FROM messages m WHERE m.thread_id = t.id AND m.sent_at <= ? ORDER BY sent_at DESC, id DESC LIMIT 1) AS last_body,
        (SELECT sent_at FROM messages m WHERE m.thread_id = t.id AND m.sent_at <= ? ORDER BY sent_at DESC, id DESC LIMIT 1) AS last_at
       FROM threads t JOIN bookings b ON b.id = t.booking_id JOIN properties p ON p.id = t.property_id
       WHERE b.user_id = ? ORDER BY last_at DESC, t.id DESC`,
    )
    .all(now, now, userId) as { id: number; confirmation: string; property_name: string; kind: string; host_name: string | null; art: number; last_body: string | null; last_at: string | null }[];
}
