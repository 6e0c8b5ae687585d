/**
 * TableTime's model: restaurants, availability over the table inventory, and the reservation workflows.
 *
 * Availability (see apps/dining/models.py): a party sits at a table of `seats` when `seats - 2 < party <= seats`
 * (a single diner at a two-top). A sitting holds its table for every 15-minute slot of 90 minutes (120 for more than
 * four guests), one `table_holds` row each, UNIQUE on (table, day, slot): of two bookings racing for the last table one
 * insert fails and that booking is refused with nothing written. Bookings open at the slots of a service from its
 * opening time to an hour before closing, from now (the restaurant's wall clock) to 90 days ahead.
 *
 * Money: TableTime takes no payment for a table. Restaurants with a late-cancellation fee (`late_cancel_cents` per
 * guest) charge it through @persona/platform/payments when a reservation is cancelled less than 24 hours before it;
 * the card on file holds the booking.
 */
import { addDays } from "@persona/platform/clock";
import { idValue } from "@persona/platform/http";
import { icsAttachment, icsUid } from "@persona/platform/ics";
import { callApp } from "@persona/platform/internal";
import { chargeCard, PaymentDeclined } from "@persona/platform/payments";
import { serviceDomain } from "@persona/platform/services";
import { createHash } from "node:crypto";
import type { User } from "./auth";
import type { DiningContext } from "./context";
import { db } from "./db";

export class DiningError extends Error {
  constructor(message: string, public field?: string) {
    super(message);
  }
}

export const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export const MAX_PARTY = 8;
export const BOOK_AHEAD_DAYS = 90;
export const FEE_WINDOW_HOURS = 24;
export const MAX_REQUEST = 500;
/** Parties above MAX_PARTY up to this size send the restaurant a request instead of booking a table. */
export const MAX_LARGE_PARTY = 20;
export const isLargeParty = (party: number): boolean => party > MAX_PARTY;
/** The party sizes the search bar and a restaurant's page offer: 1 to MAX_LARGE_PARTY. */
export const PARTY_SIZES: number[] = Array.from({ length: MAX_LARGE_PARTY }, (_, i) => i + 1);
/** "1 person", "4 people", "12 people (request)". */
export const partyLabel = (n: number): string => `${n} ${n === 1 ? "person" : "people"}${isLargeParty(n) ? " (request)" : ""}`;
/** The occasions a booking may carry (stored as the key; OpenTable's list), shown to the restaurant with the request. */
export const OCCASIONS: Record<string, string> = {
  birthday: "Birthday",
  anniversary: "Anniversary",
  date_night: "Date night",
  business: "Business meal",
  celebration: "Celebration",
};
export const HOST = "tabletime.test";

export interface Restaurant {
  id: number; slug: string; name: string; cuisine: string; city: string; country: string; zone: string; neighbourhood: string;
  street: string; address: string; postcode: string; phone: string; currency: string; lang: string; band: number; blurb: string;
  rating_x10: number; review_count: number; late_cancel_cents: number; palette: number; motif: string;
}
export interface Hours { service: string; days: string; open: string; close: string }
export interface Reservation {
  id: number; confirmation: string; restaurant_id: number; table_id: number | null; day: string; time: string; party_size: number;
  status: string; special_request: string | null; occasion: string | null; companions: string; card_id: number | null; booked_at: string;
  modified_at: string | null; cancelled_at: string | null; cancel_fee_cents: number; world_ref: string | null;
}
export type ReservationRow = Reservation & { slug: string; name: string; address: string; city: string; cuisine: string; zone: string; neighbourhood: string; currency: string; late_cancel_cents: number; palette: number; motif: string; reviewed: number };

export const bandText = (band: number) => "$".repeat(Math.max(1, Math.min(4, band)));
const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

export function sittingMinutes(party: number): number {
  return party > 4 ? 120 : 90;
}

/** The 15-minute slots a sitting from `time` holds. */
export function sittingSlots(time: string, party: number): string[] {
  const start = minutes(time);
  const out: string[] = [];
  for (let k = 0; k < sittingMinutes(party); k += 15) out.push(hhmm(start + k));
  return out;
}

export function fits(seats: number, party: number): boolean {
  return party <= seats && (party > seats - 2 || seats === 2);
}

