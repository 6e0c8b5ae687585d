import { appNow } from "@persona/platform/clock";
import { readMeta } from "@persona/platform/db";
import { formatMoney, localeTag } from "@persona/ui/format";
import { db } from "./db";
import type { Country } from "./taxcalc";

/** Facts from `meta` plus the app's now: the tax year being filed, the country's rules, formatting. */
export interface TaxContext {
  timezone: string;
  /** BCP 47 tag (en-US, en-GB, de-DE). */
  locale: string;
  currency: string;
  country: Country;
  /** The year's label ("2025", "2025-26") and its key in rules.json ("2025"). */
  taxYear: string;
  yearKey: string;
  yearStart: string;
  yearEnd: string;
  /** Local wall-clock now, `YYYY-MM-DDTHH:MM:SS` (never before the world's now). */
  now: string;
  /** Minor units, e.g. "$18.95", "18,50 €". */
  money: (cents: number) => string;
  /** "Jan 30, 2026" style from an ISO date or datetime. */
  day: (iso: string) => string;
}

export function taxContext(): TaxContext {
  const meta = readMeta(db());
  const timezone = meta.timezone || "UTC";
  const locale = localeTag(meta.locale);
  const currency = meta.currency || "USD";
  const dayFmt = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
  const country = (meta.country === "GB" || meta.country === "DE" ? meta.country : "US") as Country;
  return {
    timezone,
    locale,
    currency,
    country,
    taxYear: meta.tax_year || "",
    yearKey: meta.year_key || "",
    yearStart: meta.year_start || "",
    yearEnd: meta.year_end || "",
    now: appNow(timezone, meta.now),
    money: (cents) => formatMoney(cents, { currency, locale }),
    day: (iso) => dayFmt.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`)),
  };
}
