import Link from "next/link";
import { w } from "@/grocery/lib/words";
import { Header } from "@/grocery/components/Header";
import { requireUser } from "@/grocery/lib/auth";
import { shopContext } from "@/grocery/lib/context";
import { day, money, windowText } from "@/grocery/lib/format";
import { orders } from "@/grocery/lib/grocery";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Your orders" };

const STATUS: Record<string, string> = { delivered: "Delivered", placed: "Order placed", picked_up: "Picked up" };

/** Order history, newest first: store, window, items, total, status; reorder from each. */
export default async function OrdersPage() {
  const user = await requireUser();
  const ctx = shopContext();
  const all = orders();
  return (
    <>
      <Header active="/orders" name={user.full_name} locale={ctx.locale} />
      <main className="bf-main">
        <h1>{w(ctx.locale, "Your orders")}</h1>
        <p className="bf-muted bf-small" data-testid="order-count">{all.length} orders</p>
        <ul className="bf-orders" data-testid="orders">
          {all.map((o) => (
            <li key={o.order_id} className="bf-order" data-testid="order" data-id={o.order_id}>
              <div>
                <Link href={`/orders/${o.order_id}`}><strong>{o.store_name}</strong></Link> <span className={`bf-status bf-status-${o.status}`}>{w(ctx.locale, STATUS[o.status] ?? o.status)}</span>
                <div className="bf-small">{o.fulfilment === "pickup" ? "Pickup" : "Delivery"} {windowText(ctx, o.window_start, o.window_end)}</div>
                <div className="bf-small bf-muted">Order {o.order_id} · placed {day(ctx, o.placed_at)} · {o.item_count} items</div>
              </div>
              <div className="bf-order-total" data-testid="order-total">{money(ctx, o.total_cents)}</div>
              <form action="/api/reorder" method="post"><input type="hidden" name="_idem" value={idempotencyToken()} /><input type="hidden" name="order" value={o.order_id} /><button type="submit" className="bf-secondary">{w(ctx.locale, "Reorder")}</button></form>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