export function weekday(day: string): string {
  return DAYS[new Date(`${day}T12:00:00Z`).getUTCDay()];
}

export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T12:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export function isTime(value: string): boolean {
  return /^([01]\d|2[0-3]):(00|15|30|45)$/.test(value);
}

// ---- reads

export function restaurantBySlug(slug: string): Restaurant | undefined {
  return db().prepare("SELECT * FROM restaurants WHERE slug = ?").get(slug) as Restaurant | undefined;
}

export function restaurantById(id: number): Restaurant {
  return db().prepare("SELECT * FROM restaurants WHERE id = ?").get(id) as Restaurant;
}

export function cities(): { city: string; n: number }[] {
  return db().prepare("SELECT city, COUNT(*) AS n FROM restaurants GROUP BY city ORDER BY city").all() as { city: string; n: number }[];
}

export function cuisinesIn(city: string): string[] {
  return (db().prepare("SELECT DISTINCT cuisine FROM restaurants WHERE city = ? ORDER BY cuisine").all(city) as { cuisine: string }[]).map((r) => r.cuisine);
}

export function neighbourhoodsIn(city: string): string[] {
  return (db().prepare("SELECT DISTINCT neighbourhood FROM restaurants WHERE city = ? ORDER BY neighbourhood").all(city) as { neighbourhood: string }[]).map((r) => r.neighbourhood);
}

export function hoursOf(rid: number): Hours[] {
  return db().prepare("SELECT service, days, open, close FROM hours WHERE restaurant_id = ? ORDER BY open").all(rid) as Hours[];
}

export function menuOf(rid: number): { course: string; name: string; price_cents: number }[] {
  return db().prepare("SELECT course, name, price_cents FROM menu_items WHERE restaurant_id = ? ORDER BY position").all(rid) as { course: string; name: string; price_cents: number }[];
}

export function reviewsOf(rid: number): { id: number; author: string; author_city: string; rating: number; body: string; visited: string; created_at: string; mine: number }[] {
  return db().prepare("SELECT id, author, author_city, rating, body, visited, created_at, reservation_id IS NOT NULL AS mine FROM reviews WHERE restaurant_id = ? ORDER BY created_at DESC, id DESC").all(rid) as never;
}

export function isFavourite(userId: number, rid: number): boolean {
  return !!db().prepare("SELECT 1 FROM favourites WHERE user_id = ? AND restaurant_id = ?").get(userId, rid);
}

export function favourites(userId: number): Restaurant[] {
  return db().prepare("SELECT r.* FROM favourites f JOIN restaurants r ON r.id = f.restaurant_id WHERE f.user_id = ? ORDER BY f.created_at DESC, f.id DESC").all(userId) as Restaurant[];
}

const RES_SQL = `SELECT v.*, r.slug, r.name, r.address, r.city, r.cuisine, r.zone, r.neighbourhood, r.currency, r.late_cancel_cents, r.palette, r.motif,
  EXISTS (SELECT 1 FROM reviews w WHERE w.reservation_id = v.id) AS reviewed
  FROM reservations v JOIN restaurants r ON r.id = v.restaurant_id`;

export function reservationsOf(userId: number): ReservationRow[] {
  return db().prepare(`${RES_SQL} WHERE v.user_id = ? ORDER BY v.day, v.time, v.id`).all(userId) as ReservationRow[];
}

export function reservation(userId: number, confirmation: string): ReservationRow | undefined {
  return db().prepare(`${RES_SQL} WHERE v.user_id = ? AND v.confirmation = ?`).get(userId, confirmation) as ReservationRow | undefined;
}

/** Upcoming = booked (or a large party's request) and not yet past (the restaurant's clock); past = completed, or
 * booked but gone by. */
export function isUpcoming(ctx: DiningContext, r: { status: string; day: string; time: string; zone: string }): boolean {
  return (r.status === "booked" || r.status === "requested") && `${r.day}T${r.time}:00` > ctx.nowIn(r.zone);
}

/** What a reservation's badge says: Confirmed, Request sent, Cancelled, Completed (a request gone by: Not confirmed). */
export function stateText(v: { status: string }, upcoming: boolean): string {
  if (v.status === "cancelled") return "Cancelled";
  if (v.status === "requested") return upcoming ? "Request sent" : "Not confirmed";
  return upcoming ? "Confirmed" : "Completed";
}

