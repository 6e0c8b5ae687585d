import { requireUser } from "./auth";
import { dashContext } from "./context";
import { db } from "./db";
import { words } from "./i18n";

/** What every signed-in page needs: the context, the customer, the cart's item count. */
export async function chrome() {
  const user = await requireUser();
  const ctx = dashContext();
  const cartCount = (db().prepare("SELECT COALESCE(SUM(qty), 0) AS n FROM cart_items").get() as { n: number }).n;
  return { user, ctx, cartCount, w: words(ctx) };
}

export const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;
