export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The first value of a search parameter ("" when absent), at most 200 characters. */
export const one = (v: string | string[] | undefined): string => ((Array.isArray(v) ? v[0] : v) ?? "").slice(0, 200);
