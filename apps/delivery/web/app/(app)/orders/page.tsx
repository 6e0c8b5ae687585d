import Link from "next/link";
import { Header } from "@/delivery/components/Header";
import { orderLines, orders, trackState } from "@/delivery/lib/dash";
import { day, money, monthName } from "@/delivery/lib/format";
import { chrome, one, type SearchParams } from "@/delivery/lib/page";

export const metadata = { title: "Orders" };


export default async function OrdersPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const { user, ctx, cartCount, w } = await chrome();
  const month = /^\d{4}-\d\d$/.test(one(sp.month)) ? one(sp.month) : "";
  const all = orders();
  const list = month ? all.filter((o) => o.placed_at.slice(0, 7) === month) : all;
  const months = [...new Set(all.map((o) => o.placed_at.slice(0, 7)))];
  const total = list.reduce((s, o) => s + o.total_cents, 0);
  return (
    <>
      <Header active="/orders" name={user.full_name} cartCount={cartCount} city={ctx.city} w={w} />
      <main className="dbt-main">
        <div className="dbt-row">
          <h1>{w.orders}</h1>
          <form method="get" className="dbt-inline">
            <select name="month" defaultValue={month} aria-label="Month">
              <option value="">{w.allMonths}</option>
              {months.map((m) => (
                <option key={m} value={m}>{monthName(ctx, m)}</option>
              ))}
            </select>
            <button type="submit" className="dbt-secondary">{w.show}</button>
          </form>
        </div>
        <p className="dbt-muted">
          <span data-testid="order-count">{list.length}</span> {w.orders}{month ? ` in ${monthName(ctx, month)}` : ""} ·{" "}
          <span data-testid="order-total" data-cents={total}>{money(ctx, total)}</span> {w.inTotal}
        </p>
        <div className="dbt-orders">
          {list.map((o) => {
            const state = trackState(o, ctx.now);
            const lines = orderLines(o.id);
            return (
              <div key={o.id} className="dbt-order-row" data-testid="order-row" data-order-id={o.order_id}>
                <div>
                  <Link href={`/orders/${o.id}`} className="dbt-strong">{o.restaurant_name}</Link>
                  <div className="dbt-muted dbt-small">{lines.map((l) => `${l.qty > 1 ? `${l.qty} × ` : ""}${l.name}`).join(", ")}</div>
                </div>
                <span className="dbt-muted">{day(ctx, o.placed_at)}</span>
                <span className={`dbt-state dbt-state-${state}`}>{w.steps[state]}</span>
                <span className="dbt-strong" data-cents={o.total_cents}>{money(ctx, o.total_cents)}</span>
              </div>
            );
          })}
        </div>
      </main>
    </>
  );
}
