import { idempotencyToken } from "@persona/platform/once";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Button, Card, Field, Input, MoneyInput, PageHeader } from "@persona/ui";
import { FormError, postedForm } from "@/bank/components/MoneyForm";
import { requireUser } from "@/bank/lib/auth";
import { accountLabel, getAccount, getScheduled, scheduleWindow } from "@/bank/lib/bank";
import { bankContext, formatters } from "@/bank/lib/context";
import { idValue } from "@/bank/lib/http";
import { repeatLabel } from "@/bank/lib/labels";
import { type Search } from "@/bank/lib/search";

export const metadata = { title: "Scheduled payment" };

/** One scheduled payment: a bill payment's amount and date can be changed, any can be cancelled (an autopay only
 * stopped: the payee draws it). */
export default async function ScheduledPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Search> }) {
  const user = await requireUser();
  const { id } = await params;
  const sp = await searchParams;
  const s = getScheduled(user.id, idValue(id));
  if (!s || s.status !== "scheduled") notFound();
  const ctx = bankContext();
  const f = formatters(ctx);
  const posted = postedForm(sp);
  const from = getAccount(user.id, s.account_id);
  const { min, max } = scheduleWindow(ctx.today);
  const monthly = s.frequency === "monthly";
  return (
    <>
      <div className="small" style={{ marginBottom: 8 }}>
        <Link href="/pay-bills">← Pay bills</Link>
      </div>
      <PageHeader
        eyebrow={s.method === "autopay" ? "AutoPay" : monthly ? "Recurring bill payment" : "Scheduled bill payment"}
        title={`${s.payee}: ${f.money(s.amount_cents)}`}
        subtitle={`${monthly ? repeatLabel(s.day) : "One time"} · next on ${f.date(s.next_date)} · from ${from ? accountLabel(from) : "checking"}`}
      />
      <FormError title="The payment was not changed" posted={posted} />
      <div className="lb-form-grid">
        {s.method === "autopay" ? (
          <Card title="About AutoPay">
            <p className="muted" style={{ marginTop: 0 }}>
              {s.payee} draws this payment from your account each month for the amount of your bill. To change its amount or date, contact {s.payee}. You can stop it here: {s.payee} can then no longer draw it, and you pay your bills to them yourself.
            </p>
          </Card>
        ) : (
          <Card title="Change this payment">
            <form action="/api/scheduled" method="post" data-testid="scheduled-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="id" value={s.id} />
              <div className="lb-form-row">
                <Field label="Amount" htmlFor="amount" error={posted.errorFor("amount")}>
                  <MoneyInput id="amount" name="amount" symbol={f.currencySymbol()} defaultValue={posted.value("amount") || (s.amount_cents / 100).toFixed(2)} required />
                </Field>
                <Field label={monthly ? "Next payment on" : "Send on"} htmlFor="date" error={posted.errorFor("date")} hint={monthly ? "Later payments fall on the same day of the month" : undefined}>
                  <Input id="date" name="date" type="date" min={min} max={max} defaultValue={posted.value("date") || s.next_date} required />
                </Field>
              </div>
              <div className="lb-form-actions">
                <Button name="action" value="update" data-testid="save">Save changes</Button>
              </div>
            </form>
          </Card>
        )}
        <Card title={monthly ? "Stop this recurring payment" : "Cancel this payment"}>
          <p className="muted" style={{ marginTop: 0 }}>
            {monthly ? "Every payment still to come from this schedule is cancelled." : "The payment is not sent."} Payments already sent are not affected.
          </p>
          <form action="/api/scheduled" method="post">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <input type="hidden" name="id" value={s.id} />
            <Button name="action" value="cancel" variant="danger" data-testid="cancel">
              {s.method === "autopay" ? "Stop AutoPay" : monthly ? "Stop recurring payment" : "Cancel payment"}
            </Button>
          </form>
        </Card>
      </div>
    </>
  );
}
