import Link from "next/link";
import { Alert, Card, Field, Input, PageHeader } from "@persona/ui";
import { AddForm, FormError, PaymentForm, PaymentReceipt, postedForm } from "@/bank/components/MoneyForm";
import { TxnTable } from "@/bank/components/TxnTable";
import { requireUser } from "@/bank/lib/auth";
import { listAccounts, listContacts, ownLine, recentTransactions } from "@/bank/lib/bank";
import { bankContext, formatters } from "@/bank/lib/context";
import { rail, railHeading } from "@/bank/lib/labels";
import { one, type Search } from "@/bank/lib/search";

export const metadata = { title: "Send money" };

export default async function SendMoneyPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const ctx = bankContext();
  const f = formatters(ctx);
  const r = rail(ctx.meta);
  const accounts = listAccounts(user.id);
  const contacts = listContacts(user.id);
  const sent = ownLine(accounts, Number(one(sp.done)), "p2p_sent");
  const history = recentTransactions(user.id, 10, "t.kind IN ('p2p_sent', 'p2p_received')");
  const posted = postedForm(sp);

  return (
    <>
      <PageHeader
        title={`Send money ${r.via}`}
        subtitle={`Send money to people you know and trust. Money sent ${r.via} usually arrives in minutes.`}
      />
      {sent ? (
        <PaymentReceipt
          title={`You sent ${f.money(-sent.line.amount_cents)} to ${sent.line.counterparty}`}
          toTerm="Recipient"
          payment={sent}
          prefix="ZL"
          showMemo
          f={f}
        />
      ) : null}
      {one(sp.added) ? <Alert tone="success">Recipient added.</Alert> : null}
      <FormError title="We couldn't send this money" posted={posted} />
      <div className="lb-form-grid">
        <Card title="Send">
          <PaymentForm
            action="/api/send"
            testId="send-form"
            submitLabel="Send money"
            to={{
              label: "To",
              name: "contact",
              placeholder: "Choose a recipient",
              options: contacts.map((c) => ({ value: c.id, label: `${c.name} (${c.email || c.phone})` })),
            }}
            fromLabel="From"
            accounts={accounts}
            memoPlaceholder="What's it for?"
            posted={posted}
            f={f}
          />
        </Card>
        <Card title="Recipients" id="add-contact">
          <ul className="lb-list" data-testid="contact-list">
            {contacts.map((c) => (
              <li key={c.id}>
                <span>
                  {c.name}
                  <span className="sub">{c.email || c.phone}</span>
                </span>
                <Link className="small" href={`/send-money?contact=${c.id}`}>
                  Send
                </Link>
              </li>
            ))}
          </ul>
          <AddForm summary="+ Add a recipient" open={Boolean(one(sp.new_contact))} error={postedForm(sp, "contact").error} action="/api/contacts" submitLabel="Save recipient">
            <Field label="Name" htmlFor="contact-name">
              <Input id="contact-name" name="name" required maxLength={80} defaultValue={one(sp.name)} />
            </Field>
            <Field label="Email" htmlFor="contact-email">
              <Input id="contact-email" name="email" type="email" maxLength={120} defaultValue={one(sp.email)} />
            </Field>
            <Field label="Mobile number" htmlFor="contact-phone">
              <Input id="contact-phone" name="phone" type="tel" maxLength={40} defaultValue={one(sp.phone)} />
            </Field>
          </AddForm>
        </Card>
      </div>
      <Card title={`${railHeading(r)} activity`} flush>
        <TxnTable rows={history} f={f} showBalance={false} showAccount empty={`No ${r.name} activity yet.`} />
      </Card>
    </>
  );
}
