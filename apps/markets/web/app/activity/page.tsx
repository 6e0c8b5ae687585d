import Link from "next/link";
import { cents, Shell } from "@/markets/components/Shell";
import { activity } from "@/markets/lib/markets";
import { shell } from "@/markets/lib/page";
import { one, type SearchParams } from "@/markets/lib/params";

export const metadata = { title: "Activity" };

const PAGE = 50;

/** The account's history, newest first, filterable by kind, 50 a page. */
export default async function ActivityPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const { user, ctx } = await shell();
  const t = ctx.t;
  const kinds: Record<string, string> = {
    deposit: t("Deposit", "Einzahlung"), withdrawal: t("Withdrawal", "Auszahlung"), buy: t("Buy", "Kauf"), sell: t("Sell", "Verkauf"), payout: t("Payout", "Gewinnauszahlung"),
  };
  const kind = kinds[one(sp.kind)] ? one(sp.kind) : "";
  const page = Math.max(1, Math.min(10_000, Number.parseInt(one(sp.page) || "1", 10) || 1));
  const { rows, total } = activity(user.id, kind, PAGE, (page - 1) * PAGE);
  return (
    <Shell user={user} ctx={ctx} active="activity">
      <h1>{t("Activity", "Aktivität")}</h1>
      <div className="hl-subtabs">
        <Link href="/activity" className={!kind ? "on" : ""}>
          {t("All", "Alle")}
        </Link>
        {Object.entries(kinds).map(([k, v]) => (
          <Link key={k} href={`/activity?kind=${k}`} className={kind === k ? "on" : ""}>
            {v}
          </Link>
        ))}
        <span className="hl-muted" data-testid="activity-count" data-count={total}>
          {t(`${total} entries`, `${total} Einträge`)}
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="hl-empty">{t("No activity yet. Deposit from your bank on the Portfolio page to start.", "Noch keine Aktivität. Zahlen Sie auf der Depot-Seite von Ihrer Bank ein.")}</p>
      ) : (
        <table className="hl-table wide">
          <thead>
            <tr>
              <th>{t("When", "Wann")}</th>
              <th>{t("What", "Was")}</th>
              <th>{t("Details", "Details")}</th>
              <th>{t("Reference", "Referenz")}</th>
              <th className="num">{t("Amount", "Betrag")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr key={a.id} data-testid="activity" data-kind={a.kind} data-reference={a.reference} data-amount={a.amount_cents}>
                <td>{ctx.dateTime(a.at)}</td>
                <td>{kinds[a.kind]}</td>
                <td>
                  {a.ticker ? (
                    <>
                      <Link href={`/m/${a.ticker}`}>{a.question}</Link>
                      <span className="hl-muted hl-small">
                        {" "}
                        · {a.shares} × {a.side === "yes" ? t("Yes", "Ja") : t("No", "Nein")} @ {cents(a.price_cents ?? 0)}
                      </span>
                    </>
                  ) : a.kind === "deposit" ? (
                    t(`From checking${a.account_last4 ? ` ••${a.account_last4}` : ""}`, `Vom Girokonto${a.account_last4 ? ` ••${a.account_last4}` : ""}`)
                  ) : (
                    t(`To checking${a.account_last4 ? ` ••${a.account_last4}` : ""}`, `Aufs Girokonto${a.account_last4 ? ` ••${a.account_last4}` : ""}`)
                  )}
                </td>
                <td className="hl-mono">{a.reference}</td>
                <td className={`num ${a.amount_cents >= 0 ? "hl-up" : ""}`}>{ctx.money(a.amount_cents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="hl-pager">
        {page > 1 ? <Link href={`/activity?${kind ? `kind=${kind}&` : ""}page=${page - 1}`}>← {t("Newer", "Neuer")}</Link> : null}
        {page * PAGE < total ? (
          <Link href={`/activity?${kind ? `kind=${kind}&` : ""}page=${page + 1}`} data-testid="next-page">
            {t("Older", "Älter")} →
          </Link>
        ) : null}
      </p>
    </Shell>
  );
}
