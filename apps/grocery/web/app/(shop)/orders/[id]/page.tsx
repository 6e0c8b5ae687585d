import Link from "next/link";
import { w } from "@/grocery/lib/words";
import { notFound } from "next/navigation";
import { Header } from "@/grocery/components/Header";
import { requireUser } from "@/grocery/lib/auth";
import { shopContext } from "@/grocery/lib/context";
import { dayTime, money, windowText } from "@/grocery/lib/format";
import { order, SUB_LABEL } from "@/grocery/lib/grocery";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Order details" };

const STATUS: Record<string, string> = { delivered: "Delivered", placed: "Order placed", picked_up: "Picked up" };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** One order: status, window, address, items with substitution preferences, fees, tip, total, card; reorder. */
export default async function OrderPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const { id } = await params;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const found = order(id);
  if (!found) notFound();
  const ctx = shopContext();
  const { order: o, lines } = found;
  return (
    <>
      <Header active="/orders" name={user.full_name} locale={ctx.locale} />
      <main className="bf-main bf-narrow">
        {one(sp.placed) ? <p className="bf-note" role="status" data-testid="placed">Thanks! Your order is placed. We've emailed a confirmation.</p> : null}
        {error ? <p className="bf-alert" role="alert">{error}</p> : null}
        <p className="bf-small"><Link href="/orders">← All orders</Link></p>
        <div className="bf-receipt" data-testid="receipt">
          <h1>{o.store_name}</h1>
          <p><span className={`bf-status bf-status-${o.status}`} data-testid="status">{w(ctx.locale, STATUS[o.status] ?? o.status)}</span> · Order <strong data-testid="order-id">{o.order_id}</strong></p>
          <p className="bf-small">{o.fulfilment === "pickup" ? "Pickup" : "Delivery"} window: <strong data-testid="window">{windowText(ctx, o.window_start, o.window_end)}</strong><br />
            {o.fulfilment === "pickup" ? "Pick up at" : "Deliver to"} {o.address}<br />Placed {dayTime(ctx, o.placed_at)}</p>
          {o.instructions ? <p className="bf-small">Instructions: {o.instructions}</p> : null}
          <table className="bf-table" data-testid="items">
            <tbody>
              {lines.map((l, i) => (
                <tr key={i} data-testid="item">
                  <td className="bf-num">{l.qty} ×</td>
                  <td><Link href={`/product/${l.product_id}?store=${o.store_key}`}>{l.brand ? `${l.brand} ` : ""}{l.name}</Link><div className="bf-small bf-muted">{l.size} · {w(ctx.locale, SUB_LABEL[l.substitution])}</div></td>
                  <td className="bf-num">{money(ctx, l.qty * l.price_cents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="bf-totals">
            <tbody>
              <tr><td>{w(ctx.locale, "Subtotal")}</td><td className="bf-num" data-testid="subtotal">{money(ctx, o.subtotal_cents)}</td></tr>
              <tr><td>{w(ctx.locale, "Delivery fee")}</td><td className="bf-num">{money(ctx, o.delivery_fee_cents)}</td></tr>
              <tr><td>{w(ctx.locale, "Service fee")}</td><td className="bf-num">{money(ctx, o.service_fee_cents)}</td></tr>
              <tr><td>{w(ctx.locale, "Tip")}</td><td className="bf-num" data-testid="tip">{money(ctx, o.tip_cents)}</td></tr>
              <tr className="bf-total-row"><td>{w(ctx.locale, "Total")}</td><td className="bf-num" data-testid="total">{money(ctx, o.total_cents)}</td></tr>
            </tbody>
          </table>
          <p className="bf-small bf-muted">Charged to {o.card_label}</p>
          <form action="/api/reorder" method="post"><input type="hidden" name="_idem" value={idempotencyToken()} /><input type="hidden" name="order" value={o.order_id} /><button type="submit" className="bf-primary" data-testid="reorder">{w(ctx.locale, "Reorder these items")}</button></form>
        </div>
      </main>
    </>
  );
}