export function cards(userId: number): { id: number; brand: string; last4: string; label: string; is_default: number }[] {
  return db().prepare("SELECT id, brand, last4, label, is_default FROM cards WHERE user_id = ? ORDER BY is_default DESC, id").all(userId) as never;
}

// ---- availability

/** The service (lunch/dinner) whose booking window holds `time` on `day`, or undefined. */
export function serviceAt(rid: number, day: string, time: string): Hours | undefined {
  const wd = weekday(day);
  const t = minutes(time);
  return hoursOf(rid).find((h) => h.days.split(",").includes(wd) && t >= minutes(h.open) && t <= minutes(h.close) - 60);
}

/** The tables free for `party` at `time` on `day` (smallest first), `except` a reservation's own holds. */
export function freeTables(rid: number, day: string, time: string, party: number, except = 0): { id: number; seats: number }[] {
  const want = sittingSlots(time, party);
  const held = new Set(
    (db().prepare(`SELECT h.table_id, h.slot FROM table_holds h JOIN dining_tables t ON t.id = h.table_id
      WHERE t.restaurant_id = ? AND h.day = ? AND (h.reservation_id IS NULL OR h.reservation_id != ?)`).all(rid, day, except) as { table_id: number; slot: string }[])
      .map((h) => `${h.table_id}|${h.slot}`),
  );
  const tables = db().prepare("SELECT id, seats FROM dining_tables WHERE restaurant_id = ? ORDER BY seats, id").all(rid) as { id: number; seats: number }[];
  return tables.filter((t) => fits(t.seats, party) && want.every((s) => !held.has(`${t.id}|${s}`)));
}

/** Bookable times for `party` on `day` within 90 minutes of `around` (all of the day's slots when empty), not past;
 * for a large party (isLargeParty) the times a request may ask for: every slot of a service, tables aside. */
export function availableTimes(ctx: DiningContext, r: Restaurant, day: string, party: number, around: string, except = 0): string[] {
  const nowLocal = ctx.nowIn(r.zone);
  const out: string[] = [];
  for (const h of hoursOf(r.id)) {
    if (!h.days.split(",").includes(weekday(day))) continue;
    for (let t = minutes(h.open); t <= minutes(h.close) - 60; t += 15) {
      const time = hhmm(t);
      if (around && Math.abs(t - minutes(around)) > 90) continue;
      if (`${day}T${time}:00` <= nowLocal) continue;
      if (isLargeParty(party) || freeTables(r.id, day, time, party, except).length) out.push(time);
    }
  }
  return out;
}

export interface SearchQuery { city: string; cuisine: string; hood: string; q: string; day: string; time: string; party: number }

/** Restaurants of `city` matching the filters, each with its bookable times near the asked time (best rated first). */
export function search(ctx: DiningContext, sq: SearchQuery): { r: Restaurant; times: string[] }[] {
  const like = `%${sq.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = db().prepare(`SELECT * FROM restaurants WHERE city = ? AND (? = '' OR cuisine = ?) AND (? = '' OR neighbourhood = ?)
    AND (? = '' OR name LIKE ? ESCAPE '\\' OR cuisine LIKE ? ESCAPE '\\' OR neighbourhood LIKE ? ESCAPE '\\') ORDER BY rating_x10 DESC, review_count DESC, name`)
    .all(sq.city, sq.cuisine, sq.cuisine, sq.hood, sq.hood, sq.q, like, like, like) as Restaurant[];
  const near = (times: string[]) =>
    times.filter((t) => Math.abs(minutes(t) - minutes(sq.time)) <= 60)
      .sort((a, b) => Math.abs(minutes(a) - minutes(sq.time)) - Math.abs(minutes(b) - minutes(sq.time)) || minutes(a) - minutes(b))
      .slice(0, 5).sort();
  return rows.map((r) => ({ r, times: near(availableTimes(ctx, r, sq.day, sq.party, sq.time)) }));
}

// ---- validation

export interface BookingInput { day: string; time: string; party: string | number }

function checkSlot(ctx: DiningContext, r: Restaurant, input: BookingInput, most = MAX_LARGE_PARTY): { day: string; time: string; party: number } {
  const party = idValue(input.party) ?? 0;
  if (!Number.isInteger(party) || party < 1 || party > most) {
    throw new DiningError(most > MAX_PARTY ? `Choose a party of 1 to ${most} guests. For larger groups, call the restaurant.` : `Choose a party of 1 to ${most} guests; for more, cancel and send a large-party request.`, "party");
  }
  if (!isDay(input.day)) throw new DiningError("Choose a date.", "date");
  if (!isTime(input.time)) throw new DiningError("Choose a time on the quarter hour.", "time");
  const today = ctx.nowIn(r.zone).slice(0, 10);
  if (input.day < today) throw new DiningError("That date has passed.", "date");
  if (input.day > addDays(`${today}T00:00:00`, BOOK_AHEAD_DAYS).slice(0, 10)) throw new DiningError(`${r.name} takes reservations up to ${BOOK_AHEAD_DAYS} days ahead.`, "date");
  if (`${input.day}T${input.time}:00` <= ctx.nowIn(r.zone)) throw new DiningError("That time has passed.", "time");
  if (!serviceAt(r.id, input.day, input.time)) throw new DiningError(`${r.name} doesn't seat guests at that time. See the opening hours.`, "time");
  return { day: input.day, time: input.time, party };
}

