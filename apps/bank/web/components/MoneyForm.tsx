// The pieces of the money-movement pages (transfer, pay bills, send money): the form, its
// fields, the error banner and the receipt. The pages post to route handlers built with
// `formPost` (lib/http.ts), which send a failed post back with the values, the signed `error`,
// `field` and (for the add forms) `form` in the query; `postedForm` reads them back. Every form
// carries a one-time `_idem` token rendered with the page, so a double submit has one effect.
import Link from "next/link";
import { Fragment, type ReactNode } from "react";
import { Alert, Button, ButtonLink, Field, Input, MoneyInput, Select } from "@persona/ui";
import { accountLabel, type Account, type Txn } from "@/bank/lib/bank";
import type { Formatters } from "@/bank/lib/context";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { one, type Search } from "@/bank/lib/search";

/**
 * A failed post, as its redirect's query carries it: the values to refill, the message (only when the bank signed
 * it) and the field it is about. `form` names which form of the page failed ("" the main one, "contact", "payee").
 */
export function postedForm(sp: Search, form = "") {
  const error = one(sp.form) === form ? errorMessage(sp) : "";
  const field = one(sp.field);
  return {
    error,
    value: (name: string) => one(sp[name]),
    errorFor: (name: string) => (field === name ? error : undefined),
  };
}

export type PostedForm = ReturnType<typeof postedForm>;

/** Why the last post failed, above the form. */
export function FormError({ title, posted }: { title: string; posted: PostedForm }) {
  return posted.error ? (
    <Alert tone="error" title={title}>
      {posted.error}
    </Alert>
  ) : null;
}

/** A money form posting to `action`, with its submit button and Cancel under the fields. */
export function MoneyForm({ action, testId, submitLabel, children }: { action: string; testId: string; submitLabel: string; children: ReactNode }) {
  return (
    <form action={action} method="post" data-testid={testId}>
      <input type="hidden" name="_idem" value={idempotencyToken()} />
      {children}
      <div className="lb-form-actions">
        <Button>{submitLabel}</Button>
        <ButtonLink href="/accounts" variant="ghost">
          Cancel
        </ButtonLink>
      </div>
    </form>
  );
}

export interface SelectFieldProps {
  label: string;
  name: string;
  posted: PostedForm;
  options: { value: number; label: string }[];
  /** A first, disabled option shown until something is chosen. */
  placeholder?: string;
  /** The choice when the page opens; by default the posted value. */
  defaultValue?: string;
}

