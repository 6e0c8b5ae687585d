import { Card } from "@persona/ui";
import { maskNumber } from "@persona/ui/format";
import { availableCents, owedCents, type Account } from "@/bank/lib/bank";
import type { Formatters } from "@/bank/lib/context";

/** Sidebar list of accounts with what can be moved from each. */
export function AccountsAside({ accounts, f, title = "Your accounts" }: { accounts: Account[]; f: Formatters; title?: string }) {
  return (
    <Card title={title}>
      <ul className="lb-list">
        {accounts.map((a) => (
          <li key={a.id} data-testid={`aside-${a.kind}`}>
            <span>
              {a.name}
              <span className="sub">{maskNumber(a.number)}</span>
            </span>
            <span style={{ textAlign: "right", whiteSpace: "nowrap" }}>
              <span className="num" data-testid="aside-balance">
                {f.money(a.kind === "credit_card" ? owedCents(a) : a.balance_cents)}
              </span>
              <span className="sub">{a.kind === "credit_card" ? "owed" : "available"}</span>
              {a.kind === "credit_card" ? <span className="sub">{f.money(availableCents(a))} credit available</span> : null}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
