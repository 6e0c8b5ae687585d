import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { Header } from "@/rides/components/Header";
import { requireUser } from "@/rides/lib/auth";
import { rideContext } from "@/rides/lib/context";
import { dayTime, distance, money } from "@/rides/lib/format";
import { cancelFee, cancelTerms, FREE_CANCEL_MINUTES, upcoming, settleRides } from "@/rides/lib/rides";

export const metadata = { title: "Scheduled rides" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function Scheduled({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  await settleRides();
  const ctx = rideContext();
  const sp = await searchParams;
  const error = errorMessage(sp);
  const rides = upcoming(ctx);
  return (
    <>
      <Header active="/scheduled" name={user.full_name} />
      <main className="zr-page">
        <h1>Scheduled rides</h1>
        <p className="zr-muted">
          Cancel free of charge up to {FREE_CANCEL_MINUTES} minutes before pickup; later, a {money(ctx, cancelFee(ctx))} cancellation fee is kept and the rest of the fare is refunded.
        </p>
        {error ? <p className="zr-alert" role="alert">{error}</p> : null}
        {one(sp.cancelled) ? <p className="zr-note" role="status">Your ride was cancelled. Any refund shows on your card as a pending credit.</p> : null}
        {rides.length === 0 ? (
          <div className="zr-empty">
            <p>No rides scheduled.</p>
            <Link href="/?when=later" className="zr-primary">Schedule a ride</Link>
          </div>
        ) : (
          <ul className="zr-list" data-testid="scheduled-list">
            {rides.map((r) => {
              const t = cancelTerms(ctx, r);
              return (
                <li key={r.id} className="zr-row" data-testid={`scheduled-${r.ride_id}`}>
                  <div>
                    <strong>{dayTime(ctx, r.pickup_at)}</strong> · {r.type_name}
                    <br />
                    {r.pickup_name} → {r.dropoff_name}
                    <br />
                    <span className="zr-muted">
                      {distance(ctx, r.distance_miles)} · {r.duration_minutes} min · {r.card_label}
                    </span>
                  </div>
                  <div className="zr-row-end">
                    <span className="zr-price" data-cents={r.fare_cents}>{money(ctx, r.fare_cents)}</span>
                    <form action={`/api/rides/${r.id}/cancel`} method="post">
                      <input type="hidden" name="_idem" value={idempotencyToken()} />
                      <button type="submit" className="zr-secondary" data-testid={`cancel-${r.ride_id}`}>
                        {t.free ? "Cancel (free)" : `Cancel (${money(ctx, t.fee_cents)} fee)`}
                      </button>
                    </form>
                    <Link href={`/rides/${r.id}`}>Details</Link>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </main>
    </>
  );
}
