import type { AppContext } from "@persona/platform/context";
import { formatMoney } from "@persona/ui/format";
import { stays } from "./app";

/** The app's context (@persona/platform/context) plus prices in other currencies. */
export interface StayContext extends AppContext {
  /** Cents (hundredths of a unit, yen too) as money: in `currency` (a property's), else the persona's. */
  money: (cents: number, currency?: string) => string;
  /** The currency a city's properties price in (`meta.city_currencies`; the persona's when not listed). */
  cityCurrency: (city: string) => string;
  /** `cents` of `currency` in the card's (persona's) currency at the reference rate of `meta.fx_rates` (card units
   * per unit of `currency`, six decimals), rounded half up: what the card network is asked to charge or refund. */
  toCard: (cents: number, currency: string) => number;
  /** What a card pays for `cents` of `currency`: "€512.00" at home, "€512.00 ($556.52)" abroad. */
  charged: (cents: number, currency: string) => string;
  /** "June 2026" from `YYYY-MM`. */
  month: (ym: string) => string;
}

function parseMap(text: string | undefined): Record<string, string> {
  try {
    const v = JSON.parse(text ?? "{}");
    return v && typeof v === "object" ? (v as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function stayContext(): StayContext {
  const ctx = stays.context();
  const { meta, locale, currency } = ctx;
  const cityCurrencies = parseMap(meta.city_currencies);
  const fxRates = parseMap(meta.fx_rates);
  const formats = new Map<string, Intl.NumberFormat>();
  const moneyIn = (cents: number, cur: string) => {
    let f = formats.get(cur);
    if (!f) formats.set(cur, (f = new Intl.NumberFormat(locale, { style: "currency", currency: cur })));
    return f.format(cents / 100);
  };
  const toCard = (cents: number, cur: string) => {
    if (cur === currency) return cents;
    const micro = Math.round(Number(fxRates[cur] ?? "1") * 1_000_000);
    const sign = cents < 0 ? -1 : 1;
    return sign * Math.floor((Math.abs(cents) * micro + 500_000) / 1_000_000);
  };
  return {
    ...ctx,
    money: (cents, cur) => (cur && cur !== currency ? moneyIn(cents, cur) : formatMoney(cents, { currency, locale })),
    cityCurrency: (city) => cityCurrencies[city] ?? currency,
    toCard,
    charged: (cents, cur) => (cur === currency ? formatMoney(cents, { currency, locale }) : `${moneyIn(cents, cur)} (${formatMoney(toCard(cents, cur), { currency, locale })})`),
    month: (ym) => new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${ym.slice(0, 7)}-15T12:00:00Z`)),
  };
}
