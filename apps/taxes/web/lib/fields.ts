/**
 * The fields of a return per country and step, with their labels in the language of that country's return, and
 * the parsing every posted value goes through (money as the locale writes it: 1,234.56 or 1.234,56).
 * A value is stored canonically: cents as an integer string for money, the trimmed text otherwise.
 */
import type { Country, Inputs } from "./taxcalc";

export type Step = "personal" | "income" | "deductions" | "review" | "file";
export const STEPS: Step[] = ["personal", "income", "deductions", "review", "file"];

export interface FieldDef {
  name: string;
  step: Step;
  kind: "text" | "money" | "choice";
  label: string;
  hint?: string;
  required?: boolean;
  /** Money fields that may be negative (a capital loss). */
  signed?: boolean;
  options?: [string, string][];
  /** Text fields: the user's profile column that prefills it. */
  profile?: "first" | "last" | "street" | "city" | "region" | "postal_code" | "occupation";
  /** Where an imported form puts it: form name and box. */
  from?: [string, string];
  group?: string;
}

const personal = (de: boolean, us: boolean): FieldDef[] => [
  { name: "first_name", step: "personal", kind: "text", label: de ? "Vorname" : "First name", required: true, profile: "first" },
  { name: "last_name", step: "personal", kind: "text", label: de ? "Nachname" : "Last name", required: true, profile: "last" },
  { name: "street", step: "personal", kind: "text", label: de ? "Straße und Hausnummer" : "Street address", required: true, profile: "street" },
  { name: "city", step: "personal", kind: "text", label: de ? "Ort" : us ? "City" : "Town or city", required: true, profile: "city" },
  ...(us ? [{ name: "region", step: "personal", kind: "text", label: "State", required: true, profile: "region" } as FieldDef] : []),
  { name: "postal_code", step: "personal", kind: "text", label: de ? "Postleitzahl" : us ? "ZIP code" : "Postcode", required: true, profile: "postal_code" },
  { name: "occupation", step: "personal", kind: "text", label: de ? "Beruf" : "Occupation", profile: "occupation" },
];

