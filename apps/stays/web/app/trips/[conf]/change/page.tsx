import Link from "next/link";
import { notFound } from "next/navigation";
import { Header } from "@/stays/components/Brand";
import { Breakdown } from "@/stays/components/Breakdown";
import { requireUser } from "@/stays/lib/auth";
import { stayContext } from "@/stays/lib/context";
import { db } from "@/stays/lib/db";
import { one, type SearchParams } from "@/stays/lib/params";
import { plusDays } from "@/stays/lib/rates";
import { changeQuote, changeTerms, checkStay, freeUnits, roomById, StayError, trip, type Card } from "@/stays/lib/stays";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";

export const metadata = { title: "Change dates" };

/** Change dates: pick new check-in/check-out (GET), see the new price and the difference, then confirm (POST
 * /api/change). Refused up front for a non-refundable rate or a closed free-change window. */
export default async function ChangePage({ params, searchParams }: { params: Promise<{ conf: string }>; searchParams: SearchParams }) {
  const user = await requireUser();
  const { conf } = await params;
  const sp = await searchParams;
  const t = trip(user.id, conf);
  if (!t) notFound();
  const ctx = stayContext();
  const card = db().prepare("SELECT * FROM cards WHERE id = ?").get(t.card_id) as Card;
  const terms = changeTerms(t, ctx.now, ctx.today);
  const cur = ctx.cityCurrency(t.city);
  const checkin = one(sp.checkin), checkout = one(sp.checkout);
  const error = errorMessage(sp);
  let problem = "";
  let preview: ReturnType<typeof changeQuote> | null = null;
  if (terms.allowed && (checkin || checkout) && !error) {
    try {
      const q = checkStay(checkin, checkout, String(t.guests), ctx.today);
      if (q.checkIn === t.check_in && q.checkOut === t.check_out) throw new StayError("Those are already the dates of this booking.");
      if (freeUnits(roomById(t.room_id)!, q.checkIn, q.checkOut, t.id) < 1) throw new StayError(`Sorry, the ${t.room_name} isn't available for all of those nights.`);
      preview = changeQuote(t, q.checkIn, q.checkOut);
    } catch (e) {
      if (!(e instanceof StayError)) throw e;
      problem = e.message;
    }
  }
  const diff = preview ? preview.total_cents - t.total_cents : 0;
  const prepaid = t.payment === "pay_now";
  const moneyNote = !preview ? "" : diff > 0 ? (prepaid ? `We'll charge the difference of ${ctx.charged(diff, cur)} to ${card.label}.` : `Your total rises by ${ctx.money(diff, cur)}, charged at check-out.`)
    : diff < 0 ? (prepaid ? `We'll refund the difference of ${ctx.charged(-diff, cur)} to ${card.label}.` : `Your total falls by ${ctx.money(-diff, cur)}, charged at check-out.`)
    : "The price stays the same.";
  return (
    <>
      <Header name={user.full_name} active="trips" />
      <main className="bs-page bs-narrow" data-testid="change-page">
        <p className="bs-crumbs">
          <Link href={`/trips/${t.confirmation}`}>← Back to your booking</Link>
        </p>
        <h1>Change dates at {t.property_name}</h1>
        <p data-testid="current-dates">
          Now: {ctx.date(t.check_in, "long")} – {ctx.date(t.check_out, "long")} · {t.nights} night{t.nights === 1 ? "" : "s"} · {t.room_name} · {ctx.money(t.total_cents, cur)}
        </p>
        {!terms.allowed ? (
          <p className="bs-alert" role="alert" data-testid="change-refused">
            {terms.reason}
          </p>
        ) : (
          <>
            <p className="bs-muted">
              Free changes until {ctx.dateTime(t.cancel_until!)}. Same room, guests and rate; the new dates are priced at today&apos;s rates.
            </p>
            {error || problem ? (
              <p className="bs-alert" role="alert" data-testid="change-error">
                {error || problem}
              </p>
            ) : null}
            <form method="get" className="bs-form bs-change-dates" data-testid="change-form">
              <div className="bs-row">
                <label>
                  New check-in
                  <input type="date" name="checkin" defaultValue={checkin || t.check_in} min={ctx.today} max={plusDays(ctx.today, 500)} required />
                </label>
                <label>
                  New check-out
                  <input type="date" name="checkout" defaultValue={checkout || t.check_out} min={plusDays(ctx.today, 1)} required />
                </label>
              </div>
              <button type="submit" className="bs-secondary" data-testid="check-price">
                Check price
              </button>
            </form>
            {preview ? (
              <section className="bs-change-preview" data-testid="change-preview">
                <h2>
                  {ctx.date(checkin, "long")} – {ctx.date(checkout, "long")}
                </h2>
                <Breakdown b={{ nights: preview.nights, nightCount: preview.nights.length, nightly_cents: preview.nightly_cents, subtotal_cents: preview.subtotal_cents, taxes_cents: preview.taxes_cents, fees: [["Fees", preview.fees_cents]], total_cents: preview.total_cents }} ctx={ctx} currency={cur} onCard={prepaid} />
                <div className={diff > 0 ? "bs-policy bs-policy-late" : "bs-policy bs-policy-free"} data-testid="change-difference" data-cents={diff}>
                  <strong>
                    New total {ctx.money(preview.total_cents, cur)} (was {ctx.money(t.total_cents, cur)})
                  </strong>
                  <p>{moneyNote}</p>
                </div>
                <form action="/api/change" method="post" className="bs-form">
                  <input type="hidden" name="_idem" value={idempotencyToken()} />
                  <input type="hidden" name="confirmation" value={t.confirmation} />
                  <input type="hidden" name="checkin" value={checkin} />
                  <input type="hidden" name="checkout" value={checkout} />
                  <input type="hidden" name="confirm" value="yes" />
                  <button type="submit" className="bs-primary" data-testid="confirm-change">
                    Change my dates
                  </button>
                </form>
              </section>
            ) : null}
          </>
        )}
      </main>
    </>
  );
}
