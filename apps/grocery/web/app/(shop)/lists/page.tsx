import Link from "next/link";
import { w } from "@/grocery/lib/words";
import { Header } from "@/grocery/components/Header";
import { requireUser } from "@/grocery/lib/auth";
import { shopContext } from "@/grocery/lib/context";
import { money } from "@/grocery/lib/format";
import { listItems, lists, storeByKey, stores } from "@/grocery/lib/grocery";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Shopping lists" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** Shopping lists: pick one, see its items at a store's prices, remove items, move it all into a cart; create a list. */
export default async function ListsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const error = errorMessage(sp);
  const ctx = shopContext();
  const all = lists();
  const current = all.find((l) => String(l.id) === one(sp.list)) ?? all[0];
  const store = storeByKey(one(sp.store)) ?? storeByKey(ctx.usualStore) ?? stores()[0];
  const items = current ? listItems(current.id, store.id) : [];
  return (
    <>
      <Header active="/lists" name={user.full_name} locale={ctx.locale} />
      <main className="bf-main bf-lists">
        <aside>
          <h1>{w(ctx.locale, "Lists")}</h1>
          <ul className="bf-list-names" data-testid="lists">
            {all.map((l) => <li key={l.id}><Link href={`/lists?list=${l.id}`} className={current?.id === l.id ? "bf-aisle-on" : ""}>{l.name}</Link> <span className="bf-muted bf-small">{l.n}</span></li>)}
          </ul>
          <form action="/api/lists" method="post" className="bf-form" data-testid="new-list">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="action" value="create" />
            <label>{w(ctx.locale, "New list")}<input name="name" maxLength={60} placeholder="Dinner party, Camping…" /></label>
            <button type="submit" className="bf-secondary">{w(ctx.locale, "Create list")}</button>
          </form>
        </aside>
        <section>
          {error ? <p className="bf-alert" role="alert">{error}</p> : null}
          {current ? (
            <>
              <h2 data-testid="list-name">{current.name}</h2>
              <form method="get" action="/lists" className="bf-inline-form">
                <input type="hidden" name="list" value={current.id} />
                <label>{w(ctx.locale, "Prices at")} <select name="store" defaultValue={store.key}>{stores().map((s) => <option key={s.key} value={s.key}>{s.name}</option>)}</select></label>
                <button type="submit" className="bf-secondary">{w(ctx.locale, "Show")}</button>
              </form>
              {items.length ? (
                <table className="bf-table" data-testid="list-items">
                  <tbody>
                    {items.map((p) => (
                      <tr key={p.id} data-testid="list-item" data-id={p.id}>
                        <td className="bf-num">{p.qty} ×</td>
                        <td><Link href={`/product/${p.id}?store=${store.key}`}>{p.brand ? `${p.brand} ` : ""}{p.title}</Link> <span className="bf-small bf-muted">{p.size}</span></td>
                        <td className="bf-num">{money(ctx, p.price_cents * p.qty)}</td>
                        <td>
                          <form action="/api/lists" method="post"><input type="hidden" name="action" value="remove" /><input type="hidden" name="list" value={current.id} /><input type="hidden" name="product" value={p.id} /><button className="bf-link-button" type="submit">{w(ctx.locale, "Remove")}</button></form>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : <p className="bf-empty">This list is empty. Save products to it from any product page.</p>}
              <form action="/api/lists" method="post" className="bf-inline-form">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="action" value="to_cart" />
                <input type="hidden" name="list" value={current.id} />
                <input type="hidden" name="store" value={store.key} />
                <input type="hidden" name="back" value={`/lists?list=${current.id}`} />
                <button type="submit" className="bf-primary" disabled={!items.length}>Add all to my {store.name} cart</button>
              </form>
            </>
          ) : <p>No lists yet.</p>}
        </section>
      </main>
    </>
  );
}
