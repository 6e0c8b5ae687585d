import Link from "next/link";
import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { Photo } from "@/dining/components/Photo";
import { Alert, Shell, signedIn } from "@/dining/components/Shell";
import { diningContext } from "@/dining/lib/context";
import { one, type SearchParams } from "@/dining/lib/params";
import { availableTimes, cancelFee, isUpcoming, MAX_PARTY, OCCASIONS, reservation, restaurantById, stateText } from "@/dining/lib/tabletime";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Reservation" };

const NOTICES: Record<string, string> = {
  booked: "Your table is booked. A confirmation is in your inbox.",
  requested: "Your request is on its way to the restaurant. It will confirm by email or call you; no table is held until then.",
  modified: "Your reservation was updated.",
  cancelled: "Your reservation is cancelled.",
  reviewed: "Thanks for your review!",
};

export default async function ReservationPage({ params, searchParams }: { params: Promise<{ conf: string }>; searchParams: SearchParams }) {
  const { conf } = await params;
  const sp = await searchParams;
  const user = await signedIn(`/reservations/${conf}`);
  const ctx = diningContext();
  const v = reservation(user.id, conf);
  if (!v) notFound();
  const r = restaurantById(v.restaurant_id);
  const upcoming = isUpcoming(ctx, v);
  const companions: string[] = JSON.parse(v.companions || "[]");
  const fee = upcoming ? cancelFee(ctx, v) : 0;
  const requested = v.status === "requested";
  const times = upcoming && !requested ? availableTimes(ctx, r, v.day, v.party_size, "", v.id) : [];
  const state = stateText(v, upcoming);
  return (
    <Shell user={user} current="/reservations">
      <Alert error={errorMessage(sp)} notice={NOTICES[one(sp.done)] ?? ""} />
      <div className="tt-detail" data-testid="detail" data-confirmation={v.confirmation} data-status={v.status}>
        <section className="tt-box">
          <div className="tt-book-head">
            <Photo palette={v.palette} motif={v.motif} label={v.name} height={90} />
            <div>
              <span className={`tt-badge tt-badge-${v.status}`}>{state}</span>
              <h1>
                <Link href={`/r/${v.slug}`}>{v.name}</Link>
              </h1>
              <div className="tt-muted">{v.address}</div>
            </div>
          </div>
          <dl className="tt-facts">
            <dt>Date</dt>
            <dd data-testid="when">{ctx.longDay(v.day)}</dd>
            <dt>Time</dt>
            <dd>{ctx.time(v.time)}</dd>
            <dt>Party size</dt>
            <dd data-testid="party">{v.party_size} {v.party_size === 1 ? "person" : "people"}</dd>
            {companions.length ? (
              <>
                <dt>Dining with</dt>
                <dd data-testid="companions">{companions.join(", ")}</dd>
              </>
            ) : null}
            {v.occasion && OCCASIONS[v.occasion] ? (
              <>
                <dt>Occasion</dt>
                <dd data-testid="occasion" data-occasion={v.occasion}>
                  {OCCASIONS[v.occasion]}
                </dd>
              </>
            ) : null}
            <dt>Special request</dt>
            <dd data-testid="request">{v.special_request ?? "None"}</dd>
            <dt>Confirmation</dt>
            <dd data-testid="confirmation">{v.confirmation}</dd>
            <dt>Booked</dt>
            <dd>{ctx.day(v.booked_at)} at {ctx.time(v.booked_at.slice(11, 16))}</dd>
            {v.cancel_fee_cents ? (
              <>
                <dt>Late-cancellation fee</dt>
                <dd data-testid="fee">{ctx.money(v.cancel_fee_cents, v.currency)}</dd>
              </>
            ) : null}
          </dl>
        </section>
        {upcoming && requested ? (
          <section className="tt-box" data-testid="request-box">
            <h2>Large-party request</h2>
            <p className="tt-muted">
              {v.name} seats parties of more than {MAX_PARTY} on request. The restaurant answers by email or phone; to change the date, time or party, withdraw this request and send a new one.
            </p>
            <CancelForm confirmation={v.confirmation} tick={`Yes, withdraw my request for ${v.party_size}`} button="Withdraw request" />
          </section>
        ) : null}
        {upcoming && !requested ? (
          <section className="tt-box">
            <h2>Modify reservation</h2>
            <form action="/api/reservations/modify" method="post" className="tt-form tt-inline" data-testid="modify-form">
              <input type="hidden" name="_idem" value={idempotencyToken()} />
              <input type="hidden" name="confirmation" value={v.confirmation} />
              <label>
                Date
                <input type="date" name="date" defaultValue={v.day} min={ctx.today} required />
              </label>
              <label>
                Time
                <input type="time" name="time" defaultValue={v.time} step={900} required />
              </label>
              <label>
                Party
                <select name="party" defaultValue={String(v.party_size)}>
                  {[1, 2, 3, 4, 5, 6, 7, 8].map((n) => (
                    <option key={n} value={n}>{n}</option>
                  ))}
                </select>
              </label>
              <button type="submit" className="tt-primary">Update</button>
            </form>
            <p className="tt-muted">Open times that day for {v.party_size}: {times.slice(0, 12).map((t) => ctx.time(t)).join(" · ") || "none"}</p>
            <h2>Cancel reservation</h2>
            <CancelForm confirmation={v.confirmation} tick={`Yes, cancel my table for ${v.party_size}`} button="Cancel reservation">
              {fee ? <p className="tt-policy" data-testid="fee-warning">Cancelling now costs {ctx.money(fee, v.currency)} (within 24 hours of the reservation).</p> : <p className="tt-muted">Cancelling is free.</p>}
            </CancelForm>
          </section>
        ) : null}
        {v.status === "completed" ? (
          <section className="tt-box">
            <h2>{v.reviewed ? "You reviewed this visit" : `How was ${v.name}?`}</h2>
            {v.reviewed ? (
              <p className="tt-muted">Thanks — your review is on the restaurant&apos;s page.</p>
            ) : (
              <form action="/api/reviews" method="post" className="tt-form" data-testid="review-form">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="confirmation" value={v.confirmation} />
                <fieldset className="tt-rating">
                  <legend>Overall rating</legend>
                  {[5, 4, 3, 2, 1].map((n) => (
                    <label key={n}>
                      <input type="radio" name="rating" value={n} required /> {n} ★
                    </label>
                  ))}
                </fieldset>
                <label>
                  Your review
                  <textarea name="body" rows={4} maxLength={4000} required placeholder="What did you order? How was the service?" />
                </label>
                <button type="submit" className="tt-primary">Post review</button>
              </form>
            )}
          </section>
        ) : null}
      </div>
    </Shell>
  );
}

/** The cancel (or withdraw) form of a reservation: a box to tick, then the button. */
function CancelForm({ confirmation, tick, button, children }: { confirmation: string; tick: string; button: string; children?: ReactNode }) {
  return (
    <form action="/api/reservations/cancel" method="post" className="tt-form" data-testid="cancel-form">
      <input type="hidden" name="_idem" value={idempotencyToken()} />
      <input type="hidden" name="confirmation" value={confirmation} />
      <label className="tt-check">
        <input type="checkbox" name="confirm" value="yes" required /> {tick}
      </label>
      {children}
      <button type="submit" className="tt-danger">
        {button}
      </button>
    </form>
  );
}
