/**
 * The simplified tax computation of Ledgerleaf Tax, from the rules in builder/reference/tax/rules.json (sources named there).
 *
 * This is the same algorithm as builder/world/tax_year.py `compute_return` (tests/apps/taxes/test_web.py checks that
 * the app's refund equals the world's for the imported forms): integer cents in, integer cents out; a bracket sum
 * is rounded half up once (a worksheet's 15 % and 20 % lines once each); the US tax is the Qualified Dividends and
 * Capital Gain Tax Worksheet's (`usTax`); the German tariff (§ 32a EStG) works in whole euros and rounds down.
 */
import rulesJson from "@reference/tax/rules.json";

export type Country = "US" | "GB" | "DE";

export interface Inputs {
  wages: number;
  withheld: number;
  interest: number;
  dividends: number;
  /** US: the qualified part of `dividends` (1099-DIV box 1b, Form 1040 line 3a). */
  qualified_dividends: number;
  /** Net realised gain or loss, short plus long term (Schedule D line 16). */
  gains: number;
  /** US: the net long-term part of `gains` (Schedule D line 15). */
  long_term_gains: number;
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
  /** US: the qualified dividends and net long-term gain taxed at 0/15/20 % (worksheet line 10), for the review. */
  preferential?: number;
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

/** `pct` percent of `cents`, rounded half up (exact: an integer over 100). */
const percent = (cents: number, pct: number) => Math.floor((cents * pct) / 100 + 0.5);

/**
 * US federal income tax on `taxable` by the Qualified Dividends and Capital Gain Tax Worksheet of the Form 1040
 * instructions (line 16), for the rules' filing status (single): qualified dividends (Form 1040 line 3a) and the
 * smaller of Schedule D line 15 (net long-term gain) and line 16 (net gain) when both are gains are taxed at 0 %
 * up to the year's zero_max of taxable income, 15 % up to fifteen_max, 20 % above; the rest at the ordinary
 * brackets; the tax is the smaller of that and the ordinary tax on all of it. Thresholds: IRS Rev. Proc. 2023-34
 * § 3.03 (2024), Rev. Proc. 2024-40 § 3.03 (2025), Rev. Proc. 2025-32 § 4.03 (2026), in rules.json. The same
 * lines as builder/world/tax_year.py `us_tax`. Returns the tax and line 10 (the amount at the preferential rates).
 */
export function usTax(yearKey: string, taxable: number, qualifiedDividends: number, longTerm: number, netGain: number, status?: string): { tax: number; preferential: number } {
  const us = RULES.US;
  const r = us.years[yearKey];
  const cg = r.capital_gains;
  const st: string = status ?? us.filing_status;
  const [low, mid, high] = cg.rates_percent as [number, number, number];
  const line1 = taxable;
  const line2 = Math.max(0, qualifiedDividends);
  const line3 = longTerm > 0 && netGain > 0 ? Math.min(longTerm, netGain) : 0;
  const line4 = line2 + line3;
  const line5 = Math.max(0, line1 - line4);
  const line6 = cg.zero_max[st] as number;
  const line7 = Math.min(line1, line6);
  const line8 = Math.min(line5, line7);
  const line9 = line7 - line8; // at 0 %
  const line10 = Math.min(line1, line4);
  const line12 = line10 - line9;
  const line13 = cg.fifteen_max[st] as number;
  const line14 = Math.min(line1, line13);
  const line15 = line5 + line9;
  const line16 = Math.max(0, line14 - line15);
  const line17 = Math.min(line12, line16); // at 15 %
  const line18 = percent(line17, mid);
  const line19 = line9 + line17;
  const line20 = line10 - line19; // at 20 %
  const line21 = percent(line20, high);
  const line22 = brackets(line5, r.brackets);
  const line23 = percent(line9, low) + line18 + line21 + line22;
  const line24 = brackets(line1, r.brackets);
  return { tax: Math.min(line23, line24), preferential: line10 };
}

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
    const qualified = Math.min(inc.qualified_dividends, Math.max(0, inc.dividends));
    const { tax, preferential } = usTax(yearKey, taxable, qualified, inc.long_term_gains, inc.gains);
    return { total_income: total, deduction, taxable, tax, withheld, refund: withheld - tax, standard: r.standard_deduction, itemised, preferential };
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
