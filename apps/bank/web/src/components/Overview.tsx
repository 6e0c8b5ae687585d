import Link from "next/link";
import { Card, ButtonLink } from "@persona/ui";
import { AccountCards } from "./AccountCards";
import { TxnTable } from "./TxnTable";
import { BillIcon, DocIcon, SendIcon, TransferIcon } from "./Icons";
import { listAccounts, owedCents, recentTransactions } from "@/lib/bank";
import { bankContext, formatters } from "@/lib/context";
import type { User } from "@/lib/auth";

function greeting(now: string) {
  const h = Number(now.slice(11, 13));
  return h < 12 ? "Good morning" : h < 18 ? "Good afternoon" : "Good evening";
}

/** The accounts overview, shown at / and /accounts. */
export function Overview({ user }: { user: User }) {
  const ctx = bankContext();
  const f = formatters(ctx);
  const accounts = listAccounts(user.id);
  const cash = accounts.filter((a) => a.kind !== "credit_card").reduce((s, a) => s + a.balance_cents, 0);
  const owed = accounts.filter((a) => a.kind === "credit_card").reduce((s, a) => s + owedCents(a), 0);
  const recent = recentTransactions(user.id, 8);
  const first = user.full_name.split(/\s+/)[0];
  return (
    <>
      <section className="lb-hero">
        <div>
          <h1>
            {greeting(ctx.now)}, {first}
          </h1>
          <p>Here is where your accounts stand today.</p>
        </div>
        <div className="lb-hero-stats">
          <div className="lb-hero-stat">
            <div className="label">Total cash</div>
            <div className="value" data-testid="total-cash">
              {f.money(cash)}
            </div>
          </div>
          <div className="lb-hero-stat">
            <div className="label">Credit card owed</div>
            <div className="value">{f.money(owed)}</div>
          </div>
        </div>
      </section>
      <AccountCards accounts={accounts} f={f} locale={ctx.locale} />
      <div className="lb-two-col">
        <Card flush title="Recent activity" actions={accounts[0] ? <Link href={`/accounts/${accounts[0].id}`}>View all</Link> : null}>
          <TxnTable rows={recent} f={f} showBalance={false} showAccount empty="No recent activity." />
        </Card>
        <Card title="Move money">
          <div className="lb-quick">
            <Link href="/transfer">
              <span className="icon">
                <TransferIcon />
              </span>
              <span>
                Transfer between accounts<small>Checking, savings and card payments</small>
              </span>
            </Link>
            <Link href="/pay-bills">
              <span className="icon">
                <BillIcon />
              </span>
              <span>
                Pay a bill<small>Pay your saved payees from checking</small>
              </span>
            </Link>
            <Link href="/send-money">
              <span className="icon">
                <SendIcon />
              </span>
              <span>
                Send money with Zelle<small>To friends and family</small>
              </span>
            </Link>
            <Link href="/statements">
              <span className="icon">
                <DocIcon />
              </span>
              <span>
                Statements &amp; documents<small>Download CSV or PDF</small>
              </span>
            </Link>
          </div>
          <div style={{ marginTop: 14 }}>
            <ButtonLink href="/profile" variant="ghost" size="sm">
              Profile &amp; settings
            </ButtonLink>
          </div>
        </Card>
      </div>
    </>
  );
}
