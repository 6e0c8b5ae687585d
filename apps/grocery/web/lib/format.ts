import { formatMoney } from "@persona/ui/format";
import type { ShopContext } from "./context";

/** Times are naive local `YYYY-MM-DDTHH:MM:SS` of the persona's zone: shown as that wall clock. */
function wall(iso: string): Date {
  return new Date(`${iso.slice(0, 19)}Z`);
}

export function money(ctx: ShopContext, cents: number): string {
  return formatMoney(cents, { currency: ctx.currency, locale: ctx.locale });
}

/** `9 AM` / `09:00`. */
export function clock(ctx: ShopContext, iso: string): string {
  return new Intl.DateTimeFormat(ctx.locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(wall(iso));
}

/** `Tue, Nov 3`. */
export function shortDay(ctx: ShopContext, iso: string): string {
  return new Intl.DateTimeFormat(ctx.locale, { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" }).format(wall(iso));
}

/** `Tue, Nov 3, 2026`. */
export function day(ctx: ShopContext, iso: string): string {
  return new Intl.DateTimeFormat(ctx.locale, { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(wall(iso));
}

/** `Tue, Nov 3, 9:00 AM - 11:00 AM`. */
export function windowText(ctx: ShopContext, start: string, end: string): string {
  return `${shortDay(ctx, start)}, ${clock(ctx, start)} – ${clock(ctx, end)}`;
}

/** A unit price: `$0.31/oz`, `£2.40/kg`, `3,20 €/kg`. */
export function unitPrice(ctx: ShopContext, priceCents: number, unitCount: number, unitLabel: string): string {
  const per = priceCents / (unitCount || 1);
  const digits = per < 100 ? 2 : 2;
  const text = new Intl.NumberFormat(ctx.locale, { style: "currency", currency: ctx.currency, minimumFractionDigits: digits, maximumFractionDigits: per < 10 ? 3 : 2 }).format(per / 100);
  return `${text}/${unitLabel}`;
}

/** `Tue, Nov 3, 2026, 9:14 AM`. */
export function dayTime(ctx: ShopContext, iso: string): string {
  return `${day(ctx, iso)}, ${clock(ctx, iso)}`;
}

/** An opening hour `HH:MM` (`24:00`: midnight) as the locale writes the time of day: `4:00 PM` / `16:00`. */
export function hour(ctx: ShopContext, hhmm: string): string {
  if (hhmm === "24:00") return hour(ctx, "00:00");
  return clock(ctx, `2000-01-01T${hhmm}:00`);
}
