import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Header } from "@/delivery/components/Header";
import { addresses, cards, cart, cartRestaurant, DashError, etaRange, MAX_NOTE, orderByCode, price, TIP_PERCENTS, type Pricing } from "@/delivery/lib/dash";
import { money } from "@/delivery/lib/format";
import { chrome, one, type SearchParams } from "@/delivery/lib/page";

/** The first quarter hour at or after the naive local `now` (YYYY-MM-DDTHH:MM): the input's step counts from its
 * `min`, so a min on a quarter hour makes 18:30 a valid choice (a min of 09:04 allowed only 18:19, 18:34...). */
function quarterAfter(now: string): string {
  const ms = Date.parse(`${now.slice(0, 16)}:00Z`);
  return new Date(Math.ceil(ms / 900_000) * 900_000).toISOString().slice(0, 16);
}

export const metadata = { title: "Checkout" };

export default async function CheckoutPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const { user, ctx, cartCount, w } = await chrome();
  const lines = cart();
  const r = cartRestaurant(lines);
  const addr = addresses();
  const cs = cards();
  const tip = one(sp.tip) || String(user.tip_percent);
  const tipAmount = one(sp.tip_amount);
  const promo = one(sp.promo);
  const when = one(sp.when) || "now";
  const choose = { address: one(sp.address) || String(addr[0]?.id ?? ""), card: one(sp.card) || String(cs.find((c) => c.is_default)?.id ?? cs[0]?.id ?? "") };
  let pricing: Pricing | null = null;
  let problem = errorMessage(sp);
  if (r) {
    try {
      pricing = price(ctx, r, lines, { promo, tip, amount: tipAmount, defaultTip: user.tip_percent });
    } catch (e) {
      if (!(e instanceof DashError)) throw e;
      problem = problem || e.message;
      pricing = price(ctx, r, lines, { promo: "", tip: String(user.tip_percent), amount: "", defaultTip: user.tip_percent });
    }
  }
  const percents = [...new Set([...TIP_PERCENTS, user.tip_percent])].sort((a, b) => a - b);
  const [lo, hi] = r ? etaRange(r) : [0, 0];
  return (
    <>
      <Header active="" name={user.full_name} cartCount={cartCount} city={ctx.city} w={w} />
      <main className="dbt-main dbt-checkout">
        <h1>{w.checkout}</h1>
        {one(sp.reordered) && orderByCode(one(sp.reordered)) ? <p className="dbt-note" role="status">Your order {one(sp.reordered)} is in the cart again at today's prices.{one(sp.skipped) ? ` Not on the menu any more: ${one(sp.skipped)}.` : ""}</p> : null}
        {problem ? <p className="dbt-alert" role="alert" data-testid="error">{problem}</p> : null}
        {!r || !pricing ? (
          <div className="dbt-empty">
            <p>{w.cartEmpty}</p>
            <p><Link href="/" className="dbt-primary">{w.findFood}</Link></p>
          </div>
        ) : (
          <div className="dbt-checkout-layout">
            <section className="dbt-panel">
              <h2 className="dbt-h2">
                {w.from} <Link href={`/store/${r.slug}`} data-testid="cart-restaurant">{r.name}</Link>
              </h2>
              {lines.map((l) => (
                <div key={l.id} className="dbt-line" data-testid="cart-line" data-cents={l.qty * l.unit_price_cents}>
                  <div>
                    <strong>{l.item.name}</strong>
                    {l.options.length ? <div className="dbt-muted dbt-small">{l.options.join(", ")}</div> : null}
                    {l.special_instructions ? <div className="dbt-muted dbt-small">“{l.special_instructions}”</div> : null}
                  </div>
                  <form action="/api/cart" method="post" className="dbt-inline">
                    <input type="hidden" name="_idem" value={idempotencyToken()} />
                    <input type="hidden" name="action" value="update" />
                    <input type="hidden" name="line" value={l.id} />
                    <input name="qty" type="number" min={1} max={20} defaultValue={l.qty} aria-label={`Quantity of ${l.item.name}`} className="dbt-qty-input" />
                    <button type="submit" className="dbt-link-button">{w.update}</button>
                  </form>
                  <form action="/api/cart" method="post" className="dbt-inline">
                    <input type="hidden" name="_idem" value={idempotencyToken()} />
                    <input type="hidden" name="action" value="remove" />
                    <input type="hidden" name="line" value={l.id} />
                    <button type="submit" className="dbt-link-button">{w.remove}</button>
                  </form>
                  <span className="dbt-line-price">{money(ctx, l.qty * l.unit_price_cents)}</span>
                </div>
              ))}
              <form action="/api/cart" method="post">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="action" value="clear" />
                <button type="submit" className="dbt-link-button">{w.emptyCart}</button>
              </form>
            </section>
            <form action="/api/orders" method="post" className="dbt-panel dbt-form" data-testid="checkout-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <fieldset>
                <legend>{w.deliverTo}</legend>
                {addr.map((a) => (
                  <label key={a.id} className="dbt-choice">
                    <input type="radio" name="address" value={a.id} defaultChecked={String(a.id) === choose.address} />
                    <span><strong>{a.label}</strong> · {a.line}</span>
                  </label>
                ))}
                <Link href="/account" className="dbt-small">{w.addAddress}</Link>
              </fieldset>
              <label>
                {w.dropoff}
                <input name="dropoff" maxLength={MAX_NOTE} defaultValue={one(sp.dropoff)} placeholder={w.dropoffHint} />
              </label>
              <fieldset>
                <legend>{w.when}</legend>
                <label className="dbt-choice">
                  <input type="radio" name="when" value="now" defaultChecked={when !== "later"} />
                  <span>{w.asap} ({lo}–{hi} min)</span>
                </label>
                <label className="dbt-choice">
                  <input type="radio" name="when" value="later" defaultChecked={when === "later"} />
                  <span>{w.scheduleFor}</span>
                  <input type="datetime-local" name="at" step={900} defaultValue={one(sp.at)} min={quarterAfter(ctx.now)} aria-label="Delivery time" />
                </label>
              </fieldset>
              <fieldset>
                <legend>{w.tipDriver}</legend>
                <div className="dbt-tips">
                  {percents.map((p) => (
                    <label key={p} className="dbt-tip">
                      <input type="radio" name="tip" value={String(p)} defaultChecked={tip === String(p)} />
                      <span>{p}%</span>
                    </label>
                  ))}
                  <label className="dbt-tip">
                    <input type="radio" name="tip" value="custom" defaultChecked={tip === "custom"} />
                    <span>{w.other}</span>
                  </label>
                  <input name="tip_amount" inputMode="decimal" defaultValue={tipAmount} placeholder={w.amount} aria-label={w.amount} className="dbt-tip-amount" />
                </div>
                <p className="dbt-muted dbt-small">{w.tipDefault(user.tip_percent)}</p>
              </fieldset>
              <label>
                {w.promoCode}
                <input name="promo" defaultValue={promo} maxLength={20} autoCapitalize="characters" placeholder={w.promoHint} />
              </label>
              <fieldset>
                <legend>{w.payWith}</legend>
                {cs.map((c) => (
                  <label key={c.id} className="dbt-choice">
                    <input type="radio" name="card" value={c.id} defaultChecked={String(c.id) === choose.card} />
                    <span>{c.label}</span>
                  </label>
                ))}
              </fieldset>
              <div className="dbt-totals" data-testid="totals">
                <div><span>{w.subtotal}</span><span data-testid="subtotal" data-cents={pricing.subtotal_cents}>{money(ctx, pricing.subtotal_cents)}</span></div>
                {pricing.discount_cents ? (
                  <div className="dbt-good"><span>{w.promo} {pricing.promo?.code}</span><span data-testid="discount" data-cents={pricing.discount_cents}>−{money(ctx, pricing.discount_cents)}</span></div>
                ) : null}
                <div><span>{w.deliveryFeeCap}{pricing.promo?.kind === "free_delivery" ? ` (${pricing.promo.code})` : ""}</span><span data-testid="delivery" data-cents={pricing.delivery_fee_cents}>{money(ctx, pricing.delivery_fee_cents)}</span></div>
                <div><span>{w.serviceFee}</span><span data-testid="service" data-cents={pricing.service_fee_cents}>{money(ctx, pricing.service_fee_cents)}</span></div>
                {pricing.small_order_fee_cents ? (
                  <div><span>{w.smallOrderFeeCap} ({w.under} {money(ctx, r.minimum_cents)})</span><span data-testid="small-order" data-cents={pricing.small_order_fee_cents}>{money(ctx, pricing.small_order_fee_cents)}</span></div>
                ) : null}
                <div><span>{w.tip}{pricing.tip_percent !== null ? ` (${pricing.tip_percent}%)` : ""}</span><span data-testid="tip" data-cents={pricing.tip_cents}>{money(ctx, pricing.tip_cents)}</span></div>
                <div className="dbt-strong"><span>{w.total}</span><span data-testid="total" data-cents={pricing.total_cents}>{money(ctx, pricing.total_cents)}</span></div>
              </div>
              <div className="dbt-actions">
                <button type="submit" formAction="/checkout" formMethod="get" className="dbt-secondary" data-testid="update-totals">{w.updateTotals}</button>
                <button type="submit" className="dbt-primary" data-testid="place-order">{w.placeOrder} · {money(ctx, pricing.total_cents)}</button>
              </div>
            </form>
          </div>
        )}
      </main>
    </>
  );
}
