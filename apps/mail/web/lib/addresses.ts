import type { Person } from "./mail";

/** Parsing and checking the address fields people type ("Ruth <ruth@x.test>, sam@y.test"). */

const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(s: string): boolean {
  return s.length <= 254 && EMAIL.test(s) && !s.includes("..");
}

/** Split on commas and semicolons outside double quotes and angle brackets. */
function split(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  let angle = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (ch === "<" && !quoted) angle = true;
    else if (ch === ">" && !quoted) angle = false;
    if ((ch === "," || ch === ";") && !quoted && !angle) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter(Boolean);
}

export type Parsed = { ok: true; people: Person[] } | { ok: false; bad: string };

/** The people of an address field, or the first entry that is not an address. */
export function parseAddresses(text: string, nameFor: (email: string) => string | undefined = () => undefined): Parsed {
  const people: Person[] = [];
  for (const part of split(text.replace(/[\r\n]+/g, " "))) {
    const m = /^(.*?)<([^<>]*)>$/.exec(part);
    const email = (m ? m[2] : part).trim();
    let name = m ? m[1].trim().replace(/^"(.*)"$/, "$1").trim() : "";
    if (!isEmail(email)) return { ok: false, bad: part };
    if (!name) name = nameFor(email.toLowerCase()) ?? "";
    if (!people.some((p) => p.email.toLowerCase() === email.toLowerCase())) people.push({ name, email });
  }
  return { ok: true, people };
}

/** An address list as the field shows it. */
export function formatAddresses(list: Person[]): string {
  return list.map((p) => (p.name ? `${/[,;"<>]/.test(p.name) ? `"${p.name.replace(/"/g, "")}"` : p.name} <${p.email}>` : p.email)).join(", ");
}
