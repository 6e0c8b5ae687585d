import Link from "next/link";
import { redirect } from "next/navigation";
import { cents, Shell } from "@/markets/components/Shell";
import { MarketError, quote } from "@/markets/lib/markets";
import { shell } from "@/markets/lib/page";
import { one, type SearchParams } from "@/markets/lib/params";
import { withQuery } from "@persona/platform/http";
import { pageToken } from "@persona/platform/once";

export const metadata = { title: "Review order" };

/** The confirmation step: price x shares, fees, total, balance after; "Place order" posts to /api/trades. */
export default async function ConfirmPage({ params, searchParams }: { params: Promise<{ ticker: string }>; searchParams: SearchParams }) {
  const { ticker } = await params;
  const sp = await searchParams;
  const { user, ctx } = await shell();
  const t = ctx.t;
  let q;
  try {
    q = quote(user.id, ticker, one(sp.side), one(sp.action), one(sp.shares));
  } catch (e) {
    if (e instanceof MarketError) redirect(withQuery(`/m/${encodeURIComponent(ticker)}`, { error: e.message, side: one(sp.side), action: one(sp.action), shares: one(sp.shares) }));
    throw e;
  }
  const sideName = q.side === "yes" ? t("Yes", "Ja") : t("No", "Nein");
  return (
    <Shell user={user} ctx={ctx} active="markets">
      <div className="hl-confirm" data-testid="confirm" data-total={q.total_cents} data-price={q.price_cents} data-shares={q.shares} data-after={q.balance_after_cents}>
        <h1>{t("Review your order", "Auftrag prüfen")}</h1>
        <p className="hl-q">{q.market.question}</p>
        <table className="hl-table">
          <tbody>
            <tr>
              <th>{t("Order", "Auftrag")}</th>
              <td>
                {q.action === "buy" ? t("Buy", "Kaufen") : t("Sell", "Verkaufen")} {q.shares} × {sideName}
              </td>
            </tr>
            <tr>
              <th>{t("Price per share", "Preis je Anteil")}</th>
              <td>{cents(q.price_cents)}</td>
            </tr>
            <tr>
              <th>{t("Shares × price", "Anteile × Preis")}</th>
              <td>{ctx.money(q.subtotal_cents)}</td>
            </tr>
            <tr>
              <th>{t("Fees", "Gebühren")}</th>
              <td>{ctx.money(q.fee_cents)}</td>
            </tr>
            <tr className="hl-total">
              <th>{q.action === "buy" ? t("You pay", "Sie zahlen") : t("You receive", "Sie erhalten")}</th>
              <td data-testid="total">{ctx.money(q.total_cents)}</td>
            </tr>
            <tr>
              <th>{t("Cash after", "Guthaben danach")}</th>
              <td>{ctx.money(q.balance_after_cents)}</td>
            </tr>
            {q.action === "buy" ? (
              <tr>
                <th>{t(`Pays if ${sideName.toUpperCase()} wins`, `Auszahlung, wenn ${sideName.toUpperCase()} gewinnt`)}</th>
                <td>{ctx.money(q.max_payout_cents)}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
        <form action="/api/trades" method="post" className="hl-actions" data-testid="place-form">
          <input type="hidden" name="_idem" value={pageToken("markets/confirm", ticker, sp)} />
          <input type="hidden" name="ticker" value={q.market.ticker} />
          <input type="hidden" name="side" value={q.side} />
          <input type="hidden" name="action" value={q.action} />
          <input type="hidden" name="shares" value={q.shares} />
          <input type="hidden" name="price_cents" value={q.price_cents} />
          <button className="hl-btn" type="submit" data-testid="place-order">
            {t("Place order", "Auftrag erteilen")}
          </button>
          <Link href={`/m/${q.market.ticker}?side=${q.side}&action=${q.action}&shares=${q.shares}`}>{t("Change", "Ändern")}</Link>
        </form>
      </div>
    </Shell>
  );
}
