import { formatMoney } from "@persona/ui/format";
import type { RideContext } from "./context";

/**
 * How ZipRide writes times: a ride's times carry the offset of the place (`2026-09-04T03:55:00-07:00`);
 * they are shown as that wall clock (never shifted through the server's zone).
 */
function wall(iso: string): Date {
  return new Date(`${iso.slice(0, 19)}Z`);
}

export function money(ctx: RideContext, cents: number): string {
  return formatMoney(cents, { currency: ctx.currency, locale: ctx.locale });
}

/** `9:14 AM` / `09:14`. */
export function clock(ctx: RideContext, iso: string): string {
  return new Intl.DateTimeFormat(ctx.locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(wall(iso));
}

/** `Tue, Nov 3, 2026`. */
export function day(ctx: RideContext, iso: string): string {
  return new Intl.DateTimeFormat(ctx.locale, { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(wall(iso));
}

/** `Tue, Nov 3, 2026, 9:14 AM`. */
export function dayTime(ctx: RideContext, iso: string): string {
  return `${day(ctx, iso)}, ${clock(ctx, iso)}`;
}

/** `November 2026` for a `YYYY-MM` month. */
export function monthName(ctx: RideContext, ym: string): string {
  return new Intl.DateTimeFormat(ctx.locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${ym}-15T12:00:00Z`));
}

/** Distance as the locale reads it: miles in en-US and en-GB, kilometres elsewhere. */
export function distance(ctx: RideContext, miles: number): string {
  if (ctx.locale.startsWith("de")) {
    return `${new Intl.NumberFormat(ctx.locale, { maximumFractionDigits: 1 }).format(miles * 1.609344)} km`;
  }
  return `${new Intl.NumberFormat(ctx.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(miles)} mi`;
}

export const PURPOSES: Record<string, string> = { work: "Work", dinner: "Dinner", visit: "Visit", trip: "Trip", personal: "Personal" };
