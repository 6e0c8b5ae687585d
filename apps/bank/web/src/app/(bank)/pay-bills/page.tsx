import Link from "next/link";
import { Alert, Button, ButtonLink, Card, Field, Input, MoneyInput, PageHeader, Select } from "@persona/ui";
import { TxnTable } from "@/components/TxnTable";
import { requireUser } from "@/lib/auth";
import { accountLabel, listAccounts, listPayees, recentTransactions, transactionsByIds } from "@/lib/bank";
import { bankContext, formatters } from "@/lib/context";
import { one, type Search } from "@/lib/search";

export const metadata = { title: "Pay bills" };

const CATEGORIES = ["housing", "utilities", "loans", "insurance", "subscriptions", "health", "bills"];

export default async function PayBillsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const f = formatters(bankContext());
  const accounts = listAccounts(user.id);
  const checking = accounts.filter((a) => a.kind === "checking");
  const payees = listPayees(user.id);
  const doneId = Number(one(sp.done));
  const [paid] = doneId ? transactionsByIds([doneId]).filter((t) => accounts.some((a) => a.id === t.account_id) && t.kind === "bill_payment") : [];
  const paidFrom = paid ? accounts.find((a) => a.id === paid.account_id) : undefined;
  const history = recentTransactions(user.id, 10, "t.kind IN ('bill_payment', 'autopay')");
  const error = one(sp.error);
  const errField = one(sp.field);
  const payeeError = one(sp.payee_error);

  return (
    <>
      <PageHeader title="Pay bills" subtitle="Pay your saved payees from checking. Payments made before 8 PM Pacific are sent today." />
      {paid && paidFrom ? (
        <Alert tone="success" title="Payment sent">
          <dl className="lb-receipt" data-testid="receipt">
            <dt>Payee</dt>
            <dd>{paid.counterparty}</dd>
            <dt>Amount</dt>
            <dd data-testid="receipt-amount">{f.money(-paid.amount_cents)}</dd>
            <dt>From</dt>
            <dd>{accountLabel(paidFrom)}</dd>
            <dt>Date</dt>
            <dd>{f.dateTime(paid.posted_at)}</dd>
            <dt>Confirmation</dt>
            <dd className="num">BP{String(paid.id).padStart(8, "0")}</dd>
          </dl>
          <p style={{ margin: "10px 0 0" }}>
            <Link href={`/accounts/${paidFrom.id}`}>View {paidFrom.name}</Link>
          </p>
        </Alert>
      ) : null}
      {one(sp.added) ? <Alert tone="success">Payee added. You can pay it now.</Alert> : null}
      {error ? (
        <Alert tone="error" title="We couldn't send this payment">
          {error}
        </Alert>
      ) : null}
      <div className="lb-form-grid">
        <Card title="Make a payment">
          {payees.length === 0 ? (
            <p className="muted">You have no saved payees yet. Add one to get started.</p>
          ) : (
            <form action="/api/bills" method="post" data-testid="billpay-form">
              <Field label="Pay to" htmlFor="payee" error={errField === "payee" ? error : undefined}>
                <Select id="payee" name="payee" defaultValue={one(sp.payee)} required>
                  <option value="" disabled>
                    Choose a payee
                  </option>
                  {payees.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name} (acct ending {p.account_number.slice(-4)})
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label="Pay from" htmlFor="from" error={errField === "from" ? error : undefined}>
                <Select id="from" name="from" defaultValue={one(sp.from) || String(checking[0]?.id ?? "")} required>
                  {checking.map((a) => (
                    <option key={a.id} value={a.id}>
                      {accountLabel(a)} · {f.money(a.balance_cents)}
                    </option>
                  ))}
                </Select>
              </Field>
              <div className="lb-form-row">
                <Field label="Amount" htmlFor="amount" error={errField === "amount" ? error : undefined}>
                  <MoneyInput id="amount" name="amount" symbol={f.currencySymbol()} defaultValue={one(sp.amount)} required />
                </Field>
                <Field label="Memo (optional)" htmlFor="memo">
                  <Input id="memo" name="memo" maxLength={140} defaultValue={one(sp.memo)} placeholder="Shown on your statement" />
                </Field>
              </div>
              <div className="lb-form-actions">
                <Button>Pay now</Button>
                <ButtonLink href="/accounts" variant="ghost">
                  Cancel
                </ButtonLink>
              </div>
            </form>
          )}
        </Card>
        <Card title="Payees" id="add-payee">
          <ul className="lb-list" data-testid="payee-list">
            {payees.map((p) => (
              <li key={p.id}>
                <span>
                  {p.name}
                  <span className="sub">Account ending {p.account_number.slice(-4)}</span>
                </span>
                <span className="lb-cat">{p.category}</span>
              </li>
            ))}
          </ul>
          <details className="lb-add" open={Boolean(one(sp.new_payee))}>
            <summary>+ Add a payee</summary>
            {payeeError ? <Alert tone="error">{payeeError}</Alert> : null}
            <form action="/api/payees" method="post">
              <Field label="Payee name" htmlFor="payee-name">
                <Input id="payee-name" name="name" required maxLength={80} defaultValue={one(sp.name)} />
              </Field>
              <Field label="Your account number with them" htmlFor="payee-acct">
                <Input id="payee-acct" name="account_number" required maxLength={40} defaultValue={one(sp.account_number)} />
              </Field>
              <Field label="Category" htmlFor="payee-cat">
                <Select id="payee-cat" name="category" defaultValue={one(sp.category) || "bills"}>
                  {CATEGORIES.map((c) => (
                    <option key={c} value={c}>
                      {c[0].toUpperCase() + c.slice(1)}
                    </option>
                  ))}
                </Select>
              </Field>
              <Button variant="secondary" size="sm">
                Save payee
              </Button>
            </form>
          </details>
        </Card>
      </div>
      <Card title="Payment activity" flush>
        <TxnTable rows={history} f={f} showBalance={false} showAccount empty="No bill payments yet." />
      </Card>
    </>
  );
}
