import Link from "next/link";
import { w } from "@/grocery/lib/words";
import { notFound } from "next/navigation";
import { Header } from "@/grocery/components/Header";
import { ProductTile } from "@/grocery/components/ProductTile";
import { requireUser } from "@/grocery/lib/auth";
import { shopContext } from "@/grocery/lib/context";
import { aisles, cartCounts, product, searchProducts, storeByKey } from "@/grocery/lib/grocery";
import { parseMoney } from "@persona/ui/format";
import { hour } from "@/grocery/lib/format";
import { errorMessage } from "@persona/platform/http";

export const metadata = { title: "Shop" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
const PAGE = 48;

/** A store's shelves: aisles on the left, search and filters (aisle, brand, price up to, sort), product grid. */
export default async function StorePage({ params, searchParams }: { params: Promise<{ key: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const { key } = await params;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const store = storeByKey(key);
  if (!store) notFound();
  const ctx = shopContext();
  const q = one(sp.q).slice(0, 80);
  const aisle = one(sp.aisle);
  const brand = one(sp.brand);
  const maxRaw = one(sp.max);
  const maxCents = maxRaw ? parseMoney(maxRaw, ctx.locale) : null;
  const sort = one(sp.sort) || "relevance";
  const page = Math.max(1, Number(one(sp.page)) || 1);
  const all = aisles();
  const { rows, total, brands } = searchProducts(store.id, { q, aisle, brand, maxCents, sort, limit: PAGE, offset: (page - 1) * PAGE });
  const added = one(sp.added) ? product(one(sp.added)) : undefined;
  const here = `/store/${store.key}?${new URLSearchParams(Object.entries({ q, aisle, brand, max: maxRaw, sort: sort === "relevance" ? "" : sort, page: page > 1 ? String(page) : "" }).filter(([, v]) => v)).toString()}`;
  const title = q ? `“${q}”` : aisle ? (all.find((a) => a.key === aisle)?.name ?? all.find((a) => a.department === aisle)?.dept_name ?? "Aisle") : w(ctx.locale, "All aisles");
  const depts = [...new Map(all.map((a) => [a.department, a.dept_name])).entries()];
  const link = (extra: Record<string, string>) => `/store/${store.key}?${new URLSearchParams(Object.entries({ q, aisle, brand, max: maxRaw, sort: sort === "relevance" ? "" : sort, ...extra }).filter(([, v]) => v)).toString()}`;
  return (
    <>
      <Header active="/" name={user.full_name} store={store} cartCount={cartCounts().get(store.id) ?? 0} q={q} locale={ctx.locale} />
      <div className="bf-store-bar" style={{ borderColor: store.colour }}>
        <strong>{store.name}</strong> <span className="bf-muted bf-small">{store.address} · {w(ctx.locale, "open")} {hour(ctx, store.opens)} – {store.closes === "24:00" ? w(ctx.locale, "midnight") : hour(ctx, store.closes)}</span>
        <Link href="/" className="bf-small">{w(ctx.locale, "Change store")}</Link>
      </div>
      <div className="bf-shop">
        <nav className="bf-aisles" aria-label="Aisles">
          <Link href={`/store/${store.key}`} className={!aisle ? "bf-aisle-on" : ""}>{w(ctx.locale, "All aisles")}</Link>
          {depts.map(([d, name]) => (
            <div key={d} className="bf-dept">
              <Link href={`/store/${store.key}?aisle=${d}`} className={aisle === d ? "bf-aisle-on bf-dept-name" : "bf-dept-name"}>{name}</Link>
              {all.filter((a) => a.department === d).map((a) => (
                <Link key={a.key} href={`/store/${store.key}?aisle=${a.key}`} className={aisle === a.key ? "bf-aisle-on" : ""}>{a.name}</Link>
              ))}
            </div>
          ))}
        </nav>
        <main className="bf-shelf">
          {error ? <p className="bf-alert" role="alert">{error}</p> : null}
          {added ? <p className="bf-note" role="status" data-testid="added">Added {added.brand ? `${added.brand} ` : ""}{added.title} to your cart. <Link href={`/cart?store=${store.key}`}>View cart</Link></p> : null}
          <h1>{title}</h1>
          <form method="get" action={`/store/${store.key}`} className="bf-filters" data-testid="filters">
            <input type="hidden" name="q" value={q} />
            <input type="hidden" name="aisle" value={aisle} />
            <label>{w(ctx.locale, "Brand")}
              <select name="brand" defaultValue={brand}>
                <option value="">{w(ctx.locale, "All brands")}</option>
                {brands.map((b) => <option key={b} value={b}>{b}</option>)}
              </select>
            </label>
            <label>{w(ctx.locale, "Price up to")}<input name="max" defaultValue={maxRaw} inputMode="decimal" size={6} placeholder={w(ctx.locale, "any")} /></label>
            <label>{w(ctx.locale, "Sort")}
              <select name="sort" defaultValue={sort}>
                <option value="relevance">{w(ctx.locale, "Aisle order")}</option>
                <option value="price">{w(ctx.locale, "Price: low to high")}</option>
                <option value="unit">{w(ctx.locale, "Unit price: low to high")}</option>
                <option value="name">Name</option>
              </select>
            </label>
            <button type="submit" className="bf-secondary">{w(ctx.locale, "Apply")}</button>
            {maxRaw && maxCents == null ? <span className="bf-alert bf-small">“{maxRaw}” isn't a price; showing every price.</span> : null}
          </form>
          <p className="bf-muted bf-small" data-testid="count">{total} {w(ctx.locale, "products")}</p>
          {rows.length ? (
            <ul className="bf-grid">
              {rows.map((p) => <ProductTile key={p.id} ctx={ctx} p={p} storeKey={store.key} back={here} />)}
            </ul>
          ) : <p className="bf-empty">Nothing matches. Try another word or fewer filters.</p>}
          {total > PAGE ? (
            <div className="bf-pages">
              {page > 1 ? <Link href={link({ page: String(page - 1) })}>← Previous</Link> : <span />}
              <span className="bf-muted">Page {page} of {Math.ceil(total / PAGE)}</span>
              {page * PAGE < total ? <Link href={link({ page: String(page + 1) })}>Next →</Link> : <span />}
            </div>
          ) : null}
        </main>
      </div>
    </>
  );
}
