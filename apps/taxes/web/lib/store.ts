/**
 * Ledgerleaf Tax's workflows on its database: start a return, save a step (every field validated first; one
 * transaction; nothing written when a field is refused), import an issued form, file.
 */
import { createHash } from "node:crypto";
import type { User } from "./auth";
import type { TaxContext } from "./context";
import { db } from "./db";
import { amountText, FieldError, fieldsOf, inputsOf, parseAmount, STEPS, type FieldDef, type Step } from "./fields";
import { computeReturn, hasYear, type Result } from "./taxcalc";
import { t } from "./words";

export interface ReturnRow {
  id: number;
  tax_year: string;
  year_key: string;
  country: string;
  status: "draft" | "filed";
  step: Step;
  confirmation: string | null;
  filed_at: string | null;
  tax_cents: number | null;
  refund_cents: number | null;
  updated_at: string;
  world_ref: string | null;
}

export interface IssuedForm {
  id: number;
  form: string;
  issuer: string;
  issued_at: string;
  boxes: Record<string, number | string>;
  imported: boolean;
}

export function returnsOf(user: User): ReturnRow[] {
  return db().prepare("SELECT * FROM returns WHERE user_id = ? ORDER BY tax_year DESC").all(user.id) as ReturnRow[];
}

export function currentReturn(ctx: TaxContext, user: User): ReturnRow | null {
  return (db().prepare("SELECT * FROM returns WHERE user_id = ? AND tax_year = ?").get(user.id, ctx.taxYear) as ReturnRow | undefined) ?? null;
}

export function valuesOf(returnId: number): Record<string, string> {
  const rows = db().prepare("SELECT name, value FROM return_values WHERE return_id = ? ORDER BY name").all(returnId) as { name: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.name, r.value]));
}

export function issuedForms(ctx: TaxContext, returnId: number | null): IssuedForm[] {
  const rows = db()
    .prepare("SELECT f.id, f.form, f.issuer, f.issued_at, f.boxes, (SELECT COUNT(*) FROM form_imports i WHERE i.form_id = f.id AND i.return_id = ?) AS imported FROM issued_forms f WHERE f.tax_year = ? ORDER BY f.id")
    .all(returnId ?? -1, ctx.taxYear) as { id: number; form: string; issuer: string; issued_at: string; boxes: string; imported: number }[];
  return rows.map((r) => ({ ...r, boxes: JSON.parse(r.boxes), imported: r.imported > 0 }));
}

/** The profile's value for a prefilled field (`def.profile`), "" for any other. */
export function profileValue(user: User, def: FieldDef): string {
  if (!def.profile) return "";
  const parts = user.full_name.trim().split(/\s+/);
  if (def.profile === "first") return parts.slice(0, -1).join(" ") || parts[0] || "";
  if (def.profile === "last") return parts.length > 1 ? parts[parts.length - 1] : "";
  return String(user[def.profile] ?? "").trim();
}

/** Store the profile's value of every prefilled field the draft lacks (source 'profile'), so what the personal
 * step shows prefilled is part of the return whether or not that step was ever saved. Inside a transaction. */
function storeProfile(ctx: TaxContext, user: User, returnId: number): void {
  const put = db().prepare("INSERT OR IGNORE INTO return_values (return_id, name, value, source, updated_at) VALUES (?, ?, ?, 'profile', ?)");
  for (const def of fieldsOf(ctx.country)) {
    const v = profileValue(user, def);
    if (def.profile && v) put.run(returnId, def.name, v.slice(0, 120), ctx.now);
  }
}

/** The year's return, created as a draft on the personal step when there is none, with the profile's details
 * stored as its personal info (the values the personal step shows prefilled). */
export function startReturn(ctx: TaxContext, user: User): ReturnRow {
  const have = currentReturn(ctx, user);
  if (have) return have;
  if (!ctx.supported) throw new FieldError(t(ctx, "noCountry"), "");
  if (!hasYear(ctx.country, ctx.yearKey)) throw new FieldError(t(ctx, "noRules"), "");
  const d = db();
  d.transaction(() => {
    const made = d
      .prepare("INSERT INTO returns (user_id, tax_year, year_key, country, status, step, created_at, updated_at) VALUES (?, ?, ?, ?, 'draft', 'personal', ?, ?)")
      .run(user.id, ctx.taxYear, ctx.yearKey, ctx.country, ctx.now, ctx.now);
    storeProfile(ctx, user, Number(made.lastInsertRowid));
  })();
  return currentReturn(ctx, user)!;
}

