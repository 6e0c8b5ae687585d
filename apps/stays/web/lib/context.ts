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
  /** Cents (hundredths of a unit, yen too) as money: in `currency` (a property's), else the persona's. */
  money: (cents: number, currency?: string) => string;
  /** The currency a city's properties price in (`meta.city_currencies`; the persona's when not listed). */
  cityCurrency: (city: string) => string;
  /** `cents` of `currency` in the card's (persona's) currency at the reference rate of `meta.fx_rates` (card units
   * per unit of `currency`, six decimals), rounded half up: what the card network is asked to charge or refund. */
  toCard: (cents: number, currency: string) => number;
  /** What a card pays for `cents` of `currency`: "€512.00" at home, "€512.00 ($556.52)" abroad. */
  charged: (cents: number, currency: string) => string;
  date: (iso: string, style?: "short" | "medium" | "long") => string;
  dateTime: (iso: string) => string;
  /** "Fri, Dec 11" style. */
  day: (iso: string) => string;
  /** "June 2026" from `YYYY-MM`. */
  month: (ym: string) => string;
}

function parseMap(text: string | undefined): Record<string, string> {
  try {
    const v = JSON.parse(text ?? "{}");
    return v && typeof v === "object" ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function stayContext(): StayContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  const locale = localeTag(meta.locale);
  const currency = meta.currency || "USD";
  const dayFmt = new Intl.DateTimeFormat(locale, { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
  const cityCurrencies = parseMap(meta.city_currencies);
  const fxRates = parseMap(meta.fx_rates);
  const formats = new Map<string, Intl.NumberFormat>();
  const moneyIn = (cents: number, cur: string) => {
    let f = formats.get(cur);
    if (!f) formats.set(cur, (f = new Intl.NumberFormat(locale, { style: "currency", currency: cur })));
    return f.format(cents / 100);
  };
  const toCard = (cents: number, cur: string) => {
    if (cur === currency) return cents;
    const micro = Math.round(Number(fxRates[cur] ?? "1") * 1_000_000);
    const sign = cents < 0 ? -1 : 1;
    return sign * Math.floor((Math.abs(cents) * micro + 500_000) / 1_000_000);
  };
  return {
    timezone,
    locale,
    currency,
    now,
    today: now.slice(0, 10),
    userName: meta.user_name ?? "",
    money: (cents, cur) => (cur && cur !== currency ? moneyIn(cents, cur) : formatMoney(cents, { currency, locale })),
    cityCurrency: (city) => cityCurrencies[city] ?? currency,
    toCard,
    charged: (cents, cur) => (cur === currency ? formatMoney(cents, { currency, locale }) : `${moneyIn(cents, cur)} (${formatMoney(toCard(cents, cur), { currency, locale })})`),
    date: (iso, style = "medium") => formatDate(iso, locale, style),
    dateTime: (iso) => formatDateTime(iso, locale),
    day: (iso) => dayFmt.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`)),
    month: (ym) => new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${ym.slice(0, 7)}-15T12:00:00Z`)),
  };
}