const FIELDS: Record<Country, FieldDef[]> = {
  US: [
    ...personal(false, true),
    { name: "w2_employer", step: "income", kind: "text", label: "Employer name", required: true, from: ["W-2", "issuer"], group: "W-2" },
    { name: "w2_1", step: "income", kind: "money", label: "Box 1 Wages, tips, other compensation", required: true, from: ["W-2", "1"], group: "W-2" },
    { name: "w2_2", step: "income", kind: "money", label: "Box 2 Federal income tax withheld", required: true, from: ["W-2", "2"], group: "W-2" },
    { name: "w2_16", step: "income", kind: "money", label: "Box 16 State wages", from: ["W-2", "16"], group: "W-2" },
    { name: "w2_17", step: "income", kind: "money", label: "Box 17 State income tax", from: ["W-2", "17"], group: "W-2" },
    { name: "int_1", step: "income", kind: "money", label: "1099-INT Box 1 Interest income", from: ["1099-INT", "1"], group: "1099" },
    { name: "div_1a", step: "income", kind: "money", label: "1099-DIV Box 1a Total ordinary dividends", from: ["1099-DIV", "1a"], group: "1099" },
    { name: "div_1b", step: "income", kind: "money", label: "1099-DIV Box 1b Qualified dividends", hint: "Part of box 1a; taxed at the 0/15/20 % capital gain rates", from: ["1099-DIV", "1b"], group: "1099" },
    { name: "b_gain_st", step: "income", kind: "money", signed: true, label: "1099-B Short-term gain or (loss)", hint: "Held one year or less; taxed as ordinary income. A loss is negative, e.g. -250.00", from: ["1099-B", "gain_st"], group: "1099" },
    { name: "b_gain_lt", step: "income", kind: "money", signed: true, label: "1099-B Long-term gain or (loss)", hint: "Held more than one year; taxed at the 0/15/20 % rates", from: ["1099-B", "gain_lt"], group: "1099" },
    { name: "itemize", step: "deductions", kind: "choice", label: "Deduction", options: [["standard", "Take the standard deduction"], ["itemized", "Itemize my deductions"]] },
    { name: "donations", step: "deductions", kind: "money", label: "Charitable contributions (cash)", hint: "Gifts to qualified charities, with receipts" },
  ],
  GB: [
    ...personal(false, false),
    { name: "p60_employer", step: "income", kind: "text", label: "Employer", required: true, from: ["P60", "issuer"], group: "P60" },
    { name: "p60_pay", step: "income", kind: "money", label: "Pay from this employment (P60)", required: true, from: ["P60", "pay"], group: "P60" },
    { name: "p60_tax", step: "income", kind: "money", label: "UK tax taken off pay (P60)", required: true, from: ["P60", "tax"], group: "P60" },
    { name: "p60_ni", step: "income", kind: "money", label: "Employee's National Insurance contributions", from: ["P60", "ni"], group: "P60" },
    { name: "interest", step: "income", kind: "money", label: "UK bank and building society interest (untaxed)", hint: "From your bank's annual interest summary", group: "Savings" },
    { name: "donations", step: "deductions", kind: "money", label: "Gift Aid payments made in the year", hint: "Recorded for your records; the simplified calculation does not extend the basic rate band" },
  ],
  DE: [
    ...personal(true, false),
    { name: "lstb_employer", step: "income", kind: "text", label: "Arbeitgeber", required: true, from: ["Lohnsteuerbescheinigung", "issuer"], group: "Lohnsteuerbescheinigung" },
    { name: "lstb_3", step: "income", kind: "money", label: "Zeile 3 Bruttoarbeitslohn", required: true, from: ["Lohnsteuerbescheinigung", "3"], group: "Lohnsteuerbescheinigung" },
    { name: "lstb_4", step: "income", kind: "money", label: "Zeile 4 Einbehaltene Lohnsteuer", required: true, from: ["Lohnsteuerbescheinigung", "4"], group: "Lohnsteuerbescheinigung" },
    { name: "lstb_5", step: "income", kind: "money", label: "Zeile 5 Solidaritätszuschlag", from: ["Lohnsteuerbescheinigung", "5"], group: "Lohnsteuerbescheinigung" },
    { name: "lstb_23a", step: "income", kind: "money", label: "Zeile 23 a) Rentenversicherung (Arbeitnehmeranteil)", from: ["Lohnsteuerbescheinigung", "23a"], group: "Lohnsteuerbescheinigung" },
    { name: "lstb_25", step: "income", kind: "money", label: "Zeile 25 Krankenversicherung", from: ["Lohnsteuerbescheinigung", "25"], group: "Lohnsteuerbescheinigung" },
    { name: "lstb_26", step: "income", kind: "money", label: "Zeile 26 Pflegeversicherung", from: ["Lohnsteuerbescheinigung", "26"], group: "Lohnsteuerbescheinigung" },
    { name: "lstb_27", step: "income", kind: "money", label: "Zeile 27 Arbeitslosenversicherung", from: ["Lohnsteuerbescheinigung", "27"], group: "Lohnsteuerbescheinigung" },
    { name: "donations", step: "deductions", kind: "money", label: "Spenden und Mitgliedsbeiträge", hint: "Zuwendungen an gemeinnützige Organisationen (mit Zuwendungsbestätigung)" },
  ],
};

export function fieldsOf(country: Country, step?: Step): FieldDef[] {
  return FIELDS[country].filter((f) => !step || f.step === step);
}

export class FieldError extends Error {
  constructor(message: string, public field: string) {
    super(message);
  }
}

/** The largest amount a field takes: 100 million in the currency's units (a sane bound for one person's return). */
export const MAX_CENTS = 10_000_000_000;

const CURRENCY = "[$£€]";

/** The amount grammar of a locale: grouping by thousands optional, at most two decimals; one currency symbol
 * before or after; negative with a leading minus or in accounting parentheses. */
