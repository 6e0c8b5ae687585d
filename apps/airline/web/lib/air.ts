import { db } from "./db";
import type { AirContext } from "./context";
import { addDays, awareIso, day, instant, julian, localToUtcMs, utcIso } from "./time";

/** A refused request: `message` is shown to the user; nothing was written. */
export class AirError extends Error {
  constructor(message: string, readonly field?: string) {
    super(message);
  }
}

export interface Booking {
  id: number; pnr: string; status: string; fare_family: string; destination: string; trip_type: string;
  passengers: number; fare_per_passenger_cents: number; base_fare_cents: number; taxes_cents: number;
  carrier_fees_cents: number; total_cents: number; card_id: number; booked_at: string; changed_at: string | null;
  cancelled_at: string | null; credit_cents: number; refund_cents: number; world_ref: string | null;
}
export interface Passenger { id: number; booking_id: number; position: number; full_name: string; given_name: string; surname: string; ticket_number: string; loyalty_number: string | null; bcbp_name: string }
export interface Segment {
  id: number; booking_id: number; position: number; direction: string; leg: number; flight_number: string; origin: string;
  destination: string; dep_local: string; arr_local: string; dep_utc: string; arr_utc: string; duration_minutes: number;
  distance_miles: number; aircraft: string; gate: string | null; boarding_group: number; status: string;
  /** The flight this leg replaced when the airline changed the schedule (NULL otherwise). */
  was_flight_number: string | null; was_dep_local: string | null;
  /** The leg's fare family when it differs from the booking's (app bookings; NULL: the booking's). */
  fare_family: string | null;
  /** One-way fare per passenger of this leg's journey (app bookings; NULL for seeded legs). */
  fare_cents: number | null;
}
export interface SeatRow { id: number; segment_id: number; passenger_id: number; seat: string; checked_in_at: string | null; sequence: number | null; changed_at: string | null }
export interface Family { code: string; name: string; cabin: string; multiplier: number; changeable: number; cancel: string; seat_selection: number; carry_on: number; checked_bags: number; bag_kg: number; miles_percent: number }
export interface Airport { code: string; name: string; city: string; timezone: string }
export interface Card { id: number; account: string; brand: string; last4: string; holder: string; expiry: string; label: string; is_default: number }

export function airports(): Airport[] {
  return db().prepare("SELECT code, name, city, timezone FROM airports ORDER BY city, code").all() as Airport[];
}
export function airport(code: string): Airport | undefined {
  return db().prepare("SELECT code, name, city, timezone FROM airports WHERE code = ?").get(code) as Airport | undefined;
}
export function families(): Family[] {
  return db().prepare("SELECT * FROM fare_families ORDER BY position").all() as Family[];
}
export function family(code: string): Family {
  return db().prepare("SELECT * FROM fare_families WHERE code = ?").get(code) as Family;
}
/** The fare family `code` names, or undefined (for input). */
export function familyNamed(code: string): Family | undefined {
  return /^[A-Z]{1,12}$/.test(code) ? (db().prepare("SELECT * FROM fare_families WHERE code = ?").get(code) as Family | undefined) : undefined;
}
/** The fare family a leg flies in: its own (a booking may mix families by direction), else the booking's. */
export function familyOf(b: Booking, seg: Pick<Segment, "fare_family">): Family {
  return family(seg.fare_family ?? b.fare_family);
}
/** Each journey (direction) of a booking with its legs, fare family and one-way fare per passenger (null when
 * the booking does not record it: a seeded trip). */
export function journeysOf(b: Booking, segs: Segment[] = segmentsOf(b.id)): { direction: string; legs: Segment[]; family: Family; fare: number | null }[] {
  return ["outbound", "return"].flatMap((direction) => {
    const legs = segs.filter((s) => s.direction === direction);
    return legs.length ? [{ direction, legs, family: familyOf(b, legs[0]), fare: legs[0].fare_cents }] : [];
  });
}
/** The fare per passenger a journey was last priced at: its recorded fare, else (a seeded trip) half of a round
 * trip's fare or the whole of a one-way's. */
