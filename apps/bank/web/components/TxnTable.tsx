import { DataTable, type Column } from "@persona/ui";
import type { Formatters } from "@/bank/lib/context";
import type { Txn } from "@/bank/lib/bank";
import { categoryLabel } from "@/bank/lib/labels";

type Row = Txn & { account_name?: string };

/** A ledger table: date, description, category, amount, and optionally the running balance or the account. */
export function TxnTable({
  rows,
  f,
  showBalance = true,
  showAccount = false,
  empty,
}: {
  rows: Row[];
  f: Formatters;
  showBalance?: boolean;
  showAccount?: boolean;
  empty?: string;
}) {
  const columns: Column<Row>[] = [
    { key: "date", header: "Date", render: (t) => <span className="num">{f.date(t.posted_at)}</span>, className: "lb-col-date" },
    {
      key: "description",
      header: "Description",
      render: (t) => (
        <>
          <div className="lb-desc">{t.description}</div>
          {showAccount && t.account_name ? <div className="lb-desc-sub">{t.account_name}</div> : null}
          {t.memo ? <div className="lb-desc-sub">Memo: {t.memo}</div> : null}
        </>
      ),
    },
    { key: "category", header: "Category", render: (t) => <span className="lb-cat">{categoryLabel(t.category)}</span> },
    {
      key: "amount",
      header: "Amount",
      align: "right",
      render: (t) => <span className={`num ${t.amount_cents > 0 ? "lb-amount-pos" : "lb-amount-neg"}`}>{f.signed(t.amount_cents)}</span>,
    },
  ];
  if (showBalance) {
    columns.push({ key: "balance", header: "Balance", align: "right", render: (t) => <span className="num">{f.money(t.balance_after_cents)}</span> });
  }
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(t) => t.id}
      empty={empty ?? "No transactions match."}
      rowProps={(t) => ({ "data-txn-id": t.id, "data-amount-cents": t.amount_cents, "data-testid": "txn-row" })}
    />
  );
}
