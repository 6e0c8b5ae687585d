import { formatDate, formatDateTime, formatMoney, localeTag, nowLocalISO } from "@persona/ui/format";
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
  const rows = db().prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[];
  const meta = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  const timezone = meta.timezone || "UTC";
  let now: string;
  try {
    now = nowLocalISO(timezone);
  } catch {
    now = nowLocalISO("UTC");
  }
  // The world's "now" (meta.now, as_of 09:00) is a floor: a clock that runs behind the seeded
  // world (a guest booted at midnight of as_of, a host set in the past) must not show a
  // "today" before the history it displays.
  if (meta.now && meta.now > now) now = meta.now.slice(0, 19);
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