export function journeyFare(b: Booking, legs: Segment[]): number {
  if (legs[0]?.fare_cents != null) return legs[0].fare_cents;
  return b.trip_type === "round_trip" ? Math.floor(b.fare_per_passenger_cents / 2) : b.fare_per_passenger_cents;
}
export function cards(userId: number): Card[] {
  return db().prepare("SELECT * FROM cards WHERE user_id = ? ORDER BY is_default DESC, id").all(userId) as Card[];
}

/** Booking of `pnr` for user (not one still waiting for the bank), or an AirError. */
export function bookingByPnr(userId: number, pnr: string): Booking {
  const b = /^[A-Z0-9]{6}$/.test(pnr) ? (db().prepare("SELECT * FROM bookings WHERE pnr = ? AND user_id = ? AND status != 'pending'").get(pnr, userId) as Booking | undefined) : undefined;
  if (!b) throw new AirError("We couldn't find a trip with that confirmation code.", "pnr");
  return b;
}
export function passengersOf(bookingId: number): Passenger[] {
  return db().prepare("SELECT * FROM passengers WHERE booking_id = ? ORDER BY position").all(bookingId) as Passenger[];
}
export function segmentsOf(bookingId: number): Segment[] {
  return db().prepare("SELECT * FROM segments WHERE booking_id = ? ORDER BY dep_utc, position").all(bookingId) as Segment[];
}
export function seatsOf(segmentId: number): SeatRow[] {
  return db().prepare("SELECT s.* FROM seats s JOIN passengers p ON p.id = s.passenger_id WHERE s.segment_id = ? ORDER BY p.position").all(segmentId) as SeatRow[];
}

/** What My Trips calls the booking at `ctx.now`: cancelled, past (its last flight has landed) or upcoming. */
export function tripStatus(ctx: AirContext, b: Booking, segs: Segment[]): "upcoming" | "past" | "cancelled" {
  if (b.status === "cancelled") return "cancelled";
  const last = Math.max(...segs.map((s) => instant(s.arr_utc)));
  return last <= ctx.nowMs ? "past" : "upcoming";
}

export interface Trip { booking: Booking; segments: Segment[]; status: "upcoming" | "past" | "cancelled" }

/** Every booking of the user with its segments and status, upcoming soonest first, past latest first. */
export function trips(ctx: AirContext, userId: number): Trip[] {
  const bs = db().prepare("SELECT * FROM bookings WHERE user_id = ? AND status != 'pending' ORDER BY id").all(userId) as Booking[];
  const out = bs.map((booking) => {
    const segments = segmentsOf(booking.id);
    return { booking, segments, status: tripStatus(ctx, booking, segments) };
  });
  return out.sort((a, b) => {
    const da = instant(a.segments[0]?.dep_utc ?? "1970-01-01T00:00:00Z");
    const dbb = instant(b.segments[0]?.dep_utc ?? "1970-01-01T00:00:00Z");
    return a.status === "upcoming" ? da - dbb : dbb - da;
  });
}

/* ------------------------------------------------------------------ hashes (deterministic draws) */

/** FNV-1a 32-bit of `text`: the app's deterministic draws (seeded by meta.seat_salt). */
export function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/* ------------------------------------------------------------------ seat maps */

export interface Aircraft { name: string; business_rows: string; business_letters: string; economy_rows: string; economy_letters: string; exit_rows: string }
export interface SeatCell { seat: string; state: "free" | "taken" | "mine" | "companion"; exit: boolean; kind: "window" | "aisle" | "middle" }
export interface CabinMap { cabin: "business" | "economy"; letters: string; rows: { row: number; cells: (SeatCell | null)[] }[] }

