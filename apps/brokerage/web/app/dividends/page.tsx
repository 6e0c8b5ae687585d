import Link from "next/link";
import { Shell } from "@/brokerage/components/Shell";
import { requireUser } from "@/brokerage/lib/auth";
import { dividends, sharesText, splits } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";

export const metadata = { title: "Dividends" };

/** Dividends credited to cash, totals per year, and the splits applied to holdings. */
export default async function DividendsPage() {
  await requireUser();
  const ctx = brokerContext();
  const t = ctx.t;
  const rows = dividends();
  const years = new Map<string, number>();
  for (const d of rows) years.set(d.paid_on.slice(0, 4), (years.get(d.paid_on.slice(0, 4)) ?? 0) + d.amount_cents);
  const sp = splits();
  return (
    <Shell ctx={ctx} active="dividends">
      <section className="tw-card">
        <h2>{t("Dividend income", "Dividendenerträge")}</h2>
        <p data-testid="dividend-years">
          {[...years.entries()].map(([y, c]) => (
            <span key={y} style={{ marginRight: 24 }} data-year={y} data-cents={c}>
              <strong>{y}</strong>: {ctx.money(c)}
            </span>
          ))}
        </p>
        <table className="tw-table" data-testid="dividends">
          <thead>
            <tr>
              <th>{t("Paid", "Gezahlt")}</th>
              <th>{t("Symbol", "Symbol")}</th>
              <th className="num">{t("Shares", "Stück")}</th>
              <th className="num">{t("Per share", "Je Stück")}</th>
              <th className="num">{t("Amount", "Betrag")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id}>
                <td>{ctx.date(d.paid_on)}</td>
                <td>
                  <Link href={`/stocks/${d.symbol}`}>{d.symbol}</Link>
                </td>
                <td className="num">{sharesText(d.shares_e4)}</td>
                <td className="num">{Number(d.per_share).toLocaleString(ctx.locale, { minimumFractionDigits: 4 })}</td>
                <td className="num">{ctx.money(d.amount_cents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {sp.length ? (
        <section className="tw-card">
          <h2>{t("Stock splits", "Aktiensplits")}</h2>
          <ul>
            {sp.map((s) => (
              <li key={s.symbol + s.day}>
                {ctx.date(s.day)}: {s.symbol} {s.ratio}:1
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Shell>
  );
}
