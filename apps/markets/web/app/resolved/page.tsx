import Link from "next/link";
import { Shell } from "@/markets/components/Shell";
import { activity, listMarkets, positions } from "@/markets/lib/markets";
import { shell } from "@/markets/lib/page";

export const metadata = { title: "Resolved markets" };

/** Resolved markets: the outcome, and for those the persona held, the shares, the payout and the profit. */
export default async function ResolvedPage() {
  const { user, ctx } = await shell();
  const t = ctx.t;
  const mine = positions(user.id).filter((p) => p.settled);
  const payouts = new Map<string, number>();
  for (const a of activity(user.id, "payout", 1000).rows) payouts.set(a.ticker!, (payouts.get(a.ticker!) ?? 0) + a.amount_cents);
  const markets = listMarkets({ state: "resolved" }).reverse();
  const won = [...payouts.values()].reduce((s, c) => s + c, 0);
  const sideName = (s: string) => (s === "yes" ? t("Yes", "Ja") : t("No", "Nein"));
  return (
    <Shell user={user} ctx={ctx} active="resolved">
      <h1>{t("Resolved markets", "Entschiedene Märkte")}</h1>
      <p data-testid="payout-total" data-cents={won}>
        {t(`Payouts received: ${ctx.money(won)}`, `Erhaltene Auszahlungen: ${ctx.money(won)}`)}
      </p>
      <table className="hl-table wide">
        <thead>
          <tr>
            <th>{t("Market", "Markt")}</th>
            <th>{t("Result", "Ergebnis")}</th>
            <th>{t("Resolved", "Entschieden")}</th>
            <th>{t("Your shares", "Ihre Anteile")}</th>
            <th className="num">{t("Payout", "Auszahlung")}</th>
            <th className="num">{t("Profit", "Gewinn")}</th>
          </tr>
        </thead>
        <tbody>
          {markets.map((m) => {
            const ps = mine.filter((p) => p.ticker === m.ticker);
            const profit = ps.reduce((s, p) => s + p.realized_cents, 0);
            const pay = payouts.get(m.ticker) ?? 0;
            return (
              <tr key={m.ticker} data-testid="resolved" data-ticker={m.ticker} data-outcome={m.outcome ?? ""} data-payout={pay} data-profit={ps.length ? profit : ""}>
                <td>
                  <Link href={`/m/${m.ticker}`}>{m.question}</Link>
                </td>
                <td className={m.outcome === "yes" ? "hl-up" : "hl-down"}>{m.outcome === "yes" ? t("YES", "JA") : t("NO", "NEIN")}</td>
                <td>{ctx.date(m.resolve_date)}</td>
                <td>{ps.length ? ps.filter((p) => p.shares > 0).map((p) => `${p.shares} ${sideName(p.side)}`).join(", ") || t("sold before", "vorher verkauft") : <span className="hl-muted">—</span>}</td>
                <td className="num">{pay ? ctx.money(pay) : ""}</td>
                <td className={`num ${profit >= 0 ? "hl-up" : "hl-down"}`}>{ps.length ? ctx.money(profit) : ""}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Shell>
  );
}