function amountPattern(de: boolean): { plain: RegExp; paren: RegExp } {
  const [g, d] = de ? ["\\.", ","] : [",", "\\."];
  const num = `(\\d{1,3}(?:${g}\\d{3})+|\\d+)(?:${d}(\\d{1,2}))?`;
  const body = `(?:${CURRENCY} ?)?${num}(?: ?${CURRENCY})?`;
  return { plain: new RegExp(`^(-)?${body}$`), paren: new RegExp(`^\\(${body}\\)$`) };
}

/**
 * Cents from money text as the locale writes it ("1,234.56", "$1234", "-250.00", "(250.00)"; German "1.234,56 €");
 * null for an empty field. Anything else (letters, a second sign or currency symbol, three decimals, a space inside
 * the number, more than MAX_CENTS, a negative amount where only a loss may be negative) throws FieldError.
 */
export function parseAmount(text: string, locale: string, def: FieldDef, de: boolean): number | null {
  void locale;
  const t = text.replace(/[\u00a0\u202f]/g, " ").trim();
  if (t === "") return null;
  const msg = de
    ? `„${text.slice(0, 40)}“ ist kein Betrag. Bitte z. B. 1.234,56 eingeben (${def.label}).`
    : `“${text.slice(0, 40)}” is not an amount. Enter it like 1,234.56 (${def.label}).`;
  const { plain, paren } = amountPattern(de);
  const symbols = (t.match(/[$£€]/g) ?? []).length;
  const m = symbols > 1 || t.length > 40 ? null : plain.exec(t) ?? paren.exec(t);
  if (!m) throw new FieldError(msg, def.name);
  const negative = m[0].startsWith("(") || m[1] === "-";
  const whole = (m[0].startsWith("(") ? m[1] : m[2]).replace(/[.,]/g, "");
  const frac = (m[0].startsWith("(") ? m[2] : m[3]) ?? "";
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS)
    throw new FieldError(de ? `Der Betrag bei ${def.label} ist zu groß.` : `${def.label}: that amount is too large.`, def.name);
  if (negative && !def.signed) throw new FieldError(de ? `${def.label} darf nicht negativ sein.` : `${def.label} can't be negative.`, def.name);
  return negative && cents !== 0 ? -cents : cents;
}

/** Money for an input's value: "1234.56" / "1234,56" (no grouping, so it parses back the same). */
export function amountText(cents: number, de: boolean): string {
  const sign = cents < 0 ? "-" : "";
  const a = Math.abs(cents);
  return `${sign}${Math.floor(a / 100)}${de ? "," : "."}${String(a % 100).padStart(2, "0")}`;
}

/** The inputs of the computation from a return's stored values (cents; absent = 0). */
export function inputsOf(country: Country, values: Record<string, string>): Inputs {
  const n = (k: string) => (values[k] ? Number(values[k]) || 0 : 0);
  if (country === "US")
    return {
      wages: n("w2_1"),
      withheld: n("w2_2"),
      interest: n("int_1"),
      dividends: n("div_1a"),
      qualified_dividends: n("div_1b"),
      gains: n("b_gain_st") + n("b_gain_lt"),
      long_term_gains: n("b_gain_lt"),
      donations: n("donations"),
      state_tax: n("w2_17"),
      social: 0,
      itemize: values.itemize === "itemized" ? 1 : 0,
    };
  if (country === "GB")
    return { wages: n("p60_pay"), withheld: n("p60_tax"), interest: n("interest"), dividends: 0, qualified_dividends: 0, gains: 0, long_term_gains: 0, donations: n("donations"), state_tax: 0, social: 0, itemize: 0 };
  return { wages: n("lstb_3"), withheld: n("lstb_4") + n("lstb_5"), interest: 0, dividends: 0, qualified_dividends: 0, gains: 0, long_term_gains: 0, donations: n("donations"), state_tax: 0, social: n("lstb_23a") + n("lstb_25") + n("lstb_26") + n("lstb_27"), itemize: 0 };
}
