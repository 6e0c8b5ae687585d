/**
 * Ledger wording of the lines the app writes, by locale: the same words the Python world
 * uses for the seeded history (builder/world/finance.py LABELS), so an app-made transfer or
 * payment reads like every other line on the statement. Upper case, like the seed.
 */

interface Labels {
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

const LABELS: Record<string, Labels> = {
  "en-US": {
    bill_pay: "BILL PAY {}",
    p2p_to: "ZELLE TO {}",
    transfer_to: "TRANSFER TO {}",
    transfer_from: "TRANSFER FROM {}",
    card_payment: "PAYMENT TO {}",
    card_thanks: "PAYMENT THANK YOU",
    ext_to: "ACH TRANSFER TO {}",
    ext_from: "ACH DEPOSIT FROM {}",
    kinds: { checking: "CHECKING", savings: "SAVINGS", credit_card: "CREDIT CARD" },
  },
  "en-GB": {
    bill_pay: "STANDING ORDER {}",
    p2p_to: "FASTER PAYMENT TO {}",
    transfer_to: "TRANSFER TO {}",
    transfer_from: "TRANSFER FROM {}",
    card_payment: "PAYMENT TO {}",
    card_thanks: "PAYMENT RECEIVED - THANK YOU",
    ext_to: "BANK TRANSFER TO {}",
    ext_from: "BANK TRANSFER FROM {}",
    kinds: { checking: "CURRENT ACCOUNT", savings: "SAVER", credit_card: "CREDIT CARD" },
  },
  "de-DE": {
    bill_pay: "DAUERAUFTRAG {}",
    p2p_to: "ÜBERWEISUNG AN {}",
    transfer_to: "UMBUCHUNG AUF {}",
    transfer_from: "UMBUCHUNG VOM {}",
    card_payment: "KREDITKARTENABRECHNUNG {}",
    card_thanks: "AUSGLEICH KREDITKARTE",
    ext_to: "ÜBERWEISUNG AN {}",
    ext_from: "GUTSCHRIFT VON {}",
    kinds: { checking: "GIROKONTO", savings: "TAGESGELD", credit_card: "KREDITKARTE" },
  },
};

/** The card name the world's settlement writes on card payments. */
export const CARD_NAME = "LARKSPUR VISA";

export function labels(locale: string): Labels {
  return LABELS[locale] ?? LABELS[Object.keys(LABELS).find((k) => k.slice(0, 2) === locale.slice(0, 2)) ?? "en-US"] ?? LABELS["en-US"];
}

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
  return kind.replace(/_/g, " ");
}

const CATEGORY_NAMES: Record<string, string> = { p2p: "Person to person", income: "Income", transfer: "Transfer" };

/** UI name of a ledger category: "Person to person" for p2p, otherwise the word capitalised. */
export function categoryLabel(category: string): string {
  const c = category.replace(/_/g, " ");
  return CATEGORY_NAMES[category] ?? c.charAt(0).toUpperCase() + c.slice(1);
}
