import Link from "next/link";
import { Shell } from "@/brokerage/components/Shell";
import { requireUser } from "@/brokerage/lib/auth";
import { account, recurringInvestments } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";

export const metadata = { title: "Account" };

/** The account's facts and the monthly recurring investment. */
export default async function AccountPage() {
  const user = await requireUser();
  const ctx = brokerContext();
  const t = ctx.t;
  const acct = account();
  const plans = recurringInvestments();
  return (
    <Shell ctx={ctx} active="account">
      <section className="tw-card">
        <h2>{t("Account", "Konto")}</h2>
        <dl className="tw-stats">
          <div>
            <dt>{t("Account holder", "Inhaber")}</dt>
            <dd>{user.full_name}</dd>
          </div>
          <div>
            <dt>{t("Account", "Konto")}</dt>
            <dd data-testid="account-number">
              {acct.name} ····{acct.last4}
            </dd>
          </div>
          <div>
            <dt>{t("Opened", "Eröffnet")}</dt>
            <dd>{ctx.date(acct.opened_on)}</dd>
          </div>
        </dl>
      </section>
      <section className="tw-card">
        <h2>{t("Recurring investments", "Sparpläne")}</h2>
        {plans.length === 0 ? <p className="tw-muted">{t("No recurring investment set up.", "Kein Sparplan eingerichtet.")}</p> : null}
        <table className="tw-table" data-testid="recurring">
          <tbody>
            {plans.map((p) => (
              <tr key={p.id}>
                <td>
                  <Link href={`/stocks/${p.symbol}`}>{p.symbol}</Link>
                </td>
                <td className="num">{ctx.money(p.amount_cents)}</td>
                <td>{t(`monthly around day ${p.day}, from bank checking`, `monatlich um den ${p.day}., vom Girokonto`)}</td>
                <td>{p.active ? t("Active", "Aktiv") : t("Paused", "Pausiert")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </Shell>
  );
}
