import Link from "next/link";
import { notFound } from "next/navigation";
import { ButtonLink, Card, Field, Input, PageHeader, Pagination } from "@persona/ui";
import { maskNumber } from "@persona/ui/format";
import { TxnTable } from "@/components/TxnTable";
import { requireUser } from "@/lib/auth";
import { availableCents, getAccount, owedCents, searchTransactions } from "@/lib/bank";
import { bankContext, formatters } from "@/lib/context";
import { kindLabel, routingLabel } from "@/lib/labels";

export const metadata = { title: "Account activity" };

const PAGE_SIZE = 25;

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s);

export default async function AccountPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Search> }) {
  const user = await requireUser();
  const { id } = await params;
  const sp = await searchParams;
  const account = getAccount(user.id, Number(id));
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
              <div>
                <div className="label">Current balance</div>
                <div className="value big" data-testid="balance">
                  {f.money(owedCents(account))}
                </div>
              </div>
              <div>
                <div className="label">Available credit</div>
                <div className="value" data-testid="available-credit">
                  {f.money(availableCents(account))}
                </div>
              </div>
              <div>
                <div className="label">Credit limit</div>
                <div className="value">{f.money(account.credit_limit_cents ?? 0)}</div>
              </div>
              <div>
                <div className="label">Purchase APR</div>
                <div className="value">{account.apr_bps != null ? `${(account.apr_bps / 100).toFixed(2)}%` : "—"}</div>
              </div>
            </>
          ) : (
            <>
              <div>
                <div className="label">Available balance</div>
                <div className="value big" data-testid="balance">
                  {f.money(account.balance_cents)}
                </div>
              </div>
              <div>
                <div className="label">Current balance</div>
                <div className="value">{f.money(account.balance_cents)}</div>
              </div>
              <div>
                <div className="label">{account.kind === "savings" ? "Annual percentage yield" : "Account type"}</div>
                <div className="value">
                  {account.kind === "savings" && account.apr_bps != null ? `${(account.apr_bps / 100).toFixed(2)}%` : kindLabel(account.kind, ctx.locale)}
                </div>
              </div>
              <div>
                <div className="label">As of</div>
                <div className="value">{f.date(ctx.today)}</div>
              </div>
            </>
          )}
        </div>
      </Card>

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
