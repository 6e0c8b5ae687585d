import { appNow, localISO } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { formatMoney, localeTag } from "@persona/ui/format";
import { db } from "./db";

/** Facts from `meta` plus the app's now: the one source of "now" and formatting for every page and route. */
export interface DiningContext {
  timezone: string;
  /** BCP 47 tag (en-US, en-GB, de-DE). */
  locale: string;
  /** The persona's currency (meta.currency). */
  currency: string;
  /** Local wall-clock now in the persona's zone, `YYYY-MM-DDTHH:MM:SS` (never before the world's now). */
  now: string;
  today: string;
  homeCity: string;
  /** Minor units in `currency` (default: the persona's), e.g. "$18.95", "18,50 €", "¥1,200". */
  money: (cents: number, currency?: string) => string;
  /** "Fri, Nov 20" style. */
  day: (iso: string) => string;
  /** "Friday, November 20, 2026" style. */
  longDay: (iso: string) => string;
  /** "7:30 PM" / "19:30" from `HH:MM`. */
  time: (hhmm: string) => string;
  /** Now as wall clock of another zone (a restaurant's), same format as `now`. */
  nowIn: (zone: string) => string;
  /** "November 2026" from `YYYY-MM`. */
  month: (ym: string) => string;
}

/** Read `meta` and build the context (cheap: one small query). */
export function diningContext(): DiningContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  const locale = localeTag(meta.locale);
  const currency = meta.currency || "USD";
  const dayFmt = new Intl.DateTimeFormat(locale, { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
  const longFmt = new Intl.DateTimeFormat(locale, { weekday: "long", month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
  const timeFmt = new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" });
  // The instant of `now`: the UTC reading shifted by the zone's offset at that moment.
  const guess = Date.parse(`${now}Z`);
  const offset = Date.parse(`${localISO(timezone, new Date(guess))}Z`) - guess;
  const instant = new Date(guess - offset);
  return {
    timezone,
    locale,
    currency,
    now,
    today: now.slice(0, 10),
    homeCity: meta.home_city || "",
    money: (cents, cur = currency) => formatMoney(cents, { currency: cur, locale }),
    day: (iso) => dayFmt.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`)),
    longDay: (iso) => longFmt.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`)),
    time: (hhmm) => timeFmt.format(new Date(`2000-01-01T${hhmm}:00Z`)),
    month: (ym) => new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${ym.slice(0, 7)}-15T12:00:00Z`)),
    nowIn: (zone) => {
      try {
        return localISO(zone, instant);
      } catch {
        return now;
      }
    },
  };
}
