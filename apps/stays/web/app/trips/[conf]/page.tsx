import Link from "next/link";
import { notFound } from "next/navigation";
import { Header } from "@/stays/components/Brand";
import { Breakdown } from "@/stays/components/Breakdown";
import { coverKind, Photo } from "@/stays/components/Photo";
import { requireUser } from "@/stays/lib/auth";
import { stayContext } from "@/stays/lib/context";
import { db } from "@/stays/lib/db";
import { one, type SearchParams } from "@/stays/lib/params";
import { cancelTerms, changesOf, changeTerms, messagesOf, reviewOfBooking, threadOf, trip, tripState, type Card } from "@/stays/lib/stays";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export default async function TripPage({ params, searchParams }: { params: Promise<{ conf: string }>; searchParams: SearchParams }) {
  const user = await requireUser();
  const { conf } = await params;
  const sp = await searchParams;
  const t = trip(user.id, conf);
  if (!t) notFound();
  const ctx = stayContext();
  const state = tripState(t, ctx.today);
  const card = db().prepare("SELECT * FROM cards WHERE id = ?").get(t.card_id) as Card;
  const th = threadOf(t.id);
  const msgs = th ? messagesOf(th.id, ctx.now) : [];
  const rv = reviewOfBooking(t.id);
  const terms = cancelTerms(t, ctx.now);
  // What cancelling costs once the free window has closed (said while it is still open).
  const late = t.cancel_until ? cancelTerms(t, "9999-12-31T23:59:59") : null;
  const cur = ctx.cityCurrency(t.city);
  const canChange = changeTerms(t, ctx.now, ctx.today).allowed;
  const changes = changesOf(t.id);
  const contact = t.kind === "rental" ? `your host, ${t.host_name}` : "the hotel";
  const error = errorMessage(sp);
  return (
    <>
      <Header name={user.full_name} active="trips" />
      <main className="bs-page bs-trip">
        <p className="bs-crumbs">
          <Link href="/trips">← All trips</Link>
        </p>
        {one(sp.booked) ? (
          <p className="bs-success" data-testid="booked">
            You&apos;re booked! Confirmation {t.confirmation}. We&apos;ve charged {ctx.charged(t.total_cents, cur)} to {card.label}.
          </p>
        ) : null}
        {one(sp.cancelled) ? (
          <p className="bs-success" data-testid="cancelled-note">
            Your booking is cancelled.{" "}
            {t.refund_cents > 0 ? `We've refunded ${ctx.charged(t.refund_cents, cur)} to ${card.label}.` : t.cancel_fee_cents > 0 ? `A cancellation fee of ${ctx.charged(t.cancel_fee_cents, cur)} was charged to ${card.label}.` : t.payment === "pay_now" ? "This booking was not refundable, so no refund was issued." : "Nothing was charged."}
          </p>
        ) : null}
        {one(sp.changed) && changes.length ? (
          <p className="bs-success" data-testid="changed-note">
            Your dates are changed: {ctx.date(t.check_in, "long")} – {ctx.date(t.check_out, "long")}.{" "}
            {(() => {
              const d = changes[changes.length - 1]!.difference_cents;
              if (t.payment !== "pay_now") return `New total ${ctx.money(t.total_cents, cur)}, charged at check-out.`;
              return d > 0 ? `We've charged the difference of ${ctx.charged(d, cur)} to ${card.label}.` : d < 0 ? `We've refunded ${ctx.charged(-d, cur)} to ${card.label}.` : "The price is unchanged.";
            })()}
          </p>
        ) : null}
        {error ? (
          <p className="bs-alert" role="alert" data-testid="trip-error">
            {error}
          </p>
        ) : null}
        <div className="bs-trip-head">
          <Photo seed={t.art} kind={coverKind(t.kind, t.art)} label={t.property_name} className="bs-trip-hero" />
          <div>
            <span className={`bs-status bs-status-${state}`} data-testid="trip-status">
              {state === "upcoming" ? "Upcoming" : state === "current" ? "Staying now" : state === "past" ? "Completed" : "Cancelled"}
            </span>
            <h1 data-testid="trip-property">
              <Link href={`/p/${t.slug}`}>{t.property_name}</Link>
            </h1>
            <p className="bs-muted">{t.address}</p>
            <dl className="bs-facts">
              <div>
                <dt>Confirmation</dt>
                <dd data-testid="confirmation">{t.confirmation}</dd>
              </div>
              <div>
                <dt>Check-in</dt>
                <dd data-testid="check-in">{ctx.date(t.check_in, "long")}, from 3:00 PM</dd>
              </div>
              <div>
                <dt>Check-out</dt>
                <dd data-testid="check-out">{ctx.date(t.check_out, "long")}, by 11:00 AM</dd>
              </div>
              <div>
                <dt>Room</dt>
                <dd>
                  {t.room_name} · {t.guests} guest{t.guests === 1 ? "" : "s"}
                </dd>
              </div>
              <div>
                <dt>{t.kind === "rental" ? "Host" : "Hotel"}</dt>
                <dd>{t.kind === "rental" ? t.host_name : t.chain ?? t.property_name}</dd>
              </div>
              <div>
                <dt>Payment</dt>
                <dd>
                  {t.payment === "pay_now" ? `Paid ${ctx.dateTime(t.paid_at ?? t.booked_at)} with ${card.label}` : t.paid_at ? `Paid at the property at check-out, ${card.label}` : `Pay at the property at check-out (${card.label} on file)`}
                </dd>
              </div>
              {t.chain && user.loyalty_number ? (
                <div>
                  <dt>{t.chain.replace(/ Hotels?$/, "")} Rewards</dt>
                  <dd>{user.loyalty_number}</dd>
                </div>
              ) : null}
              {t.folio ? (
                <div>
                  <dt>Folio</dt>
                  <dd>{t.folio}</dd>
                </div>
              ) : null}
              {t.special_request ? (
                <div>
                  <dt>Your request</dt>
                  <dd>{t.special_request}</dd>
                </div>
              ) : null}
            </dl>
          </div>
        </div>
        <div className="bs-trip-cols">
          <section>
            <h2>Price details</h2>
            <Breakdown b={{ nights: null, nightCount: t.nights, nightly_cents: t.nightly_cents, subtotal_cents: t.subtotal_cents, taxes_cents: t.taxes_cents, fees: [["Fees", t.fees_cents]], total_cents: t.total_cents }} ctx={ctx} currency={cur} onCard={t.payment === "pay_now"} />
            {t.status === "cancelled" ? (
              <p data-testid="refund">
                Cancelled {ctx.dateTime(t.cancelled_at!)}. Refund: {ctx.money(t.refund_cents, cur)}
                {t.cancel_fee_cents ? ` · cancellation fee ${ctx.money(t.cancel_fee_cents, cur)}` : ""}
              </p>
            ) : null}
            {state === "upcoming" || t.status === "cancelled" ? (
              <>
                <h2>Cancellation</h2>
                <p data-testid="cancel-policy" className={terms.free ? "bs-good" : "bs-muted"}>
                  {t.cancel_until ? `Free cancellation until ${ctx.dateTime(t.cancel_until)}.` : "Non-refundable rate."}
                  {t.status === "confirmed" && t.cancel_until && !terms.free ? " The free-cancellation window has closed." : ""}
                </p>
                {state === "upcoming" && t.status === "confirmed" && terms.free && late ? (
                  <p data-testid="late-cancel" className="bs-muted">
                    {t.payment === "pay_now" ? (
                      "After that, the booking is not refundable."
                    ) : (
                      <>
                        After that, cancelling costs the first night with tax: <span data-testid="late-cancel-fee">{ctx.money(late.fee_cents, cur)}</span>.
                      </>
                    )}
                  </p>
                ) : null}
                {state === "upcoming" ? (
                  <p className="bs-trip-actions">
                    {canChange ? (
                      <Link href={`/trips/${t.confirmation}/change`} className="bs-secondary" data-testid="change-link">
                        Change dates
                      </Link>
                    ) : (
                      <span className="bs-small bs-muted" data-testid="no-change">
                        {t.cancel_until ? "Dates can no longer be changed online." : "Non-refundable: dates can't be changed."}
                      </span>
                    )}
                    <Link href={`/trips/${t.confirmation}/cancel`} className="bs-danger-link" data-testid="cancel-link">
                      Cancel booking
                    </Link>
                  </p>
                ) : null}
              </>
            ) : null}
          </section>
          <section id="messages">
            <h2>Messages</h2>
            <p className="bs-muted">Questions about your stay? Message {contact}.</p>
            <ul className="bs-thread" data-testid="thread">
              {msgs.map((m) => (
                <li key={m.id} className={m.sender === "guest" ? "bs-msg bs-msg-me" : "bs-msg"} data-testid="message" data-sender={m.sender}>
                  <p>{m.body}</p>
                  <span className="bs-small bs-muted">{ctx.dateTime(m.sent_at)}</span>
                </li>
              ))}
            </ul>
            {t.status !== "cancelled" ? (
              <form action="/api/messages" method="post" className="bs-form bs-compose" data-testid="message-form">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="confirmation" value={t.confirmation} />
                <textarea name="body" rows={3} maxLength={2000} required placeholder={`Write to ${t.kind === "rental" ? t.host_name : "the hotel"}…`} />
                <button type="submit" className="bs-secondary">
                  Send
                </button>
              </form>
            ) : null}
          </section>
        </div>
        {state === "past" ? (
          <section id="review" className="bs-review-box">
            <h2>Your review</h2>
            {rv ? (
              <div data-testid="my-review">
                <span className="bs-review-score">{"★".repeat(rv.rating)}{"☆".repeat(5 - rv.rating)}</span>
                <p>{rv.body}</p>
                <span className="bs-small bs-muted">Posted {ctx.date(rv.created_at)}</span>
              </div>
            ) : (
              <form action="/api/reviews" method="post" className="bs-form" data-testid="review-form">
                <input type="hidden" name="_idem" value={idempotencyToken()} />
                <input type="hidden" name="confirmation" value={t.confirmation} />
                <fieldset className="bs-rate">
                  <legend>How was your stay at {t.property_name}?</legend>
                  {[1, 2, 3, 4, 5].map((n) => (
                    <label key={n}>
                      <input type="radio" name="rating" value={n} required /> {n}★
                    </label>
                  ))}
                </fieldset>
                <textarea name="body" rows={4} maxLength={2000} required placeholder="What did you like? What could be better?" />
                <button type="submit" className="bs-primary">
                  Post review
                </button>
              </form>
            )}
          </section>
        ) : null}
        {changes.length ? (
          <section data-testid="change-history">
            <h2>Changes</h2>
            <ul className="bs-changes">
              {changes.map((c, i) => (
                <li key={i} data-testid="change-row">
                  {ctx.dateTime(c.changed_at)}: {ctx.date(c.old_check_in)} – {ctx.date(c.old_check_out)} → {ctx.date(c.new_check_in)} – {ctx.date(c.new_check_out)}
                  {c.difference_cents ? ` (${c.difference_cents > 0 ? "+" : "−"}${ctx.money(Math.abs(c.difference_cents), cur)})` : ""}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <p className="bs-small bs-muted">
          Booked on Bramblestay {ctx.dateTime(t.booked_at)}.
        </p>
      </main>
    </>
  );
}
