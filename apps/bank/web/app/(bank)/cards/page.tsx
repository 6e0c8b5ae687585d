import { idempotencyToken } from "@persona/platform/once";
import { Alert, Button, Card, PageHeader } from "@persona/ui";
import { maskNumber } from "@persona/ui/format";
import { FormError, postedForm } from "@/bank/components/MoneyForm";
import { requireUser } from "@/bank/lib/auth";
import { listCards } from "@/bank/lib/bank";
import { bankContext, formatters } from "@/bank/lib/context";
import { one, type Search } from "@/bank/lib/search";

export const metadata = { title: "Cards" };

/** Card services: each card the persona holds (checking's debit card, the credit card), locked or not, with Lock /
 * Unlock. A locked card declines new purchases; refunds still reach it. */
export default async function CardsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const user = await requireUser();
  const sp = await searchParams;
  const f = formatters(bankContext());
  const cards = listCards(user.id);
  const posted = postedForm(sp);
  const done = Number(one(sp.locked) || one(sp.unlocked));
  const doneCard = cards.find((c) => c.id === done);
  return (
    <>
      <PageHeader title="Cards" subtitle="Lock a card you can't find: new purchases are declined until you unlock it." />
      <FormError title="The card was not changed" posted={posted} />
      {doneCard ? (
        <Alert tone="success" title={one(sp.locked) ? "Card locked" : "Card unlocked"} data-testid="card-notice">
          {one(sp.locked)
            ? `Your card ending ${doneCard.card_number?.slice(-4)} is locked. Purchases, cash withdrawals and cash advances will be declined. Refunds and payments to the account still post.`
            : `Your card ending ${doneCard.card_number?.slice(-4)} is unlocked and ready to use.`}
        </Alert>
      ) : null}
      <div className="lb-cards">
        {cards.map((c) => {
          const locked = Boolean(c.card_locked_at);
          return (
            <Card key={c.id} title={c.kind === "credit_card" ? "Credit card" : "Debit card"}>
              <div className={`lb-card-face${locked ? " lb-card-locked" : ""}`} data-testid="card" data-last4={c.card_number?.slice(-4)} data-locked={locked ? "1" : "0"}>
                <div className="lb-card-brand">{c.kind === "credit_card" ? "Visa" : "Visa Debit"}</div>
                <div className="lb-card-number num">{maskNumber(c.card_number ?? "")}</div>
                <div className="lb-card-name">{user.full_name.toUpperCase()}</div>
              </div>
              <p className="small">
                {c.name} · {locked ? <strong data-testid="card-status">Locked since {f.dateTime(c.card_locked_at as string)}</strong> : <span data-testid="card-status">Active</span>}
              </p>
              <form action="/api/cards" method="post">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="account" value={c.id} />
                {locked ? (
                  <Button name="action" value="unlock" variant="secondary" data-testid="unlock">Unlock card</Button>
                ) : (
                  <Button name="action" value="lock" variant="danger" data-testid="lock">Lock card</Button>
                )}
              </form>
            </Card>
          );
        })}
      </div>
      {!cards.length ? <p className="muted">You have no cards with Larkspur Bank.</p> : null}
    </>
  );
}
