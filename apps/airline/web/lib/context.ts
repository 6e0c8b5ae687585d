import { appNow } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { formatMoney, localeTag } from "@persona/ui/format";
import { db } from "./db";
import { localToUtcMs } from "./time";

/** Facts from `meta` plus the app's now: the one source of "now" for every page and route. */
export interface AirContext {
  timezone: string;
  locale: string;
  currency: string;
  /** Local wall-clock now in the persona's zone, `YYYY-MM-DDTHH:MM:SS` (never before the world's now). */
  now: string;
  /** The same instant in epoch milliseconds. */
  nowMs: number;
  airline: string;
  code: string;
  ticketPrefix: string;
  salt: string;
  homeAirport: string;
}

export function airContext(): AirContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const now = appNow(timezone, meta.now);
  return {
    timezone,
    locale: localeTag(meta.locale),
    currency: meta.currency || "USD",
    now,
    nowMs: localToUtcMs(now, timezone),
    airline: meta.airline || "Meridian Air",
    code: meta.airline_code || "MR",
    ticketPrefix: meta.ticket_prefix || "047",
    salt: meta.seat_salt || "1",
    homeAirport: meta.home_airport || "",
  };
}

/** Money in the persona's currency and locale: `money(112552)` is "$1,125.52". */
export function money(ctx: AirContext, cents: number): string {
  return formatMoney(cents, { currency: ctx.currency, locale: ctx.locale });
}
