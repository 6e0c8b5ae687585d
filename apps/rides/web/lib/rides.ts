import { chargeCard, PaymentDeclined, refundCard } from "@persona/platform/payments";
import { db } from "./db";
import { rideContext, type RideContext } from "./context";
import { etaMinutes, fareParts, figure, rideMinutes, roadTenths, type FareParts, type Tariff } from "./geo";
import { money } from "./format";
import { mailCancelled, mailReceipt, mailScheduled } from "./mail";

/** A refusal the rider can act on (bad input, a declined card): routes answer it, nothing was written. */
export class RideError extends Error {}

/** A scheduled ride cancelled more than this many minutes before pickup is free. */
export const FREE_CANCEL_MINUTES = 60;
/** A later cancel keeps this fee (US cents of the tariff: {@link cancelFee} in the rider's currency) and refunds the
 * rest of the fare. */
export const CANCEL_FEE_CENTS = 500;
/** A scheduled ride is at least 15 minutes and at most 30 days ahead. */
export const SCHEDULE_MIN_MINUTES = 15;
export const SCHEDULE_MAX_DAYS = 30;
/** Rating and tipping stay open this many days after the dropoff. */
export const FEEDBACK_DAYS = 30;
/** The largest tip (US cents of the tariff: {@link maxTip} in the rider's currency). */
export const MAX_TIP_CENTS = 20000;

/** The late-cancellation fee in the rider's currency (cents). */
export function cancelFee(ctx: RideContext): number {
  return figure(CANCEL_FEE_CENTS, ctx.tariff);
}

/** The largest tip in the rider's currency (cents). */
export function maxTip(ctx: RideContext): number {
  return figure(MAX_TIP_CENTS, ctx.tariff);
}
export const COMPLIMENTS = ["Great conversation", "Smooth driving", "Clean car", "Knew the way", "Went above and beyond", "Great music"];

export interface Place {
  id: number;
  name: string;
  address: string;
  city: string;
  kind: string;
  lat: number;
  lon: number;
}

export interface SavedPlace extends Place {
  saved_id: number;
  label: string;
  icon: string;
  world_ref: string | null;
}

export interface Card {
  id: number;
  account: string;
  brand: string;
  last4: string;
  label: string;
  expiry: string;
  is_default: number;
}

export interface RideType {
  code: string;
  name: string;
  description: string;
  capacity: number;
  price_percent: number;
  eta_extra_minutes: number;
}

export interface Ride {
  id: number;
  ride_id: string;
  status: string;
  ride_type: string;
  type_name: string;
  pickup: string;
  dropoff: string;
  pickup_name: string;
  dropoff_name: string;
  city: string;
  requested_at: string;
  pickup_at: string;
  dropoff_at: string;
  duration_minutes: number;
  distance_miles: number;
  base_cents: number;
  distance_cents: number;
  time_cents: number;
  booking_fee_cents: number;
  fare_cents: number;
  tip_cents: number;
  total_cents: number;
  driver_name: string | null;
  driver_rating_x100: number | null;
  vehicle: string | null;
  plate: string | null;
  card_label: string;
  card_last4: string;
  trip: number | null;
  purpose: string | null;
  expensable: number;
  rating: number | null;
  compliments: string | null;
  rated_at: string | null;
  tipped_at: string | null;
  charge_auth: string | null;
  cancelled_at: string | null;
  cancel_fee_cents: number;
  refund_cents: number;
  world_ref: string | null;
}

// A place shows as the rider's saved label when it has one ("Home", "Priya's"), else its name.
const RIDE_SQL = `SELECT r.*, t.name AS type_name,
  COALESCE((SELECT s.label FROM saved_places s WHERE s.place_id = pp.id ORDER BY s.position LIMIT 1), pp.name) AS pickup_name,
  COALESCE((SELECT s.label FROM saved_places s WHERE s.place_id = dp.id ORDER BY s.position LIMIT 1), dp.name) AS dropoff_name,
  d.name AS driver_name, d.rating_x100 AS driver_rating_x100, d.vehicle, d.plate, c.label AS card_label, c.last4 AS card_last4
  FROM rides r JOIN ride_types t ON t.code = r.ride_type JOIN places pp ON pp.id = r.pickup_place_id
  JOIN places dp ON dp.id = r.dropoff_place_id LEFT JOIN drivers d ON d.id = r.driver_id JOIN cards c ON c.id = r.card_id`;

