import Link from "next/link";
import { notFound } from "next/navigation";
import { cents, Notice, Shell } from "@/markets/components/Shell";
import { PriceChart } from "@/markets/components/PriceChart";
import { balance, held, isWatched, market, priceHistory, stateOf } from "@/markets/lib/markets";
import { shell } from "@/markets/lib/page";
import { one, type SearchParams } from "@/markets/lib/params";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export async function generateMetadata({ params }: { params: Promise<{ ticker: string }> }) {
  const m = market((await params).ticker);
  return { title: m ? m.question : "Market" };
}

/** A market: question, chart, rules, the order ticket (to the confirmation page), the persona's position. */
export default async function MarketPage({ params, searchParams }: { params: Promise<{ ticker: string }>; searchParams: SearchParams }) {
  const { ticker } = await params;
  const sp = await searchParams;
  const { user, ctx } = await shell();
  const t = ctx.t;
  const m = market(ticker);
  if (!m) notFound();
  const st = stateOf(m, ctx.today);
  const side = one(sp.side) === "no" ? "no" : "yes";
  const action = one(sp.action) === "sell" ? "sell" : "buy";
  const yesHeld = held(user.id, m.ticker, "yes");
  const noHeld = held(user.id, m.ticker, "no");
  const watched = isWatched(user.id, m.ticker);
  const traded = one(sp.traded);
  return (
    <Shell user={user} ctx={ctx} active="markets">
      <Notice error={errorMessage(sp)} ok={traded ? t(`Order filled (${traded}).`, `Auftrag ausgeführt (${traded}).`) : undefined} />
      <p className="hl-crumbs">
        <Link href="/">{t("Markets", "Märkte")}</Link> › <Link href={`/?cat=${m.category}&state=all`}>{m.category_name}</Link> › {m.ticker}
      </p>
      <div className="hl-market" data-testid="market-detail" data-ticker={m.ticker} data-state={st} data-yes={m.yes_cents} data-outcome={m.outcome ?? ""}>
        <div className="hl-market-main">
          <h1>{m.question}</h1>
          <p className="hl-big">
            <b>{m.yes_cents}%</b> {t("chance of YES", "Chance auf JA")}
            {st === "resolved" ? (
              <span className={`hl-result ${m.outcome}`} data-testid="outcome">
                {t(`Resolved ${m.outcome === "yes" ? "YES" : "NO"}`, `Entschieden: ${m.outcome === "yes" ? "JA" : "NEIN"}`)}
              </span>
            ) : st === "closed" ? (
              <span className="hl-result closed">{t("Closed, awaiting result", "Geschlossen, Ergebnis ausstehend")}</span>
            ) : null}
          </p>
          <PriceChart points={priceHistory(m.ticker)} label={t(`YES price of ${m.ticker}, daily`, `JA-Kurs von ${m.ticker}, täglich`)} />
          <h2>{t("Rules", "Regeln")}</h2>
          <p data-testid="rules">{m.rules}</p>
          <dl className="hl-facts">
            <dt>{t("Opened", "Eröffnet")}</dt>
            <dd>{ctx.date(m.open_date, "long")}</dd>
            <dt>{t("Trading closes", "Handelsschluss")}</dt>
            <dd data-testid="close-date">{ctx.date(m.close_date, "long")}</dd>
            <dt>{t("Expected result", "Ergebnis erwartet")}</dt>
            <dd>{ctx.date(m.resolve_date, "long")}</dd>
            <dt>{t("Volume", "Volumen")}</dt>
            <dd>{m.volume.toLocaleString(ctx.locale)}</dd>
          </dl>
        </div>
        <aside className="hl-ticket">
          {yesHeld || noHeld ? (
            <p className="hl-held" data-testid="held" data-yes={yesHeld} data-no={noHeld}>
              {t("You hold", "Sie halten")} {yesHeld ? `${yesHeld} ${t("Yes", "Ja")}` : ""} {yesHeld && noHeld ? "·" : ""} {noHeld ? `${noHeld} ${t("No", "Nein")}` : ""}
            </p>
          ) : null}
          {st === "open" ? (
            <form action={`/m/${m.ticker}/confirm`} method="get" className="hl-form" data-testid="order-form">
              {/* A nonce of this order ticket: the review page's form token comes from it (pageToken), so going back to the review and confirming again places one order, while a new ticket may place the same order again. */}
              <input type="hidden" name="n" value={idempotencyToken().slice(0, 12)} />
              <div className="hl-seg">
                <label>
                  <input type="radio" name="action" value="buy" defaultChecked={action === "buy"} /> {t("Buy", "Kaufen")}
                </label>
                <label>
                  <input type="radio" name="action" value="sell" defaultChecked={action === "sell"} /> {t("Sell", "Verkaufen")}
                </label>
              </div>
              <div className="hl-seg">
                <label className="yes">
                  <input type="radio" name="side" value="yes" defaultChecked={side === "yes"} /> {t("Yes", "Ja")} {cents(m.yes_cents)}
                </label>
                <label className="no">
                  <input type="radio" name="side" value="no" defaultChecked={side === "no"} /> {t("No", "Nein")} {cents(100 - m.yes_cents)}
                </label>
              </div>
              <label>
                {t("Shares", "Anteile")}
                <input name="shares" inputMode="numeric" defaultValue={one(sp.shares) || "10"} required maxLength={7} />
              </label>
              <button className="hl-btn" type="submit">
                {t("Review order", "Auftrag prüfen")}
              </button>
              <p className="hl-small hl-muted">
                {t(`Cash available: ${ctx.money(balance(user.id))}. No fees.`, `Verfügbar: ${ctx.money(balance(user.id))}. Keine Gebühren.`)}
              </p>
            </form>
          ) : (
            <p className="hl-muted" data-testid="no-trading">
              {t("This market no longer takes orders.", "Dieser Markt nimmt keine Aufträge mehr an.")}
            </p>
          )}
          <form action="/api/watch" method="post">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="ticker" value={m.ticker} />
            <input type="hidden" name="on" value={watched ? "0" : "1"} />
            <input type="hidden" name="back" value={`/m/${m.ticker}`} />
            <button className="hl-btn ghost" type="submit" data-testid="watch-toggle" data-watched={watched ? "1" : "0"}>
              {watched ? t("★ On watchlist (remove)", "★ Auf der Merkliste (entfernen)") : t("☆ Add to watchlist", "☆ Auf die Merkliste")}
            </button>
          </form>
        </aside>
      </div>
    </Shell>
  );
}
