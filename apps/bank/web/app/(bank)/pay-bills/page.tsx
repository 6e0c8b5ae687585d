import { Alert, Card, Field, Input, PageHeader, Select } from "@persona/ui";
import { AddForm, FormError, PaymentForm, PaymentReceipt, postedForm } from "@/bank/components/MoneyForm";
import { TxnTable } from "@/bank/components/TxnTable";
import { requireUser } from "@/bank/lib/auth";
import { listAccounts, listPayees, ownLine, PAYEE_CATEGORIES, recentTransactions } from "@/bank/lib/bank";
import { bankContext, formatters } from "@/bank/lib/context";
import { one, type Search } from "@/bank/lib/search";

export const metadata = { title: "Pay bills" };


export default async function PayBillsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const f = formatters(bankContext());
  const accounts = listAccounts(user.id);
  const payees = listPayees(user.id);
  const paid = ownLine(accounts, Number(one(sp.done)), "bill_payment");
  const history = recentTransactions(user.id, 10, "t.kind IN ('bill_payment', 'autopay')");
  const posted = postedForm(sp);

  return (
    <>
      <PageHeader title="Pay bills" subtitle="Pay your saved payees from checking. Payments made before 8 PM Pacific are sent today." />
      {paid ? <PaymentReceipt title="Payment sent" toTerm="Payee" payment={paid} prefix="BP" f={f} /> : null}
      {one(sp.added) ? <Alert tone="success">Payee added. You can pay it now.</Alert> : null}
      <FormError title="We couldn't send this payment" posted={posted} />
      <div className="lb-form-grid">
        <Card title="Make a payment">
          {payees.length === 0 ? (
            <p className="muted">You have no saved payees yet. Add one to get started.</p>
          ) : (
            <PaymentForm
              action="/api/bills"
              testId="billpay-form"
              submitLabel="Pay now"
              to={{
                label: "Pay to",
                name: "payee",
                placeholder: "Choose a payee",
                options: payees.map((p) => ({ value: p.id, label: `${p.name} (acct ending ${p.account_number.slice(-4)})` })),
              }}
              fromLabel="Pay from"
              accounts={accounts}
              memoPlaceholder="Shown on your statement"
              posted={posted}
              f={f}
            />
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
          <AddForm summary="+ Add a payee" open={Boolean(one(sp.new_payee))} error={postedForm(sp, "payee").error} action="/api/payees" submitLabel="Save payee">
            <Field label="Payee name" htmlFor="payee-name">
              <Input id="payee-name" name="name" required maxLength={80} defaultValue={one(sp.name)} />
            </Field>
            <Field label="Your account number with them" htmlFor="payee-acct">
              <Input id="payee-acct" name="account_number" required maxLength={40} defaultValue={one(sp.account_number)} />
            </Field>
            <Field label="Category" htmlFor="payee-cat">
              <Select id="payee-cat" name="category" defaultValue={one(sp.category) || "bills"}>
                {PAYEE_CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {c[0].toUpperCase() + c.slice(1)}
                  </option>
                ))}
              </Select>
            </Field>
          </AddForm>
        </Card>
      </div>
      <Card title="Payment activity" flush>
        <TxnTable rows={history} f={f} showBalance={false} showAccount empty="No bill payments yet." />
      </Card>
    </>
  );
}
