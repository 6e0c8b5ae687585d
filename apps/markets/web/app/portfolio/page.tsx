import Link from "next/link";
import { cents, Notice, Shell } from "@/markets/components/Shell";
import { balance, positionPnl, positions, positionValue, sidePrice, totals } from "@/markets/lib/markets";
import { shell } from "@/markets/lib/page";
import { one, type SearchParams } from "@/markets/lib/params";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Portfolio" };

/** Cash, deposits/withdrawals through the bank, open positions with P&L at today's prices. */
export default async function PortfolioPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const { user, ctx } = await shell();
  const t = ctx.t;
  const cash = balance(user.id);
  const tot = totals(user.id);
  const live = positions(user.id).filter((p) => !p.settled && p.shares > 0);
  const value = live.reduce((s, p) => s + positionValue(p), 0);
  const pnl = live.reduce((s, p) => s + positionPnl(p), 0);
  const moved = one(sp.moved);
  const sideName = (s: string) => (s === "yes" ? t("Yes", "Ja") : t("No", "Nein"));
  return (
    <Shell user={user} ctx={ctx} active="portfolio">
      <Notice error={errorMessage(sp)} ok={moved ? t(`Transfer ${moved} done.`, `Überweisung ${moved} ausgeführt.`) : undefined} />
      <h1>{t("Portfolio", "Depot")}</h1>
      <div className="hl-cards">
        <div className="hl-card" data-testid="cash" data-cents={cash}>
          <span className="hl-muted">{t("Cash", "Guthaben")}</span>
          <b>{ctx.money(cash)}</b>
        </div>
        <div className="hl-card" data-testid="positions-value" data-cents={value}>
          <span className="hl-muted">{t("Positions value", "Wert der Positionen")}</span>
          <b>{ctx.money(value)}</b>
        </div>
        <div className="hl-card" data-testid="open-pnl" data-cents={pnl}>
          <span className="hl-muted">{t("Open P&L", "Offener G/V")}</span>
          <b className={pnl >= 0 ? "hl-up" : "hl-down"}>{ctx.money(pnl)}</b>
        </div>
        <div className="hl-card" data-testid="deposited" data-cents={tot.deposits}>
          <span className="hl-muted">{t("Deposited", "Eingezahlt")}</span>
          <b>{ctx.money(tot.deposits)}</b>
          <span className="hl-small hl-muted">
            {t(`withdrawn ${ctx.money(tot.withdrawals)} · won ${ctx.money(tot.payouts)}`, `ausgezahlt ${ctx.money(tot.withdrawals)} · gewonnen ${ctx.money(tot.payouts)}`)}
          </span>
        </div>
      </div>
      <section className="hl-transfer">
        <h2>{t("Move money", "Geld bewegen")}</h2>
        <form action="/api/transfers" method="post" className="hl-inline" data-testid="transfer-form">
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <select name="direction" defaultValue={one(sp.direction) === "withdraw" ? "withdraw" : "deposit"} aria-label={t("Direction", "Richtung")}>
            <option value="deposit">{t("Deposit from checking", "Einzahlen vom Girokonto")}</option>
            <option value="withdraw">{t("Withdraw to checking", "Auszahlen aufs Girokonto")}</option>
          </select>
          <input name="amount" inputMode="decimal" placeholder={t("Amount", "Betrag")} aria-label={t("Amount", "Betrag")} defaultValue={one(sp.amount)} maxLength={20} required />
          <button className="hl-btn" type="submit">
            {t("Transfer", "Überweisen")}
          </button>
        </form>
        <p className="hl-small hl-muted">{t("Transfers move at once between Hunchline and your bank's checking account.", "Überweisungen zwischen Hunchline und Ihrem Girokonto werden sofort gebucht.")}</p>
      </section>
      <h2>{t("Open positions", "Offene Positionen")}</h2>
      {live.length === 0 ? (
        <p className="hl-empty" data-testid="no-positions">
          {t("No open positions. Pick a market and buy Yes or No.", "Keine offenen Positionen. Wählen Sie einen Markt und kaufen Sie Ja oder Nein.")} <Link href="/">{t("Browse markets", "Märkte ansehen")}</Link>
        </p>
      ) : (
        <table className="hl-table wide">
          <thead>
            <tr>
              <th>{t("Market", "Markt")}</th>
              <th>{t("Side", "Seite")}</th>
              <th className="num">{t("Shares", "Anteile")}</th>
              <th className="num">{t("Avg. price", "Ø Preis")}</th>
              <th className="num">{t("Now", "Aktuell")}</th>
              <th className="num">{t("Cost", "Kosten")}</th>
              <th className="num">{t("Value", "Wert")}</th>
              <th className="num">P&amp;L</th>
            </tr>
          </thead>
          <tbody>
            {live.map((p) => {
              const v = positionValue(p);
              const pl = positionPnl(p);
              return (
                <tr key={`${p.ticker}-${p.side}`} data-testid="position" data-ticker={p.ticker} data-side={p.side} data-shares={p.shares} data-cost={p.cost_cents} data-value={v} data-pnl={pl}>
                  <td>
                    <Link href={`/m/${p.ticker}`}>{p.question}</Link>
                    {p.status === "closed" || ctx.today >= p.close_date ? <span className="hl-muted hl-small"> · {t("closed, awaiting result", "geschlossen, Ergebnis ausstehend")}</span> : null}
                  </td>
                  <td className={p.side === "yes" ? "hl-up" : "hl-down"}>{sideName(p.side)}</td>
                  <td className="num">{p.shares}</td>
                  <td className="num">{(p.cost_cents / p.shares).toFixed(1)}¢</td>
                  <td className="num">{cents(sidePrice(p, p.side))}</td>
                  <td className="num">{ctx.money(p.cost_cents)}</td>
                  <td className="num">{ctx.money(v)}</td>
                  <td className={`num ${pl >= 0 ? "hl-up" : "hl-down"}`}>{ctx.money(pl)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p>
        <Link href="/resolved">{t("Resolved markets and payouts →", "Entschiedene Märkte und Auszahlungen →")}</Link>
      </p>
    </Shell>
  );
}
