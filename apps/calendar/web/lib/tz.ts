/**
 * Time-zone arithmetic on IANA zones with Intl only (no tz library): wall time <-> UTC.
 * Local times are `YYYY-MM-DDTHH:MM:SS` strings; instants are epoch milliseconds.
 */

const fmts = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(tz: string): Intl.DateTimeFormat {
  let f = fmts.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone: tz,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    fmts.set(tz, f);
  }
  return f;
}

/** Whether `tz` is an IANA zone this runtime knows. */
export function validZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    partsFormatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** Wall time of instant `ms` in `tz`, `YYYY-MM-DDTHH:MM:SS`. */
export function toLocal(ms: number, tz: string): string {
  const p = Object.fromEntries(partsFormatter(tz).formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** Epoch ms of a naive ISO string read as UTC. */
export function naiveMs(local: string): number {
  const s = local.length === 10 ? `${local}T00:00:00` : local.slice(0, 19);
  return Date.parse(`${s}Z`);
}

/** Offset of `tz` at instant `ms`, in minutes east of UTC. */
export function offsetMinutes(tz: string, ms: number): number {
  return Math.round((naiveMs(toLocal(ms, tz)) - Math.floor(ms / 1000) * 1000) / 60000);
}

/** The instant of wall time `local` in `tz` (the earlier one in a fall-back overlap; a spring-forward gap moves on). */
export function toUtc(local: string, tz: string): number {
  const wall = naiveMs(local);
  let guess = wall - offsetMinutes(tz, wall) * 60000;
  for (let i = 0; i < 3; i++) {
    const next = wall - offsetMinutes(tz, guess) * 60000;
    if (next === guess) break;
    guess = next;
  }
  const earlier = wall - offsetMinutes(tz, guess - 3600000) * 60000;
  if (earlier < guess && toLocal(earlier, tz) === (local.length === 10 ? `${local}T00:00:00` : local.slice(0, 19))) return earlier;
  return guess;
}

/** `YYYY-MM-DDTHH:MM:SSZ` of instant `ms`. */
export function utcText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + "Z";
}

/** Short zone name at instant `ms` ("PST", "CDT", "GMT+1"), in `locale`. */
export function zoneAbbr(tz: string, ms: number, locale = "en-US"): string {
  try {
    const p = new Intl.DateTimeFormat(locale, { timeZone: tz, timeZoneName: "short" }).formatToParts(new Date(ms));
    return p.find((x) => x.type === "timeZoneName")?.value ?? tz;
  } catch {
    return tz;
  }
}

/** Long zone name ("Pacific Standard Time"). */
export function zoneLong(tz: string, ms: number, locale = "en-US"): string {
  try {
    const p = new Intl.DateTimeFormat(locale, { timeZone: tz, timeZoneName: "long" }).formatToParts(new Date(ms));
    return p.find((x) => x.type === "timeZoneName")?.value ?? tz;
  } catch {
    return tz;
  }
}

// --- calendar dates as day numbers ----------------------------------------------------------------

/** Days since 1970-01-01 of `YYYY-MM-DD`. */
export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / 86400000);
}

/** `YYYY-MM-DD` of a day number. */
export function dayDate(n: number): string {
  return new Date(n * 86400000).toISOString().slice(0, 10);
}

/** Weekday of a day number, 0 = Sunday. */
export function weekday(n: number): number {
  return (((n + 4) % 7) + 7) % 7;
}

/** `date` plus `days`. */
export function plusDays(date: string, days: number): string {
  return dayDate(dayNumber(date) + days);
}

/** Whether `s` is a real calendar date `YYYY-MM-DD` (years 1900-2199). */
export function validDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const y = Number(s.slice(0, 4));
  if (y < 1900 || y > 2199) return false;
  return dayDate(dayNumber(s)) === s;
}

/** Whether `s` is `HH:MM` (24-hour). */
export function validTime(s: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(s);
}
