import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ButtonLink, Card, DataTable, Field, Input, PageHeader, Pagination } from "@persona/ui";
import { maskNumber } from "@persona/ui/format";
import { TxnTable } from "@/bank/components/TxnTable";
import { requireUser } from "@/bank/lib/auth";
import { availableCents, getAccount, type Authorization, owedCents, pendingAuthorizations, searchTransactions } from "@/bank/lib/bank";
import { bankContext, formatters } from "@/bank/lib/context";
import { idValue } from "@/bank/lib/http";
import { categoryLabel, kindLabel, routingLabel } from "@/bank/lib/labels";
import { one, type Search } from "@/bank/lib/search";

export const metadata = { title: "Account activity" };

const PAGE_SIZE = 25;

const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);
/** An APR or APY in basis points as shown: 2475 -> "24.75%". */
const rate = (bps: number) => `${(bps / 100).toFixed(2)}%`;

/** One figure of the summary card: a label over its value (`big` for the headline one). */
function Figure({ label, big = false, testId, children }: { label: ReactNode; big?: boolean; testId?: string; children: ReactNode }) {
  return (
    <div>
      <div className="label">{label}</div>
      <div className={big ? "value big" : "value"} data-testid={testId}>
        {children}
      </div>
    </div>
  );
}

export default async function AccountPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Search> }) {
  const user = await requireUser();
  const { id } = await params;
  const sp = await searchParams;
  const account = getAccount(user.id, idValue(id));
  if (!account) notFound();
  const ctx = bankContext();
  const f = formatters(ctx);

  const q = one(sp.q).trim();
  const from = isDate(one(sp.from)) ? one(sp.from) : "";
  const to = isDate(one(sp.to)) ? one(sp.to) : "";
  const filtered = Boolean(q || from || to);
  let page = Math.max(1, Number.parseInt(one(sp.page), 10) || 1);
  let result = searchTransactions(account.id, { q, from, to }, page, PAGE_SIZE);
  const pageCount = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
  if (page > pageCount) {
    page = pageCount;
    result = searchTransactions(account.id, { q, from, to }, page, PAGE_SIZE);
  }
  const firstRow = result.total ? (page - 1) * PAGE_SIZE + 1 : 0;
  const lastRow = Math.min(page * PAGE_SIZE, result.total);
  const isCard = account.kind === "credit_card";
  const pending = pendingAuthorizations(account.id);
  const held = account.pending_hold_cents ?? 0;

  return (
    <>
      <div className="small" style={{ marginBottom: 8 }}>
        <Link href="/accounts">← All accounts</Link>
      </div>
      <PageHeader
        eyebrow={kindLabel(account.kind, ctx.locale)}
        title={account.name}
        subtitle={
          <>
            Account <span data-testid="account-number">{maskNumber(account.number)}</span>
            {account.routing_number ? (
              <>
                {" "}
                · {routingLabel(ctx.locale)} {account.routing_number}
              </>
            ) : null}
            {account.iban ? (
              <>
                {" "}
                · IBAN <span className="num">{account.iban.replace(/(.{4})/g, "$1 ").trim()}</span>
              </>
            ) : null}{" "}
            · Opened {f.date(account.opened_on)}
            {account.card_locked_at ? (
              <>
                {" "}
                · <Link href="/cards" data-testid="card-locked">Card locked</Link>
              </>
            ) : null}
          </>
        }
        actions={
          <>
            <ButtonLink href={`/transfer?from=${account.id}`} variant="primary">
              {isCard ? "Cash advance" : "Transfer"}
            </ButtonLink>
            {isCard ? <ButtonLink href={`/transfer?to=${account.id}`}>Make a payment</ButtonLink> : null}
            <ButtonLink href={`/statements?account=${account.id}`}>Statements</ButtonLink>
          </>
        }
      />
      <Card>
        <div className="lb-summary">
          {isCard ? (
            <>
              <Figure label="Current balance" big testId="balance">
                {f.money(owedCents(account))}
              </Figure>
              <Figure label="Available credit" testId="available-credit">
                {f.money(availableCents(account))}
              </Figure>
              <Figure label="Credit limit">{f.money(account.credit_limit_cents ?? 0)}</Figure>
              <Figure label="Purchase APR">{account.apr_bps != null ? rate(account.apr_bps) : "—"}</Figure>
            </>
          ) : (
            <>
              <Figure label="Available balance" big testId="balance">
                {f.money(availableCents(account))}
              </Figure>
              <Figure label="Current balance">{f.money(account.balance_cents)}</Figure>
              <Figure label={account.kind === "savings" ? "Annual percentage yield" : "Account type"}>
                {account.kind === "savings" && account.apr_bps != null ? rate(account.apr_bps) : kindLabel(account.kind, ctx.locale)}
              </Figure>
              <Figure label="As of">{f.date(ctx.today)}</Figure>
            </>
          )}
        </div>
      </Card>

      {pending.length ? (
        <Card title={`Pending (${pending.length})`} flush>
          <p className="small" style={{ padding: "12px 16px 0", margin: 0 }}>
            Card payments waiting to post. Charges are held against your {isCard ? "available credit" : "available balance"}
            {held ? <> ({f.money(held)})</> : null}; a refund of a pending charge releases its hold; other refunds are credited when they post.
          </p>
          <div data-testid="pending">
            <DataTable
              columns={[
                { key: "date", header: "Date", render: (p: Authorization) => <span className="num">{f.dateTime(p.authorized_at)}</span>, className: "lb-col-date" },
                {
                  key: "description",
                  header: "Description",
                  render: (p: Authorization) => (
                    <>
                      <div className="lb-desc">{p.merchant}</div>
                      <div className="lb-desc-sub">
                        {p.kind === "refund" ? "Refund pending" : "Pending"} · Authorization {p.code}
                        {p.memo ? ` · ${p.memo}` : ""}
                      </div>
                    </>
                  ),
                },
                { key: "category", header: "Category", render: (p: Authorization) => <span className="lb-cat">{categoryLabel(p.category)}</span> },
                {
                  key: "amount",
                  header: "Amount",
                  align: "right",
                  render: (p: Authorization) => (
                    <span className={`num ${p.kind === "refund" ? "lb-amount-pos" : "lb-amount-neg"}`}>
                      {f.signed(p.kind === "refund" ? p.amount_cents : -p.amount_cents)}
                    </span>
                  ),
                },
              ]}
              rows={pending}
              rowKey={(p) => p.id}
              empty="No pending payments."
              rowProps={(p) => ({ "data-testid": "pending-row", "data-reference": p.reference, "data-kind": p.kind, "data-amount-cents": p.amount_cents })}
            />
          </div>
        </Card>
      ) : null}

      <Card title="Transaction history" flush>
        <form method="get" className="lb-filters" role="search" aria-label="Filter transactions" style={{ padding: "16px" }}>
          <Field label="Search" htmlFor="q">
            <Input id="q" name="q" type="search" defaultValue={q} placeholder="Description, payee or memo" />
          </Field>
          <Field label="From" htmlFor="from">
            <Input id="from" name="from" type="date" defaultValue={from} max={ctx.today} />
          </Field>
          <Field label="To" htmlFor="to">
            <Input id="to" name="to" type="date" defaultValue={to} />
          </Field>
          <div className="actions">
            <button type="submit" className="pui-btn pui-btn-primary">
              Apply
            </button>
            {filtered ? (
              <ButtonLink href={`/accounts/${account.id}`} variant="ghost">
                Clear
              </ButtonLink>
            ) : null}
          </div>
        </form>
        <div className="lb-result-line">
          <span data-testid="result-count" data-total={result.total}>
            {result.total === 0 ? "No transactions" : `Showing ${firstRow}–${lastRow} of ${result.total} transaction${result.total === 1 ? "" : "s"}`}
            {filtered ? " matching your filters" : ""}
          </span>
          <span>
            Money in <strong className="num lb-amount-pos">{f.money(result.credits)}</strong> · Money out{" "}
            <strong className="num">{f.money(result.debits)}</strong>
          </span>
        </div>
        <TxnTable rows={result.rows} f={f} />
        <Pagination page={page} pageCount={pageCount} basePath={`/accounts/${account.id}`} params={{ q, from, to }} />
      </Card>
    </>
  );
}
