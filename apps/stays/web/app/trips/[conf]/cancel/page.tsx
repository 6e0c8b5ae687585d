import Link from "next/link";
import { notFound } from "next/navigation";
import { Header } from "@/stays/components/Brand";
import { requireUser } from "@/stays/lib/auth";
import { stayContext } from "@/stays/lib/context";
import { db } from "@/stays/lib/db";
import { cancelTerms, trip, tripState, type Card } from "@/stays/lib/stays";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Cancel booking" };

/** The cancellation step: the policy and what cancelling now refunds or costs, stated before confirming. */
export default async function CancelPage({ params }: { params: Promise<{ conf: string }> }) {
  const user = await requireUser();
  const { conf } = await params;
  const t = trip(user.id, conf);
  if (!t) notFound();
  const ctx = stayContext();
  const card = db().prepare("SELECT * FROM cards WHERE id = ?").get(t.card_id) as Card;
  const state = tripState(t, ctx.today);
  const terms = cancelTerms(t, ctx.now);
  const cur = ctx.cityCurrency(t.city);
  let outcome: string;
  if (terms.free) outcome = t.payment === "pay_now" ? `You'll get a full refund of ${ctx.charged(terms.refund_cents, cur)} to ${card.label}.` : "Cancelling is free: nothing will be charged.";
  else if (terms.fee_cents) outcome = `It's past the free-cancellation deadline: ${ctx.charged(terms.fee_cents, cur)} (the first night with tax) will be charged to ${card.label}.`;
  else outcome = t.cancel_until ? `It's past the free-cancellation deadline (${ctx.dateTime(t.cancel_until)}): you won't get a refund of the ${ctx.money(t.total_cents, cur)} you paid.` : `This is a non-refundable rate: you won't get a refund of the ${ctx.money(t.total_cents, cur)} you paid.`;
  return (
    <>
      <Header name={user.full_name} active="trips" />
      <main className="bs-page bs-narrow">
        <p className="bs-crumbs">
          <Link href={`/trips/${t.confirmation}`}>← Back to your booking</Link>
        </p>
        <h1>Cancel your stay at {t.property_name}?</h1>
        <p>
          {ctx.date(t.check_in, "long")} – {ctx.date(t.check_out, "long")} · confirmation {t.confirmation}
        </p>
        {state !== "upcoming" ? (
          <p className="bs-alert" role="alert">
            {t.status === "cancelled" ? "This booking is already cancelled." : "This stay has already started or ended and can't be cancelled online."}
          </p>
        ) : (
          <>
            <div className={terms.free ? "bs-policy bs-policy-free" : "bs-policy bs-policy-late"} data-testid="cancel-terms" data-free={terms.free ? "1" : "0"}>
              <strong>{t.cancel_until ? `Free cancellation until ${ctx.dateTime(t.cancel_until)}` : "Non-refundable rate"}</strong>
              <p>{outcome}</p>
            </div>
            <form action="/api/cancel" method="post" className="bs-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="confirmation" value={t.confirmation} />
              <label className="bs-check">
                <input type="checkbox" name="confirm" value="yes" required /> I understand and want to cancel this booking.
              </label>
              <button type="submit" className="bs-danger" data-testid="confirm-cancel">
                Cancel booking
              </button>
            </form>
          </>
        )}
      </main>
    </>
  );
}