export function places(): Place[] {
  return db().prepare("SELECT id, name, address, city, kind, lat, lon FROM places ORDER BY city, kind, address").all() as Place[];
}

export function savedPlaces(): SavedPlace[] {
  return db()
    .prepare(
      `SELECT p.id, p.name, p.address, p.city, p.kind, p.lat, p.lon, s.id AS saved_id, s.label, s.icon, s.world_ref
       FROM saved_places s JOIN places p ON p.id = s.place_id ORDER BY s.position, s.id`,
    )
    .all() as SavedPlace[];
}

/** The last distinct places the rider went to (newest first), not saved ones. */
export function recentPlaces(limit = 5): Place[] {
  const saved = new Set(savedPlaces().map((s) => s.id));
  const rows = db()
    .prepare(
      `SELECT p.id, p.name, p.address, p.city, p.kind, p.lat, p.lon, MAX(r.pickup_at) AS last
       FROM rides r JOIN places p ON p.id = r.dropoff_place_id WHERE r.status != 'cancelled'
       GROUP BY p.id ORDER BY last DESC, p.id`,
    )
    .all() as (Place & { last: string })[];
  return rows.filter((p) => !saved.has(p.id)).slice(0, limit);
}

export function cards(): Card[] {
  return db().prepare("SELECT id, account, brand, last4, label, expiry, is_default FROM cards ORDER BY is_default DESC, id").all() as Card[];
}

export function rideTypes(): RideType[] {
  return db().prepare("SELECT code, name, description, capacity, price_percent, eta_extra_minutes FROM ride_types ORDER BY position").all() as RideType[];
}

function norm(text: string): string {
  return text.toLowerCase().replace(/[,.]/g, " ").replace(/\s+/g, " ").trim();
}

/** The known place a typed text names: a saved place's label, a place's address or name (case, commas and spacing ignored). */
export function resolvePlace(text: string): Place | null {
  const t = norm(text);
  if (!t) return null;
  const saved = savedPlaces().find((s) => norm(s.label) === t);
  if (saved) return saved;
  const all = places();
  return all.find((p) => norm(p.address) === t) ?? all.find((p) => norm(p.name) === t && p.kind !== "venue") ?? all.find((p) => norm(p.name) === t) ?? null;
}

/** At most the first 60 characters of what someone typed, for a message. */
export function excerpt(text: string): string {
  const t = Array.from(text.trim());
  return t.length > 60 ? `${t.slice(0, 59).join("")}…` : t.join("");
}

/** The place a form field names, or a RideError saying what is wrong. */
export function requirePlace(text: string, what: string): Place {
  if (!text.trim()) throw new RideError(`Enter a ${what} address.`);
  if (text.length > 200) throw new RideError(`That ${what} address is too long.`);
  const p = resolvePlace(text);
  if (!p) throw new RideError(`We couldn't find “${excerpt(text)}”. Choose a saved or recent place, or type a full street address ZipRide knows (street, city).`);
  return p;
}

export interface Quote extends FareParts {
  ride_type: string;
  name: string;
  description: string;
  capacity: number;
  eta_minutes: number;
  distance_miles: number;
  duration_minutes: number;
}

/** Prices (in the `tariff`'s currency) and ETAs of every ride type from `a` to `b` at local time `now` (the Zip fare is
 * the world's tariff). */
export function quotes(a: Place, b: Place, now: string, tariff: Tariff): Quote[] {
  if (a.id === b.id) throw new RideError("Pickup and drop-off are the same place.");
  if (a.city !== b.city) throw new RideError(`ZipRide rides stay within one city: ${a.city} and ${b.city} are too far apart.`);
  const tenths = roadTenths(a, b);
  const minutes = rideMinutes(tenths);
  return rideTypes().map((t) => ({
    ride_type: t.code,
    name: t.name,
    description: t.description,
    capacity: t.capacity,
    eta_minutes: etaMinutes(a.address, now, t.eta_extra_minutes),
    distance_miles: tenths / 10,
    duration_minutes: minutes,
    ...fareParts(tenths, minutes, t.price_percent, tariff),
  }));
}

