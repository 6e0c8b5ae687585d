export type Search = Record<string, string | string[] | undefined>;

/** First value of a search parameter, or "". */
export function one(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v[0] : v) ?? "";
}
