/** Search params of a page as plain strings. */
export type SP = Promise<Record<string, string | string[] | undefined>>;

export const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** Most travellers one booking takes. */
export const MAX_TRAVELLERS = 6;

/** The travellers field of a search (`pax`): empty means 1; anything but a whole number 1-6 is refused with
 * a message instead of being capped or rounded (`word`: the locale's plural, `travelers(ctx, null) + "s"`).
 * Returns `{ pax }` or `{ pax: 1, error }`. */
export function travellers(text: string, word = "travellers"): { pax: number; error?: string } {
  const t = text.trim();
  if (!t) return { pax: 1 };
  if (!/^\d{1,3}$/.test(t) || Number(t) < 1 || Number(t) > MAX_TRAVELLERS) {
    return { pax: 1, error: `Book 1 to ${MAX_TRAVELLERS} ${word} at a time (you asked for ${t.slice(0, 12)}). For larger groups, call Meridian Air Group Desk.` };
  }
  return { pax: Number(t) };
}
