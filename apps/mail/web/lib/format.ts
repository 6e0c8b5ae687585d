/** Dates of the mailbox, formatted from naive local ISO strings without shifting through the host's zone. */

function instant(iso: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(iso || "");
  if (!m) return null;
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)));
}

function fmt(iso: string, locale: string, opts: Intl.DateTimeFormatOptions): string {
  const d = instant(iso);
  if (!d) return iso;
  try {
    return new Intl.DateTimeFormat(locale, { ...opts, timeZone: "UTC" }).format(d);
  } catch {
    return new Intl.DateTimeFormat("en-US", { ...opts, timeZone: "UTC" }).format(d);
  }
}

/** The list's date column: the time today, "Nov 12" this year, "11/12/25" before. */
export function listDate(iso: string, today: string, locale: string): string {
  if (iso.slice(0, 10) === today) return fmt(iso, locale, { hour: "numeric", minute: "2-digit" });
  if (iso.slice(0, 4) === today.slice(0, 4)) return fmt(iso, locale, { month: "short", day: "numeric" });
  return fmt(iso, locale, { year: "2-digit", month: "numeric", day: "numeric" });
}

/** "Fri, Nov 13, 2026, 10:30 AM". */
export function fullDate(iso: string, locale: string): string {
  return fmt(iso, locale, { weekday: "short", year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
}

/** "Friday, November 13, 2026". */
export function longDay(iso: string, locale: string): string {
  return fmt(iso, locale, { weekday: "long", year: "numeric", month: "long", day: "numeric" });
}

/** "52 KB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
