import Link from "next/link";
import { w } from "@/grocery/lib/words";
import { notFound } from "next/navigation";
import { Header } from "@/grocery/components/Header";
import { DEPT_HUE, DEPT_ICON } from "@/grocery/components/ProductTile";
import { requireUser } from "@/grocery/lib/auth";
import { shopContext } from "@/grocery/lib/context";
import { money, unitPrice } from "@/grocery/lib/format";
import { aisles, cartCounts, lists, pricesOf, product, similar, storeByKey, stores } from "@/grocery/lib/grocery";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Product" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** A product: price and unit price at the chosen store, the same product at every store, add to cart or a list, similar items. */
export default async function ProductPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const { id } = await params;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const p = product(id);
  if (!p) notFound();
  const ctx = shopContext();
  const store = storeByKey(one(sp.store)) ?? storeByKey(ctx.usualStore) ?? stores()[0];
  const prices = pricesOf(p.id);
  const here = prices.find((x) => x.store_id === store.id)!;
  const aisle = aisles().find((a) => a.key === p.aisle)!;
  const back = `/product/${p.id}?store=${store.key}`;
  return (
    <>
      <Header active="/" name={user.full_name} store={store} cartCount={cartCounts().get(store.id) ?? 0} locale={ctx.locale} />
      <main className="bf-main">
        <p className="bf-crumbs bf-small"><Link href={`/store/${store.key}`}>{store.name}</Link> › <Link href={`/store/${store.key}?aisle=${aisle.department}`}>{aisle.dept_name}</Link> › <Link href={`/store/${store.key}?aisle=${aisle.key}`}>{aisle.name}</Link></p>
        {error ? <p className="bf-alert" role="alert">{error}</p> : null}
        {one(sp.added) ? <p className="bf-note" role="status" data-testid="added">Added to your {store.name} cart. <Link href={`/cart?store=${store.key}`}>View cart</Link></p> : null}
        {one(sp.listed) ? <p className="bf-note" role="status">Saved to your list. <Link href={`/lists?list=${one(sp.listed)}`}>View list</Link></p> : null}
        <div className="bf-product">
          <div className="bf-product-pic" style={{ background: DEPT_HUE[p.department] }} aria-hidden="true">{DEPT_ICON[p.department]}</div>
          <div className="bf-product-info">
            {p.brand ? <div className="bf-brandname">{p.brand}</div> : null}
            <h1 data-testid="product-title">{p.title}</h1>
            <div className="bf-muted">{p.size}</div>
            <div className="bf-price bf-price-big" data-testid="price">{money(ctx, here.price_cents)}</div>
            <div className="bf-unit">{unitPrice(ctx, here.price_cents, p.unit_count, p.unit_label)} at {store.name}</div>
            <form action="/api/cart" method="post" className="bf-inline-form">
              <input type="hidden" name="action" value="add" />
              <input type="hidden" name="store" value={store.key} />
              <input type="hidden" name="product" value={p.id} />
              <input type="hidden" name="back" value={back} />
              <label>{w(ctx.locale, "Qty")} <input name="qty" defaultValue="1" size={3} inputMode="numeric" /></label>
              <button type="submit" className="bf-primary">{w(ctx.locale, "Add to cart")}</button>
            </form>
            <form action="/api/lists" method="post" className="bf-inline-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="action" value="add" />
              <input type="hidden" name="product" value={p.id} />
              <input type="hidden" name="back" value={back} />
              <label>{w(ctx.locale, "Save to list")}
                <select name="list">{lists().map((l) => <option key={l.id} value={l.id}>{l.name}</option>)}</select>
              </label>
              <input type="hidden" name="qty" value="1" />
              <button type="submit" className="bf-secondary">{w(ctx.locale, "Save")}</button>
            </form>
            <h2>{w(ctx.locale, "Price at each store")}</h2>
            <table className="bf-table" data-testid="store-prices">
              <tbody>
                {prices.map((x) => (
                  <tr key={x.key} className={x.store_id === store.id ? "bf-row-on" : ""}>
                    <td><span className="bf-dot" style={{ background: x.colour }} /> <Link href={`/product/${p.id}?store=${x.key}`}>{x.name}</Link></td>
                    <td className="bf-num">{money(ctx, x.price_cents)}</td>
                    <td className="bf-num bf-muted bf-small">{unitPrice(ctx, x.price_cents, p.unit_count, p.unit_label)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        <h2>More in {aisle.name}</h2>
        <ul className="bf-strip">
          {similar(store.id, p, 6).map((s) => (
            <li key={s.id}><Link href={`/product/${s.id}?store=${store.key}`}>{s.brand ? `${s.brand} ` : ""}{s.title}</Link> <span className="bf-muted bf-small">{s.size} · {money(ctx, s.price_cents)}</span></li>
          ))}
        </ul>
      </main>
    </>
  );
}
