import Link from "next/link";
import { Alert, Card, DataTable, Field, Input, PageHeader, Select } from "@persona/ui";
import { AddForm, FormError, PaymentForm, PaymentReceipt, postedForm } from "@/bank/components/MoneyForm";
import { TxnTable } from "@/bank/components/TxnTable";
import { requireUser } from "@/bank/lib/auth";
import { getScheduled, listAccounts, listPayees, listScheduled, ownLine, PAYEE_CATEGORIES, recentTransactions, scheduleWindow, type ScheduledPayment } from "@/bank/lib/bank";
import { bankContext, formatters } from "@/bank/lib/context";
import { repeatLabel } from "@/bank/lib/labels";
import { one, type Search } from "@/bank/lib/search";

export const metadata = { title: "Pay bills" };


export default async function PayBillsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const ctx = bankContext();
  const f = formatters(ctx);
  const accounts = listAccounts(user.id);
  const payees = listPayees(user.id);
  const paid = ownLine(accounts, Number(one(sp.done)), "bill_payment");
  const history = recentTransactions(user.id, 10, "t.kind IN ('bill_payment', 'autopay')");
  const posted = postedForm(sp);
  const scheduled = listScheduled(user.id);
  const justScheduled = getScheduled(user.id, Number(one(sp.scheduled)) || null);
  const changed = getScheduled(user.id, Number(one(sp.changed)) || null);
  const cancelled = getScheduled(user.id, Number(one(sp.cancelled)) || null);
  const { max } = scheduleWindow(ctx.today);

  return (
    <>
      <PageHeader title="Pay bills" subtitle="Pay your saved payees from checking, today or on a later date, once or every month. A payment for today is sent at once." />
      {paid ? <PaymentReceipt title="Payment sent" toTerm="Payee" payment={paid} prefix="BP" f={f} /> : null}
      {justScheduled ? (
        <Alert tone="success" title="Payment scheduled" data-testid="scheduled-notice">
          {f.money(justScheduled.amount_cents)} to {justScheduled.payee} on {f.date(justScheduled.next_date)}
          {justScheduled.frequency === "monthly" ? `, then ${repeatLabel(justScheduled.day)}` : ""}. You can change or cancel it under Scheduled payments until then.
        </Alert>
      ) : null}
      {changed ? (
        <Alert tone="success" title="Scheduled payment changed" data-testid="scheduled-notice">
          {f.money(changed.amount_cents)} to {changed.payee} on {f.date(changed.next_date)}.
        </Alert>
      ) : null}
      {cancelled ? (
        <Alert tone="success" title={cancelled.frequency === "monthly" ? "Recurring payment stopped" : "Scheduled payment cancelled"} data-testid="scheduled-notice">
          {cancelled.method === "autopay" ? `${cancelled.payee} can no longer draw its AutoPay from your account.` : `No more payments to ${cancelled.payee} will be sent from this schedule.`}
        </Alert>
      ) : null}
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
              submitLabel="Pay"
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
              schedule={{ today: ctx.today, max }}
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
      <Card title={`Scheduled payments (${scheduled.length})`} flush>
        <div data-testid="scheduled">
          <DataTable
            columns={[
              { key: "date", header: "Next payment", render: (s: ScheduledPayment) => <span className="num">{f.date(s.next_date)}</span>, className: "lb-col-date" },
              {
                key: "payee",
                header: "Payee",
                render: (s: ScheduledPayment) => (
                  <>
                    <div className="lb-desc">{s.payee}</div>
                    <div className="lb-desc-sub">
                      {s.method === "autopay" ? "AutoPay drawn by the payee" : "Bill pay"} · {s.frequency === "monthly" ? repeatLabel(s.day) : "One time"}
                      {s.memo ? ` · ${s.memo}` : ""}
                    </div>
                  </>
                ),
              },
              { key: "amount", header: "Amount", align: "right", render: (s: ScheduledPayment) => <span className="num">{f.money(s.amount_cents)}</span> },
              { key: "edit", header: "", align: "right", render: (s: ScheduledPayment) => <Link href={`/pay-bills/scheduled/${s.id}`}>{s.method === "autopay" ? "View" : "Edit"}</Link> },
            ]}
            rows={scheduled}
            rowKey={(s) => s.id}
            empty="No payments scheduled."
            rowProps={(s) => ({ "data-testid": "scheduled-row", "data-payee": s.payee, "data-date": s.next_date, "data-amount-cents": s.amount_cents, "data-frequency": s.frequency, "data-method": s.method })}
          />
        </div>
      </Card>
      <Card title="Payment activity" flush>
        <div data-testid="activity">
          <TxnTable rows={history} f={f} showBalance={false} showAccount empty="No bill payments yet." />
        </div>
      </Card>
    </>
  );
}
