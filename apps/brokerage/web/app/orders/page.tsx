import Link from "next/link";
import { Notice, Shell } from "@/brokerage/components/Shell";
import { requireUser } from "@/brokerage/lib/auth";
import { orders, sharesText, statusAt, statusLabel, tifLabel } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import { one, type SearchParams } from "@/brokerage/lib/params";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Orders" };

/** Open orders still working (cancellable, with their time in force) and the order history (filled, cancelled,
 * expired: an open order past its last day, statusAt). */
export default async function OrdersPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  await requireUser();
  const ctx = brokerContext();
  const t = ctx.t;
  const all = orders().map((o) => ({ ...o, shown: statusAt(o, ctx.today) }));
  const open = all.filter((o) => o.shown === "open");
  const typeName: Record<string, string> = { market: t("Market", "Market"), limit: t("Limit", "Limit"), stop: t("Stop", "Stop"), stop_limit: t("Stop limit", "Stop-Limit") };
  const done = one(sp.done);
  const doneText =
    done === "filled"
      ? t(`Order ${one(sp.order)} filled.`, `Order ${one(sp.order)} ausgeführt.`)
      : done === "open"
        ? t(`Order ${one(sp.order)} placed; it stays open until its price is reached or it expires.`, `Order ${one(sp.order)} erteilt; sie bleibt offen, bis ihr Kurs erreicht ist oder sie verfällt.`)
        : done === "cancelled"
          ? t(`Order ${one(sp.order)} cancelled.`, `Order ${one(sp.order)} storniert.`)
          : undefined;
  const row = (o: (typeof all)[number]) => (
    <tr key={o.id} data-order={o.order_number} data-status={o.shown} data-tif={o.time_in_force} data-expires={o.expires_on}>
      <td>{ctx.dateTime(o.placed_at)}</td>
      <td>
        <Link href={`/stocks/${o.symbol}`}>{o.symbol}</Link>
      </td>
      <td>
        {o.side === "buy" ? t("Buy", "Kauf") : t("Sell", "Verkauf")} · {typeName[o.order_type]}
        {o.recurring ? <span className="tw-pill"> {t("Recurring", "Sparplan")}</span> : null}
        {o.order_type !== "market" ? (
          <div className="tw-small tw-muted" data-testid="order-tif">
            {o.shown === "open" ? `${tifLabel(o.time_in_force, t)} · ${t(`until ${ctx.date(o.expires_on)}`, `bis ${ctx.date(o.expires_on)}`)}` : tifLabel(o.time_in_force, t)}
          </div>
        ) : null}
      </td>
      <td className="num">{sharesText(o.shares_e4)}</td>
      <td className="num">{o.fill_price_cents != null ? ctx.money(o.fill_price_cents) : o.limit_cents != null ? `${t("limit", "Limit")} ${ctx.money(o.limit_cents)}` : o.stop_cents != null ? `${t("stop", "Stop")} ${ctx.money(o.stop_cents)}` : ""}</td>
      <td className="num">{o.amount_cents != null ? ctx.money(o.amount_cents) : ""}</td>
      <td>{statusLabel(o.shown, t)}</td>
      <td>
        {o.shown === "open" ? (
          <form action="/api/orders/cancel" method="post">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="order" value={o.order_number} />
            <button className="tw-btn-ghost" type="submit" data-testid={`cancel-${o.order_number}`}>
              {t("Cancel", "Stornieren")}
            </button>
          </form>
        ) : (
          <span className="tw-muted tw-small">{o.order_number}</span>
        )}
      </td>
    </tr>
  );
  return (
    <Shell ctx={ctx} active="orders">
      <Notice error={errorMessage(sp)} done={doneText} />
      <section className="tw-card">
        <h2>{t("Open orders", "Offene Orders")}</h2>
        {open.length ? (
          <table className="tw-table" data-testid="open-orders">
            <tbody>{open.map(row)}</tbody>
          </table>
        ) : (
          <p className="tw-muted">{t("No open orders.", "Keine offenen Orders.")}</p>
        )}
      </section>
      <section className="tw-card">
        <h2>{t("Order history", "Orderhistorie")}</h2>
        <table className="tw-table" data-testid="order-history">
          <thead>
            <tr>
              <th>{t("Placed", "Erteilt")}</th>
              <th>{t("Symbol", "Symbol")}</th>
              <th>{t("Order", "Order")}</th>
              <th className="num">{t("Shares", "Stück")}</th>
              <th className="num">{t("Price", "Kurs")}</th>
              <th className="num">{t("Amount", "Betrag")}</th>
              <th>{t("Status", "Status")}</th>
              <th />
            </tr>
          </thead>
          <tbody>{all.filter((o) => o.shown !== "open").map(row)}</tbody>
        </table>
      </section>
    </Shell>
  );
}
