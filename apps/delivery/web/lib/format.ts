import { formatMoney } from "@persona/ui/format";
import type { DashContext } from "./context";

/** Naive local ISO (`2026-11-16T19:05:00`) read as that wall clock (never shifted through the server's zone). */
function wall(iso: string): Date {
  return new Date(`${iso.slice(0, 19)}Z`);
}

export function money(ctx: DashContext, cents: number): string {
  return formatMoney(cents, { currency: ctx.currency, locale: ctx.locale });
}

/** `7:05 PM` / `19:05`. */
export function clock(ctx: DashContext, iso: string): string {
  return new Intl.DateTimeFormat(ctx.locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(wall(iso));
}

/** `Mon, Nov 16, 2026`. */
export function day(ctx: DashContext, iso: string): string {
  return new Intl.DateTimeFormat(ctx.locale, { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(wall(iso));
}

export function dayTime(ctx: DashContext, iso: string): string {
  return `${day(ctx, iso)}, ${clock(ctx, iso)}`;
}

/** `November 2026` for a `YYYY-MM` month. */
export function monthName(ctx: DashContext, ym: string): string {
  return new Intl.DateTimeFormat(ctx.locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${ym}-15T12:00:00Z`));
}

/** 4.6 from 46. */
export function stars(ctx: DashContext, x10: number): string {
  return new Intl.NumberFormat(ctx.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x10 / 10);
}


/** `$$` / `££` / `€€` for a price level 1-3. */
export function priceLevel(ctx: DashContext, n: number): string {
  const sign = ctx.currency === "GBP" ? "£" : ctx.currency === "EUR" ? "€" : "$";
  return sign.repeat(Math.max(1, Math.min(3, n)));
}

/** An opening hour `HH:MM` (`24:00`: midnight) as the locale writes the time of day: `4:00 PM` / `16:00`. */
export function hour(ctx: DashContext, hhmm: string): string {
  if (hhmm === "24:00") return hour(ctx, "00:00");
  return clock(ctx, `2000-01-01T${hhmm}:00`);
}
