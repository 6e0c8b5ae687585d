import Link from "next/link";
import { Alert, Button, ButtonLink, Card, Field, MoneyInput, PageHeader, Select, Input } from "@persona/ui";
import { AccountsAside } from "@/components/AccountsAside";
import { requireUser } from "@/lib/auth";
import { accountLabel, availableCents, listAccounts, transactionsByTransfer, type Account } from "@/lib/bank";
import { bankContext, formatters } from "@/lib/context";
import { one, type Search } from "@/lib/search";

export const metadata = { title: "Transfer" };

function optionLabel(a: Account, money: (c: number) => string) {
  return `${accountLabel(a)} · ${money(availableCents(a))} ${a.kind === "credit_card" ? "credit available" : "available"}`;
}

export default async function TransferPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const ctx = bankContext();
  const f = formatters(ctx);
  const accounts = listAccounts(user.id);
  const done = one(sp.done);
  const legs = done ? transactionsByTransfer(done) : [];
  const out = legs.find((l) => l.amount_cents < 0);
  const into = legs.find((l) => l.amount_cents > 0);
  const name = (id?: number) => {
    const a = accounts.find((x) => x.id === id);
    return a ? accountLabel(a) : "";
  };
  const error = one(sp.error);
  const errField = one(sp.field);
  const deposit = accounts.find((a) => a.kind === "checking") ?? accounts[0];
  const fromDefault = one(sp.from) || String(deposit?.id ?? "");
  const toDefault = one(sp.to) || String(accounts.find((a) => String(a.id) !== fromDefault && a.kind === "savings")?.id ?? "");

  return (
    <>
      <PageHeader title="Transfer money" subtitle="Move money between your Larkspur accounts or pay your credit card. Transfers post immediately." />
      {out && into ? (
        <Alert tone="success" title="Transfer complete">
          <dl className="lb-receipt" data-testid="receipt">
            <dt>Amount</dt>
            <dd data-testid="receipt-amount">{f.money(into.amount_cents)}</dd>
            <dt>From</dt>
            <dd>{name(out.account_id)}</dd>
            <dt>To</dt>
            <dd>{name(into.account_id)}</dd>
            <dt>Date</dt>
            <dd>{f.dateTime(out.posted_at)}</dd>
            <dt>Confirmation</dt>
            <dd className="num" data-testid="confirmation">
              {done.slice(0, 8).toUpperCase()}
            </dd>
          </dl>
          <p style={{ margin: "10px 0 0" }}>
            <Link href={`/accounts/${out.account_id}`}>View {name(out.account_id)}</Link> ·{" "}
            <Link href={`/accounts/${into.account_id}`}>View {name(into.account_id)}</Link>
          </p>
        </Alert>
      ) : null}
      {error ? (
        <Alert tone="error" title="We couldn't make this transfer">
          {error}
        </Alert>
      ) : null}
      <div className="lb-form-grid">
        <Card title="Transfer details">
          <form action="/api/transfer" method="post" data-testid="transfer-form">
            <Field label="From" htmlFor="from" error={errField === "from" ? error : undefined}>
              <Select id="from" name="from" defaultValue={fromDefault} required>
                {accounts.map((a) => (
                  <option key={a.id} value={a.id}>
                    {optionLabel(a, f.money)}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="To" htmlFor="to" error={errField === "to" ? error : undefined}>
              <Select id="to" name="to" defaultValue={toDefault} required>
                <option value="" disabled>
                  Choose an account
                </option>
                {accounts.map((a) => (
                  <option key={a.id} value={a.id}>
                    {accountLabel(a)}
                  </option>
                ))}
              </Select>
            </Field>
            <div className="lb-form-row">
              <Field label="Amount" htmlFor="amount" error={errField === "amount" ? error : undefined}>
                <MoneyInput id="amount" name="amount" symbol={f.currencySymbol()} defaultValue={one(sp.amount)} required />
              </Field>
              <Field label="Date" htmlFor="date" hint="Transfers between your accounts post right away.">
                <Input id="date" value={f.date(ctx.today)} readOnly disabled />
              </Field>
            </div>
            <Field label="Memo (optional)" htmlFor="memo">
              <Input id="memo" name="memo" maxLength={140} defaultValue={one(sp.memo)} placeholder="e.g. Emergency fund" />
            </Field>
            <div className="lb-form-actions">
              <Button>Transfer now</Button>
              <ButtonLink href="/accounts" variant="ghost">
                Cancel
              </ButtonLink>
            </div>
          </form>
        </Card>
        <AccountsAside accounts={accounts} f={f} />
      </div>
    </>
  );
}
