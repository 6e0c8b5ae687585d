/**
 * ZipRide's fare estimate: the same functions as builder/world/geo.py (the world's rides were priced
 * by them), so an estimate here equals what the history shows for the same two places.
 *
 * Road distance = haversine distance x CIRCUITY (1.3, the middle of the 1.2-1.4 circuity factors
 * published for US and European road networks: Ballou, Rahardja & Sakai 2002; Giacomin & Levinson 2015),
 * in tenths of a mile, at least 0.5 mi. Ride time: 2 min to pull in and out, the first 5 miles at 15 mph,
 * the rest at 30 mph. Fare: $2.75 base + $1.35/mile + $0.32/min + $2.45 booking fee (cents, half up);
 * a ride type scales base, distance and time by its price_percent (booking fee unscaled). In a currency other than
 * USD, GBP and EUR the figures are the dollar ones at the exchange rate ({@link Tariff}).
 */

export const CIRCUITY = 1.3;
const EARTH_RADIUS_KM = 6371.0;
const KM_PER_MILE = 1.609344;
export const BASE_CENTS = 275;
export const PER_MILE_CENTS = 135;
export const PER_MINUTE_CENTS = 32;
export const BOOKING_FEE_CENTS = 245;
const DEG = Math.PI / 180; // as Python's math.radians

export interface Point {
  lat: number;
  lon: number;
}

/** Great-circle distance in km (R = 6371 km), computed in the same order as geo.haversine_km. */
export function haversineKm(a: Point, b: Point): number {
  const p1 = a.lat * DEG;
  const p2 = b.lat * DEG;
  const dp = p2 - p1;
  const dl = (b.lon - a.lon) * DEG;
  const h = Math.sin(dp / 2) ** 2 + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

/** Python's round() for the values met here (ties to even). */
function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** Road distance in tenths of a mile (geo.road_tenths). */
export function roadTenths(a: Point, b: Point): number {
  return Math.max(5, roundHalfEven(((haversineKm(a, b) * CIRCUITY) / KM_PER_MILE) * 10));
}

/** Ride time in whole minutes for `tenths` of a mile (geo.ride_minutes). */
export function rideMinutes(tenths: number): number {
  const city = Math.min(tenths, 50);
  const rest = tenths - city;
  const tenthMinutes = 20 + city * 4 + rest * 2;
  return Math.floor((tenthMinutes + 5) / 10);
}

export interface FareParts {
  base_cents: number;
  distance_cents: number;
  time_cents: number;
  booking_fee_cents: number;
  fare_cents: number;
}

/**
 * The tariff's figures in the rider's currency (the meta table's `fare_rate` and `unit_cents`, written by
 * apps/rides/seed.py): the constants above are US cents and stand as they are in USD, GBP and EUR (rate "1", unit 1);
 * in any other currency a figure is the dollar figure at `rate` (units of the currency a US dollar's worth buys, a
 * decimal string: builder/reference/prices.py living_rate) rounded half up to the currency's smallest unit, `unit`
 * cents (100 for whole yen, pesos, CFA francs).
 */
export interface Tariff {
  rate: string;
  unit: number;
}

export const AS_WRITTEN: Tariff = { rate: "1", unit: 1 };

/** Significant digits of Python's default decimal context, in which prices.figure multiplies. */
const DECIMAL_DIGITS = 28;

/** `usdCents` (a non-negative whole number) in the tariff's currency, exactly as prices.figure has it: the product
 * with the rate kept to 28 significant digits (half to even, as Python's Decimal), then half up to the unit. */
export function figure(usdCents: number, tariff: Tariff): number {
  const [whole, frac = ""] = tariff.rate.split(".");
  let num = BigInt(usdCents) * BigInt(`${whole}${frac}`);
  const digits = num.toString().length;
  if (digits > DECIMAL_DIGITS) {
    const drop = BigInt(10) ** BigInt(digits - DECIMAL_DIGITS);
    let q = num / drop;
    const twice = BigInt(2) * (num % drop);
    if (twice > drop || (twice === drop && q % BigInt(2) === BigInt(1))) q += BigInt(1);
    num = q * drop;
  }
  const den = BigInt(10) ** BigInt(frac.length) * BigInt(tariff.unit);
  return Number((BigInt(2) * num + den) / (BigInt(2) * den)) * tariff.unit;
}

/** The fare breakdown at `percent` of the Zip price in the tariff's currency (apps/rides/seed.py fare_parts): the
 * dollar parts scaled half up; in another currency each part and the fare converted ({@link figure}) and the booking
 * fee what the converted parts leave of the converted fare. */
export function fareParts(tenths: number, minutes: number, percent = 100, tariff: Tariff = AS_WRITTEN): FareParts {
  const scale = (x: number) => Math.floor((x * percent + 50) / 100);
  const usd = [scale(BASE_CENTS), scale(Math.floor((PER_MILE_CENTS * tenths + 5) / 10)), scale(PER_MINUTE_CENTS * minutes)];
  const [base, distance, time] = usd.map((x) => figure(x, tariff));
  const fare = figure(usd[0] + usd[1] + usd[2] + BOOKING_FEE_CENTS, tariff);
  return { base_cents: base, distance_cents: distance, time_cents: time, booking_fee_cents: fare - base - distance - time, fare_cents: fare };
}

/** FNV-1a (32 bit) of a string: the deterministic source of ETAs. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Minutes until a car of a type reaches `address` at local time `now`: 2-8 min from the FNV-1a of the
 * address and the 5-minute slot of the clock, plus the type's extra minutes (fewer such cars around).
 */
export function etaMinutes(address: string, now: string, extra: number): number {
  const slot = `${now.slice(0, 14)}${String(Math.floor(Number(now.slice(14, 16)) / 5) * 5).padStart(2, "0")}`;
  return 2 + (fnv1a(`${address}|${slot}`) % 7) + extra;
}