// --- time helpers (local wall clock of the persona's zone) ------------------------------------------------

function asUtc(local: string): number {
  return Date.parse(`${local.slice(0, 19)}Z`);
}

/** `local` (naive, persona zone) plus `minutes`, naive. */
export function addMinutes(local: string, minutes: number): string {
  return new Date(asUtc(local) + minutes * 60_000).toISOString().slice(0, 19);
}

/** Minutes from local `a` to local `b` (both naive or both with the same offset). */
export function minutesBetween(a: string, b: string): number {
  return Math.round((asUtc(b) - asUtc(a)) / 60_000);
}

/** The UTC offset (`-08:00`) of `timezone` at naive local time `local`. */
export function offsetAt(timezone: string, local: string): string {
  const guess = new Date(asUtc(local));
  const name = new Intl.DateTimeFormat("en-US", { timeZone: timezone, timeZoneName: "longOffset" }).formatToParts(guess).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(name);
  return m ? `${m[1]}:${m[2] ?? "00"}` : "+00:00";
}

/** A naive local time with the zone's offset: `2026-11-16T09:30:00-08:00`. */
export function withOffset(ctx: RideContext, local: string): string {
  return `${local.slice(0, 19)}${offsetAt(ctx.timezone, local)}`;
}

/** A ride's time as the naive local time of the persona's zone (for comparing with now). */
export function localOf(ctx: RideContext, iso: string): string {
  if (iso.length <= 19) return iso;
  const instant = new Date(iso);
  const f = new Intl.DateTimeFormat("en-US", { timeZone: ctx.timezone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const g = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, x.value]));
  return `${g.year}-${g.month}-${g.day}T${g.hour}:${g.minute}:${g.second}`;
}

/** What a ride is at `ctx.now`: scheduled, arriving (driver on the way), on_trip, completed or cancelled. */
export function phase(ctx: RideContext, r: Ride): "scheduled" | "arriving" | "on_trip" | "completed" | "cancelled" {
  if (r.status === "cancelled") return "cancelled";
  if (r.status === "completed") return "completed";
  const now = ctx.now;
  const pickup = localOf(ctx, r.pickup_at);
  const dropoff = localOf(ctx, r.dropoff_at);
  if (r.status === "scheduled" && now < pickup) return "scheduled";
  if (now < pickup) return "arriving";
  if (now < dropoff) return "on_trip";
  return "completed";
}

// --- reads ---------------------------------------------------------------------------------------------

export function ride(id: number | null): Ride | null {
  if (id === null) return null;
  return (db().prepare(`${RIDE_SQL} WHERE r.id = ?`).get(id) as Ride | undefined) ?? null;
}

export function rideByRideId(rideId: string): Ride | null {
  return (db().prepare(`${RIDE_SQL} WHERE r.ride_id = ?`).get(rideId) as Ride | undefined) ?? null;
}

export interface RideFilter {
  month?: string;
  purpose?: string;
}

/** Past and current rides (not scheduled ahead), newest first, filtered by `YYYY-MM` month and purpose. */
export function history(ctx: RideContext, f: RideFilter = {}): Ride[] {
  const rows = db().prepare(`${RIDE_SQL} ORDER BY r.pickup_at DESC, r.id DESC`).all() as Ride[];
  return rows.filter((r) => {
    const ph = phase(ctx, r);
    if (ph === "scheduled") return false;
    if (f.month && r.pickup_at.slice(0, 7) !== f.month) return false;
    if (f.purpose && (r.purpose ?? "personal") !== f.purpose) return false;
    return true;
  });
}

/** Rides booked ahead that have not started, soonest first. */
export function upcoming(ctx: RideContext): Ride[] {
  const rows = db().prepare(`${RIDE_SQL} WHERE r.status = 'scheduled' ORDER BY r.pickup_at, r.id`).all() as Ride[];
  return rows.filter((r) => phase(ctx, r) === "scheduled");
}

