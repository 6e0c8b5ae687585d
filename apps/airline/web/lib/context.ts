import type { AppContext } from "@persona/platform/context";
import { formatMoney } from "@persona/ui/format";
import { airline } from "./app";
import { localToUtcMs } from "./time";

/** The app's context (@persona/platform/context) plus the airline's own facts from `meta`. */
export interface AirContext extends AppContext {
  /** `now` in epoch milliseconds. */
  nowMs: number;
  airline: string;
  code: string;
  ticketPrefix: string;
  salt: string;
  homeAirport: string;
}

export function airContext(): AirContext {
  const ctx = airline.context();
  const meta = ctx.meta;
  return {
    ...ctx,
    nowMs: localToUtcMs(ctx.now, ctx.timezone),
    airline: meta.airline || airline.settings.title,
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

/** "2 travelers" in American English, "2 travellers" elsewhere (`count` null: the word alone, "per traveler"). */
export function travelers(ctx: AirContext, count: number | null = 1): string {
  const word = ctx.locale === "en-US" || ctx.locale === "en_US" ? "traveler" : "traveller";
  if (count === null) return word;
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
