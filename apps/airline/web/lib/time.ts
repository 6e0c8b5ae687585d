/**
 * Times across zones. Segments carry aware ISO strings in the airport's zone
 * (`2026-12-10T15:15:00-08:00`): their wall clock is shown as written, with the zone's
 * abbreviation; instants are compared in epoch milliseconds.
 */

function parts(ms: number, timeZone: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of new Intl.DateTimeFormat("en-CA", {
    timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
  }).formatToParts(new Date(ms))) {
    if (p.type !== "literal") out[p.type] = Number(p.value);
  }
  return out;
}

/** Offset of `timeZone` from UTC at instant `ms`, in minutes (-480 for PST). */
export function offsetMinutes(timeZone: string, ms: number): number {
  const p = parts(ms, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** A naive local time (`YYYY-MM-DDTHH:MM[:SS]`) in `timeZone` as epoch ms. */
export function localToUtcMs(local: string, timeZone: string): number {
  const [d, t = "00:00:00"] = local.split("T");
  const [y, mo, da] = d.split("-").map(Number);
  const [h, mi, s = 0] = t.split(":").map(Number);
  const guess = Date.UTC(y, mo - 1, da, h, mi, s);
  let ms = guess - offsetMinutes(timeZone, guess) * 60_000;
  ms = guess - offsetMinutes(timeZone, ms) * 60_000;
  return ms;
}

function pad(n: number, w = 2): string {
  return String(Math.abs(n)).padStart(w, "0");
}

/** Epoch ms as an aware ISO string in `timeZone`: `2026-12-10T15:15:00-08:00`. */
export function awareIso(ms: number, timeZone: string): string {
  const p = parts(ms, timeZone);
  const off = offsetMinutes(timeZone, ms);
  const sign = off < 0 ? "-" : "+";
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:00${sign}${pad(Math.trunc(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
}

/** `2026-12-10T23:15:00Z` of epoch ms. */
export function utcIso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Epoch ms of an aware ISO string or `...Z`. */
export function instant(iso: string): number {
  return Date.parse(iso);
}

const ABBR: Record<string, [string, string]> = {
  "Europe/London": ["GMT", "BST"], "Europe/Dublin": ["GMT", "IST"], "Europe/Lisbon": ["WET", "WEST"],
  "Europe/Paris": ["CET", "CEST"], "Europe/Amsterdam": ["CET", "CEST"], "Europe/Berlin": ["CET", "CEST"],
  "Europe/Zurich": ["CET", "CEST"], "Europe/Vienna": ["CET", "CEST"], "Europe/Copenhagen": ["CET", "CEST"],
  "Europe/Madrid": ["CET", "CEST"], "Europe/Rome": ["CET", "CEST"], "Europe/Athens": ["EET", "EEST"],
  "Asia/Tokyo": ["JST", "JST"], "America/Mexico_City": ["CST", "CDT"], "Pacific/Honolulu": ["HST", "HST"],
};

/** The zone's abbreviation at `ms`: `PST`, `CDT`, `WEST`, `CET` (from Intl, with a table where Intl says `GMT+1`). */
export function zoneAbbr(timeZone: string, ms: number): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }).formatToParts(new Date(ms))
    .find((p) => p.type === "timeZoneName")?.value ?? "";
  if (!/^GMT|^UTC/.test(name) || !(timeZone in ABBR)) return name;
  const jan = offsetMinutes(timeZone, Date.UTC(new Date(ms).getUTCFullYear(), 0, 1));
  return ABBR[timeZone][offsetMinutes(timeZone, ms) === jan ? 0 : 1];
}

/** Wall-clock parts of an aware ISO string as a UTC Date (to format without shifting). */
function wall(iso: string): Date {
  return new Date(`${iso.slice(0, 19)}Z`);
}

/** `3:15 PM` (en-US) / `15:15` (en-GB, de-DE) of an aware ISO string's wall clock. */
export function clock(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(wall(iso));
}

/** `Thu, Dec 10, 2026` of an ISO string's wall-clock date. */
export function day(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(wall(iso));
}

/** `Dec 10` of an ISO date. */
export function shortDay(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", timeZone: "UTC" }).format(wall(iso));
}

/** `3:15 PM PST` of an aware ISO string at an airport in `timeZone`. */
export function clockZone(iso: string, timeZone: string, locale: string): string {
  return `${clock(iso, locale)} ${zoneAbbr(timeZone, instant(iso))}`;
}

/** `4h 0m` of minutes. */
export function duration(minutes: number): string {
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** Day of the year (1-366) of an ISO date (`YYYY-MM-DD...`). */
export function julian(iso: string): number {
  const [y, m, d] = iso.slice(0, 10).split("-").map(Number);
  return Math.round((Date.UTC(y, m - 1, d) - Date.UTC(y, 0, 1)) / 86_400_000) + 1;
}

/** `YYYY-MM-DD` plus `n` days. */
export function addDays(date: string, n: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
