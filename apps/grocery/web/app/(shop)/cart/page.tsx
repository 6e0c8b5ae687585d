import Link from "next/link";
import { w, w as wd } from "@/grocery/lib/words";
import { Header } from "@/grocery/components/Header";
import { TipAndTotal } from "@/grocery/components/TipAndTotal";
import { requireUser } from "@/grocery/lib/auth";
import { shopContext } from "@/grocery/lib/context";
import { clock, money, shortDay, unitPrice } from "@/grocery/lib/format";
import { cards, cartCounts, cartLines, compare, similar, storeByKey, stores, SUB_LABEL, tipFor, totals, windowOpen, windows } from "@/grocery/lib/grocery";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Cart" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
const TIP_PERCENTS = [0, 5, 10, 15, 20];

/** The cart of one store: lines with quantity and substitution, the same cart at every store, and checkout. */
export default async function CartPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const error = errorMessage(sp);
  const ctx = shopContext();
  const counts = cartCounts();
  const store = storeByKey(one(sp.store)) ?? stores().find((s) => counts.get(s.id)) ?? storeByKey(ctx.usualStore) ?? stores()[0];
  const lines = cartLines(store.id);
  const pickup = one(sp.fulfilment) === "pickup" && !!store.pickup;
  const kind = pickup ? "pickup" : "delivery";
  const subtotal = lines.reduce((a, l) => a + l.price_cents * l.qty, 0);
  const tipDefault = tipFor(ctx, subtotal, ctx.tipPercent);
  const t = totals(ctx, subtotal, tipDefault, pickup);
  const ws = windows(ctx, store.id, kind);
  const firstOpen = ws.find((w) => windowOpen(ctx, w));
  const days = [...new Set(ws.map((w) => w.starts_at.slice(0, 10)))];
  const cmp = compare(store.id);
  const percents = [...new Set([...TIP_PERCENTS, ctx.tipPercent, ctx.usualTipPercent])].sort((a, b) => a - b);
  const others = stores().filter((s) => s.id !== store.id && counts.get(s.id));
  return (
    <>
      <Header active="" name={user.full_name} store={store} cartCount={counts.get(store.id) ?? 0} locale={ctx.locale} />
      <main className="bf-main">
        <h1>{ctx.locale.startsWith("de") ? `Ihr Warenkorb bei ${store.name}` : `Your ${store.name} cart`}</h1>
        {others.length ? <p className="bf-small bf-muted">Also in your carts: {others.map((s, i) => <span key={s.key}>{i ? ", " : ""}<Link href={`/cart?store=${s.key}`}>{s.name} ({counts.get(s.id)})</Link></span>)}</p> : null}
        {error ? <p className="bf-alert" role="alert" data-testid="error">{error}</p> : null}
        {one(sp.reordered) ? <p className="bf-note" role="status">The items of order {one(sp.reordered)} are in your cart at today's prices.</p> : null}
        {one(sp.from_list) ? <p className="bf-note" role="status">Your list is in the cart.</p> : null}
        {!lines.length ? (
          <div className="bf-empty"><p>Your cart at {store.name} is empty.</p><Link href={`/store/${store.key}`} className="bf-primary">Start shopping</Link></div>
        ) : (
          <div className="bf-cart">
            <section>
              <ul className="bf-lines" data-testid="cart-lines">
                {lines.map((l) => (
                  <li key={l.id} className="bf-line" data-testid="cart-line" data-id={l.id}>
                    <div className="bf-line-main">
                      <Link href={`/product/${l.id}?store=${store.key}`}><strong>{l.brand ? `${l.brand} ` : ""}{l.title}</strong></Link>
                      <div className="bf-small bf-muted">{l.size} · {money(ctx, l.price_cents)} each · {unitPrice(ctx, l.price_cents, l.unit_count, l.unit_label)}</div>
                      <div className="bf-small">If out of stock: {w(ctx.locale, SUB_LABEL[l.substitution])}{l.substitution === "specific" && l.substitute_title ? `: ${l.substitute_title}` : ""}</div>
                    </div>
                    <form action="/api/cart" method="post" className="bf-line-form">
                      <input type="hidden" name="action" value="update" />
                      <input type="hidden" name="store" value={store.key} />
                      <input type="hidden" name="product" value={l.id} />
                      <label>{w(ctx.locale, "Qty")}<input name="qty" defaultValue={l.qty} size={2} inputMode="numeric" /></label>
                      <label>{w(ctx.locale, "Substitution")}
                        <select name="substitution" defaultValue={l.substitution}>
                          <option value="best_match">{w(ctx.locale, "Best match")}</option>
                          <option value="specific">{w(ctx.locale, "Specific item")}</option>
                          <option value="none">{w(ctx.locale, "Don't substitute")}</option>
                        </select>
                      </label>
                      <label>{w(ctx.locale, "Replacement")}
                        <select name="substitute" defaultValue={l.substitute_id ?? ""}>
                          <option value="">(for “Specific item”)</option>
                          {similar(store.id, l, 8).map((s) => <option key={s.id} value={s.id}>{s.brand ? `${s.brand} ` : ""}{s.title} {s.size}</option>)}
                        </select>
                      </label>
                      <button type="submit" className="bf-secondary">{w(ctx.locale, "Update")}</button>
                    </form>
                    <div className="bf-line-total">{money(ctx, l.price_cents * l.qty)}</div>
                  </li>
                ))}
              </ul>
              <h2>{w(ctx.locale, "This cart at other stores")}</h2>
              <table className="bf-table" data-testid="compare">
                <tbody>
                  {cmp.map((c) => (
                    <tr key={c.store.key} className={c.store.id === store.id ? "bf-row-on" : ""} data-key={c.store.key}>
                      <td><span className="bf-dot" style={{ background: c.store.colour }} /> {c.store.name}{c.store.id === store.id ? " (this cart)" : ""}</td>
                      <td className="bf-num" data-testid="compare-subtotal">{money(ctx, c.subtotal_cents)}</td>
                      <td className="bf-num bf-small">{c.subtotal_cents === cmp[0].subtotal_cents ? w(ctx.locale, "Lowest") : `+${money(ctx, c.subtotal_cents - cmp[0].subtotal_cents)}`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <aside className="bf-checkout">
              <form action="/api/checkout" method="post" data-testid="checkout-form">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="store" value={store.key} />
                <input type="hidden" name="fulfilment" value={kind} />
                <div className="bf-toggle">
                  <Link href={`/cart?store=${store.key}`} className={!pickup ? "bf-toggle-on" : ""}>{w(ctx.locale, "Delivery")}</Link>
                  {store.pickup ? <Link href={`/cart?store=${store.key}&fulfilment=pickup`} className={pickup ? "bf-toggle-on" : ""}>{w(ctx.locale, "Pickup")}</Link> : <span className="bf-muted bf-small">No pickup here</span>}
                </div>
                <p className="bf-small">{pickup ? `${w(ctx.locale, "Pick up at")} ${store.address}` : `${w(ctx.locale, "Deliver to")} ${user.address}`}</p>
                <fieldset className="bf-windows" data-testid="windows">
                  <legend>{w(ctx.locale, pickup ? "Pickup window" : "Delivery window")}</legend>
                  {days.map((d) => (
                    <div key={d} className="bf-window-day">
                      <div className="bf-small"><strong>{shortDay(ctx, `${d}T12:00:00`)}</strong></div>
                      <div className="bf-window-row">
                        {ws.filter((w) => w.starts_at.startsWith(d)).map((w) => {
                          const open = windowOpen(ctx, w);
                          return (
                            <label key={w.id} className={open ? "bf-window" : "bf-window bf-window-off"} data-testid="window" data-window={w.id} data-start={w.starts_at} data-full={w.taken >= w.capacity ? "1" : "0"}>
                              <input type="radio" name="window" value={w.id} disabled={!open} defaultChecked={w.id === firstOpen?.id} />
                              {clock(ctx, w.starts_at)}–{clock(ctx, w.ends_at)}
                              <span className="bf-small">{w.taken >= w.capacity ? wd(ctx.locale, "Full") : open ? `${w.capacity - w.taken} ${wd(ctx.locale, "left")}` : wd(ctx.locale, "Closed")}</span>
                            </label>
                          );
                        })}
                      </div>
                    </div>
                  ))}
                </fieldset>
                <label className="bf-field">{w(ctx.locale, "Pay with")}
                  <select name="card" defaultValue={String(cards().find((c) => c.is_default)?.id ?? "")}>{cards().map((c) => <option key={c.id} value={c.id}>{c.label}</option>)}</select>
                </label>
                <label className="bf-field">{w(ctx.locale, pickup ? "Notes for the store" : "Delivery instructions")}<textarea name="instructions" rows={2} maxLength={500} placeholder={pickup ? "" : "Leave at the door, ring the bell…"} /></label>
                {!pickup ? (
                  <TipAndTotal legend={w(ctx.locale, "Tip your shopper (100% goes to them)")} initial={tipDefault} tipWord={w(ctx.locale, "Tip")} totalWord={w(ctx.locale, "Total")}
                    otherWord={w(ctx.locale, "Other amount")} baseCents={totals(ctx, subtotal, 0, false).total_cents} currency={ctx.currency} locale={ctx.locale}
                    options={percents.map((p) => { const c = tipFor(ctx, subtotal, p); return { percent: p, cents: c, label: money(ctx, c), total: money(ctx, totals(ctx, subtotal, c, false).total_cents) }; })}
                    rows={[[w(ctx.locale, "Subtotal"), money(ctx, t.subtotal_cents)], [`${w(ctx.locale, "Delivery fee")}${subtotal < ctx.freeDeliveryFromCents ? ` (free from ${money(ctx, ctx.freeDeliveryFromCents)})` : ""}`, money(ctx, t.delivery_fee_cents)], [w(ctx.locale, "Service fee"), money(ctx, t.service_fee_cents)]]} />
                ) : (
                  <>
                    <input type="hidden" name="tip" value="0" />
                    <table className="bf-totals" data-testid="totals">
                      <tbody>
                        <tr><td>{w(ctx.locale, "Subtotal")}</td><td className="bf-num" data-testid="subtotal">{money(ctx, t.subtotal_cents)}</td></tr>
                        <tr><td>{w(ctx.locale, "Service fee")}</td><td className="bf-num">{money(ctx, t.service_fee_cents)}</td></tr>
                        <tr className="bf-total-row"><td>{w(ctx.locale, "Total")}</td><td className="bf-num" data-testid="total">{money(ctx, t.total_cents)}</td></tr>
                      </tbody>
                    </table>
                  </>
                )}
                <button type="submit" className="bf-primary bf-wide" disabled={!firstOpen}>{w(ctx.locale, "Place order")}</button>
                {!firstOpen ? <p className="bf-small bf-alert">No open windows this week.</p> : null}
              </form>
            </aside>
          </div>
        )}
      </main>
    </>
  );
}
