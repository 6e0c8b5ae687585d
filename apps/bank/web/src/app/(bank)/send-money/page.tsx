import Link from "next/link";
import { Alert, Button, ButtonLink, Card, Field, Input, MoneyInput, PageHeader, Select } from "@persona/ui";
import { TxnTable } from "@/components/TxnTable";
import { requireUser } from "@/lib/auth";
import { accountLabel, listAccounts, listContacts, recentTransactions, transactionsByIds } from "@/lib/bank";
import { bankContext, formatters } from "@/lib/context";
import { one, type Search } from "@/lib/search";

export const metadata = { title: "Send money" };

export default async function SendMoneyPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const f = formatters(bankContext());
  const accounts = listAccounts(user.id);
  const checking = accounts.filter((a) => a.kind === "checking");
  const contacts = listContacts(user.id);
  const doneId = Number(one(sp.done));
  const [sent] = doneId ? transactionsByIds([doneId]).filter((t) => accounts.some((a) => a.id === t.account_id) && t.kind === "p2p_sent") : [];
  const sentFrom = sent ? accounts.find((a) => a.id === sent.account_id) : undefined;
  const history = recentTransactions(user.id, 10, "t.kind IN ('p2p_sent', 'p2p_received')");
  const error = one(sp.error);
  const errField = one(sp.field);
  const contactError = one(sp.contact_error);

  return (
    <>
      <PageHeader title="Send money with Zelle" subtitle="Send money to people you know and trust. Money sent with Zelle usually arrives in minutes." />
      {sent && sentFrom ? (
        <Alert tone="success" title={`You sent ${f.money(-sent.amount_cents)} to ${sent.counterparty}`}>
          <dl className="lb-receipt" data-testid="receipt">
            <dt>Recipient</dt>
            <dd>{sent.counterparty}</dd>
            <dt>Amount</dt>
            <dd data-testid="receipt-amount">{f.money(-sent.amount_cents)}</dd>
            <dt>From</dt>
            <dd>{accountLabel(sentFrom)}</dd>
            {sent.memo ? (
              <>
                <dt>Memo</dt>
                <dd>{sent.memo}</dd>
              </>
            ) : null}
            <dt>Date</dt>
            <dd>{f.dateTime(sent.posted_at)}</dd>
            <dt>Confirmation</dt>
            <dd className="num">ZL{String(sent.id).padStart(8, "0")}</dd>
          </dl>
          <p style={{ margin: "10px 0 0" }}>
            <Link href={`/accounts/${sentFrom.id}`}>View {sentFrom.name}</Link>
          </p>
        </Alert>
      ) : null}
      {one(sp.added) ? <Alert tone="success">Recipient added.</Alert> : null}
      {error ? (
        <Alert tone="error" title="We couldn't send this money">
          {error}
        </Alert>
      ) : null}
      <div className="lb-form-grid">
        <Card title="Send">
          <form action="/api/send" method="post" data-testid="send-form">
            <Field label="To" htmlFor="contact" error={errField === "contact" ? error : undefined}>
              <Select id="contact" name="contact" defaultValue={one(sp.contact)} required>
                <option value="" disabled>
                  Choose a recipient
                </option>
                {contacts.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.email || c.phone})
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="From" htmlFor="from" error={errField === "from" ? error : undefined}>
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
                <Input id="memo" name="memo" maxLength={140} defaultValue={one(sp.memo)} placeholder="What's it for?" />
              </Field>
            </div>
            <div className="lb-form-actions">
              <Button>Send money</Button>
              <ButtonLink href="/accounts" variant="ghost">
                Cancel
              </ButtonLink>
            </div>
          </form>
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
          <details className="lb-add" open={Boolean(one(sp.new_contact))}>
            <summary>+ Add a recipient</summary>
            {contactError ? <Alert tone="error">{contactError}</Alert> : null}
            <form action="/api/contacts" method="post">
              <Field label="Name" htmlFor="contact-name">
                <Input id="contact-name" name="name" required maxLength={80} defaultValue={one(sp.name)} />
              </Field>
              <Field label="Email" htmlFor="contact-email">
                <Input id="contact-email" name="email" type="email" maxLength={120} defaultValue={one(sp.email)} />
              </Field>
              <Field label="Mobile number" htmlFor="contact-phone">
                <Input id="contact-phone" name="phone" type="tel" maxLength={40} defaultValue={one(sp.phone)} />
              </Field>
              <Button variant="secondary" size="sm">
                Save recipient
              </Button>
            </form>
          </details>
        </Card>
      </div>
      <Card title="Zelle activity" flush>
        <TxnTable rows={history} f={f} showBalance={false} showAccount empty="No Zelle activity yet." />
      </Card>
    </>
  );
}
