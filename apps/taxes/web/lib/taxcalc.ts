/**
 * The simplified tax computation of Ledgerleaf Tax, from the rules in rules.json (sources named there).
 *
 * This is the same algorithm as builder/world/tax_year.py `compute_return` (tests/test_taxes_web.py checks that
 * the app's refund equals the world's for the imported forms): integer cents in, integer cents out; a bracket sum
 * is rounded half up once; the German tariff (§ 32a EStG) works in whole euros and rounds down.
 */
import rulesJson from "./rules.json";

export type Country = "US" | "GB" | "DE";

export interface Inputs {
  wages: number;
  withheld: number;
  interest: number;
  dividends: number;
  gains: number;
  donations: number;
  state_tax: number;
  social: number;
  itemize: number;
}

export interface Result {
  total_income: number;
  deduction: number;
  taxable: number;
  tax: number;
  withheld: number;
  /** > 0 a refund, < 0 owed. */
  refund: number;
  /** US: the standard deduction and what itemising would give, for the deductions step. */
  standard?: number;
  itemised?: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const RULES = rulesJson as any;

export function countryRules(country: Country) {
  return RULES[country];
}

export function hasYear(country: Country, yearKey: string): boolean {
  return Boolean(RULES[country]?.years?.[yearKey]);
}

function brackets(amount: number, table: [number | null, number][]): number {
  let tax = 0;
  let low = 0;
  for (const [top, rate] of table) {
    if (amount <= low) break;
    const part = (top === null ? amount : Math.min(amount, top)) - low;
    tax += part * rate;
    if (top === null) break;
    low = top;
  }
  return Math.floor(tax + 0.5);
}

const half = (x: number) => Math.floor(x + 0.5);

/** The return from its inputs (cents). Throws when the rules lack the year. */
export function computeReturn(country: Country, yearKey: string, inc: Inputs): Result {
  const r = RULES[country]?.years?.[yearKey];
  if (!r) throw new Error(`No ${country} rules for ${yearKey}`);
  const withheld = inc.withheld;
  if (country === "US") {
    const gains = Math.max(inc.gains, -r.capital_loss_limit);
    const total = inc.wages + inc.interest + inc.dividends + gains;
    const itemised = inc.donations + Math.min(inc.state_tax, r.salt_cap);
    const deduction = inc.itemize ? itemised : r.standard_deduction;
    const taxable = Math.max(0, total - deduction);
    const tax = brackets(taxable, r.brackets);
    return { total_income: total, deduction, taxable, tax, withheld, refund: withheld - tax, standard: r.standard_deduction, itemised };
  }
  if (country === "GB") {
    let pa = r.personal_allowance;
    const ns = inc.wages;
    const adjusted = ns + inc.interest + inc.dividends;
    if (adjusted > r.taper_from) pa = Math.max(0, pa - Math.floor((adjusted - r.taper_from) / 2));
    const tops = [pa + r.basic_band, r.higher_limit];
    const taxNs = brackets(Math.max(0, ns - pa), [[r.basic_band, r.rates[0]], [r.higher_limit - pa, r.rates[1]], [null, r.rates[2]]]);
    const withInt = ns + inc.interest;
    const level = withInt <= tops[0] ? 0 : withInt <= tops[1] ? 1 : 2;
    const psa = r.savings_allowance[level];
    const savingsTaxed = Math.max(0, inc.interest - psa);
    const rateS = r.rates[ns <= tops[0] ? 0 : ns <= tops[1] ? 1 : 2];
    const levelD = adjusted <= tops[0] ? 0 : adjusted <= tops[1] ? 1 : 2;
    const divTaxed = Math.max(0, inc.dividends - r.dividend_allowance);
    const cgtTaxed = Math.max(0, inc.gains - r.cgt_exempt);
    const tax = taxNs + half(savingsTaxed * rateS) + half(divTaxed * r.dividend_rates[levelD]) + half(cgtTaxed * r.cgt_rates[levelD === 0 ? 0 : 1]);
    const total = adjusted + Math.max(0, inc.gains);
    const deduction = pa + Math.min(psa, inc.interest) + Math.min(r.dividend_allowance, inc.dividends) + Math.min(r.cgt_exempt, Math.max(0, inc.gains));
    return { total_income: total, deduction, taxable: Math.max(0, total - deduction), tax, withheld, refund: withheld - tax };
  }
  const deduction = r.werbungskosten_pauschbetrag + inc.social + inc.donations + r.sonderausgaben_pauschbetrag;
  const total = inc.wages;
  const taxable = Math.max(0, total - deduction);
  const x = Math.floor(taxable / 100);
  const e = (c: number) => Math.floor(c / 100);
  let est: number;
  if (x <= e(r.grundfreibetrag)) est = 0;
  else if (x <= e(r.zone2_end)) {
    const y = (x - e(r.grundfreibetrag)) / 10000;
    est = Math.floor((r.zone2[0] * y + r.zone2[1]) * y);
  } else if (x <= e(r.zone3_end)) {
    const z = (x - e(r.zone2_end)) / 10000;
    est = Math.floor((r.zone3[0] * z + r.zone3[1]) * z + r.zone3[2]);
  } else if (x <= e(r.zone4_end)) est = Math.floor(r.zone4[0] * x - r.zone4[1]);
  else est = Math.floor(r.zone5[0] * x - r.zone5[1]);
  est *= 100;
  const free = r.soli_freigrenze;
  const soli = est <= free ? 0 : Math.min(half(est * 0.055), half((est - free) * 0.119));
  const tax = est + soli;
  return { total_income: total, deduction, taxable, tax, withheld, refund: withheld - tax };
}