/** The return's values as the interview shows them: the stored ones, and for a prefilled field never stored the
 * profile's value. Review and filing judge what is missing on these, the same values the personal step shows. */
export function effectiveValues(ctx: TaxContext, user: User, values: Record<string, string>): Record<string, string> {
  const out = { ...values };
  for (const def of fieldsOf(ctx.country)) if (def.profile && !(def.name in out) && profileValue(user, def)) out[def.name] = profileValue(user, def);
  return out;
}

/** What a field shows: the stored value (money as plain text), else the profile's. */
export function shownValue(ctx: TaxContext, user: User, def: FieldDef, values: Record<string, string>): string {
  const de = ctx.country === "DE";
  if (def.name in values) return def.kind === "money" ? (values[def.name] === "" ? "" : amountText(Number(values[def.name]), de)) : values[def.name];
  if (def.profile) return profileValue(user, def);
  if (def.kind === "choice") return def.options?.[0]?.[0] ?? "";
  return "";
}

/** Validate the fields of `step` that `form` holds (a field the form lacks is left as stored); the canonical
 * values, or a FieldError naming the first bad one. Money: parseAmount; a choice: one of its options; text: one
 * line of at most 120 characters. */
export function parseStep(ctx: TaxContext, step: Step, form: FormData): Record<string, string> {
  const de = ctx.country === "DE";
  const out: Record<string, string> = {};
  for (const def of fieldsOf(ctx.country, step)) {
    const raw = form.get(def.name);
    if (raw === null) continue;
    const text = typeof raw === "string" ? raw : "";
    if (def.kind === "money") {
      const cents = parseAmount(text, ctx.locale, def, de);
      out[def.name] = cents === null ? "" : String(cents);
    } else if (def.kind === "choice") {
      if (!def.options!.some(([v]) => v === text)) throw new FieldError(t(ctx, "pick", def.label), def.name);
      out[def.name] = text;
    } else {
      const v = text.trim();
      if (v.length > 120) throw new FieldError(t(ctx, "tooLong", def.label), def.name);
      if (/[\u0000-\u001f\u007f]/.test(v)) throw new FieldError(t(ctx, "oneLine", def.label), def.name);
      out[def.name] = v;
    }
  }
  return out;
}

/** Rules between fields, on the values a save would leave (stored + `values`): qualified dividends (1099-DIV box
 * 1b) are part of the total ordinary dividends (box 1a). A FieldError when broken. */
export function checkTogether(ctx: TaxContext, stored: Record<string, string>, values: Record<string, string>): void {
  const all = { ...stored, ...values };
  if (ctx.country === "US" && Number(all.div_1b || 0) > Number(all.div_1a || 0)) throw new FieldError(t(ctx, "qualifiedOver"), "div_1b");
}

/** Save `values` of `step` into the draft and move it to `next` (one transaction). Filed returns refuse. */
export function saveStep(ctx: TaxContext, ret: ReturnRow, values: Record<string, string>, next: Step): void {
  if (ret.status === "filed") throw new FieldError(t(ctx, "alreadyFiled"), "");
  checkTogether(ctx, valuesOf(ret.id), values);
  const d = db();
  const put = d.prepare(
    "INSERT INTO return_values (return_id, name, value, source, updated_at) VALUES (?, ?, ?, 'typed', ?) ON CONFLICT(return_id, name) DO UPDATE SET value = excluded.value, source = CASE WHEN return_values.value = excluded.value THEN return_values.source ELSE 'typed' END, updated_at = excluded.updated_at",
  );
  d.transaction(() => {
    for (const [k, v] of Object.entries(values)) put.run(ret.id, k, v, ctx.now);
    d.prepare("UPDATE returns SET step = ?, updated_at = ? WHERE id = ?").run(next, ctx.now, ret.id);
  })();
}

