import { parseMoney } from "@persona/ui/format";
import { BrokerError, type OrderInput } from "./broker";

/**
 * The order ticket's fields (review page query or the placing form): side, type, shares or amount, limit, stop, tif.
 * Money fields are typed in the persona's locale ("12.50", "12,50 €"); a field that is filled but not money is
 * refused (BrokerError), an empty one is absent.
 */
export function ticketFrom(get: (name: string) => string, symbol: string, locale: string, t: (en: string, de: string) => string): OrderInput {
  const money = (name: string, label: [string, string]): number | null => {
    const raw = get(name).trim();
    if (!raw) return null;
    const cents = raw.length > 24 ? null : parseMoney(raw, locale);
    if (cents === null || cents <= 0) throw new BrokerError(t(`${label[0]} must be an amount like 12.50.`, `${label[1]} muss ein Betrag wie 12,50 sein.`), name);
    return cents;
  };
  return {
    symbol,
    side: get("side"),
    type: get("type") || "market",
    shares: get("shares"),
    amountCents: money("amount", ["The amount", "Der Betrag"]),
    limitCents: money("limit", ["The limit price", "Das Limit"]),
    stopCents: money("stop", ["The stop price", "Der Stoppkurs"]),
    tif: get("tif"),
  };
}

/** The ticket's fields as a query string (to go back to the form with what was typed). */
export function ticketQuery(get: (name: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ["side", "type", "shares", "amount", "limit", "stop", "tif"]) if (get(k)) out[k] = get(k).slice(0, 24);
  return out;
}
