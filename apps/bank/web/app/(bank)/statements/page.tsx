import Link from "next/link";
import { Card, DataTable, PageHeader } from "@persona/ui";
import { maskNumber } from "@persona/ui/format";
import { requireUser } from "@/bank/lib/auth";
import { listAccounts, listStatements, type Statement } from "@/bank/lib/bank";
import { bankContext, formatters } from "@/bank/lib/context";
import { one, type Search } from "@/bank/lib/search";

export const metadata = { title: "Statements" };

export default async function StatementsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const f = formatters(bankContext());
  const accounts = listAccounts(user.id);
  const account = accounts.find((a) => String(a.id) === one(sp.account)) ?? accounts[0];
  const statements = account ? listStatements(account.id) : [];
  const isCard = account?.kind === "credit_card";
  const bal = (c: number) => f.money(isCard ? -c : c);
  return (
    <>
      <PageHeader title="Statements" subtitle="Monthly statements for your accounts. Download a PDF for your records or a CSV for spreadsheets." />
      <div className="lb-tabs" role="tablist">
        {accounts.map((a) => (
          <Link
            key={a.id}
            role="tab"
            aria-selected={a.id === account?.id}
            href={`/statements?account=${a.id}`}
            className={a.id === account?.id ? "lb-tab is-active" : "lb-tab"}
          >
            {a.name} {maskNumber(a.number)}
          </Link>
        ))}
      </div>
      {account ? (
        <Card title={`${account.name} ${maskNumber(account.number)}`} flush>
          <DataTable<Statement>
            rows={statements}
            rowKey={(s) => s.id}
            empty="No statements yet for this account."
            rowProps={(s) => ({ "data-testid": "statement-row", "data-statement-id": s.id, "data-period-start": s.period_start })}
            columns={[
              {
                key: "period",
                header: "Statement period",
                render: (s) => (
                  <>
                    <strong>{f.month(s.period_end)}</strong>
                    <div className="lb-desc-sub">
                      {f.date(s.period_start)} – {f.date(s.period_end)}
                    </div>
                  </>
                ),
              },
              {
                key: "opening",
                header: isCard ? "Previous balance" : "Opening balance",
                align: "right",
                render: (s) => <span className="num">{bal(s.opening_cents)}</span>,
              },
              {
                key: "credits",
                header: isCard ? "Payments & credits" : "Deposits & credits",
                align: "right",
                render: (s) => <span className="num lb-amount-pos">{f.money(s.credits_cents)}</span>,
              },
              {
                key: "debits",
                header: isCard ? "Purchases & charges" : "Withdrawals & debits",
                align: "right",
                render: (s) => <span className="num">{f.money(s.debits_cents)}</span>,
              },
              {
                key: "closing",
                header: isCard ? "New balance" : "Closing balance",
                align: "right",
                render: (s) => <strong className="num">{bal(s.closing_cents)}</strong>,
              },
              {
                key: "download",
                header: "Download",
                align: "right",
                render: (s) => (
                  <span style={{ display: "inline-flex", gap: 8 }}>
                    <a className="pui-btn pui-btn-secondary pui-btn-sm" href={`/statements/${s.id}/pdf`} download data-testid="download-pdf">
                      PDF
                    </a>
                    <a className="pui-btn pui-btn-secondary pui-btn-sm" href={`/statements/${s.id}/csv`} download data-testid="download-csv">
                      CSV
                    </a>
                  </span>
                ),
              },
            ]}
          />
        </Card>
      ) : (
        <Card>
          <p className="muted">You have no accounts.</p>
        </Card>
      )}
    </>
  );
}
