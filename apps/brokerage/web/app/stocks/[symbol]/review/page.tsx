import Link from "next/link";
import { notFound } from "next/navigation";
import { Notice, Shell } from "@/brokerage/components/Shell";
import { requireUser } from "@/brokerage/lib/auth";
import { BrokerError, planOrder, security, sharesText, tifLabel, type OrderPlan } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import { one, type SearchParams } from "@/brokerage/lib/params";
import { ticketFrom, ticketQuery } from "@/brokerage/lib/ticket";
import { errorMessage } from "@persona/platform/http";
import { pageToken } from "@persona/platform/once";

export const metadata = { title: "Review order" };

/** The confirmation step: what the order will do at the as-of price; "Place order" posts it to /api/orders. */
export default async function ReviewPage({ params, searchParams }: { params: Promise<{ symbol: string }>; searchParams: SearchParams }) {
  const { symbol } = await params;
  const sp = await searchParams;
  await requireUser();
  const sec = security(decodeURIComponent(symbol).toUpperCase());
  if (!sec) notFound();
  const ctx = brokerContext();
  const t = ctx.t;
  const get = (k: string) => one(sp[k]);
  let plan: OrderPlan | null = null;
  let error = "";
  try {
    plan = planOrder(ticketFrom(get, sec.symbol, ctx.locale, t), ctx.today, t);
  } catch (e) {
    if (!(e instanceof BrokerError)) throw e;
    error = e.message;
  }
  const backQuery = new URLSearchParams(ticketQuery(get)).toString();
  const typeName: Record<string, string> = { market: t("Market", "Market"), limit: t("Limit", "Limit"), stop: t("Stop", "Stop"), stop_limit: t("Stop limit", "Stop-Limit") };
  return (
    <Shell ctx={ctx} active="">
      <section className="tw-card" style={{ maxWidth: 560 }}>
        <h1 style={{ marginTop: 0 }}>{t("Review order", "Order prüfen")}</h1>
        <Notice error={error || errorMessage(sp)} />
        {plan ? (
          <>
            <table className="tw-table" data-testid="review">
              <tbody>
                <tr>
                  <td>{t("Order", "Order")}</td>
                  <td className="num">
                    {plan.side === "buy" ? t("Buy", "Kauf") : t("Sell", "Verkauf")} · {typeName[plan.type]}
                  </td>
                </tr>
                <tr>
                  <td>{t("Security", "Wertpapier")}</td>
                  <td className="num">
                    {sec.name} ({sec.symbol})
                  </td>
                </tr>
                <tr>
                  <td>{t("Shares", "Stück")}</td>
                  <td className="num" data-testid="review-shares">
                    {sharesText(plan.shares_e4)}
                  </td>
                </tr>
                <tr>
                  <td>{t(`Price (close ${ctx.date(plan.price.day)})`, `Kurs (Schluss ${ctx.date(plan.price.day)})`)}</td>
                  <td className="num">{ctx.money(plan.price.close_cents)}</td>
                </tr>
                {plan.limit_cents ? (
                  <tr>
                    <td>{t("Limit price", "Limit")}</td>
                    <td className="num">{ctx.money(plan.limit_cents)}</td>
                  </tr>
                ) : null}
                {plan.stop_cents ? (
                  <tr>
                    <td>{t("Stop price", "Stoppkurs")}</td>
                    <td className="num">{ctx.money(plan.stop_cents)}</td>
                  </tr>
                ) : null}
                <tr>
                  <td>{t("Time in force", "Gültigkeit")}</td>
                  <td className="num" data-testid="review-tif" data-tif={plan.time_in_force} data-expires={plan.fills ? "" : plan.expires_on}>
                    {tifLabel(plan.time_in_force, t)}
                    {plan.fills ? "" : t(` (until ${ctx.date(plan.expires_on)})`, ` (bis ${ctx.date(plan.expires_on)})`)}
                  </td>
                </tr>
                <tr>
                  <td>
                    <strong>{plan.side === "buy" ? t("Estimated cost", "Geschätzte Kosten") : t("Estimated proceeds", "Geschätzter Erlös")}</strong>
                  </td>
                  <td className="num" data-testid="review-amount" data-cents={plan.estimate_cents}>
                    <strong>{ctx.money(plan.estimate_cents)}</strong>
                  </td>
                </tr>
                <tr>
                  <td>{t("Commission", "Provision")}</td>
                  <td className="num">{ctx.money(0)}</td>
                </tr>
              </tbody>
            </table>
            <p className="tw-small tw-muted">
              {plan.fills
                ? t("This order fills at once at the latest close.", "Diese Order wird sofort zum letzten Schlusskurs ausgeführt.")
                : plan.time_in_force === "gtc"
                  ? t(`The price has not reached your order's price, so it stays open until it does, you cancel it, or it expires after ${ctx.date(plan.expires_on)}.`, `Der Kurs hat Ihren Orderpreis nicht erreicht; die Order bleibt offen, bis er es tut, Sie sie stornieren oder sie nach dem ${ctx.date(plan.expires_on)} verfällt.`)
                  : t(`The price has not reached your order's price. A day order works through the session of ${ctx.date(plan.expires_on)} and then expires; choose good 'til canceled to keep it in.`, `Der Kurs hat Ihren Orderpreis nicht erreicht. Eine Tagesorder gilt für den Handelstag ${ctx.date(plan.expires_on)} und verfällt danach; wählen Sie „bis auf Widerruf“, damit sie bestehen bleibt.`)}
            </p>
            <form action="/api/orders" method="post" className="tw-form" data-testid="confirm-form">
              <input type="hidden" name="_idem" value={pageToken("brokerage/review", symbol, sp)} />
              <input type="hidden" name="symbol" value={sec.symbol} />
              {Object.entries(ticketQuery(get)).map(([k, v]) => (
                <input key={k} type="hidden" name={k} value={v} />
              ))}
              <input type="hidden" name="confirm" value="yes" />
              <button className="tw-btn" type="submit">
                {plan.side === "buy" ? t("Place buy order", "Kauforder erteilen") : t("Place sell order", "Verkaufsorder erteilen")}
              </button>
            </form>
          </>
        ) : null}
        <p>
          <Link href={`/stocks/${sec.symbol}?${backQuery}`}>{t("Edit order", "Order bearbeiten")}</Link>
        </p>
      </section>
    </Shell>
  );
}
