import type { AppContext } from "@persona/platform/context";
import { taxes } from "./app";
import type { Country } from "./taxcalc";

/** The app's context (@persona/platform/context) plus the tax year being filed and the country's rules. */
export interface TaxContext extends AppContext {
  country: Country;
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
  return {
    ...ctx,
    country: (meta.country === "GB" || meta.country === "DE" ? meta.country : "US") as Country,
    taxYear: meta.tax_year || "",
    yearKey: meta.year_key || "",
    yearStart: meta.year_start || "",
    yearEnd: meta.year_end || "",
    day: (iso) => dayFmt.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`)),
  };
}