/** A required choice (an account, a payee, a recipient), refilled and flagged from the posted form. */
export function SelectField({ label, name, posted, options, placeholder, defaultValue = posted.value(name) }: SelectFieldProps) {
  return (
    <Field label={label} htmlFor={name} error={posted.errorFor(name)}>
      <Select id={name} name={name} defaultValue={defaultValue} required>
        {placeholder ? (
          <option value="" disabled>
            {placeholder}
          </option>
        ) : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}

export function AmountField({ posted, f }: { posted: PostedForm; f: Formatters }) {
  return (
    <Field label="Amount" htmlFor="amount" error={posted.errorFor("amount")}>
      <MoneyInput id="amount" name="amount" symbol={f.currencySymbol()} defaultValue={posted.value("amount")} required />
    </Field>
  );
}

export function MemoField({ posted, placeholder }: { posted: PostedForm; placeholder: string }) {
  return (
    <Field label="Memo (optional)" htmlFor="memo">
      <Input id="memo" name="memo" maxLength={140} defaultValue={posted.value("memo")} placeholder={placeholder} />
    </Field>
  );
}

/**
 * The form of a payment out of checking (bill pay, Zelle): whom to pay (`to`), from which of the
 * checking accounts among `accounts` (the first by default), amount and memo.
 */
export function PaymentForm({
  action,
  testId,
  submitLabel,
  to,
  fromLabel,
  accounts,
  memoPlaceholder,
  posted,
  f,
  schedule,
}: {
  action: string;
  testId: string;
  submitLabel: string;
  to: Omit<SelectFieldProps, "posted">;
  fromLabel: string;
  accounts: Account[];
  memoPlaceholder: string;
  posted: PostedForm;
  f: Formatters;
  /** When set, a send date (today to `max`) and a repeat (once / every month) under the amount. */
  schedule?: { today: string; max: string };
}) {
  const checking = accounts.filter((a) => a.kind === "checking");
  return (
    <MoneyForm action={action} testId={testId} submitLabel={submitLabel}>
      <SelectField {...to} posted={posted} />
      <SelectField
        label={fromLabel}
        name="from"
        posted={posted}
        defaultValue={posted.value("from") || String(checking[0]?.id ?? "")}
        options={checking.map((a) => ({ value: a.id, label: `${accountLabel(a)} · ${f.money(a.balance_cents)}` }))}
      />
      <div className="lb-form-row">
        <AmountField posted={posted} f={f} />
        <MemoField posted={posted} placeholder={memoPlaceholder} />
      </div>
      {schedule ? (
        <div className="lb-form-row">
          <Field label="Send on" htmlFor="date" error={posted.errorFor("date")} hint="Today, or a later date to schedule it">
            <Input id="date" name="date" type="date" min={schedule.today} max={schedule.max} defaultValue={posted.value("date") || schedule.today} required />
          </Field>
          <Field label="Repeat" htmlFor="frequency" error={posted.errorFor("frequency")}>
            <Select id="frequency" name="frequency" defaultValue={posted.value("frequency") || "once"}>
              <option value="once">Just once</option>
              <option value="monthly">Every month on this day</option>
            </Select>
          </Field>
        </div>
      ) : null}
    </MoneyForm>
  );
}

export interface ReceiptLine {
  term: string;
  value: ReactNode;
  testId?: string;
  /** Set in figures (tabular digits). */
  num?: boolean;
}

/** The banner after a money movement: what moved, then a link to each account it touched. */
export function Receipt({ title, lines, accounts }: { title: string; lines: ReceiptLine[]; accounts: { id: number; name: string }[] }) {
  return (
    <Alert tone="success" title={title}>
      <dl className="lb-receipt" data-testid="receipt">
        {lines.map((l) => (
          <Fragment key={l.term}>
            <dt>{l.term}</dt>
            <dd className={l.num ? "num" : undefined} data-testid={l.testId}>
              {l.value}
            </dd>
          </Fragment>
        ))}
      </dl>
      <p style={{ margin: "10px 0 0" }}>
        {accounts.map((a, i) => (
          <Fragment key={a.id}>
            {i > 0 ? " · " : null}
            <Link href={`/accounts/${a.id}`}>View {a.name}</Link>
          </Fragment>
        ))}
      </p>
    </Alert>
  );
}

/**
 * The receipt of a payment out of checking: whom it went to (`toTerm`), amount, account, the
 * memo when `showMemo`, date and a confirmation number (`prefix` + the zero-padded line id).
 */
export function PaymentReceipt({
  title,
  toTerm,
  payment,
  prefix,
  showMemo = false,
  f,
}: {
  title: string;
  toTerm: string;
  payment: { line: Txn; account: Account };
  prefix: string;
  showMemo?: boolean;
  f: Formatters;
}) {
  const { line, account } = payment;
  const lines: ReceiptLine[] = [
    { term: toTerm, value: line.counterparty },
    { term: "Amount", value: f.money(-line.amount_cents), testId: "receipt-amount" },
    { term: "From", value: accountLabel(account) },
    ...(showMemo && line.memo ? [{ term: "Memo", value: line.memo }] : []),
    { term: "Date", value: f.dateTime(line.posted_at) },
    { term: "Confirmation", value: `${prefix}${String(line.id).padStart(8, "0")}`, num: true },
  ];
  return <Receipt title={title} lines={lines} accounts={[account]} />;
}

/** The collapsible "+ Add ..." form under a list of saved payees or recipients. */
export function AddForm({
  summary,
  open,
  error,
  action,
  submitLabel,
  children,
}: {
  summary: string;
  open: boolean;
  error: string;
  action: string;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <details className="lb-add" open={open}>
      <summary>{summary}</summary>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <form action={action} method="post">
        <input type="hidden" name="_idem" value={idempotencyToken()} />
        {children}
        <Button variant="secondary" size="sm">
          {submitLabel}
        </Button>
      </form>
    </details>
  );
}
