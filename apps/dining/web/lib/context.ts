import { localISO } from "@persona/platform/clock";
import type { AppContext } from "@persona/platform/context";
import { formatMoney } from "@persona/ui/format";
import { dining } from "./app";

/** The app's context (@persona/platform/context) plus the dining app's own formats. */
export interface DiningContext extends AppContext {
  homeCity: string;
  /** Minor units in `currency` (default: the persona's), e.g. "$18.95", "18,50 €", "¥1,200". */
  money: (cents: number, currency?: string) => string;
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
  const ctx = dining.context();
  const { timezone, now, locale, currency } = ctx;
  const longFmt = new Intl.DateTimeFormat(locale, { weekday: "long", month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
  const timeFmt = new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" });
  // The instant of `now`: the UTC reading shifted by the zone's offset at that moment.
  const guess = Date.parse(`${now}Z`);
  const offset = Date.parse(`${localISO(timezone, new Date(guess))}Z`) - guess;
  const instant = new Date(guess - offset);
  return {
    ...ctx,
    homeCity: ctx.meta.home_city || "",
    money: (cents, cur = currency) => formatMoney(cents, { currency: cur, locale }),
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
