import type { AppContext } from "@persona/platform/context";
import { taxes } from "./app";
import type { Country } from "./taxcalc";

/** The app's context (@persona/platform/context) plus the tax year being filed and the country's rules. */
export interface TaxContext extends AppContext {
  /** The country whose return the app files ("US", "GB", "DE"); for a home elsewhere only the words' table (German
   * for a German-speaking persona, else English): nothing is filed there (`supported` is false). */
  country: Country;
  /** Whether the persona lives where the app files returns (the seed's meta `country` is US, GB or DE; it is empty
   * for a home anywhere else). */
  supported: boolean;
  /** The year's label ("2025", "2025-26") and its key in rules.json ("2025"). */
  taxYear: string;
  yearKey: string;
  yearStart: string;
  yearEnd: string;
  /** "Jan 30, 2026" style from an ISO date or datetime. */
  day: (iso: string) => string;
}

export function taxContext(): TaxContext {
  const ctx = taxes.context();
  const meta = ctx.meta;
  const dayFmt = new Intl.DateTimeFormat(ctx.locale, { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
  const supported = meta.country === "US" || meta.country === "GB" || meta.country === "DE";
  const words = ctx.locale.toLowerCase().startsWith("de") ? "DE" : "US";
  return {
    ...ctx,
    country: (supported ? meta.country : words) as Country,
    supported,
    taxYear: meta.tax_year || "",
    yearKey: meta.year_key || "",
    yearStart: meta.year_start || "",
    yearEnd: meta.year_end || "",
    day: (iso) => dayFmt.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`)),
  };
}
