import Link from "next/link";
import { notFound } from "next/navigation";
import { FlightLine } from "@/airline/components/Flight";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import {
  AirError, airport, bookingByPnr, cards, checkinWindow, journeysOf, passengersOf, seatsOf, segmentsOf, tripStatus,
} from "@/airline/lib/air";
import { fareNames } from "@/airline/lib/actions";
import { requireUser } from "@/airline/lib/auth";
import { airContext, money, travelers } from "@/airline/lib/context";
import { db } from "@/airline/lib/db";
import { one, type SP } from "@/airline/lib/page";
import { awareIso, clock, clockZone, day } from "@/airline/lib/time";

export const metadata = { title: "Trip details" };

export default async function TripPage({ params, searchParams }: { params: Promise<{ pnr: string }>; searchParams: SP }) {
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
  const segs = segmentsOf(b.id);
  const pax = passengersOf(b.id);
  const js = journeysOf(b, segs);
  const fam = js[0].family;
  const mixed = js.some((j) => j.family.code !== fam.code);
  const status = tripStatus(ctx, b, segs);
  const card = cards(user.id).find((c) => c.id === b.card_id);
  const credits = db().prepare("SELECT amount_cents, reason, expires_on FROM travel_credits WHERE booking_id = ? ORDER BY id").all(b.id) as { amount_cents: number; reason: string; expires_on: string }[];
  const payments = db().prepare("SELECT kind, amount_cents, description, at FROM payments WHERE booking_id = ? ORDER BY id").all(b.id) as { kind: string; amount_cents: number; description: string; at: string }[];
  const directions = ["outbound", "return"].filter((d) => segs.some((s) => s.direction === d));
  const changed = one(sp.changed);
  const bags = fam.checked_bags ? `${fam.checked_bags} checked bag${fam.checked_bags > 1 ? "s" : ""} up to ${fam.bag_kg} kg included` : `Checked bags from ${money(ctx, 3500)} each`;
  return (
    <div className="ma-page">
      <p><Link href="/">← My Trips</Link></p>
      {one(sp.booked) ? <p className="ma-success" role="status" data-testid="booked">Your trip is booked. Confirmation code {b.pnr}. We've emailed your receipt to {user.email}.</p> : null}
      {changed ? <p className="ma-success" role="status" data-testid="changed">Your flight is changed. {Number(changed) > 0 ? `Fare difference charged: ${money(ctx, Number(changed))}.` : Number(changed) < 0 ? `Fare difference returned: ${money(ctx, -Number(changed))}.` : "No fare difference."}</p> : null}
      {one(sp.cancelled) ? <p className="ma-success" role="status" data-testid="cancelled">Your trip is cancelled. {[
        one(sp.cancelled) === "refund" || b.refund_cents > 0 ? `${money(ctx, b.refund_cents)} will be refunded to your card.` : "",
        one(sp.cancelled) === "credit" || b.credit_cents > 0 ? `${money(ctx, b.credit_cents)} is saved as travel credit.` : "",
      ].filter(Boolean).join(" ") || "Basic Economy fares keep no value when cancelled."}</p> : null}
      {error ? <p className="ma-alert" role="alert" data-testid="error">{error}</p> : null}
      {segs.filter((s) => s.was_dep_local && s.status !== "flown").map((s) => (
        <p key={s.id} className="ma-alert" role="status" data-testid="schedule-change">
          <b>Schedule change.</b> {s.was_flight_number} on {day(s.was_dep_local!, ctx.locale)} at {clock(s.was_dep_local!, ctx.locale)} was
          cancelled. We rebooked you on {s.flight_number}, {day(s.dep_local, ctx.locale)} at {clock(s.dep_local, ctx.locale)}, at no
          cost. Please update your plans (hotel, rides, calendar).
        </p>
      ))}
      <div className="ma-trip-head">
        <div>
          <h1>Trip to {b.destination}</h1>
          <p className="ma-muted">Booked {day(b.booked_at, ctx.locale)}</p>
        </div>
        <div className="ma-pnr-box">
          <span>Confirmation code</span>
          <b data-testid="pnr">{b.pnr}</b>
          <span className={`ma-status ma-status-${status}`} data-testid="status">{status[0].toUpperCase() + status.slice(1)}</span>
        </div>
      </div>

      <section className="ma-card">
        <h2>Travellers</h2>
        <table className="ma-table">
          <thead><tr><th>Name</th><th>E-ticket</th><th>MileagePass</th></tr></thead>
          <tbody>
            {pax.map((p) => (
              <tr key={p.id} data-testid="passenger"><td>{p.full_name}</td><td data-testid="ticket">{p.ticket_number}</td><td>{p.loyalty_number ?? "—"}</td></tr>
            ))}
          </tbody>
        </table>
      </section>

      {directions.map((dir) => {
        const journey = segs.filter((s) => s.direction === dir);
        const dirFam = js.find((j) => j.direction === dir)!.family;
        const w = checkinWindow(ctx, journey[0]);
        const checked = journey.every((s) => seatsOf(s.id).every((t) => t.sequence != null));
        const opensTz = airport(journey[0].origin)!.timezone;
        const opens = awareIso(w.opensMs, opensTz);
        return (
          <section className="ma-card" key={dir} data-testid={`journey-${dir}`}>
            <div className="ma-card-head">
              <h2>{dir === "outbound" ? "Departing flight" : "Return flight"}</h2>
              {status === "upcoming" ? (
                <div className="ma-actions">
                  {checked ? null : w.open ? (
                    <form action="/api/checkin" method="post">
                      <input type="hidden" name="pnr" value={b.pnr} />
                      <input type="hidden" name="segment" value={journey[0].id} />
                      <input type="hidden" name="_idem" value={idempotencyToken()} />
                      <button className="ma-primary" type="submit" data-testid={`checkin-${dir}`}>Check in</button>
                    </form>
                  ) : (
                    <span className="ma-muted" data-testid={`checkin-closed-${dir}`}>{w.opensMs > ctx.nowMs ? `Check-in opens ${day(opens, ctx.locale)}, ${clockZone(opens, opensTz, ctx.locale)}` : w.reason}</span>
                  )}
                  {dirFam.changeable ? <Link className="ma-secondary" href={`/trips/${b.pnr}/change?direction=${dir}`}>Change flight</Link> : null}
                </div>
              ) : null}
            </div>
            {journey.map((s) => {
              const seats = seatsOf(s.id);
              const done = seats.every((t) => t.sequence != null);
              return (
                <FlightLine key={s.id} seg={s} from={airport(s.origin)!} to={airport(s.destination)!} locale={ctx.locale}>
                  <ul className="ma-seats">
                    {seats.map((t) => (
                      <li key={t.id}>
                        {pax.find((p) => p.id === t.passenger_id)?.full_name}: seat <b data-testid="seat">{t.seat}</b>
                        {status === "upcoming" && !done ? <Link href={`/trips/${b.pnr}/seats?segment=${s.id}&passenger=${t.passenger_id}`} data-testid="change-seat"> Change seat</Link> : null}
                      </li>
                    ))}
                  </ul>
                  <span className="ma-muted">Boarding group {s.boarding_group}{s.gate ? ` · Gate ${s.gate}` : ""}</span>
                  {done && status !== "cancelled" ? <Link href={`/trips/${b.pnr}/boarding-pass?segment=${s.id}`} className="ma-secondary" data-testid="boarding-pass-link">Boarding pass</Link> : null}
                </FlightLine>
              );
            })}
          </section>
        );
      })}

      <div className="ma-two">
        <section className="ma-card">
          <h2>Fare and bags</h2>
          <p><b data-testid="fare-family">{fareNames(js)}</b> · {fam.cabin === "business" ? "Business cabin" : "Economy cabin"}</p>
          {(mixed ? js : js.slice(0, 1)).map((j) => {
            const f = j.family;
            const bagText = f.checked_bags ? `${f.checked_bags} checked bag${f.checked_bags > 1 ? "s" : ""} up to ${f.bag_kg} kg included` : `Checked bags from ${money(ctx, 3500)} each`;
            return (
              <ul className="ma-list" key={j.direction} data-testid={mixed ? `rules-${j.direction}` : undefined}>
                {mixed ? <li><b>{j.direction === "outbound" ? "Departing" : "Return"}: {f.name}</b>{j.fare != null ? ` · ${money(ctx, j.fare)} per ${travelers(ctx, null)}` : ""}</li> : null}
                <li>{f.carry_on ? "Carry-on bag and personal item included" : "Personal item only (carry-on for a fee)"}</li>
                <li data-testid={mixed ? undefined : "bags"}>{mixed ? bagText : bags}</li>
                <li>{f.changeable ? "Changes: no change fee, pay any fare difference" : "No changes"}</li>
                <li>{f.cancel === "refund" ? "Refundable to your card" : f.cancel === "credit" ? "Cancel for travel credit" : "No credit if cancelled"}</li>
                <li>Earns {f.miles_percent} % of flown miles</li>
              </ul>
            );
          })}
        </section>
        <section className="ma-card">
          <h2>Price</h2>
          <table className="ma-table ma-price" data-testid="price">
            <tbody>
              <tr><td>Base fare</td><td>{money(ctx, b.base_fare_cents)}</td></tr>
              <tr><td>Taxes</td><td>{money(ctx, b.taxes_cents)}</td></tr>
              <tr><td>Carrier-imposed fees</td><td>{money(ctx, b.carrier_fees_cents)}</td></tr>
              <tr className="ma-sub"><td>Per {travelers(ctx, null)}</td><td data-testid="fare-per-passenger">{money(ctx, b.fare_per_passenger_cents)}</td></tr>
              <tr><td>× {travelers(ctx, b.passengers)}</td><td>{money(ctx, b.fare_per_passenger_cents * b.passengers)}</td></tr>
              {payments.filter((p) => p.description.startsWith("Flight change")).map((p, i) => (
                <tr key={i}><td>Flight change ({p.kind})</td><td>{money(ctx, p.kind === "refund" ? -p.amount_cents : p.amount_cents)}</td></tr>
              ))}
              <tr className="ma-total"><td>Total paid</td><td data-testid="total">{money(ctx, b.total_cents)}</td></tr>
            </tbody>
          </table>
          <p className="ma-muted">Paid with {card?.label ?? "a card"}</p>
          {credits.map((c, i) => c.amount_cents < 0
            ? <p key={i} className="ma-note" data-testid="credit-used">Travel credit applied {money(ctx, -c.amount_cents)} · {c.reason}</p>
            : <p key={i} className="ma-note" data-testid="credit">Travel credit {money(ctx, c.amount_cents)} · {c.reason} · valid until {day(c.expires_on, ctx.locale)}</p>)}
        </section>
      </div>
      {status === "upcoming" ? (
        <p><Link href={`/trips/${b.pnr}/cancel`} className="ma-danger-link">Cancel this trip</Link></p>
      ) : null}
    </div>
  );
}
