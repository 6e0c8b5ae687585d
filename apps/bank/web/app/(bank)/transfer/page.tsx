import { Card, Field, Input, PageHeader } from "@persona/ui";
import { AccountsAside } from "@/bank/components/AccountsAside";
import { AmountField, FormError, MemoField, MoneyForm, Receipt, SelectField, postedForm } from "@/bank/components/MoneyForm";
import { requireUser } from "@/bank/lib/auth";
import { accountLabel, availableCents, listAccounts, transactionsByTransfer, type Account } from "@/bank/lib/bank";
import { bankContext, formatters } from "@/bank/lib/context";
import { one, type Search } from "@/bank/lib/search";

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
  const posted = postedForm(sp);
  const deposit = accounts.find((a) => a.kind === "checking") ?? accounts[0];
  const fromDefault = one(sp.from) || String(deposit?.id ?? "");
  const toDefault = one(sp.to) || String(accounts.find((a) => String(a.id) !== fromDefault && a.kind === "savings")?.id ?? "");

  return (
    <>
      <PageHeader title="Transfer money" subtitle="Move money between your Larkspur accounts or pay your credit card. Transfers post immediately." />
      {out && into ? (
        <Receipt
          title="Transfer complete"
          lines={[
            { term: "Amount", value: f.money(into.amount_cents), testId: "receipt-amount" },
            { term: "From", value: name(out.account_id) },
            { term: "To", value: name(into.account_id) },
            { term: "Date", value: f.dateTime(out.posted_at) },
            { term: "Confirmation", value: done.slice(0, 8).toUpperCase(), testId: "confirmation", num: true },
          ]}
          accounts={[
            { id: out.account_id, name: name(out.account_id) },
            { id: into.account_id, name: name(into.account_id) },
          ]}
        />
      ) : null}
      <FormError title="We couldn't make this transfer" posted={posted} />
      <div className="lb-form-grid">
        <Card title="Transfer details">
          <MoneyForm action="/api/transfer" testId="transfer-form" submitLabel="Transfer now">
            <SelectField
              label="From"
              name="from"
              posted={posted}
              defaultValue={fromDefault}
              options={accounts.map((a) => ({ value: a.id, label: optionLabel(a, f.money) }))}
            />
            <SelectField
              label="To"
              name="to"
              posted={posted}
              defaultValue={toDefault}
              placeholder="Choose an account"
              options={accounts.map((a) => ({ value: a.id, label: accountLabel(a) }))}
            />
            <div className="lb-form-row">
              <AmountField posted={posted} f={f} />
              <Field label="Date" htmlFor="date" hint="Transfers between your accounts post right away.">
                <Input id="date" value={f.date(ctx.today)} readOnly disabled />
              </Field>
            </div>
            <MemoField posted={posted} placeholder="e.g. Emergency fund" />
          </MoneyForm>
        </Card>
        <AccountsAside accounts={accounts} f={f} />
      </div>
    </>
  );
}
