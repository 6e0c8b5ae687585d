import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { notFound } from "next/navigation";
import { Header } from "@/delivery/components/Header";
import { order, orderLines, RATE_DAYS, restaurantById, TRACK_STEPS, trackState } from "@/delivery/lib/dash";
import { addSeconds } from "@persona/platform/clock";
import { clock, day, dayTime, money } from "@/delivery/lib/format";
import { idValue } from "@/delivery/lib/http";
import { chrome, one, type SearchParams } from "@/delivery/lib/page";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }) {
  const o = order(idValue((await params).id));
  return { title: o ? `Order ${o.order_id}` : "Order not found" };
}

export default async function OrderPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { id } = await params;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const { user, ctx, cartCount, w } = await chrome();
  const o = order(idValue(id));
  if (!o) notFound();
  const r = restaurantById(o.restaurant_id)!;
  const lines = orderLines(o.id);
  const state = trackState(o, ctx.now, r);
  const stepIndex = TRACK_STEPS.findIndex(([s]) => s === state);
  const canRate = state === "delivered" && o.rating === null && addSeconds(o.eta_at, RATE_DAYS * 86400) >= ctx.now;
  return (
    <>
      <Header active="/orders" name={user.full_name} cartCount={cartCount} city={ctx.city} w={w} />
      <main className="dbt-main dbt-narrow" data-testid="order">
        <p><Link href="/orders">← {w.allOrders}</Link></p>
        {one(sp.placed) ? <p className="dbt-note" role="status" data-testid="placed">Order placed! {o.restaurant_name} has it.</p> : null}
        {one(sp.rated) ? <p className="dbt-note" role="status">Thanks for rating your order.</p> : null}
        {error ? <p className="dbt-alert" role="alert" data-testid="error">{error}</p> : null}
        <h1>
          <Link href={`/store/${r.slug}`}>{o.restaurant_name}</Link>
        </h1>
        <p className="dbt-muted">
          {w.order} <span data-testid="order-id">{o.order_id}</span> · {w.placed} {dayTime(ctx, o.placed_at)}
        </p>
        <ol className="dbt-track" data-testid="track" data-state={state}>
          {state === "scheduled" ? <li className="dbt-track-on">{w.steps.scheduled}: {dayTime(ctx, o.scheduled_for ?? o.eta_at)}</li> : null}
          {TRACK_STEPS.map(([s], k) => (
            <li key={s} className={stepIndex >= 0 && k <= stepIndex ? "dbt-track-on" : ""}>{w.steps[s]}</li>
          ))}
        </ol>
        <p data-testid="arrival">
          {state === "delivered" ? <>{w.delivered} {dayTime(ctx, o.delivered_at ?? o.eta_at)}</> : <>{w.arriving} {clock(ctx, o.eta_at)}{o.eta_at.slice(0, 10) !== ctx.today ? `, ${day(ctx, o.eta_at)}` : ""}</>}
        </p>
        <section className="dbt-panel">
          {lines.map((l) => (
            <div key={l.id} className="dbt-line" data-testid="order-line">
              <div>
                <strong><span data-testid="line-qty">{l.qty}</span> × <span data-testid="line-name">{l.name}</span></strong>
                {l.options.length ? <div className="dbt-muted dbt-small" data-testid="line-options">{l.options.join(", ")}</div> : null}
                {l.special_instructions ? <div className="dbt-muted dbt-small">“{l.special_instructions}”</div> : null}
              </div>
              <span className="dbt-line-price" data-testid="line-price" data-cents={l.qty * l.unit_price_cents}>{money(ctx, l.qty * l.unit_price_cents)}</span>
            </div>
          ))}
          <div className="dbt-totals">
            <div><span>{w.subtotal}</span><span data-testid="subtotal" data-cents={o.subtotal_cents}>{money(ctx, o.subtotal_cents)}</span></div>
            {o.discount_cents ? <div className="dbt-good"><span>{w.promo} {o.promo_code}</span><span data-testid="discount" data-cents={o.discount_cents}>−{money(ctx, o.discount_cents)}</span></div> : null}
            <div><span>{w.deliveryFeeCap}</span><span data-testid="delivery" data-cents={o.delivery_fee_cents}>{money(ctx, o.delivery_fee_cents)}</span></div>
            <div><span>{w.serviceFee}</span><span data-testid="service" data-cents={o.service_fee_cents}>{money(ctx, o.service_fee_cents)}</span></div>
            {o.small_order_fee_cents ? <div><span>{w.smallOrderFeeCap}</span><span data-testid="small-order" data-cents={o.small_order_fee_cents}>{money(ctx, o.small_order_fee_cents)}</span></div> : null}
            <div><span>{w.tip}{o.tip_percent !== null ? ` (${o.tip_percent}%)` : ""}</span><span data-testid="tip" data-cents={o.tip_cents}>{money(ctx, o.tip_cents)}</span></div>
            <div className="dbt-strong"><span>{w.total}</span><span data-testid="total" data-cents={o.total_cents}>{money(ctx, o.total_cents)}</span></div>
          </div>
          <p className="dbt-muted dbt-small">{w.chargedTo} {o.card_label}</p>
          <p className="dbt-small">{state === "delivered" ? w.deliveredTo : w.deliveringTo} <span data-testid="address">{o.address}</span>{o.dropoff_instructions ? ` · “${o.dropoff_instructions}”` : ""}</p>
        </section>
        <div className="dbt-actions">
          <form action={`/api/orders/${o.id}/reorder`} method="post">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="mode" value="cart" />
            <button type="submit" className="dbt-secondary" data-testid="reorder-cart">{w.reorder}</button>
          </form>
          <form action={`/api/orders/${o.id}/reorder`} method="post">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="mode" value="now" />
            <button type="submit" className="dbt-primary" data-testid="reorder-now">{w.reorderAsap}</button>
          </form>
        </div>
        <section className="dbt-panel">
          <h2 className="dbt-h2">{w.yourRating}</h2>
          {o.rating !== null ? (
            <p data-testid="rating" data-stars={o.rating}>
              {"★".repeat(o.rating)}{"☆".repeat(5 - o.rating)} {o.rating_comment ? <span className="dbt-muted">“{o.rating_comment}”</span> : null}
            </p>
          ) : canRate ? (
            <form action={`/api/orders/${o.id}/rate`} method="post" className="dbt-form" data-testid="rate-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <div className="dbt-stars">
                {[5, 4, 3, 2, 1].map((s) => (
                  <label key={s} className="dbt-tip">
                    <input type="radio" name="stars" value={s} required />
                    <span>{s} ★</span>
                  </label>
                ))}
              </div>
              <label>
                {w.comment}
                <textarea name="comment" rows={2} maxLength={500} />
              </label>
              <button type="submit" className="dbt-primary">{w.rateOrder}</button>
            </form>
          ) : (
            <p className="dbt-muted">{state === "delivered" ? `Orders can be rated for ${RATE_DAYS} days after delivery.` : "You can rate this order once it arrives."}</p>
          )}
        </section>
      </main>
    </>
  );
}