function range(spec: string): number[] {
  const [a, b] = spec.split("-").map(Number);
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

/** window/aisle/middle of a letter in a layout like `ABC|DEF`. */
function seatKind(letters: string, letter: string): SeatCell["kind"] {
  const groups = letters.split("|");
  const gi = groups.findIndex((g) => g.includes(letter));
  const g = groups[gi];
  const i = g.indexOf(letter);
  if ((gi === 0 && i === 0) || (gi === groups.length - 1 && i === g.length - 1)) return "window";
  if ((i === 0 && gi > 0) || (i === g.length - 1 && gi < groups.length - 1)) return "aisle";
  return "middle";
}

export function aircraftOf(name: string): Aircraft {
  return db().prepare("SELECT * FROM aircraft WHERE name = ?").get(name) as Aircraft;
}

/** Is `seat` a seat of `aircraft` in `cabin`? */
export function seatExists(ac: Aircraft, cabin: string, seat: string): boolean {
  const m = /^(\d{1,2})([A-K])$/.exec(seat);
  if (!m) return false;
  const rows = range(cabin === "business" ? ac.business_rows : ac.economy_rows);
  const letters = (cabin === "business" ? ac.business_letters : ac.economy_letters).replace(/\|/g, "");
  return rows.includes(Number(m[1])) && letters.includes(m[2]);
}

/** The flight's date at origin (`YYYY-MM-DD`) from an aware ISO departure. */
export function flightDate(depLocal: string): string {
  return depLocal.slice(0, 10);
}

/** Seats other travellers hold on `flight` leaving on `date`: a deterministic draw (45-75 % load), plus the
 * seats of this app's other live bookings on the same flight. `exceptSegment`: the segment whose seats are "mine". */
export function takenSeats(ctx: AirContext, ac: Aircraft, flight: string, date: string, exceptSegment?: number): Set<string> {
  const taken = new Set<string>();
  const load = 45 + (fnv(`${ctx.salt}|load|${flight}|${date}`) % 31);
  for (const cabin of ["business", "economy"]) {
    const letters = (cabin === "business" ? ac.business_letters : ac.economy_letters).replace(/\|/g, "");
    for (const row of range(cabin === "business" ? ac.business_rows : ac.economy_rows)) {
      for (const l of letters) {
        if (fnv(`${ctx.salt}|seat|${flight}|${date}|${row}${l}`) % 100 < load) taken.add(`${row}${l}`);
      }
    }
  }
  const mine = db().prepare(
    `SELECT t.seat, t.segment_id FROM seats t JOIN segments s ON s.id = t.segment_id JOIN bookings b ON b.id = s.booking_id
     WHERE s.flight_number = ? AND substr(s.dep_local, 1, 10) = ? AND b.status != 'cancelled'`,
  ).all(flight, date) as { seat: string; segment_id: number }[];
  for (const r of mine) {
    if (r.segment_id === exceptSegment) taken.delete(r.seat);
    else taken.add(r.seat);
  }
  return taken;
}

/** The seat map of a segment's cabin: free, taken, the passenger's own and the companions' seats. */
export function seatMap(ctx: AirContext, seg: Segment, cabin: string, mine: string, companions: string[]): CabinMap {
  const ac = aircraftOf(seg.aircraft);
  const taken = takenSeats(ctx, ac, seg.flight_number, flightDate(seg.dep_local), seg.id);
  const letters = cabin === "business" ? ac.business_letters : ac.economy_letters;
  const exits = new Set(ac.exit_rows.split(",").map(Number));
  const rows = range(cabin === "business" ? ac.business_rows : ac.economy_rows).map((row) => ({
    row,
    cells: [...letters].map((l) => {
      if (l === "|") return null;
      const seat = `${row}${l}`;
      const state: SeatCell["state"] = seat === mine ? "mine" : companions.includes(seat) ? "companion" : taken.has(seat) ? "taken" : "free";
      return { seat, state, exit: cabin === "economy" && exits.has(row), kind: seatKind(letters, l) };
    }),
  }));
  return { cabin: cabin as CabinMap["cabin"], letters, rows };
}

/** Free seats of a cabin in map order. */
function freeSeats(ctx: AirContext, ac: Aircraft, flight: string, date: string, cabin: string, holding: Set<string>): string[] {
  const taken = takenSeats(ctx, ac, flight, date);
  const letters = cabin === "business" ? ac.business_letters : ac.economy_letters;
  const out: string[] = [];
  for (const row of range(cabin === "business" ? ac.business_rows : ac.economy_rows)) {
    for (const l of letters.replace(/\|/g, "")) if (!taken.has(`${row}${l}`) && !holding.has(`${row}${l}`)) out.push(`${row}${l}`);
  }
  return out;
}

/** Seats for `n` travellers, the first by `pref` (window/aisle/middle) where one is free, the others next to it if possible. */
export function assignSeats(ctx: AirContext, acName: string, flight: string, date: string, cabin: string, n: number, pref: string): string[] {
  const ac = aircraftOf(acName);
  const letters = cabin === "business" ? ac.business_letters : ac.economy_letters;
  const free = freeSeats(ctx, ac, flight, date, cabin, new Set());
  if (free.length < n) throw new AirError("There are not enough seats left on that flight.");
  const kindOf = (s: string) => seatKind(letters, s.replace(/^\d+/, ""));
  const first = free.find((s) => kindOf(s) === pref) ?? free[0];
  const out = [first];
  const row = first.replace(/\D/g, "");
  for (const s of free) {
    if (out.length >= n) break;
    if (!out.includes(s) && s.replace(/\D/g, "") === row) out.push(s);
  }
  for (const s of free) {
    if (out.length >= n) break;
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

/** Remaining seats of a cabin on a flight. */
export function seatsLeft(ctx: AirContext, acName: string, flight: string, date: string, cabin: string): number {
  const ac = aircraftOf(acName);
  return freeSeats(ctx, ac, flight, date, cabin, new Set()).length;
}

/* ------------------------------------------------------------------ schedule and fares */

interface RouteRow { id: number; origin: string; destination: string; via: string | null; numbers: string; slots: string; minutes: number; distance_km: number; aircraft: string | null; base_fare_cents: number }

function route(a: string, b: string): RouteRow | undefined {
  return db().prepare("SELECT * FROM routes WHERE origin = ? AND destination = ?").get(a, b) as RouteRow | undefined;
}

/** Destinations served nonstop or with one stop from `origin`. */
export function destinationsFrom(origin: string): string[] {
  return (db().prepare("SELECT destination FROM routes WHERE origin = ? ORDER BY destination").all(origin) as { destination: string }[]).map((r) => r.destination);
}

export interface Leg { flight: string; origin: string; destination: string; dep_local: string; arr_local: string; dep_utc: string; arr_utc: string; minutes: number; aircraft: string; km: number }
export interface Option { key: string; legs: Leg[]; economy: number; fares: Record<string, number>; seatsEconomy: number; seatsBusiness: number }

function legsOn(r: RouteRow, date: string): Leg[] {
  const o = airport(r.origin)!, d = airport(r.destination)!;
  const numbers = r.numbers.split(",");
  return r.slots.split(",").map((slot, k) => {
    const dep = localToUtcMs(`${date}T${slot}:00`, o.timezone);
    const arr = dep + r.minutes * 60_000;
    return { flight: `MR ${numbers[k]}`, origin: r.origin, destination: r.destination, dep_local: awareIso(dep, o.timezone), arr_local: awareIso(arr, d.timezone), dep_utc: utcIso(dep), arr_utc: utcIso(arr), minutes: r.minutes, aircraft: r.aircraft ?? "Boeing 737-800", km: r.distance_km };
  });
}

/** One-way fare per passenger of a journey in a family: the route's Economy fare x the date factor (0.85-1.25, a
 * hash of salt, flights and date) x advance purchase (1.15 inside 14 days, 1.30 inside 7) x the family's multiplier;
 * whole units plus the hash's cents, as the world prices fares. */
export function fareFor(ctx: AirContext, base: number, legs: Leg[], fam: Family): number {
  const key = `${ctx.salt}|fare|${legs.map((l) => l.flight).join("+")}|${legs[0].dep_local.slice(0, 10)}`;
  const factor = 0.85 + (fnv(key) % 401) / 1000;
  const days = (instant(legs[0].dep_utc) - ctx.nowMs) / 86_400_000;
  const advance = days < 7 ? 1.3 : days < 14 ? 1.15 : 1;
  const cents = Math.floor((base * factor * advance * fam.multiplier) / 100) * 100;
  return cents + (fnv(`${key}|cents|${fam.code}`) % 100);
}

/** How far ahead the schedule is published (days after today, today included): search shows and the app sells
 * no departure after that. */
export const SCHEDULE_DAYS = 330;

/** The last departure date on sale (`YYYY-MM-DD`, local at the origin): today + SCHEDULE_DAYS. */
export function lastBookableDate(ctx: AirContext): string {
  return addDays(ctx.now.slice(0, 10), SCHEDULE_DAYS);
}

/** A real calendar date `YYYY-MM-DD` (not 2026-02-30)? */
export function isDate(text: string): boolean {
  if (!/^\d{4}-\d\d-\d\d$/.test(text)) return false;
  const [y, m, d] = text.split("-").map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Why a departure date can't be searched or sold (a sentence), or "" when it is on the published schedule:
 * a real date from today (the persona's) through lastBookableDate. */
export function dateProblem(ctx: AirContext, date: string): string {
  if (!isDate(date)) return "Choose a departure date.";
  if (date < ctx.now.slice(0, 10)) return "Choose a departure date from today on.";
  const last = lastBookableDate(ctx);
  if (date > last) return `Our schedule is published ${SCHEDULE_DAYS} days ahead, through ${day(last, ctx.locale)}: choose a date up to then.`;
  return "";
}

/** Every departure of `origin` -> `destination` on `date` (local at origin): nonstop, or via the route's hub with the
 * first connection at least 60 minutes after landing (up to 6 h). Sorted by departure; departures before now are left
 * out, and a date after the published schedule (lastBookableDate) has none. */
export function options(ctx: AirContext, origin: string, destination: string, date: string): Option[] {
  const r = route(origin, destination);
  // (A day before the persona's today still has departures ahead at origins west of the persona.)
  if (!r || !isDate(date) || date < addDays(ctx.now.slice(0, 10), -1) || date > lastBookableDate(ctx)) return [];
  let journeys: Leg[][];
  if (!r.via) journeys = legsOn(r, date).map((l) => [l]);
  else {
    const a = route(origin, r.via), b = route(r.via, destination);
    if (!a || !b) return [];
    const second = [...legsOn(b, date), ...legsOn(b, addDays(date, 1))];
    journeys = [];
    for (const l1 of legsOn(a, date)) {
      const l2 = second.find((l) => instant(l.dep_utc) >= instant(l1.arr_utc) + 60 * 60_000 && instant(l.dep_utc) <= instant(l1.arr_utc) + 6 * 3600_000);
      if (l2) journeys.push([l1, l2]);
    }
  }
  const fams = families();
  return journeys
    .filter((legs) => instant(legs[0].dep_utc) > ctx.nowMs + 60 * 60_000)
    .map((legs) => {
      const fares: Record<string, number> = {};
      for (const f of fams) fares[f.code] = fareFor(ctx, r.base_fare_cents, legs, f);
      const left = (cabin: string) => Math.min(...legs.map((l) => seatsLeft(ctx, l.aircraft, l.flight, flightDate(l.dep_local), cabin)));
      return { key: legs.map((l) => `${l.flight.replace("MR ", "")}@${l.dep_local.slice(0, 10)}`).join("+"), legs, economy: fares.MAIN, fares, seatsEconomy: left("economy"), seatsBusiness: left("business") };
    });
}

/** The option `key` (from `options`) of a route, or an AirError. */
export function optionByKey(ctx: AirContext, origin: string, destination: string, key: string): Option {
  if (!/^\d{1,5}@\d{4}-\d\d-\d\d(\+\d{1,5}@\d{4}-\d\d-\d\d)?$/.test(key)) throw new AirError("That flight is not on our schedule.");
  const firstDate = key.split("+")[0].split("@")[1] ?? "";
  if (isDate(firstDate) && firstDate > lastBookableDate(ctx)) throw new AirError(`That flight is not on our schedule. ${dateProblem(ctx, firstDate)}`);
  const o = options(ctx, origin, destination, firstDate).find((x) => x.key === key);
  if (!o) throw new AirError("That flight is not on our schedule or has already left.");
  return o;
}

/* ------------------------------------------------------------------ price split (as apps/airline/network.json documents) */

/** base + taxes + carrier fees of a fare per passenger (cents): segment taxes 1,080 per segment, carrier fees 12 %
 * on international journeys, the rest base + 7.5 % excise. */
export function priceSplit(fare: number, segments: number, international: boolean) {
  const segmentTaxes = 1080 * segments;
  const carrier = international ? Math.round((fare * 12) / 100) : 0;
  const rest = fare - segmentTaxes - carrier;
  const base = Math.round(rest / 1.075);
  return { base_fare_cents: base, taxes_cents: segmentTaxes + rest - base, carrier_fees_cents: carrier };
}

/** Does a journey through `codes` leave the first airport's country? (US zones are one country; elsewhere a zone is.) */
export function isInternational(codes: string[]): boolean {
  const country = (c: string) => {
    const z = airport(c)?.timezone ?? "";
    return /^(America|Pacific)\//.test(z) && !/Toronto|Vancouver|Mexico_City/.test(z) ? "US" : z;
  };
  return codes.some((c) => country(c) !== country(codes[0]));
}

/* ------------------------------------------------------------------ check-in and boarding passes */

export const CHECKIN_OPENS_HOURS = 24;
export const CHECKIN_CLOSES_MINUTES = 45;

/** `open`, or why check-in for `seg` is closed at ctx.now. */
export function checkinWindow(ctx: AirContext, seg: Segment): { open: boolean; opensMs: number; reason: string } {
  const dep = instant(seg.dep_utc);
  const opensMs = dep - CHECKIN_OPENS_HOURS * 3600_000;
  if (seg.status === "cancelled") return { open: false, opensMs, reason: "This flight was cancelled." };
  if (ctx.nowMs < opensMs) return { open: false, opensMs, reason: "Online check-in opens 24 hours before departure." };
  if (ctx.nowMs > dep - CHECKIN_CLOSES_MINUTES * 60_000) return { open: false, opensMs, reason: "Online check-in closed 45 minutes before departure." };
  return { open: true, opensMs, reason: "" };
}

const UMLAUTS: Record<string, string> = { Ä: "AE", Ö: "OE", Ü: "UE", ä: "AE", ö: "OE", ü: "UE", ß: "SS" };

/** Upper-case ASCII letters and spaces of `text` (umlauts written out, accents dropped, punctuation removed), as
 * builder.files.bcbp.fold writes names. */
export function fold(text: string): string {
  let out = "";
  for (const ch of text) {
    if (ch in UMLAUTS) out += UMLAUTS[ch];
    else out += ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toUpperCase().replace(/[^A-Z\s]/g, "").replace(/\s/g, " ");
  }
  return out.split(/\s+/).filter(Boolean).join(" ");
}

/** `SURNAME/GIVEN` of a display name (the last word is the surname). */
export function bcbpName(fullName: string): string {
  const words = fullName.trim().split(/\s+/);
  const surname = fold(words[words.length - 1] ?? ""), given = fold(words.slice(0, -1).join(" "));
  return surname ? (given ? `${surname}/${given}` : surname) : "TRAVELLER";
}

/** Seat as BCBP writes it: `9F` -> `009F`. */
export function bcbpSeat(seat: string): string {
  return seat.padStart(4, "0");
}

/**
 * The IATA BCBP string (Resolution 792, version 6) of one passenger on one leg: the 60-character mandatory part
 * (format M, 1 leg, SURNAME/GIVEN (20), E, PNR (7), from, to, carrier (3), flight (5), Julian date, compartment,
 * seat (4), check-in sequence (5), status, conditional size in hex), then the conditional part (`>6`...).
 */
export function bcbp(p: { name: string; pnr: string; from: string; to: string; carrier: string; flight: string; depLocal: string; compartment: string; seat: string; sequence: number; ticket: string; loyalty: string | null; bags: number; issued: string }): string {
  const name = p.name.slice(0, 20).padEnd(20, " ");
  const num = p.flight.replace(/^[A-Z0-9]{2}\s*/, "");
  const flight = num.padStart(4, "0").padEnd(5, " ");
  const unique = `0WW${p.issued.slice(3, 4)}${String(julian(p.issued)).padStart(3, "0")}B${p.carrier.padEnd(3, " ")}`;
  const repeated = `${p.ticket.slice(0, 3)}${p.ticket.slice(3, 13)}0 ${p.carrier.padEnd(3, " ")}${p.carrier.padEnd(3, " ")}${(p.loyalty ?? "").padEnd(16, " ").slice(0, 16)} ${p.bags}PC N`;
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, "0");
  const conditional = `>6${hex(unique.length)}${unique}${hex(repeated.length)}${repeated}`;
  const mandatory = `M1${name}E${p.pnr.padEnd(7, " ")}${p.from}${p.to}${p.carrier.padEnd(3, " ")}${flight}${String(julian(p.depLocal)).padStart(3, "0")}${p.compartment}${bcbpSeat(p.seat)}${String(p.sequence).padStart(5, "0")}1${hex(conditional.length)}`;
  return mandatory + conditional;
}
