/**
 * Money and date formatting shared by every app clone.
 *
 * Money is always integer minor units (cents); dates and times are the local
 * wall-clock ISO strings the Python side writes (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS`),
 * formatted without ever being shifted through the host's time zone.
 */

export interface MoneyOptions {
  currency: string;
  /** BCP 47 tag (`en-US`) or a POSIX-style locale (`en_US`). */
  locale: string;
  /** `auto` (default): "-$1.00"; `always`: "+$1.00"; `never`: "$1.00". */
  signDisplay?: "auto" | "always" | "never" | "exceptZero";
}

/** Turn `en_US` or `en_US.UTF-8` into `en-US`; fall back to `en-US` on anything Intl refuses. */
export function localeTag(locale: string | undefined | null): string {
  const tag = (locale || "en-US").split(".")[0].replace(/_/g, "-");
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? "en-US";
  } catch {
    return "en-US";
  }
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string, locale: string, signDisplay: MoneyOptions["signDisplay"]): Intl.NumberFormat {
  const key = `${locale}|${currency}|${signDisplay}`;
  let f = moneyFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(localeTag(locale), { style: "currency", currency, signDisplay });
    moneyFormats.set(key, f);
  }
  return f;
}

/** Currencies CLDR 48 writes in whole units where older ICU data still has two decimals (builder/money.py). */
const WHOLE_IN_NEWER_CLDR = new Set(["PKR"]);

/**
 * Whether `currency` has no minor units as the project prices it (builder/money.py `precision`): yen, Colombian
 * pesos, CFA francs (ICU's currency digits) and Pakistani rupees. An unknown code has minor units.
 */
export function wholeUnits(currency: string): boolean {
  if (WHOLE_IN_NEWER_CLDR.has(currency)) return true;
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits === 0;
  } catch {
    return false;
  }
}

/** Non-negative cents rounded half up to the currency's smallest unit (builder/money.py `to_unit`): 12350 JPY -> 12400. */
export function toUnit(cents: number, currency: string): number {
  return wholeUnits(currency) ? Math.floor((cents + 50) / 100) * 100 : Math.round(cents);
}

/** Non-negative cents floored to the currency's smallest unit (builder/money.py `floor_unit`): 1299 JPY -> 1200. */
export function floorUnit(cents: number, currency: string): number {
  return wholeUnits(currency) ? Math.floor(cents / 100) * 100 : Math.floor(cents);
}

/**
 * Format integer cents (hundredths of the major unit, whatever the currency: the project's convention, see
 * builder/money.py): `formatMoney(-41218, {currency: "USD", locale: "en-US"})` is "-$412.18",
 * `formatMoney(185000, {currency: "JPY", locale: "en-US"})` is "¥1,850" (Intl drops the decimals yen lack).
 */
export function formatMoney(cents: number, { currency, locale, signDisplay = "auto" }: MoneyOptions): string {
  return moneyFormat(currency, locale, signDisplay).format(cents / 100);
}

/**
 * Parse a user-typed amount ("1,250.5", "$125", "125.00"; "1.250,50 €" in de-DE) into integer
 * minor units. The locale's decimal separator wins; a lone other separator followed by one or
 * two digits at the end is read as a decimal point too ("125.50" in de-DE, "125,50" in en-US).
 * Returns null for anything that is not a plain non-negative amount with at most two decimals.
 */
export function parseMoney(input: string | null | undefined, locale = "en-US"): number | null {
  if (input == null) return null;
  const parts = new Intl.NumberFormat(localeTag(locale)).formatToParts(1234.5);
  const dec = parts.find((p) => p.type === "decimal")?.value ?? ".";
  const other = dec === "," ? "." : ",";
  let s = String(input).trim();
  // A currency sign or ISO code may lead or trail the number ("$12.50", "12,50 €", "USD 12.50"); nothing else may.
  s = s.replace(/^(?:\p{Sc}|[A-Z]{3})\s*/u, "").replace(/\s*(?:\p{Sc}|[A-Z]{3})$/u, "");
  // Spaces and apostrophes only as thousands separators between groups of three ("1 234,50", "1'234.50").
  const SEP = /[\s\u00a0\u202f'’]/;
  if (SEP.test(s)) {
    if (!/^\d{1,3}(?:[\s\u00a0\u202f'’]\d{3})+(?:[.,]\d{0,2})?$/.test(s)) return null;
    s = s.replace(/[\s\u00a0\u202f'’]/g, "");
  }
  if (/[^\d.,]/.test(s)) return null;
  if (!s.includes(dec) && new RegExp(`\\${other}\\d{1,2}$`).test(s) && s.split(other).length === 2) {
    s = s.replace(other, dec);
  }
  // Drop grouping separators (the non-decimal one) when they sit between groups of three.
  if (new RegExp(`^\\d{1,3}(\\${other}\\d{3})+(\\${dec}\\d{0,2})?$`).test(s)) s = s.split(other).join("");
  s = s.replace(dec, ".");
  if (!/^\d+(\.\d{0,2})?$|^\.\d{1,2}$/.test(s)) return null;
  const [whole, frac = ""] = s.split(".");
  const cents = Number(whole || "0") * 100 + Number((frac + "00").slice(0, 2));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Split `YYYY-MM-DD[THH:MM[:SS]]` into numbers; null when malformed. */
function parts(iso: string): [number, number, number, number, number] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(iso || "");
  if (!m) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0)];
}

/** Format a local date (or the date part of a local timestamp): "Nov 16, 2026" in en-US. */
export function formatDate(iso: string, locale: string, style: "short" | "medium" | "long" = "medium"): string {
  const p = parts(iso);
  if (!p) return iso;
  // Build the instant at UTC and format it in UTC, so the host's zone never shifts the day.
  const d = new Date(Date.UTC(p[0], p[1] - 1, p[2], p[3], p[4]));
  return new Intl.DateTimeFormat(localeTag(locale), { dateStyle: style, timeZone: "UTC" }).format(d);
}

/** Format a local timestamp: "Nov 16, 2026, 9:05 AM" in en-US. */
export function formatDateTime(iso: string, locale: string): string {
  const p = parts(iso);
  if (!p) return iso;
  const d = new Date(Date.UTC(p[0], p[1] - 1, p[2], p[3], p[4]));
  return new Intl.DateTimeFormat(localeTag(locale), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(d);
}

/** The current wall-clock time in `timeZone` as a local ISO string `YYYY-MM-DDTHH:MM:SS`. */
export function nowLocalISO(timeZone: string, now: Date = new Date()): string {
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  const get = Object.fromEntries(f.formatToParts(now).map((x) => [x.type, x.value]));
  return `${get.year}-${get.month}-${get.day}T${get.hour}:${get.minute}:${get.second}`;
}

/** Mask an account or card number down to its last `visible` digits: "••••1744". */
export function maskNumber(number: string, visible = 4): string {
  const digits = String(number ?? "").replace(/\s/g, "");
  return `••••${digits.slice(-visible)}`;
}