function newConfirmation(seedText: string): string {
  const exists = db().prepare("SELECT 1 FROM reservations WHERE confirmation = ?");
  for (let k = 0; ; k++) {
    const digest = createHash("sha256").update(`${seedText}|${k}`).digest();
    const n = 10_000_000 + (digest.readUInt32BE(0) % 90_000_000);
    const c = `TT${n}`;
    if (!exists.get(c)) return c;
  }
}

const isUnique = (e: unknown) => e instanceof Error && /UNIQUE constraint failed: table_holds/.test(e.message);

function holdTable(rid: number, day: string, time: string, party: number, resId: number): number | null {
  const d = db();
  const ins = d.prepare("INSERT INTO table_holds (table_id, day, slot, reservation_id) VALUES (?, ?, ?, ?)");
  for (const t of freeTables(rid, day, time, party, resId)) {
    try {
      d.transaction(() => {
        for (const s of sittingSlots(time, party)) ins.run(t.id, day, s, resId);
      })();
      return t.id;
    } catch (e) {
      if (!isUnique(e)) throw e;
    }
  }
  return null;
}

// ---- mail

function icsFor(ctx: DiningContext, r: Restaurant, conf: string, day: string, time: string, party: number, cancelled = false) {
  const start = zoned(`${day}T${time}:00`, r.zone);
  const end = new Date(Date.parse(start) + sittingMinutes(party) * 60_000).toISOString();
  return icsAttachment(`${conf}.ics`, {
    prodid: "-//TableTime//Reservations//EN",
    stamp: new Date(Date.parse(zoned(ctx.now, ctx.timezone))).toISOString(),
    method: cancelled ? "CANCEL" : "PUBLISH",
    events: [{ uid: icsUid(conf, HOST), start, end, summary: `${Number(time.slice(0, 2)) < 15 ? "Lunch" : "Dinner"} at ${r.name}`,
      location: r.address, description: `TableTime reservation ${conf}, party of ${party}`, status: cancelled ? "CANCELLED" : "CONFIRMED", sequence: cancelled ? 1 : 0 }],
  });
}

