import { formatDate, formatDateTime, formatMoney, localeTag } from "@persona/ui/format";
import { appNow } from "./clock";

/**
 * Facts from an app database's `meta` plus the app's now: the one source of "now", language and formatting for
 * pages and routes (meta keys timezone, now, locale, currency, user_name; see apps/README.md "Database").
 */
export interface AppContext {
  /** The world's as-of date, `YYYY-MM-DD` (meta `as_of`; today when missing). */
  asOf: string;
  timezone: string;
  /** BCP 47 tag (en-US, en-GB, de-DE). */
  locale: string;
  /** "de" for a German persona, else "en". */
  lang: "en" | "de";
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
  /** English or German text by the persona's language. */
  t: (en: string, de: string) => string;
  /** Every meta row (key -> value), for an app's own keys. */
  meta: Record<string, string>;
}

/** The context from `meta`'s key/value rows, already read (see AppContext). */
export function contextFromMeta(meta: Record<string, string>): AppContext {
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  const locale = localeTag(meta.locale);
  const currency = meta.currency || "USD";
  const lang = (meta.locale || "").startsWith("de") ? "de" : "en";
  const dayFmt = new Intl.DateTimeFormat(locale, { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
  return {
    asOf: meta.as_of ?? now.slice(0, 10),
    timezone,
    locale,
    lang,
    currency,
    now,
    today: now.slice(0, 10),
    userName: meta.user_name ?? "",
    money: (cents) => formatMoney(cents, { currency, locale }),
    date: (iso, style = "medium") => formatDate(iso, locale, style),
    dateTime: (iso) => formatDateTime(iso, locale),
    day: (iso) => dayFmt.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`)),
    t: (en, de) => (lang === "de" ? de : en),
    meta,
  };
}
