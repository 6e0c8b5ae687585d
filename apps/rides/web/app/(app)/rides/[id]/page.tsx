import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { notFound } from "next/navigation";
import { Header } from "@/rides/components/Header";
import { Stars } from "@/rides/components/Logo";
import { requireUser } from "@/rides/lib/auth";
import { rideContext } from "@/rides/lib/context";
import { clock, day, distance, money, PURPOSES } from "@/rides/lib/format";
import { idValue } from "@/rides/lib/http";
import { cancelTerms, COMPLIMENTS, FEEDBACK_DAYS, localOf, minutesBetween, phase, ride, settleRides } from "@/rides/lib/rides";

export const metadata = { title: "Ride receipt" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function RidePage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  await settleRides();
  const ctx = rideContext();
  const { id } = await params;
  const sp = await searchParams;
  const error = errorMessage(sp);
  const r = ride(idValue(id));
  if (!r) notFound();
  const ph = phase(ctx, r);
  const open = ph === "completed" && minutesBetween(localOf(ctx, r.dropoff_at), ctx.now) <= FEEDBACK_DAYS * 24 * 60;
  const compliments: string[] = r.compliments ? JSON.parse(r.compliments) : [];
  const notice = one(sp.requested)
    ? r.status === "scheduled"
      ? "Your ride is scheduled. We've authorised the fare on your card."
      : "Ride confirmed. Your driver is on the way."
    : one(sp.rated)
      ? "Thanks for rating your ride."
      : one(sp.tipped)
        ? "Thanks! Your tip goes to your driver in full."
        : "";
  const tips = [10, 15, 20, 25].map((p) => [p, Math.floor((r.fare_cents * p + 50) / 100)] as const);
  return (
    <>
      <Header active="/activity" name={user.full_name} />
      <main className="zr-page zr-receipt-page">
        <p>
          <Link href={ph === "scheduled" ? "/scheduled" : "/activity"}>← {ph === "scheduled" ? "Scheduled rides" : "Activity"}</Link>
        </p>
        {error ? <p className="zr-alert" role="alert" data-testid="ride-error">{error}</p> : null}
        {notice ? <p className="zr-note" role="status" data-testid="ride-notice">{notice}</p> : null}
        <article className="zr-receipt" data-testid="receipt" data-ride-id={r.ride_id}>
          <header>
            <h1>
              {ph === "scheduled" ? "Scheduled ride" : ph === "cancelled" ? "Cancelled ride" : ph === "completed" ? "Ride receipt" : ph === "arriving" ? "Driver on the way" : "On trip"}
            </h1>
            <p className="zr-muted">
              {day(ctx, r.pickup_at)} · {r.type_name} · <span data-testid="ride-id">{r.ride_id}</span>
            </p>
          </header>
          <ol className="zr-stops">
            <li>
              <span className="zr-dot zr-dot-from" aria-hidden="true" />
              <span className="zr-time">{clock(ctx, r.pickup_at)}</span> <span data-testid="pickup">{r.pickup}</span>
            </li>
            <li>
              <span className="zr-dot zr-dot-to" aria-hidden="true" />
              <span className="zr-time">{clock(ctx, r.dropoff_at)}</span> <span data-testid="dropoff">{r.dropoff}</span>
            </li>
          </ol>
          <p className="zr-muted">
            <span data-testid="distance">{distance(ctx, r.distance_miles)}</span> · <span data-testid="duration">{r.duration_minutes}</span> min
            {r.purpose ? ` · ${PURPOSES[r.purpose] ?? r.purpose}` : ""}
            {r.expensable ? " · expensable" : ""}
          </p>
          {r.driver_name ? (
            <div className="zr-driver">
              <span className="zr-avatar" aria-hidden="true">{r.driver_name[0]}</span>
              <div>
                <strong data-testid="driver">{r.driver_name}</strong> · ★ {((r.driver_rating_x100 ?? 0) / 100).toFixed(2)}
                <br />
                <span className="zr-muted">
                  {r.vehicle} · <span className="zr-plate" data-testid="plate">{r.plate}</span>
                </span>
              </div>
            </div>
          ) : null}
          <table className="zr-fare" data-testid="fare-table">
            <tbody>
              <tr>
                <th>Base fare</th>
                <td>{money(ctx, r.base_cents)}</td>
              </tr>
              <tr>
                <th>Distance ({distance(ctx, r.distance_miles)})</th>
                <td>{money(ctx, r.distance_cents)}</td>
              </tr>
              <tr>
                <th>Time ({r.duration_minutes} min)</th>
                <td>{money(ctx, r.time_cents)}</td>
              </tr>
              <tr>
                <th>Booking fee</th>
                <td>{money(ctx, r.booking_fee_cents)}</td>
              </tr>
              <tr className="zr-subtotal">
                <th>Fare</th>
                <td data-testid="fare" data-cents={r.fare_cents}>{money(ctx, r.fare_cents)}</td>
              </tr>
              {r.tip_cents ? (
                <tr>
                  <th>Tip</th>
                  <td data-testid="tip" data-cents={r.tip_cents}>{money(ctx, r.tip_cents)}</td>
                </tr>
              ) : null}
              {ph === "cancelled" ? (
                <>
                  <tr>
                    <th>Refunded</th>
                    <td data-testid="refund" data-cents={r.refund_cents}>−{money(ctx, r.refund_cents)}</td>
                  </tr>
                  <tr>
                    <th>Cancellation fee</th>
                    <td data-cents={r.cancel_fee_cents}>{money(ctx, r.cancel_fee_cents)}</td>
                  </tr>
                </>
              ) : null}
              <tr className="zr-total">
                <th>Total</th>
                <td data-testid="total" data-cents={r.total_cents}>{money(ctx, r.total_cents)}</td>
              </tr>
            </tbody>
          </table>
          <p className="zr-muted">Charged to {r.card_label}</p>
        </article>

        {ph === "scheduled" ? (
          <form action={`/api/rides/${r.id}/cancel`} method="post" className="zr-card">
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <p>
              {cancelTerms(ctx, r).free ? "Cancelling now is free." : `Cancelling now keeps a ${money(ctx, cancelTerms(ctx, r).fee_cents)} fee.`}
            </p>
            <button type="submit" className="zr-secondary">Cancel ride</button>
          </form>
        ) : null}

        {ph === "completed" ? (
          <section className="zr-feedback">
            <div className="zr-card" data-testid="rating">
              <h2>Your rating</h2>
              {r.rating ? (
                <p>
                  <Stars n={r.rating} /> {compliments.length ? <span className="zr-muted">· {compliments.join(", ")}</span> : null}
                </p>
              ) : open ? (
                <form action={`/api/rides/${r.id}/rate`} method="post" className="zr-form" data-testid="rate-form">
                  <input type="hidden" name="_idem" value={idempotencyToken()} />
                  <input type="hidden" name="ride" value={r.id} />
                  <fieldset className="zr-star-pick">
                    <legend>How was your ride with {r.driver_name?.split(" ")[0] ?? "your driver"}?</legend>
                    {[1, 2, 3, 4, 5].map((n) => (
                      <label key={n} className="zr-radio">
                        <input type="radio" name="stars" value={n} required defaultChecked={n === 5} /> {n}★
                      </label>
                    ))}
                  </fieldset>
                  <fieldset className="zr-compliments">
                    <legend>Compliments</legend>
                    {COMPLIMENTS.map((c) => (
                      <label key={c} className="zr-check">
                        <input type="checkbox" name="compliment" value={c} /> {c}
                      </label>
                    ))}
                  </fieldset>
                  <button type="submit" className="zr-primary">Submit rating</button>
                </form>
              ) : (
                <p className="zr-muted">Not rated. Rating closes {FEEDBACK_DAYS} days after a ride.</p>
              )}
            </div>
            <div className="zr-card" data-testid="tipping">
              <h2>Tip</h2>
              {r.tipped_at ? (
                <p>You added a tip on {day(ctx, r.tipped_at)}. Total tip {money(ctx, r.tip_cents)}.</p>
              ) : open ? (
                <>
                  <p className="zr-muted">{r.tip_cents ? `You tipped ${money(ctx, r.tip_cents)} with the ride. Add more?` : "Say thanks with a tip. It goes to your driver in full."}</p>
                  <div className="zr-tip-buttons">
                    {tips.map(([p, cents]) => (
                      <form key={p} action={`/api/rides/${r.id}/tip`} method="post">
                        <input type="hidden" name="_idem" value={idempotencyToken()} />
                        <input type="hidden" name="ride" value={r.id} />
                        <input type="hidden" name="percent" value={p} />
                        <button type="submit" className="zr-secondary" data-testid={`tip-${p}`}>
                          {p}% · {money(ctx, cents)}
                        </button>
                      </form>
                    ))}
                  </div>
                  <form action={`/api/rides/${r.id}/tip`} method="post" className="zr-inline">
                    <input type="hidden" name="_idem" value={idempotencyToken()} />
                    <input type="hidden" name="ride" value={r.id} />
                    <input name="amount" inputMode="decimal" placeholder="Custom amount" aria-label="Custom tip amount" maxLength={12} required />
                    <button type="submit" className="zr-secondary">Add tip</button>
                  </form>
                </>
              ) : (
                <p className="zr-muted">{r.tip_cents ? `You tipped ${money(ctx, r.tip_cents)}.` : "No tip."} Tipping closes {FEEDBACK_DAYS} days after a ride.</p>
              )}
            </div>
          </section>
        ) : null}
      </main>
    </>
  );
}