/** A naive wall-clock time of `zone` as an ISO instant (`...Z`). */
export function zoned(local: string, zone: string): string {
  const guess = Date.parse(`${local.slice(0, 19)}Z`);
  const fmt = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  const read = (ms: number) => {
    const p = Object.fromEntries(fmt.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
    return Date.parse(`${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}Z`);
  };
  let ms = guess - (read(guess) - guess);
  ms -= read(ms) - guess;
  return new Date(ms).toISOString();
}

async function mail(user: User, subject: string, body: string, attachment?: ReturnType<typeof icsAttachment>): Promise<void> {
  const host = serviceDomain("mail-delivery");
  if (!host) return;
  try {
    await callApp(host, "/api/internal/deliver", {
      from: { name: "TableTime", email: "reservations@tabletime.test" }, to: [user.email], subject, body, folder: "inbox",
      attachments: attachment ? [attachment] : [],
    }, 5000);
  } catch {
    /* the mail app is not on this machine, or refused: the reservation stands */
  }
}

function details(ctx: DiningContext, r: Restaurant, conf: string, day: string, time: string, party: number, request: string | null, occasion: string | null = null): string {
  return [`Restaurant: ${r.name}`, `Address: ${r.address}`, `Date: ${ctx.longDay(day)}`, `Time: ${ctx.time(time)}`,
    `Party: ${party} ${party === 1 ? "guest" : "guests"}`, ...(occasion && OCCASIONS[occasion] ? [`Occasion: ${OCCASIONS[occasion]}`] : []),
    ...(request ? [`Special request: ${request}`] : []), `Confirmation: ${conf}`,
    ...(r.late_cancel_cents ? [`Cancellation policy: cancelling less than ${FEE_WINDOW_HOURS} hours ahead costs ${ctx.money(r.late_cancel_cents * party, r.currency)} (${ctx.money(r.late_cancel_cents, r.currency)} per guest).`] : []),
    "", `Manage your reservation: http://${HOST}/reservations/${conf}`].join("\n");
}

// ---- workflows

export interface BookRequest extends BookingInput { slug: string; request: string; /** An OCCASIONS key, or "" for none. */ occasion?: string }

/** Book a table: validate, hold the smallest free table in one transaction, mail the confirmation with an .ics. A
 * large party (isLargeParty, up to MAX_LARGE_PARTY) is a request instead: status `requested`, no table held, a mail
 * that the request went to the restaurant. Returns the confirmation number. Throws DiningError (nothing written) on
 * bad input or when no table is free. Returns the confirmation number and the new row's status. */
export async function book(ctx: DiningContext, user: User, req: BookRequest): Promise<{ confirmation: string; status: "booked" | "requested" }> {
  const r = restaurantBySlug(req.slug);
  if (!r) throw new DiningError("Choose a restaurant.", "restaurant");
  const { day, time, party } = checkSlot(ctx, r, req);
  const request = req.request.trim();
  if (request.length > MAX_REQUEST) throw new DiningError(`Keep the special request under ${MAX_REQUEST} characters.`, "request");
  const occasion = (req.occasion ?? "").trim();
  if (occasion && !Object.hasOwn(OCCASIONS, occasion)) throw new DiningError("Choose an occasion from the list, or none.", "occasion");
  const card = cards(user.id)[0];
  if (r.late_cancel_cents && !card) throw new DiningError("This restaurant holds reservations with a card; add one to your account first.");
  const d = db();
  const large = isLargeParty(party);
  const none = () => new DiningError(`No table for ${party} is left at ${r.name} at ${ctx.time(time)}. Try another time.`, "time");
  // One immediate transaction: the confirmation number is drawn, the reservation written and its table held
  // (UNIQUE (table, day, slot)) together, so a slot is never given out beyond its tables. A large party's request
  // holds no table (and no card).
  const conf = d.transaction(() => {
    const count = (d.prepare("SELECT COUNT(*) AS n FROM reservations").get() as { n: number }).n;
    const conf = newConfirmation(`${count}|${r.slug}|${day}|${time}|${party}|${ctx.now}`);
    const first = large ? null : freeTables(r.id, day, time, party)[0];
    if (!large && !first) throw none();
    const id = Number(d.prepare(`INSERT INTO reservations (confirmation, user_id, restaurant_id, table_id, day, time, party_size, status, special_request,
      occasion, companions, card_id, booked_at, modified_at, cancelled_at, cancel_fee_cents, fee_authorization, world_ref)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', ?, ?, NULL, NULL, 0, NULL, NULL)`)
      .run(conf, user.id, r.id, first?.id ?? null, day, time, party, large ? "requested" : "booked", request || null, occasion || null,
        r.late_cancel_cents && !large ? card.id : null, ctx.now).lastInsertRowid);
    if (!large) {
      const table = holdTable(r.id, day, time, party, id);
      if (table === null) throw none();
      d.prepare("UPDATE reservations SET table_id = ? WHERE id = ?").run(table, id);
    }
    return conf;
  }).immediate();
  const hi = `Hi ${user.full_name.split(" ")[0]},\n\n`;
  const facts = details(ctx, r, conf, day, time, party, request || null, occasion || null);
  if (large) {
    await mail(user, `Your request to ${r.name} has been sent`, `${hi}We've sent your large-party request to ${r.name}. The restaurant will confirm by email or call you; no table is held until it does.\n\n${facts}\n\nTableTime`);
  } else {
    await mail(user, `Your reservation at ${r.name} is confirmed`, `${hi}You're all set.\n\n${facts}\n\nEnjoy your meal!\nTableTime`, icsFor(ctx, r, conf, day, time, party));
  }
  return { confirmation: conf, status: large ? "requested" : "booked" };
}

function ownUpcoming(ctx: DiningContext, user: User, confirmation: string): ReservationRow {
  const v = reservation(user.id, confirmation);
  if (!v) throw new DiningError("We couldn't find that reservation.");
  if (v.status === "cancelled") throw new DiningError("That reservation was cancelled.");
  if (!isUpcoming(ctx, v)) throw new DiningError("That reservation has already taken place.");
  return v;
}

/** Change the date, time or party of an upcoming reservation; the old table is kept when it still fits and is free.
 * Throws DiningError (reservation unchanged) when nothing is free then. */
export async function modify(ctx: DiningContext, user: User, confirmation: string, input: BookingInput): Promise<void> {
  const v = ownUpcoming(ctx, user, confirmation);
  if (v.status === "requested") throw new DiningError("A large-party request can't be changed here; cancel it and send a new one.");
  const r = restaurantById(v.restaurant_id);
  const { day, time, party } = checkSlot(ctx, r, input, MAX_PARTY);
  if (day === v.day && time === v.time && party === v.party_size) throw new DiningError("That's the reservation you have. Change the date, time or party size.");
  const d = db();
  d.transaction(() => {
    d.prepare("DELETE FROM table_holds WHERE reservation_id = ?").run(v.id);
    const table = holdTable(r.id, day, time, party, v.id);
    if (table === null) throw new DiningError(`No table for ${party} is free at ${ctx.time(time)} on ${ctx.day(day)}. Your reservation is unchanged.`, "time");
    d.prepare("UPDATE reservations SET day = ?, time = ?, party_size = ?, table_id = ?, modified_at = ? WHERE id = ?").run(day, time, party, table, ctx.now, v.id);
  }).immediate();
  await mail(user, `Your reservation at ${r.name} has changed`, `Hi ${user.full_name.split(" ")[0]},\n\nWe've updated your reservation.\n\n${details(ctx, r, v.confirmation, day, time, party, v.special_request, v.occasion)}\n\nTableTime`, icsFor(ctx, r, v.confirmation, day, time, party));
}

/** The late-cancellation fee if `v` were cancelled now (0 outside the window or when the restaurant charges none). */
export function cancelFee(ctx: DiningContext, v: ReservationRow): number {
  if (!v.late_cancel_cents || v.status === "requested") return 0;
  const hoursLeft = (Date.parse(`${v.day}T${v.time}:00Z`) - Date.parse(`${ctx.nowIn(v.zone)}Z`)) / 3_600_000;
  return hoursLeft < FEE_WINDOW_HOURS ? v.late_cancel_cents * v.party_size : 0;
}

/** Cancel an upcoming reservation. Reserve first: one immediate transaction checks it is still upcoming and marks
 * it cancelled with the late fee due (its table stays held); then a due fee is charged (reference
 * `<confirmation>-LC`); then the table is released and the cancellation mailed. A declined card puts the reservation
 * back as it was. So a cancellation posted twice at once charges at most one fee: the second finds it cancelled.
 * Returns the fee charged (0 for none). */
export async function cancel(ctx: DiningContext, user: User, confirmation: string): Promise<number> {
  const d = db();
  const { v, fee, card } = d.transaction(() => {
    const v = ownUpcoming(ctx, user, confirmation);
    const fee = cancelFee(ctx, v);
    const card = fee > 0 ? (cards(user.id).find((c) => c.id === v.card_id) ?? cards(user.id)[0]) : undefined;
    if (fee > 0 && !card) throw new DiningError("No card on file to pay the late-cancellation fee; call the restaurant.");
    d.prepare("UPDATE reservations SET status = 'cancelled', cancelled_at = ?, cancel_fee_cents = ?, fee_authorization = NULL WHERE id = ?").run(ctx.now, fee, v.id);
    return { v, fee, card };
  }).immediate();
  const r = restaurantById(v.restaurant_id);
  if (fee > 0 && card) {
    try {
      const auth = await chargeCard({ app: "dining", merchant: r.name.toUpperCase(), amount_cents: fee, card_last4: card.last4,
        reference: `${v.confirmation}-LC`, category: "restaurants", memo: `late cancellation, party of ${v.party_size}` });
      d.prepare("UPDATE reservations SET fee_authorization = ? WHERE id = ?").run(auth.authorization, v.id);
    } catch (e) {
      d.prepare("UPDATE reservations SET status = ?, cancelled_at = ?, cancel_fee_cents = ?, fee_authorization = NULL WHERE id = ?").run(v.status, v.cancelled_at, v.cancel_fee_cents, v.id);
      if (e instanceof PaymentDeclined) throw new DiningError(`Your card was declined (${e.message}); the reservation is unchanged.`);
      throw e;
    }
  }
  d.prepare("DELETE FROM table_holds WHERE reservation_id = ?").run(v.id);
  if (v.status === "requested") {
    await mail(user, `Your request to ${r.name} is withdrawn`, `Hi ${user.full_name.split(" ")[0]},\n\nWe've told ${r.name} that you no longer need a table for ${v.party_size} on ${ctx.longDay(v.day)} at ${ctx.time(v.time)} (request ${v.confirmation}).\n\nTableTime`);
    return 0;
  }
  await mail(user, `Your reservation at ${r.name} is cancelled`, `Hi ${user.full_name.split(" ")[0]},\n\nYour reservation ${v.confirmation} at ${r.name} on ${ctx.longDay(v.day)} at ${ctx.time(v.time)} is cancelled.${fee ? `\nA late-cancellation fee of ${ctx.money(fee, r.currency)} was charged to your card.` : ""}\n\nTableTime`, icsFor(ctx, r, v.confirmation, v.day, v.time, v.party_size, true));
  return fee;
}

/** Review a past visit (once per reservation): rating 1-5, 10 to 2,000 characters, stored verbatim. */
export function review(ctx: DiningContext, user: User, confirmation: string, ratingText: string, bodyText: string): void {
  const v = reservation(user.id, confirmation);
  if (!v) throw new DiningError("We couldn't find that reservation.");
  if (v.status !== "completed") throw new DiningError("You can review a visit once you've dined there.");
  if (v.reviewed) throw new DiningError("You've already reviewed this visit.");
  const rating = /^[1-5]$/.test(ratingText) ? Number(ratingText) : 0;
  if (!Number.isInteger(rating) || rating < 1 || rating > 5) throw new DiningError("Choose a rating from 1 to 5 stars.", "rating");
  const body = bodyText.trim();
  if (body.length < 10) throw new DiningError("Tell other diners a little more (at least 10 characters).", "body");
  if (body.length > 2000) throw new DiningError("Keep your review under 2,000 characters.", "body");
  const parts = user.full_name.trim().split(/\s+/);
  try {
    db().prepare(`INSERT INTO reviews (restaurant_id, reservation_id, author, author_city, rating, body, visited, created_at, world_ref)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)`).run(v.restaurant_id, v.id, `${parts[0]} ${(parts[parts.length - 1] ?? "")[0] ?? ""}.`, user.home_city, rating, body, v.day.slice(0, 7), ctx.now);
  } catch (e) {
    if (e instanceof Error && /UNIQUE/.test(e.message)) throw new DiningError("You've already reviewed this visit.");
    throw e;
  }
}

/** Save (`on`) or unsave a restaurant. */
export function setFavourite(ctx: DiningContext, user: User, slug: string, on: boolean): Restaurant {
  const r = restaurantBySlug(slug);
  if (!r) throw new DiningError("We couldn't find that restaurant.");
  if (on) db().prepare("INSERT OR IGNORE INTO favourites (user_id, restaurant_id, created_at, world_ref) VALUES (?, ?, ?, NULL)").run(user.id, r.id, ctx.now);
  else db().prepare("DELETE FROM favourites WHERE user_id = ? AND restaurant_id = ?").run(user.id, r.id);
  return r;
}