export function months(): string[] {
  return (db().prepare("SELECT DISTINCT substr(pickup_at, 1, 7) AS m FROM rides ORDER BY m DESC").all() as { m: string }[]).map((x) => x.m);
}

// --- writes --------------------------------------------------------------------------------------------

/** A ride id no ride has: ZR + 10 digits, deterministic in the number of rides (the world's ids are random 10-digit
 * numbers); a collision draws the next. Call it inside the transaction that inserts the ride. */
function nextRideId(): string {
  const n = (db().prepare("SELECT COUNT(*) AS n FROM rides").get() as { n: number }).n;
  const taken = db().prepare("SELECT 1 FROM rides WHERE ride_id = ?");
  for (let k = n + 1; ; k++) {
    const id = `ZR${String(9_100_000_000 + ((k * 7_919_113) % 899_999_999))}`;
    if (!taken.get(id)) return id;
  }
}

function pickDriver(rideType: string, seedText: string): number {
  const ids = (db().prepare("SELECT id FROM drivers WHERE pool = 1 AND ride_type = ? ORDER BY id").all(rideType) as { id: number }[]).map((x) => x.id);
  if (!ids.length) throw new RideError("No drivers are available for that ride type right now.");
  let h = 0;
  for (const ch of seedText) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return ids[h % ids.length];
}

export interface RequestInput {
  pickup: string;
  dropoff: string;
  rideType: string;
  /** "now" or a local `YYYY-MM-DDTHH:MM` at least 15 min and at most 30 days ahead. */
  when: string;
  at: string;
  cardId: number | null;
  purpose: string;
}

/** A real local date and time `YYYY-MM-DDTHH:MM` (not 2026-02-30T25:00)? */
export function isLocalMinute(text: string): boolean {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)$/.exec(text);
  if (!m) return false;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && t.getUTCHours() === h && t.getUTCMinutes() === mi;
}

/** Parse and check a request; the quote of the chosen type, the two places, the pickup time (naive local). */
export function checkRequest(ctx: RideContext, input: RequestInput) {
  const a = requirePlace(input.pickup, "pickup");
  const b = requirePlace(input.dropoff, "drop-off");
  const all = quotes(a, b, ctx.now, ctx.tariff);
  const q = all.find((x) => x.ride_type === input.rideType);
  if (!q) throw new RideError("Choose a ride type.");
  const card = cards().find((c) => c.id === input.cardId);
  if (!card) throw new RideError("Choose a card on file to pay with.");
  if (input.purpose && !["personal", "work"].includes(input.purpose)) throw new RideError("Choose Personal or Work for the ride's profile.");
  let pickupAt: string;
  let scheduled = false;
  if (input.when === "later") {
    if (!isLocalMinute(input.at)) throw new RideError("Enter the pickup date and time.");
    pickupAt = `${input.at}:00`;
    const ahead = minutesBetween(ctx.now, pickupAt);
    if (ahead < SCHEDULE_MIN_MINUTES) throw new RideError(`A scheduled pickup must be at least ${SCHEDULE_MIN_MINUTES} minutes from now.`);
    if (ahead > SCHEDULE_MAX_DAYS * 24 * 60) throw new RideError(`Rides can be scheduled at most ${SCHEDULE_MAX_DAYS} days ahead.`);
    scheduled = true;
  } else if (input.when === "now" || input.when === "") {
    pickupAt = addMinutes(ctx.now.slice(0, 16) + ":00", q.eta_minutes);
  } else {
    throw new RideError("Choose Now or Schedule.");
  }
  return { a, b, q, card, pickupAt, scheduled };
}

/** The rider's ride on its way or under way now (made in the app: requested now, or a scheduled one whose pickup has
 * come), if any: ZipRide takes one on-demand ride at a time. */
export function activeRide(ctx: RideContext): Ride | null {
  const open = db().prepare(`${RIDE_SQL} WHERE r.status IN ('requested', 'scheduled') AND r.world_ref IS NULL ORDER BY r.id`).all() as Ride[];
  return open.find((r) => ["arriving", "on_trip"].includes(phase(ctx, r))) ?? null;
}

