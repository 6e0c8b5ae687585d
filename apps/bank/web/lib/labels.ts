/**
 * Ledger wording of the lines the app writes: the words of the persona's bank, which the seed stores in `meta`'s
 * `ledger_labels` row from the same table the Python world words the seeded history with
 * (builder/reference/banking/banking.yaml), so an app-made transfer or payment reads like every other line on the
 * statement ("ZELLE TO ...", "FASTER PAYMENT TO ...", "PIX TO ..."). Upper case, like the seed.
 */

export interface Labels {
  bill_pay: string;
  p2p_to: string;
  transfer_to: string;
  transfer_from: string;
  card_payment: string;
  card_thanks: string;
  /** A transfer between checking and an account at another firm (@persona/platform/transfers). */
  ext_to: string;
  ext_from: string;
  kinds: Record<string, string>;
}

const KEYS = ["bill_pay", "p2p_to", "transfer_to", "transfer_from", "card_payment", "card_thanks", "ext_to", "ext_from"] as const;

/** The labels in a `meta` table's rows (`ledger_labels`, JSON). Throws when the row is missing or lacks a key: a
 * database the seed did not write. */
export function labels(meta: Record<string, string>): Labels {
  const parsed = JSON.parse(meta.ledger_labels ?? "null") as Partial<Labels> | null;
  const missing = parsed ? KEYS.filter((k) => typeof parsed[k] !== "string") : ["ledger_labels"];
  if (!parsed || missing.length || typeof parsed.kinds !== "object") {
    throw new Error(`bank meta: ledger_labels lacks ${missing.join(", ") || "kinds"}`);
  }
  return parsed as Labels;
}

/** The person-to-person payment of the persona's country (`meta` row `p2p_rail`, builder/reference/banking):
 * `name` as pages name it ("Zelle", "Pix", "bank transfer"), `via` as a sentence says it ("with Zelle"). */
export interface Rail {
  name: string;
  payment: string;
  via: string;
}

/** The rail in a `meta` table's rows. Throws when the row is missing or incomplete: a database the seed did not
 * write. */
export function rail(meta: Record<string, string>): Rail {
  const parsed = JSON.parse(meta.p2p_rail ?? "null") as Partial<Rail> | null;
  if (!parsed || typeof parsed.name !== "string" || typeof parsed.payment !== "string" || typeof parsed.via !== "string") {
    throw new Error("bank meta: p2p_rail is missing or incomplete");
  }
  return parsed as Rail;
}

/** How the bank states its deposit insurance (builder/reference/banking/banking.yaml `deposit_insurance`): `suffix`
 * after its name (", N.A."), `scheme` ("Member FDIC"; empty: none claimed), `notice` ("Equal Housing Lender"). */
export interface Deposit {
  suffix: string;
  scheme: string;
  notice: string;
}

/** banking.yaml's `deposit_insurance` rows of the three countries whose locale the app's personas can have
 * (tests/apps/bank/test_deposit.py keeps them equal): the bank of a persona at home in its locale's country. */
const DEPOSIT: Record<string, Deposit> = {
  US: { suffix: ", N.A.", scheme: "Member FDIC", notice: "Equal Housing Lender" },
  GB: { suffix: "", scheme: "FSCS protected", notice: "" },
  DE: { suffix: "", scheme: "Deposits protected by the German statutory deposit guarantee (Einlagensicherung)", notice: "" },
};
const NO_DEPOSIT: Deposit = { suffix: "", scheme: "", notice: "" };

/** The deposit insurance of the persona's bank: the seed's `meta` row `deposit_insurance` (JSON) for a home outside
 * the locale's country (empty words: no scheme outside the US, GB and DE), else the locale's country's. */
/** The customer-care number of the persona's country (meta `care_phone`, written by seed.py; the US toll-free one
 * when missing). */
export function carePhone(meta: Record<string, string>): string {
  return meta.care_phone || "1-800-555-0199";
}

export function deposit(meta: Record<string, string>): Deposit {
  const parsed = JSON.parse(meta.deposit_insurance ?? "null") as Partial<Deposit> | null;
  if (parsed) return { ...NO_DEPOSIT, ...parsed };
  const region = (meta.locale ?? "").split(/[-_]/)[1]?.toUpperCase() ?? "";
  return DEPOSIT[region] ?? NO_DEPOSIT;
}

/** The bank's legal line: "Larkspur Bank, N.A. Member FDIC. Equal Housing Lender." in the US, "Larkspur Bank.
 * FSCS protected." in Britain, the name alone where no scheme is known. */
export function legalLine(name: string, d: Deposit): string {
  // A part that ends in its own full stop (", N.A.") takes no second one.
  return [`${name}${d.suffix}`, d.scheme, d.notice]
    .filter(Boolean)
    .map((part) => (part.endsWith(".") ? part : `${part}.`))
    .join(" ");
}

/** "Zelle", "Bank transfer": a rail's name at the start of a heading. */
export function railHeading(r: Rail): string {
  return r.name.charAt(0).toUpperCase() + r.name.slice(1);
}

/** The card name the world's settlement writes on card payments. */
export const CARD_NAME = "LARKSPUR VISA";

export function fill(template: string, name = ""): string {
  return template.replace("{}", name.toLocaleUpperCase("en-US")).trim();
}

/** Words for the place a transfer goes to or comes from ("SAVINGS", "CHECKING"...). */
export function kindWord(l: Labels, kind: string): string {
  return l.kinds[kind] ?? kind.toUpperCase().replace(/_/g, " ");
}

/** UI name of the routing field by locale: routing number (US), sort code (UK), BLZ (Germany). */
export function routingLabel(locale: string): string {
  if (locale === "en-GB") return "Sort code";
  if (locale.startsWith("de")) return "BLZ";
  return "Routing";
}

/** UI name of an account kind: "Checking" (US), "Current account" (UK)... */
export function kindLabel(kind: string, locale: string): string {
  if (kind === "checking") return locale === "en-GB" ? "Current account" : locale.startsWith("de") ? "Girokonto" : "Checking";
  if (kind === "savings") return "Savings";
  if (kind === "credit_card") return "Credit card";
  if (kind === "brokerage") return locale.startsWith("de") ? "Depot" : "Investment account";
  return kind.replace(/_/g, " ");
}

const CATEGORY_NAMES: Record<string, string> = { p2p: "Person to person", income: "Income", transfer: "Transfer" };

/** UI name of a ledger category: "Person to person" for p2p, otherwise the word capitalised. */
export function categoryLabel(category: string): string {
  const c = category.replace(/_/g, " ");
  return CATEGORY_NAMES[category] ?? c.charAt(0).toUpperCase() + c.slice(1);
}

/** "Monthly on the 1st" (the 2nd, 3rd, 4th ... 21st, 22nd, 31st); "Monthly" without a day. */
export function repeatLabel(day: number | null): string {
  if (!day) return "Monthly";
  const suffix = day % 10 === 1 && day !== 11 ? "st" : day % 10 === 2 && day !== 12 ? "nd" : day % 10 === 3 && day !== 13 ? "rd" : "th";
  return `Monthly on the ${day}${suffix}`;
}
