import { appNow } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { formatDate, formatDateTime, formatMoney, localeTag } from "@persona/ui/format";
import { db } from "./db";

/** Facts from `meta` plus the app's now: the one source of "now" and formatting for every page and route. */
export interface StayContext {
  timezone: string;
  /** BCP 47 tag (en-US, en-GB, de-DE). */
  locale: string;
  currency: string;
  /** Local wall-clock now in the persona's zone, `YYYY-MM-DDTHH:MM:SS` (never before the world's now). */
  now: string;
  today: string;
  userName: string;
  money: (cents: number) => string;
  date: (iso: string, style?: "short" | "medium" | "long") => string;
  dateTime: (iso: string) => string;
  /** "Fri, Dec 11" style. */
  day: (iso: string) => string;
  /** "June 2026" from `YYYY-MM`. */
  month: (ym: string) => string;
}

export function stayContext(): StayContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  const locale = localeTag(meta.locale);
  const currency = meta.currency || "USD";
  const dayFmt = new Intl.DateTimeFormat(locale, { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
  return {
    timezone,
    locale,
    currency,
    now,
    today: now.slice(0, 10),
    userName: meta.user_name ?? "",
    money: (cents) => formatMoney(cents, { currency, locale }),
    date: (iso, style = "medium") => formatDate(iso, locale, style),
    dateTime: (iso) => formatDateTime(iso, locale),
    day: (iso) => dayFmt.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`)),
    month: (ym) => new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${ym.slice(0, 7)}-15T12:00:00Z`)),
  };
}