/** Request (now) or schedule (later) a ride. Reserve first: one immediate transaction checks the request (and that
 * no ride is on its way when asking for one now), takes a new ride id and writes the ride; then the fare is charged
 * to the card (pending in the bank at once); a declined card deletes the ride again. Returns its row id. */
export async function requestRide(input: RequestInput): Promise<number> {
  const ctx = rideContext();
  const d = db();
  const held = d.transaction(() => {
    const { a, b, q, card, pickupAt, scheduled } = checkRequest(ctx, input);
    if (!scheduled) {
      const busy = activeRide(ctx);
      if (busy) throw new RideError(`You already have a ride on its way (${busy.ride_id}, to ${busy.dropoff_name}). Request another once it's over, or schedule one for later.`);
    }
    const rideId = nextRideId();
    const dropoffAt = addMinutes(pickupAt, q.duration_minutes);
    const driver = pickDriver(q.ride_type, `${rideId}|${pickupAt}`);
    const info = d
      .prepare(
        `INSERT INTO rides (ride_id, status, ride_type, pickup_place_id, dropoff_place_id, pickup, dropoff, city, requested_at,
          pickup_at, dropoff_at, duration_minutes, distance_miles, base_cents, distance_cents, time_cents, booking_fee_cents,
          fare_cents, tip_cents, total_cents, driver_id, card_id, trip, purpose, expensable, charge_auth, cancel_fee_cents, refund_cents, world_ref)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, NULL, ?, ?, NULL, 0, 0, NULL)`,
      )
      .run(
        rideId, scheduled ? "scheduled" : "requested", q.ride_type, a.id, b.id, a.address, b.address, a.city, ctx.now,
        withOffset(ctx, pickupAt), withOffset(ctx, dropoffAt), q.duration_minutes, q.distance_miles, q.base_cents, q.distance_cents,
        q.time_cents, q.booking_fee_cents, q.fare_cents, q.fare_cents, driver, card.id, input.purpose || "personal",
        input.purpose === "work" ? 1 : 0,
      );
    return { id: Number(info.lastInsertRowid), rideId, a, b, q, card, scheduled };
  }).immediate();
  let auth;
  try {
    auth = await chargeCard({
      app: "rides",
      merchant: `ZIPRIDE ${held.rideId}`,
      amount_cents: held.q.fare_cents,
      card_last4: held.card.last4,
      reference: held.rideId,
      category: "transport",
      memo: `${held.q.name}: ${held.a.name} to ${held.b.name}`.slice(0, 120),
    });
  } catch (e) {
    d.prepare("DELETE FROM rides WHERE id = ? AND charge_auth IS NULL").run(held.id);
    if (e instanceof PaymentDeclined) throw new RideError(`Your card was declined: ${e.message}`);
    throw e;
  }
  d.prepare("UPDATE rides SET charge_auth = ? WHERE id = ?").run(auth.authorization, held.id);
  if (held.scheduled) await mailScheduled(ctx, ride(held.id)!, FREE_CANCEL_MINUTES);
  return held.id;
}

/**
 * Finish the rides made in the app (requested now, or scheduled) whose drop-off time has passed on the app
 * clock: status -> 'completed' (once; the update is guarded by the old status) and the receipt mailed.
 * Called when the rider opens the app's pages, so a ride ends when its time is up, not when a page asks.
 * Returns how many rides were finished.
 */
export async function settleRides(): Promise<number> {
  const ctx = rideContext();
  const open = db().prepare(`${RIDE_SQL} WHERE r.status IN ('requested', 'scheduled') AND r.world_ref IS NULL ORDER BY r.id`).all() as Ride[];
  let done = 0;
  for (const r of open) {
    if (phase(ctx, r) !== "completed") continue;
    const info = db().prepare("UPDATE rides SET status = 'completed' WHERE id = ? AND status = ?").run(r.id, r.status);
    if (info.changes !== 1) continue;
    done += 1;
    await mailReceipt(ctx, ride(r.id)!);
  }
  return done;
}

