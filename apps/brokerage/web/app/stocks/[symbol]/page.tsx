import Link from "next/link";
import { notFound } from "next/navigation";
import { PriceChart } from "@/brokerage/components/Chart";
import { Delta, Notice, Shell } from "@/brokerage/components/Shell";
import { requireUser } from "@/brokerage/lib/auth";
import { history, holdings, lastCloses, ordersFor, security, sharesText, statusAt, statusLabel, tifLabel, watchlist } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import { one, type SearchParams } from "@/brokerage/lib/params";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

const RANGES: [string, number][] = [
  ["1W", 7],
  ["1M", 31],
  ["3M", 92],
  ["1Y", 366],
  ["ALL", 100000],
];

function daysBefore(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

/** "3,6,9,12" -> "Mar, Jun, Sep, Dec" in the persona's language. */
function monthNames(months: string, locale: string): string {
  const f = new Intl.DateTimeFormat(locale, { month: "short", timeZone: "UTC" });
  return months
    .split(",")
    .filter(Boolean)
    .map((m) => f.format(new Date(Date.UTC(2024, Number(m) - 1, 15))))
    .join(", ");
}

export async function generateMetadata({ params }: { params: Promise<{ symbol: string }> }) {
  const { symbol } = await params;
  return { title: symbol.toUpperCase().slice(0, 8) };
}

/** A security: as-of price and day change, chart by range with its closes (newest first, folded), stats, your position, the order ticket, watch toggle. */
export default async function SymbolPage({ params, searchParams }: { params: Promise<{ symbol: string }>; searchParams: SearchParams }) {
  const { symbol } = await params;
  const sp = await searchParams;
  await requireUser();
  const sec = security(decodeURIComponent(symbol).toUpperCase());
  if (!sec) notFound();
  const ctx = brokerContext();
  const t = ctx.t;
  const range = RANGES.find(([k]) => k === one(sp.range)) ?? RANGES[1];
  const closes = history(sec.symbol, daysBefore(ctx.today, range[1]), ctx.today);
  const year = history(sec.symbol, daysBefore(ctx.today, 366), ctx.today).map((c) => c.close_cents);
  const [last, prev] = lastCloses(sec.symbol, ctx.today);
  const mine = holdings(ctx.today).find((h) => h.symbol === sec.symbol);
  const watched = watchlist().includes(sec.symbol);
  const rangeChange = closes.length > 1 ? closes[closes.length - 1].close_cents - closes[0].close_cents : 0;
  const side = one(sp.side) === "sell" ? "sell" : "buy";
  const myOrders = ordersFor(sec.symbol).map((o) => ({ ...o, shown: statusAt(o, ctx.today) }));
  return (
    <Shell ctx={ctx} active="">
      <Notice error={errorMessage(sp)} done={one(sp.done) === "placed" ? t(`Order ${one(sp.order)} placed.`, `Order ${one(sp.order)} erteilt.`) : one(sp.done) === "watch" ? t("Watchlist updated.", "Beobachtungsliste aktualisiert.") : undefined} />
      <div className="tw-grid">
        <div>
          <section className="tw-card">
            <p className="tw-muted tw-small">
              {sec.class_label} · {sec.sector}
            </p>
            <h1 style={{ margin: "4px 0" }}>
              {sec.name} <span className="tw-muted">({sec.symbol})</span>
            </h1>
            <div className="tw-big" data-testid="price" data-cents={last?.close_cents ?? 0}>
              {last ? ctx.money(last.close_cents) : "–"}
            </div>
            <p>
              {last && prev ? <Delta cents={last.close_cents - prev.close_cents} ctx={ctx} pct={(100 * (last.close_cents - prev.close_cents)) / prev.close_cents} /> : null}{" "}
              <span className="tw-muted">{t("today", "heute")}</span> · <Delta cents={rangeChange} ctx={ctx} /> <span className="tw-muted">{range[0]}</span>
            </p>
            <PriceChart closes={closes} money={ctx.money} label={t(`${sec.symbol} closing prices, ${range[0]}`, `${sec.symbol} Schlusskurse, ${range[0]}`)} />
            <div className="tw-ranges">
              {RANGES.map(([k]) => (
                <Link key={k} href={`/stocks/${sec.symbol}?range=${k}`} className={k === range[0] ? "on" : undefined}>
                  {k}
                </Link>
              ))}
            </div>
            <details>
              <summary>{t(`Closing prices, ${range[0]}`, `Schlusskurse, ${range[0]}`)}</summary>
              <table className="tw-table" data-testid="price-history">
                <thead>
                  <tr>
                    <th>{t("Date", "Datum")}</th>
                    <th className="num">{t("Close", "Schlusskurs")}</th>
                  </tr>
                </thead>
                <tbody>
                  {[...closes].reverse().map((c) => (
                    <tr key={c.day} data-day={c.day}>
                      <td>{ctx.date(c.day)}</td>
                      <td className="num">{ctx.money(c.close_cents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </section>
          <section className="tw-card">
            <h2>{t("Stats", "Kennzahlen")}</h2>
            <dl className="tw-stats">
              <div>
                <dt>{t("52-week high", "52-Wochen-Hoch")}</dt>
                <dd>{year.length ? ctx.money(Math.max(...year)) : "–"}</dd>
              </div>
              <div>
                <dt>{t("52-week low", "52-Wochen-Tief")}</dt>
                <dd>{year.length ? ctx.money(Math.min(...year)) : "–"}</dd>
              </div>
              <div>
                <dt>{t("Dividend yield", "Dividendenrendite")}</dt>
                <dd>{(sec.yield_bp / 100).toLocaleString(ctx.locale, { minimumFractionDigits: 2 })} %</dd>
              </div>
              <div>
                <dt>{t("Pays in months", "Zahlt in Monaten")}</dt>
                <dd>{monthNames(sec.pay_months, ctx.locale) || "–"}</dd>
              </div>
              <div>
                <dt>{t("Previous close", "Vortagesschluss")}</dt>
                <dd>{prev ? ctx.money(prev.close_cents) : "–"}</dd>
              </div>
              <div>
                <dt>{t("Split", "Aktiensplit")}</dt>
                <dd>{sec.split_on ? `${sec.split_ratio}:1 · ${ctx.date(sec.split_on)}` : "–"}</dd>
              </div>
            </dl>
          </section>
          {mine ? (
            <section className="tw-card" data-testid="position">
              <h2>{t("Your position", "Ihre Position")}</h2>
              <dl className="tw-stats">
                <div>
                  <dt>{t("Shares", "Stück")}</dt>
                  <dd>{sharesText(mine.shares_e4)}</dd>
                </div>
                <div>
                  <dt>{t("Market value", "Marktwert")}</dt>
                  <dd>{ctx.money(mine.value_cents)}</dd>
                </div>
                <div>
                  <dt>{t("Average cost", "Ø Kaufkurs")}</dt>
                  <dd>{ctx.money(mine.avg_cost_cents)}</dd>
                </div>
                <div>
                  <dt>{t("Total gain/loss", "Gewinn/Verlust")}</dt>
                  <dd>
                    <Delta cents={mine.gain_cents} ctx={ctx} />
                  </dd>
                </div>
              </dl>
            </section>
          ) : null}
          {myOrders.length ? (
            <section className="tw-card">
              <h2>{t("Your orders", "Ihre Orders")}</h2>
              <table className="tw-table">
                <tbody>
                  {myOrders.map((o) => (
                    <tr key={o.id}>
                      <td>{ctx.date(o.placed_at.slice(0, 10))}</td>
                      <td>{o.side === "buy" ? t("Buy", "Kauf") : t("Sell", "Verkauf")}</td>
                      <td className="num">{sharesText(o.shares_e4)}</td>
                      <td data-status={o.shown}>{statusLabel(o.shown, t)}</td>
                      <td className="num">{o.amount_cents != null ? ctx.money(o.amount_cents) : ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ) : null}
        </div>
        <aside>
          <section className="tw-card">
            <h2>
              {side === "buy" ? t(`Buy ${sec.symbol}`, `${sec.symbol} kaufen`) : t(`Sell ${sec.symbol}`, `${sec.symbol} verkaufen`)}
            </h2>
            <p className="tw-small">
              <Link href={`/stocks/${sec.symbol}?side=buy`}>{t("Buy", "Kaufen")}</Link> · <Link href={`/stocks/${sec.symbol}?side=sell`}>{t("Sell", "Verkaufen")}</Link>
            </p>
            <form action={`/stocks/${sec.symbol}/review`} method="get" className="tw-form" data-testid="order-form">
              {/* A nonce of this order ticket: the review page's form token comes from it (pageToken), so going back to the review and confirming again places one order, while a new ticket may place the same order again. */}
              <input type="hidden" name="n" value={idempotencyToken().slice(0, 12)} />
              <input type="hidden" name="side" value={side} />
              <label>
                {t("Order type", "Orderart")}
                <select name="type" defaultValue={one(sp.type) || "market"}>
                  <option value="market">{t("Market", "Market")}</option>
                  <option value="limit">{t("Limit", "Limit")}</option>
                  <option value="stop">{t("Stop", "Stop")}</option>
                  <option value="stop_limit">{t("Stop limit", "Stop-Limit")}</option>
                </select>
              </label>
              <label>
                {t("Time in force", "Gültigkeit")}
                <select name="tif" defaultValue={one(sp.tif) || "day"} data-testid="tif">
                  <option value="day">{tifLabel("day", t)}</option>
                  <option value="gtc">{tifLabel("gtc", t)}</option>
                </select>
              </label>
              <label>
                {t("Shares", "Stück")}
                <input name="shares" inputMode="decimal" defaultValue={one(sp.shares)} />
              </label>
              {side === "buy" ? (
                <label>
                  {t("or amount (market buys)", "oder Betrag (Market-Kauf)")}
                  <input name="amount" inputMode="decimal" defaultValue={one(sp.amount)} />
                </label>
              ) : null}
              <label>
                {t("Limit price", "Limit")}
                <input name="limit" inputMode="decimal" defaultValue={one(sp.limit)} />
              </label>
              <label>
                {t("Stop price", "Stoppkurs")}
                <input name="stop" inputMode="decimal" defaultValue={one(sp.stop)} />
              </label>
              <button className="tw-btn" type="submit">
                {t("Review order", "Order prüfen")}
              </button>
            </form>
          </section>
          <section className="tw-card">
            <form action="/api/watchlist" method="post">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="symbol" value={sec.symbol} />
              <input type="hidden" name="on" value={watched ? "0" : "1"} />
              <input type="hidden" name="back" value={`/stocks/${sec.symbol}`} />
              <button className="tw-btn-ghost" type="submit" data-testid="watch-toggle">
                {watched ? t("Remove from watchlist", "Von Beobachtungsliste entfernen") : t("Add to watchlist", "Zur Beobachtungsliste")}
              </button>
            </form>
          </section>
        </aside>
      </div>
    </Shell>
  );
}
