/**
 * Bramblestay's prices: pure functions of the seeded inventory and the dates (no database here).
 *
 * Nightly price of a room on night `d` (YYYY-MM-DD, the night starting that day):
 *   base_rate_cents x factor_pct / 100 x 1.15 on Friday and Saturday nights x 1.2 in the city's high-season months,
 *   rounded to whole currency units; the non-refundable rate (hotels only) is 12 % less, rounded likewise.
 * A stay's total = room subtotal + taxes (city tax_bp of the subtotal) + fees (city fee per night; rentals add
 * the cleaning fee and a 12 % service fee of the subtotal).
 * Free cancellation ends `hours` before check-in at 15:00 in the city's zone (flexible 48 h, moderate 120 h).
 * Amounts are cents (hundredths of a unit) of the city's own currency; in a currency without minor units (the yen)
 * taxes and the service fee are rounded to whole units too (as apps/stays/rates.py).
 */

export const WEEKEND = 1.15;
export const HIGH_SEASON = 1.2;
export const NONREFUNDABLE = 0.88;
export const SERVICE_FEE = 0.12;
export const POLICY_HOURS: Record<string, number | null> = { flexible: 48, moderate: 120, nonrefundable: null };
export const MAX_NIGHTS = 30;

export interface PriceInputs {
  base_rate_cents: number;
  factor_pct: number;
  /** Comma-separated high-season months ("6,7,8"). */
  season: string;
  tax_bp: number;
  city_fee_cents: number;
  kind: string;
  cleaning_fee_cents: number;
  /** ISO code the city prices in (a currency without minor units, see wholeUnits, rounds taxes and fees to whole units). */
  currency?: string;
}

/** Currencies CLDR 48 writes in whole units where older ICU data still has two decimals (builder/money.py). */
const WHOLE_IN_NEWER_CLDR = new Set(["PKR"]);

/**
 * Whether `currency` has no minor units as the project prices it (builder/money.py `precision`): yen, pesos of
 * Colombia, CFA francs (ICU's currency digits), and the rupee of Pakistan. An unknown code has minor units.
 */
export function wholeUnits(currency: string): boolean {
  if (WHOLE_IN_NEWER_CLDR.has(currency)) return true;
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits === 0;
  } catch {
    return false;
  }
}

export interface Quote {
  nights: { night: string; cents: number }[];
  subtotal_cents: number;
  taxes_cents: number;
  city_fee_cents: number;
  cleaning_fee_cents: number;
  service_fee_cents: number;
  fees_cents: number;
  total_cents: number;
  /** Average nightly room price (rounded). */
  nightly_cents: number;
}

const units = (cents: number) => Math.round(cents / 100) * 100;

/** A valid calendar date `YYYY-MM-DD`? */
export function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** `day` plus `n` days. */
export function plusDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Nights between two dates (check-out minus check-in). */
export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round((Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`)) / 86_400_000);
}

/** The nights of a stay: each date from check-in up to (not including) check-out. */
export function stayNights(checkIn: string, checkOut: string): string[] {
  const out: string[] = [];
  for (let d = checkIn; d < checkOut; d = plusDays(d, 1)) out.push(d);
  return out;
}

/** The room price of one night (see the module comment). */
export function nightPrice(p: Pick<PriceInputs, "base_rate_cents" | "factor_pct" | "season">, night: string, plan: string): number {
  const d = new Date(`${night}T00:00:00Z`);
  let cents = (p.base_rate_cents * p.factor_pct) / 100;
  const dow = d.getUTCDay();
  if (dow === 5 || dow === 6) cents *= WEEKEND;
  const months = p.season.split(",").map(Number);
  if (months.includes(d.getUTCMonth() + 1)) cents *= HIGH_SEASON;
  cents = units(cents);
  if (plan === "nonrefundable") cents = units(cents * NONREFUNDABLE);
  return cents;
}

/** The full price of a stay on `plan`. */
export function quote(p: PriceInputs, checkIn: string, checkOut: string, plan: string): Quote {
  const nights = stayNights(checkIn, checkOut).map((night) => ({ night, cents: nightPrice(p, night, plan) }));
  const subtotal = nights.reduce((s, n) => s + n.cents, 0);
  const part = p.currency && wholeUnits(p.currency) ? units : Math.round;
  const taxes = part((subtotal * p.tax_bp) / 10_000);
  const cityFee = p.city_fee_cents * nights.length;
  const cleaning = p.kind === "rental" ? p.cleaning_fee_cents : 0;
  const service = p.kind === "rental" ? part(subtotal * SERVICE_FEE) : 0;
  const fees = cityFee + cleaning + service;
  return {
    nights,
    subtotal_cents: subtotal,
    taxes_cents: taxes,
    city_fee_cents: cityFee,
    cleaning_fee_cents: cleaning,
    service_fee_cents: service,
    fees_cents: fees,
    total_cents: subtotal + taxes + fees,
    nightly_cents: nights.length ? Math.round(subtotal / nights.length) : 0,
  };
}

function offsetMs(zone: string, utcMs: number): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" })
      .formatToParts(new Date(utcMs))
      .map((x) => [x.type, x.value]),
  );
  const asUtc = Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}Z`);
  return asUtc - utcMs;
}

/** The instant (ms since epoch) of naive local `YYYY-MM-DDTHH:MM:SS` in `zone`. */
export function zonedInstant(naive: string, zone: string): number {
  const guess = Date.parse(`${naive.slice(0, 19)}Z`);
  const first = guess - offsetMs(zone, guess);
  return guess - offsetMs(zone, first);
}

/** Instant `ms` as naive local ISO in `zone` (seconds kept). */
export function localAt(ms: number, zone: string): string {
  return new Date(ms + offsetMs(zone, ms)).toISOString().slice(0, 19);
}

/** Free-cancellation deadline of a stay: `hours` before 15:00 on `checkIn` in `cityZone`, as naive local time of
 * `personaZone`; null when the plan has none (non-refundable). */
export function cancelDeadline(checkIn: string, cityZone: string, personaZone: string, plan: string): string | null {
  const hours = POLICY_HOURS[plan];
  if (hours == null) return null;
  const start = zonedInstant(`${checkIn}T15:00:00`, cityZone);
  return localAt(start - hours * 3_600_000, personaZone);
}