/** Copy an issued form's boxes into the draft (source 'imported'); the income step stays the current one. */
export function importForm(ctx: TaxContext, ret: ReturnRow, formId: number): IssuedForm {
  if (ret.status === "filed") throw new FieldError(t(ctx, "alreadyFiled"), "");
  const form = issuedForms(ctx, ret.id).find((f) => f.id === formId);
  if (!form) throw new FieldError(t(ctx, "noForm"), "form");
  const d = db();
  const put = d.prepare(
    "INSERT INTO return_values (return_id, name, value, source, updated_at) VALUES (?, ?, ?, 'imported', ?) ON CONFLICT(return_id, name) DO UPDATE SET value = excluded.value, source = 'imported', updated_at = excluded.updated_at",
  );
  d.transaction(() => {
    for (const def of fieldsOf(ctx.country)) {
      if (!def.from || def.from[0] !== form.form) continue;
      const v = def.from[1] === "issuer" ? form.issuer : form.boxes[def.from[1]];
      if (v !== undefined) put.run(ret.id, def.name, String(v), ctx.now);
    }
    d.prepare("INSERT OR IGNORE INTO form_imports (return_id, form_id, imported_at) VALUES (?, ?, ?)").run(ret.id, form.id, ctx.now);
    d.prepare("UPDATE returns SET step = CASE WHEN step = 'personal' THEN 'income' ELSE step END, updated_at = ? WHERE id = ?").run(ctx.now, ret.id);
  })();
  return form;
}

/** Required fields still empty in `values` (pass effectiveValues: a prefilled detail is not missing). */
export function missing(ctx: TaxContext, values: Record<string, string>): FieldDef[] {
  return fieldsOf(ctx.country).filter((f) => f.required && !(values[f.name] ?? "").trim());
}

export function resultOf(ctx: TaxContext, values: Record<string, string>): Result {
  return computeReturn(ctx.country, ctx.yearKey, inputsOf(ctx.country, values));
}

/** File the draft: every required field present, the signature the user's full name; returns the filed row. */
export function fileReturn(ctx: TaxContext, user: User, ret: ReturnRow, signature: string, consent: boolean): ReturnRow {
  if (ret.status === "filed") throw new FieldError(t(ctx, "alreadyFiled"), "");
  const values = effectiveValues(ctx, user, valuesOf(ret.id));
  const gaps = missing(ctx, values);
  if (gaps.length) throw new FieldError(t(ctx, "missing", gaps.map((g) => g.label).join(", ")), gaps[0].name);
  const norm = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();
  if (!consent) throw new FieldError(t(ctx, "consent"), "consent");
  if (norm(signature) !== norm(user.full_name)) throw new FieldError(t(ctx, "signature", user.full_name), "signature");
  const result = resultOf(ctx, values);
  const confirmation = createHash("sha256").update(`${ret.id}:${ctx.taxYear}:${ctx.now}`).digest("hex").slice(0, 12).toUpperCase();
  const d = db();
  d.transaction(() => {
    storeProfile(ctx, user, ret.id);
    d.prepare("UPDATE returns SET status = 'filed', step = 'file', confirmation = ?, filed_at = ?, tax_cents = ?, refund_cents = ?, updated_at = ? WHERE id = ? AND status = 'draft'")
      .run(confirmation, ctx.now, result.tax, result.refund, ctx.now, ret.id);
  })();
  return currentReturn(ctx, user)!;
}

export function nextStep(step: Step, go: string): Step {
  const i = STEPS.indexOf(step);
  if (go === "back") return STEPS[Math.max(0, i - 1)];
  if (go === "next") return STEPS[Math.min(STEPS.length - 1, i + 1)];
  return step;
}

export function documentOf(user: User, returnId: number): { filename: string; content: Buffer } | null {
  return (
    (db()
      .prepare("SELECT d.filename, d.content FROM documents d JOIN returns r ON r.id = d.return_id WHERE r.user_id = ? AND d.return_id = ?")
      .get(user.id, returnId) as { filename: string; content: Buffer } | undefined) ?? null
  );
}
