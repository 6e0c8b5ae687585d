import Link from "next/link";
import { Delta, Notice, Shell } from "@/brokerage/components/Shell";
import { requireUser } from "@/brokerage/lib/auth";
import { account, lastCloses, portfolio, security, sharesText, watchlist } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import type { SearchParams } from "@/brokerage/lib/params";
import { errorMessage } from "@persona/platform/http";

export const metadata = { title: { absolute: "Portfolio | Tidewell" } };

/** The portfolio at the frozen clock: value (holdings x as-of closes + cash), day change, holdings, watchlist. */
export default async function PortfolioPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const user = await requireUser();
  const ctx = brokerContext();
  const t = ctx.t;
  const pf = portfolio(ctx.today);
  const acct = account();
  const prevValue = pf.value_cents - pf.day_change_cents;
  const watched = watchlist();
  return (
    <Shell ctx={ctx} active="portfolio">
      <Notice error={errorMessage(sp)} />
      <div className="tw-grid">
        <div>
          <section className="tw-card">
            <p className="tw-muted tw-small">
              {t(`Welcome back, ${user.full_name.split(" ")[0]}`, `Willkommen zurück, ${user.full_name.split(" ")[0]}`)} · {acct.name} ····{acct.last4}
            </p>
            <div className="tw-big" data-testid="portfolio-value" data-cents={pf.value_cents}>
              {ctx.money(pf.value_cents)}
            </div>
            <p data-testid="day-change" data-cents={pf.day_change_cents}>
              <Delta cents={pf.day_change_cents} ctx={ctx} pct={prevValue ? (100 * pf.day_change_cents) / prevValue : null} />{" "}
              <span className="tw-muted">{t("today", "heute")}</span>
            </p>
            <p className="tw-muted tw-small">{t(`Prices as of the close on ${ctx.date(ctx.today)}`, `Kurse zum Schluss vom ${ctx.date(ctx.today)}`)}</p>
          </section>
          <section className="tw-card">
            <h2>{t("Holdings", "Positionen")}</h2>
            {pf.holdings.length === 0 ? (
              <p className="tw-muted">{t("No holdings yet. Search for a fund or stock to make your first investment.", "Noch keine Positionen. Suchen Sie einen Fonds oder eine Aktie für Ihr erstes Investment.")}</p>
            ) : (
              <table className="tw-table" data-testid="holdings">
                <thead>
                  <tr>
                    <th>{t("Symbol", "Symbol")}</th>
                    <th className="num">{t("Shares", "Stück")}</th>
                    <th className="num">{t("Avg cost", "Ø Kaufkurs")}</th>
                    <th className="num">{t("Price", "Kurs")}</th>
                    <th className="num">{t("Market value", "Marktwert")}</th>
                    <th className="num">{t("Total gain/loss", "Gewinn/Verlust")}</th>
                  </tr>
                </thead>
                <tbody>
                  {pf.holdings.map((h) => (
                    <tr key={h.symbol} data-symbol={h.symbol} data-value-cents={h.value_cents} data-shares={sharesText(h.shares_e4)}>
                      <td>
                        <Link href={`/stocks/${h.symbol}`}>
                          <strong>{h.symbol}</strong>
                        </Link>
                        <div className="tw-muted tw-small">{h.name}</div>
                      </td>
                      <td className="num">{sharesText(h.shares_e4)}</td>
                      <td className="num">{ctx.money(h.avg_cost_cents)}</td>
                      <td className="num">{ctx.money(h.price_cents)}</td>
                      <td className="num">{ctx.money(h.value_cents)}</td>
                      <td className="num">
                        <Delta cents={h.gain_cents} ctx={ctx} pct={h.cost_cents ? (100 * h.gain_cents) / h.cost_cents : null} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </div>
        <aside>
          <section className="tw-card">
            <h2>{t("Buying power", "Kaufkraft")}</h2>
            <div className="tw-big" style={{ fontSize: 26 }} data-testid="buying-power" data-cents={pf.buying_power_cents}>
              {ctx.money(pf.buying_power_cents)}
            </div>
            <p className="tw-small tw-muted" data-testid="cash" data-cents={pf.cash_cents}>
              {t("Cash", "Guthaben")}: {ctx.money(pf.cash_cents)}
              {pf.reserved_cents ? ` · ${t("held for open orders", "für offene Orders reserviert")}: ${ctx.money(pf.reserved_cents)}` : ""}
            </p>
            <p>
              <Link href="/transfers">{t("Transfer money", "Geld überweisen")}</Link>
            </p>
          </section>
          <section className="tw-card">
            <h2>
              <Link href="/watchlist">{t("Watchlist", "Beobachtungsliste")}</Link>
            </h2>
            {watched.length === 0 ? <p className="tw-muted tw-small">{t("Nothing on your watchlist.", "Ihre Beobachtungsliste ist leer.")}</p> : null}
            <table className="tw-table">
              <tbody>
                {watched.map((s) => {
                  const [last, prev] = lastCloses(s, ctx.today);
                  const sec = security(s);
                  return (
                    <tr key={s}>
                      <td>
                        <Link href={`/stocks/${s}`}>{s}</Link>
                        <div className="tw-muted tw-small">{sec?.name}</div>
                      </td>
                      <td className="num">
                        {last ? ctx.money(last.close_cents) : "–"}
                        <div className="tw-small">{last && prev ? <Delta cents={last.close_cents - prev.close_cents} ctx={ctx} /> : null}</div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
        </aside>
      </div>
    </Shell>
  );
}