/** What cancelling `r` now would cost: `{free, fee_cents, refund_cents, minutes_ahead}`. Only a fare the app charged
 * when the ride was scheduled (`charge_auth`) is refunded: a ride booked before the app charged up front (a seeded one,
 * paid at the ride as the world's rides are) has nothing to refund. */
export function cancelTerms(ctx: RideContext, r: Ride) {
  const ahead = minutesBetween(ctx.now, localOf(ctx, r.pickup_at));
  const free = ahead > FREE_CANCEL_MINUTES;
  const fee = free ? 0 : Math.min(cancelFee(ctx), r.fare_cents);
  return { free, fee_cents: fee, refund_cents: r.charge_auth ? r.fare_cents - fee : 0, minutes_ahead: ahead };
}

/** Cancel a scheduled ride: refund the fare (less the fee within 60 min of pickup) through the card network, once.
 * Reserve first: one immediate transaction cancels the ride and records the fee and refund; then the bank refunds;
 * a refused refund puts the ride back as it was. A second cancel (also at the same time) finds it cancelled. */
export async function cancelRide(id: number | null): Promise<void> {
  const ctx = rideContext();
  const d = db();
  const { r, t } = d.transaction(() => {
    const r = ride(id);
    if (!r) throw new RideError("That ride doesn't exist.");
    if (r.status !== "scheduled" || phase(ctx, r) !== "scheduled") throw new RideError("Only a scheduled ride that hasn't started can be cancelled.");
    const t = cancelTerms(ctx, r);
    d.prepare("UPDATE rides SET status = 'cancelled', cancelled_at = ?, cancel_fee_cents = ?, refund_cents = ?, refund_auth = NULL, total_cents = ?, tip_cents = 0 WHERE id = ? AND status = 'scheduled'")
      .run(ctx.now, t.fee_cents, t.refund_cents, t.fee_cents, r.id);
    return { r, t };
  }).immediate();
  if (t.refund_cents > 0) {
    try {
      const auth = await refundCard({
        app: "rides", merchant: `ZIPRIDE ${r.ride_id}`, amount_cents: t.refund_cents, card_last4: r.card_last4,
        reference: r.ride_id, category: "transport", memo: t.free ? "Scheduled ride cancelled" : `Scheduled ride cancelled (fee ${t.fee_cents} cents kept)`,
      });
      d.prepare("UPDATE rides SET refund_auth = ? WHERE id = ?").run(auth.authorization, r.id);
    } catch (e) {
      d.prepare("UPDATE rides SET status = 'scheduled', cancelled_at = NULL, cancel_fee_cents = 0, refund_cents = 0, total_cents = ?, tip_cents = ? WHERE id = ? AND status = 'cancelled'")
        .run(r.total_cents, r.tip_cents, r.id);
      if (e instanceof PaymentDeclined) throw new RideError(`The refund could not be made: ${e.message}`);
      throw e;
    }
  }
  await mailCancelled(ctx, r, t);
}

function feedbackOpen(ctx: RideContext, r: Ride): void {
  if (phase(ctx, r) !== "completed") throw new RideError("You can rate and tip a ride once it's over.");
  if (minutesBetween(localOf(ctx, r.dropoff_at), ctx.now) > FEEDBACK_DAYS * 24 * 60) throw new RideError(`Rating and tipping close ${FEEDBACK_DAYS} days after a ride.`);
}

/** Rate a finished ride 1-5 stars with known compliments, once. */
export function rateRide(id: number | null, stars: number | null, compliments: string[]): void {
  const ctx = rideContext();
  const r = ride(id);
  if (!r) throw new RideError("That ride doesn't exist.");
  if (stars === null || stars < 1 || stars > 5) throw new RideError("Choose 1 to 5 stars.");
  const bad = compliments.find((c) => !COMPLIMENTS.includes(c));
  if (bad !== undefined) throw new RideError(`“${excerpt(bad)}” isn't one of ZipRide's compliments.`);
  if (r.rating !== null) throw new RideError("You've already rated this ride.");
  feedbackOpen(ctx, r);
  db().prepare("UPDATE rides SET rating = ?, compliments = ?, rated_at = ? WHERE id = ? AND rating IS NULL").run(stars, JSON.stringify([...new Set(compliments)]), ctx.now, r.id);
}

