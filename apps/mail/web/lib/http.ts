export { field, json, jsonError, safeNext, seeOther, withQuery } from "@persona/platform/http";
import { safeNext, withQuery } from "@persona/platform/http";

/** A back-path with a notice or error on it (`?notice=` / `?error=`), same origin only. */
export function back(path: string, params: Record<string, string | number | null | undefined>): string {
  const p = safeNext(path);
  const [base, query] = p.split("?");
  const keep = Object.fromEntries(new URLSearchParams(query ?? "").entries());
  delete keep.notice;
  delete keep.error;
  return withQuery(base, { ...keep, ...params });
}

/** Posted integer ids (repeated field), invalid ones dropped. */
export function ids(values: FormDataEntryValue[]): number[] {
  return values.map((v) => (typeof v === "string" ? Number.parseInt(v, 10) : NaN)).filter((n) => Number.isSafeInteger(n) && n > 0);
}

export function intOrNull(v: string): number | null {
  const n = Number.parseInt(v, 10);
  return Number.isSafeInteger(n) && n > 0 && String(n) === v.trim() ? n : null;
}
