import Link from "next/link";
import { notFound } from "next/navigation";
import { Header, Stars } from "@/stays/components/Brand";
import { Breakdown } from "@/stays/components/Breakdown";
import { coverKind, Photo } from "@/stays/components/Photo";
import { requireUser } from "@/stays/lib/auth";
import { stayContext } from "@/stays/lib/context";
import { one, type SearchParams } from "@/stays/lib/params";
import { cancelDeadline, quote } from "@/stays/lib/rates";
import { cardsOf, checkStay, cityById, freeUnits, plansOf, priceInputs, propertyBySlug, roomById, StayError } from "@/stays/lib/stays";
import { errorMessage } from "@persona/platform/http";
import { pageToken } from "@persona/platform/once";

export const metadata = { title: "Review and pay" };

export default async function BookPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const sp = await searchParams;
  const error = errorMessage(sp);
  const ctx = stayContext();
  const p = propertyBySlug(one(sp.p));
  if (!p) notFound();
  const city = cityById(p.city_id)!;
  const cur = ctx.cityCurrency(city.name);
  const room = /^\d{1,9}$/.test(one(sp.room)) ? roomById(Number(one(sp.room))) : undefined;
  const plan = one(sp.plan);
  const back = `/p/${p.slug}?${new URLSearchParams({ checkin: one(sp.checkin), checkout: one(sp.checkout), guests: one(sp.guests) })}`;
  let problem = "";
  let q;
  try {
    q = checkStay(one(sp.checkin), one(sp.checkout), one(sp.guests), ctx.today);
    if (!room || room.property_id !== p.id) throw new StayError("Choose a room.");
    if (!plansOf(p).includes(plan)) throw new StayError("Choose a rate.");
    if (room.sleeps < q.guests) throw new StayError(`${room.name} sleeps up to ${room.sleeps}.`);
    if (freeUnits(room, q.checkIn, q.checkOut) < 1) throw new StayError("Sorry, that room is no longer available for your dates.");
  } catch (e) {
    if (!(e instanceof StayError)) throw e;
    problem = e.message;
  }
  if (problem || !q || !room) {
    return (
      <>
        <Header name={user.full_name} />
        <main className="bs-page bs-narrow">
          <p className="bs-alert" role="alert" data-testid="book-error">
            {problem}
          </p>
          <Link href={back}>← Back to {p.name}</Link>
        </main>
      </>
    );
  }
  const price = quote(priceInputs(p, room, city), q.checkIn, q.checkOut, plan);
  const until = cancelDeadline(q.checkIn, city.zone, ctx.timezone, plan);
  const cards = cardsOf(user.id);
  const fees: [string, number][] = [
    ["City / tourism fee", price.city_fee_cents],
    ["Cleaning fee", price.cleaning_fee_cents],
    ["Bramblestay service fee", price.service_fee_cents],
  ];
  return (
    <>
      <Header name={user.full_name} />
      <main className="bs-page bs-checkout">
        <section>
          <h1>Review and pay</h1>
          {error ? (
            <p className="bs-alert" role="alert" data-testid="book-error">
              {error}
            </p>
          ) : null}
          <form action="/api/bookings" method="post" className="bs-form" data-testid="book-form">
            <input type="hidden" name="_idem" value={pageToken("stays/book", sp)} />
            {[["p", p.slug], ["room", String(room.id)], ["plan", plan], ["checkin", q.checkIn], ["checkout", q.checkOut], ["guests", String(q.guests)]].map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
            <h2>Your stay</h2>
            <p>
              <strong>{ctx.date(q.checkIn, "long")}</strong> (check-in from 3:00 PM) to <strong>{ctx.date(q.checkOut, "long")}</strong> (check-out by 11:00 AM) · {q.guests} guest
              {q.guests === 1 ? "" : "s"}
            </p>
            <h2>Cancellation policy</h2>
            <p className={until ? "bs-good" : "bs-warn"} data-testid="policy">
              {until
                ? `Free cancellation until ${ctx.dateTime(until)} (your time). After that, the booking is not refundable.`
                : "Non-refundable: if you cancel, change or don't show up, you won't get a refund."}
            </p>
            <h2>Pay with</h2>
            <fieldset className="bs-cards-on-file">
              <legend className="sr-only">Card</legend>
              {cards.map((c, i) => (
                <label key={c.id} className="bs-check bs-card-choice">
                  <input type="radio" name="card" value={c.id} defaultChecked={i === 0} required /> {c.label} <span className="bs-muted">expires {c.expiry}</span>
                </label>
              ))}
            </fieldset>
            <label>
              <span>
                Special requests <span className="bs-muted">(optional)</span>
              </span>
              <textarea name="request" rows={3} maxLength={500} placeholder="Late arrival, high floor, cot…" />
            </label>
            <p className="bs-small bs-muted">You&apos;ll be charged {ctx.charged(price.total_cents, cur)} now. The charge appears on your card statement as BRAMBLESTAY.</p>
            <button type="submit" className="bs-primary bs-big" data-testid="confirm-pay">
              Confirm and pay {ctx.money(price.total_cents, cur)}
            </button>
          </form>
        </section>
        <aside className="bs-summary">
          <Photo seed={p.art} kind={coverKind(p.kind, p.art)} label={p.name} className="bs-summary-img" />
          <h3>
            {p.name} <Stars n={p.stars} />
          </h3>
          <p className="bs-muted">
            {room.name} · {p.neighbourhood}, {city.name}
          </p>
          <Breakdown b={{ nights: price.nights, nightCount: price.nights.length, nightly_cents: price.nightly_cents, subtotal_cents: price.subtotal_cents, taxes_cents: price.taxes_cents, fees, total_cents: price.total_cents }} ctx={ctx} currency={cur} />
        </aside>
      </main>
    </>
  );
}
