import type { AppContext } from "@persona/platform/context";
import { formatDate, formatDateTime, formatMoney } from "@persona/ui/format";
import { bank } from "./app";

/** Facts from the `meta` table plus "now" in the bank's time zone (@persona/platform/context): one source of "today". */
export type BankContext = AppContext;
export const bankContext = bank.context;

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
