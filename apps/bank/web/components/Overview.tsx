import Link from "next/link";
import { Card, ButtonLink } from "@persona/ui";
import { AccountCards } from "./AccountCards";
import { TxnTable } from "./TxnTable";
import { BillIcon, DocIcon, SendIcon, TransferIcon } from "./Icons";
import { listAccounts, owedCents, recentTransactions } from "@/bank/lib/bank";
import { bankContext, formatters } from "@/bank/lib/context";
import { rail } from "@/bank/lib/labels";
import type { User } from "@/bank/lib/auth";

function greeting(now: string) {
  const h = Number(now.slice(11, 13));
  return h < 12 ? "Good morning" : h < 18 ? "Good afternoon" : "Good evening";
}

/** The "Move money" shortcuts of the overview ({via}: how the persona's country pays people, see labels.ts rail). */
const QUICK_LINKS = [
  { href: "/transfer", Icon: TransferIcon, title: "Transfer between accounts", note: "Checking, savings and card payments" },
  { href: "/pay-bills", Icon: BillIcon, title: "Pay a bill", note: "Pay your saved payees from checking" },
  { href: "/send-money", Icon: SendIcon, title: "Send money {via}", note: "To friends and family" },
  { href: "/statements", Icon: DocIcon, title: "Statements & documents", note: "Download CSV or PDF" },
];

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
            {QUICK_LINKS.map(({ href, Icon, title, note }) => (
              <Link key={href} href={href}>
                <span className="icon">
                  <Icon />
                </span>
                <span>
                  {title.replace("{via}", rail(ctx.meta).via)}
                  <small>{note}</small>
                </span>
              </Link>
            ))}
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
