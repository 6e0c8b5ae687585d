import Link from "next/link";
import { notFound } from "next/navigation";
import { Alert } from "@persona/ui";
import { Footer, Header } from "@/shop/components/Brand";
import { Picture } from "@/shop/components/Product";
import { statusText, TrackBar } from "@/shop/components/OrderBits";
import { shell } from "@/shop/lib/page";
import { one, type SearchParams } from "@/shop/lib/params";
import { cardById, itemsOf, orderByNumber, RETURN_REASONS, returnRefusal, returnsOf, returnUntil, trackingOf } from "@/shop/lib/shop";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Order details" };

export default async function OrderPage({ params, searchParams }: { params: Promise<{ number: string }>; searchParams: SearchParams }) {
  const { user, ctx, cart, depts } = await shell();
  const t = ctx.t;
  const { number } = await params;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const o = orderByNumber(user.id, number);
  if (!o) notFound();
  const state = trackingOf(o, ctx.now);
  const items = itemsOf(o.id);
  const returns = returnsOf(o.id);
  const card = cardById(user.id, o.card_id);
  const refunded = returns.reduce((s, r) => s + r.refund_cents, 0);
  return (
    <>
      <Header ctx={ctx} name={user.full_name} cart={cart} depts={depts} />
      <main className="sw-page" style={{ maxWidth: 980 }}>
        <p className="sw-small"><Link href="/orders">{t("Your orders", "Ihre Bestellungen")}</Link> › {t("Order details", "Bestelldetails")}</p>
        <h1>{t("Order details", "Bestelldetails")}</h1>
        {one(sp.placed) ? <Alert tone="success" className="sw-note" data-testid="placed">{t(`Order placed, thanks! A confirmation is on its way to ${user.email}.`, `Bestellung aufgegeben, danke! Eine Bestätigung geht an ${user.email}.`)}</Alert> : null}
        {one(sp.returned) ? <Alert tone="success" className="sw-note" data-testid="returned">{t(`Return ${one(sp.returned)} accepted. Your refund is on its way to your card.`, `Rücksendung ${one(sp.returned)} angenommen. Die Erstattung geht auf Ihre Karte.`)}</Alert> : null}
        {error ? <Alert tone="error" className="sw-alert" data-testid="error">{error}</Alert> : null}
        <p className="sw-muted">{t("Ordered on", "Bestellt am")} {ctx.date(o.placed_at, "long")} · {t("Order #", "Bestellnr.")} <b data-testid="order-number">{o.order_number}</b> · <a href={`/orders/${o.order_number}/invoice`} data-testid="invoice">{t("Invoice (PDF)", "Rechnung (PDF)")}</a></p>
        <div className="sw-panel" data-testid="order-detail" data-order={o.order_number} data-state={state} data-total={o.total_cents} data-subtotal={o.subtotal_cents} data-shipping={o.shipping_cents}>
          <div className="sw-two-col" style={{ gridTemplateColumns: "1fr 1fr 1fr" }}>
            <div><b>{t("Ship to", "Lieferadresse")}</b><br /><span data-testid="ship-name">{o.ship_name}</span><br /><span data-testid="ship-address">{o.ship_address}</span></div>
            <div><b>{t("Payment method", "Zahlungsart")}</b><br /><span data-testid="paid-with">{card?.label ?? "-"}</span></div>
            <div>
              <table className="sw-totals"><tbody>
                <tr><td>{t("Items", "Artikel")}:</td><td>{ctx.money(o.subtotal_cents)}</td></tr>
                <tr><td>{t("Shipping", "Versand")}:</td><td>{ctx.money(o.shipping_cents)}</td></tr>
                <tr className="total"><td>{t("Grand total", "Gesamtbetrag")}:</td><td data-testid="total">{ctx.money(o.total_cents)}</td></tr>
                {refunded ? <tr><td>{t("Refunded", "Erstattet")}:</td><td data-testid="refunded">{ctx.money(refunded)}</td></tr> : null}
              </tbody></table>
            </div>
          </div>
        </div>
        <div className="sw-panel">
          <p className={`sw-status ${state}`} data-testid="status">{statusText(ctx, o, state)}</p>
          <TrackBar ctx={ctx} o={o} state={state} />
          <p className="sw-small">{o.carrier} · {t("Tracking number", "Sendungsnummer")} <b data-testid="tracking">{o.tracking_number}</b></p>
          {state === "delivered" ? <p className="sw-small sw-muted" data-testid="return-until">{t("Return window closes", "Rückgabe möglich bis")} {ctx.date(returnUntil(o))}</p> : null}
          {items.map((i) => {
            const ret = returns.find((r) => r.order_item_id === i.id);
            const refusal = ret ? null : returnRefusal(ctx, o, i.id);
            return (
              <div key={i.id} className="sw-line" data-testid="item" data-item={i.id} data-sku={i.sku} data-qty={i.qty} data-price={i.price_cents} data-returnable={!ret && !refusal ? "1" : "0"}>
                <Picture p={{ department: i.department ?? "", line: "", brand: i.brand ?? "", id: i.product_id }} size={90} />
                <div>
                  <Link href={`/p/${i.slug}`}><b>{i.name}</b></Link>
                  {i.variant ? <div className="sw-small">{i.variant}</div> : null}
                  <div className="sw-small">{t("Qty", "Menge")}: {i.qty} · {ctx.money(i.price_cents)}</div>
                  {ret ? (
                    <p className="sw-good sw-small" data-testid="return-status">{t(`Returned ${ctx.date(ret.created_at)} · refund ${ctx.money(ret.refund_cents)} · ${ret.rma}`, `Zurückgegeben am ${ctx.date(ret.created_at)} · Erstattung ${ctx.money(ret.refund_cents)} · ${ret.rma}`)}</p>
                  ) : refusal ? (
                    state === "delivered" ? <p className="sw-small sw-muted" data-testid="no-return">{refusal}</p> : null
                  ) : (
                    <details className="sw-return" open={one(sp.item) === String(i.id)}>
                      <summary data-testid="return-open">{t("Return item", "Artikel zurückgeben")}</summary>
                      <form action="/api/returns" method="post" className="sw-form" style={{ maxWidth: 420, marginTop: 8 }} data-testid="return-form">
                        <input type="hidden" name="_idem" value={idempotencyToken()} />
                        <input type="hidden" name="item" value={i.id} />
                        <input type="hidden" name="order" value={o.order_number} />
                        <label>{t("Why are you returning this?", "Warum senden Sie den Artikel zurück?")}
                          <select name="reason" defaultValue="" required>
                            <option value="" disabled>{t("Choose a reason", "Grund wählen")}</option>
                            {Object.entries(RETURN_REASONS).map(([k, [en, de]]) => <option key={k} value={k}>{t(en, de)}</option>)}
                          </select>
                        </label>
                        <label>{t("Comments (optional)", "Anmerkungen (optional)")}<textarea name="comment" rows={2} maxLength={500} /></label>
                        <p className="sw-small">{t(`Refund: ${ctx.money(i.qty * i.price_cents)} to ${card?.label ?? "your card"}`, `Erstattung: ${ctx.money(i.qty * i.price_cents)} auf ${card?.label ?? "Ihre Karte"}`)}</p>
                        <button type="submit" className="sw-btn" data-testid="return-submit">{t("Return item", "Zurückgeben")}</button>
                      </form>
                    </details>
                  )}
                  {state === "delivered" ? <p className="sw-small"><Link href={`/p/${i.slug}#reviews`}>{t("Write a product review", "Produkt bewerten")}</Link></p> : null}
                </div>
                <b>{ctx.money(i.qty * i.price_cents)}</b>
              </div>
            );
          })}
          <form action="/api/reorder" method="post" style={{ marginTop: 10 }}>
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="order" value={o.order_number} />
            <button type="submit" className="sw-btn" data-testid="reorder">{t("Buy it again", "Erneut kaufen")}</button>
          </form>
        </div>
      </main>
      <Footer ctx={ctx} />
    </>
  );
}
