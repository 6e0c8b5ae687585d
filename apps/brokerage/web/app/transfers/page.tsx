import { Notice, Shell } from "@/brokerage/components/Shell";
import { requireUser } from "@/brokerage/lib/auth";
import { account, cashCents, cashLines, reservedCents, transfers } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import { one, type SearchParams } from "@/brokerage/lib/params";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Transfers" };

/** Move money between checking and Tidewell (both ways), the transfer history and the cash activity. */
export default async function TransfersPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  await requireUser();
  const ctx = brokerContext();
  const t = ctx.t;
  const acct = account();
  const rows = transfers();
  const lines = cashLines(60);
  const done = one(sp.done);
  return (
    <Shell ctx={ctx} active="transfers">
      <Notice
        error={errorMessage(sp)}
        done={done === "deposit" ? t(`Deposit ${one(sp.ref)} is in your Tidewell cash.`, `Einzahlung ${one(sp.ref)} ist gutgeschrieben.`) : done === "withdrawal" ? t(`Withdrawal ${one(sp.ref)} sent to your bank.`, `Auszahlung ${one(sp.ref)} ist unterwegs zu Ihrer Bank.`) : undefined}
      />
      <div className="tw-grid">
        <div>
          <section className="tw-card">
            <h2>{t("Transfer history", "Überweisungen")}</h2>
            <table className="tw-table" data-testid="transfers">
              <thead>
                <tr>
                  <th>{t("Date", "Datum")}</th>
                  <th>{t("Type", "Art")}</th>
                  <th>{t("Reference", "Referenz")}</th>
                  <th className="num">{t("Amount", "Betrag")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id} data-reference={r.reference}>
                    <td>{ctx.dateTime(r.at)}</td>
                    <td>
                      {r.direction === "deposit" ? t("Deposit from bank", "Einzahlung") : t("Withdrawal to bank", "Auszahlung")}
                      {r.recurring ? <span className="tw-pill"> {t("Recurring", "Sparplan")}</span> : null}
                    </td>
                    <td className="tw-small tw-muted">{r.reference}</td>
                    <td className="num">{ctx.signed(r.direction === "deposit" ? r.amount_cents : -r.amount_cents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section className="tw-card">
            <h2>{t("Cash activity", "Kontobewegungen")}</h2>
            <table className="tw-table" data-testid="cash-activity">
              <tbody>
                {lines.map((l) => (
                  <tr key={l.id}>
                    <td>{ctx.date(l.at.slice(0, 10))}</td>
                    <td>{l.description}</td>
                    <td className="num">{ctx.signed(l.amount_cents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>
        <aside>
          <section className="tw-card">
            <h2>{t("Transfer money", "Geld überweisen")}</h2>
            <p className="tw-small tw-muted">
              {t("Buying power", "Kaufkraft")}: <span data-testid="buying-power">{ctx.money(cashCents() - reservedCents(ctx.today))}</span> · {acct.name} ····{acct.last4}
            </p>
            <form action="/api/transfers" method="post" className="tw-form" data-testid="transfer-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <label>
                {t("Direction", "Richtung")}
                <select name="direction" defaultValue="deposit">
                  <option value="deposit">{t("From bank checking to Tidewell", "Vom Girokonto zu Tidewell")}</option>
                  <option value="withdrawal">{t("From Tidewell to bank checking", "Von Tidewell aufs Girokonto")}</option>
                </select>
              </label>
              <label>
                {t("Amount", "Betrag")}
                <input name="amount" inputMode="decimal" required />
              </label>
              <button className="tw-btn" type="submit">
                {t("Transfer", "Überweisen")}
              </button>
            </form>
          </section>
        </aside>
      </div>
    </Shell>
  );
}
