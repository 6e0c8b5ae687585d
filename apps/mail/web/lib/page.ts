import { one, type Search } from "@/mail/components/Notice";
import { withQuery } from "@persona/platform/http";

/** The page number and the page's own path-with-query (where toolbar actions come back to). */
export function pageState(path: string, sp: Search, keep: string[] = []): { page: number; here: string; query: Record<string, string> } {
  const page = Math.max(1, Number.parseInt(one(sp.page), 10) || 1);
  const query = Object.fromEntries(keep.map((k) => [k, one(sp[k])]).filter(([, v]) => v));
  return { page, here: withQuery(path, { ...query, page: page > 1 ? page : "" }), query };
}