/** Add a tip to a finished ride, once: a new charge on the ride's card. Reserve first: one immediate transaction
 * checks that the ride has no tip yet and writes this one; then the card is charged; a declined card takes the tip
 * back. Two tips at once: the second finds the ride tipped. */
export async function tipRide(id: number, cents: number): Promise<void> {
  const ctx = rideContext();
  const d = db();
  const r = d.transaction(() => {
    const r = ride(id);
    if (!r) throw new RideError("That ride doesn't exist.");
    if (!Number.isInteger(cents) || cents <= 0) throw new RideError("Enter a tip greater than zero.");
    if (cents > maxTip(ctx)) throw new RideError(`A tip can be at most ${money(ctx, maxTip(ctx))}.`);
    if (r.tipped_at !== null) throw new RideError("You've already added a tip to this ride.");
    feedbackOpen(ctx, r);
    d.prepare("UPDATE rides SET tip_cents = tip_cents + ?, total_cents = total_cents + ?, tipped_at = ?, tip_auth = NULL WHERE id = ? AND tipped_at IS NULL").run(cents, cents, ctx.now, r.id);
    return r;
  }).immediate();
  let auth;
  try {
    auth = await chargeCard({ app: "rides", merchant: `ZIPRIDE TIP ${r.ride_id}`, amount_cents: cents, card_last4: r.card_last4, reference: `${r.ride_id}-TIP`, category: "transport", memo: `Tip for ${r.driver_name ?? "your driver"}` });
  } catch (e) {
    d.prepare("UPDATE rides SET tip_cents = tip_cents - ?, total_cents = total_cents - ?, tipped_at = NULL WHERE id = ? AND tip_auth IS NULL AND tipped_at = ?").run(cents, cents, r.id, ctx.now);
    if (e instanceof PaymentDeclined) throw new RideError(`Your card was declined: ${e.message}`);
    throw e;
  }
  d.prepare("UPDATE rides SET tip_auth = ? WHERE id = ?").run(auth.authorization, r.id);
}

// --- saved places --------------------------------------------------------------------------------------

function checkLabel(label: string, exceptId = 0): string {
  const l = label.trim();
  if (!l) throw new RideError("Give the place a name.");
  if (l.length > 40) throw new RideError("A place's name can be at most 40 characters.");
  const clash = savedPlaces().find((s) => s.label.toLowerCase() === l.toLowerCase() && s.saved_id !== exceptId);
  if (clash) throw new RideError(`You already have a place called “${clash.label}”.`);
  return l;
}

export function addSavedPlace(label: string, address: string): number {
  const l = checkLabel(label);
  const p = requirePlace(address, "place's");
  if (savedPlaces().some((s) => s.id === p.id)) throw new RideError("That place is already saved.");
  const pos = (db().prepare("SELECT COALESCE(MAX(position), 0) + 1 AS n FROM saved_places").get() as { n: number }).n;
  const icon = l.toLowerCase() === "home" ? "home" : l.toLowerCase() === "work" ? "work" : "star";
  const info = db().prepare("INSERT INTO saved_places (label, place_id, icon, position, created_at, world_ref) VALUES (?, ?, ?, ?, ?, NULL)").run(l, p.id, icon, pos, rideContext().now);
  return Number(info.lastInsertRowid);
}

export function renameSavedPlace(savedId: number | null, label: string): void {
  if (savedId === null || !savedPlaces().some((s) => s.saved_id === savedId)) throw new RideError("That saved place doesn't exist.");
  const l = checkLabel(label, savedId);
  db().prepare("UPDATE saved_places SET label = ? WHERE id = ?").run(l, savedId);
}

export function deleteSavedPlace(savedId: number | null): void {
  const info = db().prepare("DELETE FROM saved_places WHERE id = ?").run(savedId);
  if (info.changes === 0) throw new RideError("That saved place doesn't exist.");
}
