import { appNow } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { formatDate, formatDateTime, formatMoney, localeTag } from "@persona/ui/format";
import { db } from "./db";

/** Facts from the `meta` table plus "now" in the bank's time zone: one source of "today" for every page. */
export interface BankContext {
  asOf: string;
  currency: string;
  timezone: string;
  locale: string;
  /** Local wall-clock now, `YYYY-MM-DDTHH:MM:SS`, in `timezone`. */
  now: string;
  /** `now`'s date, `YYYY-MM-DD`. */
  today: string;
}

export function bankContext(): BankContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  // The world's now (meta.now, as_of 09:00) is a floor for the wall clock: see @persona/platform/clock.
  const now = appNow(timezone, meta.now);
  return {
    asOf: meta.as_of ?? now.slice(0, 10),
    currency: meta.currency || "USD",
    timezone,
    locale: localeTag(meta.locale),
    now,
    today: now.slice(0, 10),
  };
}

/** Formatters bound to the bank's currency and locale. */
export function formatters(ctx: BankContext) {
  return {
    money: (cents: number) => formatMoney(cents, { currency: ctx.currency, locale: ctx.locale }),
    signed: (cents: number) => formatMoney(cents, { currency: ctx.currency, locale: ctx.locale, signDisplay: "exceptZero" }),
    date: (iso: string, style: "short" | "medium" | "long" = "medium") => formatDate(iso, ctx.locale, style),
    dateTime: (iso: string) => formatDateTime(iso, ctx.locale),
    month: (isoDate: string) =>
      new Intl.DateTimeFormat(ctx.locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${isoDate.slice(0, 10)}T12:00:00Z`)),
    longToday: () =>
      new Intl.DateTimeFormat(ctx.locale, { weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(
        new Date(`${ctx.today}T12:00:00Z`),
      ),
    currencySymbol: () =>
      new Intl.NumberFormat(ctx.locale, { style: "currency", currency: ctx.currency }).formatToParts(0).find((p) => p.type === "currency")?.value ?? "$",
  };
}

export type Formatters = ReturnType<typeof formatters>;
