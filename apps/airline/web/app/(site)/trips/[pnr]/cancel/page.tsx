import Link from "next/link";
import { notFound } from "next/navigation";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { AirError, bookingByPnr, journeysOf } from "@/airline/lib/air";
import { requireUser } from "@/airline/lib/auth";
import { cancelOutcome, fareNames } from "@/airline/lib/actions";
import { airContext, money } from "@/airline/lib/context";
import { type SP } from "@/airline/lib/page";

export const metadata = { title: "Cancel trip" };

export default async function CancelPage({ params, searchParams }: { params: Promise<{ pnr: string }>; searchParams: SP }) {
  const { pnr } = await params;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const user = await requireUser();
  const ctx = airContext();
  let b;
  try {
    b = bookingByPnr(user.id, pnr.toUpperCase());
  } catch (e) {
    if (e instanceof AirError) notFound();
    throw e;
  }
  const back = cancelOutcome(b);
  const outcome = [
    back.kind === "refund" || back.refund > 0 ? `${money(ctx, back.refund)} will be refunded to your card.` : "",
    back.kind === "credit" || back.credit > 0 ? `You'll keep ${money(ctx, back.credit)} as travel credit for a year.` : "",
  ].filter(Boolean).join(" ") || "Basic Economy fares keep no value: you won't get a refund or credit.";
  return (
    <div className="ma-page">
      <p><Link href={`/trips/${b.pnr}`}>← Trip {b.pnr}</Link></p>
      <h1>Cancel trip {b.pnr}</h1>
      {error ? <p className="ma-alert" role="alert">{error}</p> : null}
      <section className="ma-card">
        <p data-testid="cancel-outcome">{fareNames(journeysOf(b))}: {outcome}</p>
        <form action="/api/cancel" method="post">
          <input type="hidden" name="_idem" value={idempotencyToken()} />
          <input type="hidden" name="pnr" value={b.pnr} />
          <label className="ma-radio"><input type="checkbox" name="confirm" value="yes" required /> I want to cancel every flight of this trip.</label>
          <button type="submit" className="ma-danger">Cancel trip</button>
        </form>
      </section>
    </div>
  );
}
