import type { ShopContext } from "@/shop/lib/context";
import type { Order, Tracking } from "@/shop/lib/shop";

/** The order's tracking state in words, judged against the app's now. */
export function statusText(ctx: ShopContext, o: Order, state: Tracking): string {
  if (state === "delivered") return ctx.t(`Delivered ${ctx.day(o.delivered_at)}`, `Zugestellt am ${ctx.day(o.delivered_at)}`);
  if (state === "shipped") return ctx.t(`Arriving ${ctx.day(o.delivered_at)}`, `Lieferung am ${ctx.day(o.delivered_at)}`);
  return ctx.t(`Ordered · arriving ${ctx.day(o.delivered_at)}`, `Bestellt · Lieferung am ${ctx.day(o.delivered_at)}`);
}

export function TrackBar({ ctx, o, state }: { ctx: ShopContext; o: Order; state: Tracking }) {
  const steps: [string, boolean, string][] = [
    [ctx.t("Ordered", "Bestellt"), true, ctx.date(o.placed_at)],
    [ctx.t("Shipped", "Versandt"), state !== "ordered", ctx.date(o.shipped_at)],
    [ctx.t("Delivered", "Zugestellt"), state === "delivered", ctx.date(o.delivered_at)],
  ];
  return (
    <div className="sw-track" data-testid="track">
      {steps.map(([label, done, when]) => (
        <div key={label} className={done ? "done" : ""}>{label}<br /><span className="sw-muted">{when}</span></div>
      ))}
    </div>
  );
}
