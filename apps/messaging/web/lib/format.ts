/**
 * How Parley writes times: naive local ISO strings (`YYYY-MM-DDTHH:MM:SS`) formatted as the wall
 * clock they are, never shifted through the server's zone (they are read as UTC and shown as UTC).
 */

function asDate(iso: string): Date {
  return new Date(`${iso.slice(0, 19)}Z`);
}

function dayOffset(iso: string, today: string): number {
  return Math.round((asDate(`${today}T12:00:00`).getTime() - asDate(`${iso.slice(0, 10)}T12:00:00`).getTime()) / 86_400_000);
}

/** `9:14 AM` (en-US) / `09:14` (en-GB). */
export function clock(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(asDate(iso));
}

/** `Nov 3` / `3 Nov`. */
export function shortDay(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", timeZone: "UTC" }).format(asDate(iso));
}

/** The conversation list's time: the clock today, `Yesterday`, the weekday within a week, else a short date. */
export function listTime(iso: string, today: string, locale: string): string {
  const d = dayOffset(iso, today);
  if (d <= 0) return clock(iso, locale);
  if (d === 1) return "Yesterday";
  if (d < 7) return new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(asDate(iso));
  return new Intl.DateTimeFormat(locale, { year: "2-digit", month: "numeric", day: "numeric", timeZone: "UTC" }).format(asDate(iso));
}

/** A day separator: `Today`, `Yesterday`, the weekday within a week, else `Monday, November 3, 2026`. */
export function dayLabel(iso: string, today: string, locale: string): string {
  const d = dayOffset(iso, today);
  if (d === 0) return "Today";
  if (d === 1) return "Yesterday";
  if (d > 1 && d < 7) return new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(asDate(iso));
  return new Intl.DateTimeFormat(locale, { weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(asDate(iso));
}

/** The read receipt under the persona's last message: `Read 9:14 AM`, `Read yesterday at 9:14 PM`, `Read Nov 3 at 9:14 PM`. */
export function readLabel(iso: string, today: string, locale: string): string {
  const d = dayOffset(iso, today);
  if (d <= 0) return `Read ${clock(iso, locale)}`;
  if (d === 1) return `Read yesterday at ${clock(iso, locale)}`;
  return `Read ${shortDay(iso, locale)} at ${clock(iso, locale)}`;
}

/** Up to two initials of a name (`Marcus Whitfield` -> `MW`). */
export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => Array.from(w)[0]!.toUpperCase())
    .join("");
}

const PALETTE = ["#6c4cf1", "#e0674a", "#1f9d8b", "#d4a017", "#3b82c4", "#c2418c", "#5f8d3a", "#8a5a44"];

/** A stable avatar colour for a name. */
export function avatarColor(name: string): string {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return PALETTE[h % PALETTE.length]!;
}
