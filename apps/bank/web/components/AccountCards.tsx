import Link from "next/link";
import { maskNumber } from "@persona/ui/format";
import { availableCents, owedCents, type Account } from "@/bank/lib/bank";
import type { Formatters } from "@/bank/lib/context";
import { kindLabel } from "@/bank/lib/labels";

/** One card per account on the overview: balance first, the numbers that matter below. */
export function AccountCards({ accounts, f, locale }: { accounts: Account[]; f: Formatters; locale: string }) {
  return (
    <div className="lb-grid-accounts">
      {accounts.map((a) => (
        <Link key={a.id} href={`/accounts/${a.id}`} className={`lb-account-card kind-${a.kind}`} data-testid={`account-card-${a.kind}`} data-account-id={a.id}>
          <div className="top">
            <div>
              <div className="name">{a.name}</div>
              <div className="number">{maskNumber(a.number)}</div>
            </div>
            <span className="lb-kind">{kindLabel(a.kind, locale)}</span>
          </div>
          <div>
            <div className="lb-balance-label">{a.kind === "credit_card" ? "Current balance" : "Available balance"}</div>
            <div className="lb-balance" data-testid="balance">
              {f.money(a.kind === "credit_card" ? owedCents(a) : a.balance_cents)}
            </div>
          </div>
          <div className="meta">
            {a.kind === "credit_card" ? (
              <>
                <span>
                  Available credit <strong data-testid="available-credit">{f.money(availableCents(a))}</strong>
                </span>
                <span>
                  Limit <strong>{f.money(a.credit_limit_cents ?? 0)}</strong>
                </span>
              </>
            ) : (
              <>
                <span>
                  {a.kind === "savings" && a.apr_bps != null
                    ? `${(a.apr_bps / 100).toFixed(2)}% APY`
                    : a.kind === "checking"
                      ? "Debit card active"
                      : "Linked account"}
                </span>
                <span>View activity →</span>
              </>
            )}
          </div>
        </Link>
      ))}
    </div>
  );
}
