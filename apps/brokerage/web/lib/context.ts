import { appNow } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { formatDate, formatDateTime, formatMoney, localeTag } from "@persona/ui/format";
import { db } from "./db";

/** Facts from `meta` plus the app's now: the one source of "now", language and formatting for pages and routes. */
export interface BrokerContext {
  timezone: string;
  /** BCP 47 tag (en-US, en-GB, de-DE). */
  locale: string;
  lang: "en" | "de";
  currency: string;
  /** Local wall-clock now in the persona's zone, `YYYY-MM-DDTHH:MM:SS` (never before the world's now). */
  now: string;
  /** `YYYY-MM-DD` of now: prices "as of" are the last close at or before it. */
  today: string;
  userName: string;
  money: (cents: number) => string;
  /** Signed money (+$1.00 / -$1.00). */
  signed: (cents: number) => string;
  date: (iso: string, style?: "short" | "medium" | "long") => string;
  dateTime: (iso: string) => string;
  /** English or German text by the persona's language. */
  t: (en: string, de: string) => string;
}

export function brokerContext(): BrokerContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  const locale = localeTag(meta.locale);
  const currency = meta.currency || "USD";
  const lang = (meta.locale || "").startsWith("de") ? "de" : "en";
  return {
    timezone,
    locale,
    lang,
    currency,
    now,
    today: now.slice(0, 10),
    userName: meta.user_name ?? "",
    money: (cents) => formatMoney(cents, { currency, locale }),
    signed: (cents) => formatMoney(cents, { currency, locale, signDisplay: "exceptZero" }),
    date: (iso, style = "medium") => formatDate(iso, locale, style),
    dateTime: (iso) => formatDateTime(iso, locale),
    t: (en, de) => (lang === "de" ? de : en),
  };
}
