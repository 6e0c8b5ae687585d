import Link from "next/link";
import { notFound } from "next/navigation";
import { Photo } from "@/dining/components/Photo";
import { Alert, Shell, signedIn } from "@/dining/components/Shell";
import { diningContext } from "@/dining/lib/context";
import { one, type SearchParams } from "@/dining/lib/params";
import { cards, isDay, isLargeParty, isTime, MAX_LARGE_PARTY, MAX_PARTY, MAX_REQUEST, OCCASIONS, restaurantBySlug } from "@/dining/lib/tabletime";
import { errorMessage } from "@persona/platform/http";
import { pageToken } from "@persona/platform/once";

export const metadata = { title: "Complete your reservation" };

export default async function BookPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const r = restaurantBySlug(one(sp.r));
  if (!r) notFound();
  const user = await signedIn(`/book?r=${r.slug}`);
  const ctx = diningContext();
  const day = isDay(one(sp.date)) ? one(sp.date) : ctx.today;
  const time = isTime(one(sp.time)) ? one(sp.time) : "19:00";
  const party = Math.min(MAX_LARGE_PARTY, Math.max(1, Math.trunc(Number(one(sp.party))) || 2));
  const large = isLargeParty(party);
  const card = cards(user.id)[0];
  return (
    <Shell user={user} current="/search">
      <div className="tt-book">
        <section className="tt-box">
          <h1>{large ? "Request a table for a large party" : "You\u2019re almost done!"}</h1>
          <Alert error={errorMessage(sp)} />
          <div className="tt-book-head">
            <Photo palette={r.palette} motif={r.motif} label={r.name} height={80} />
            <div>
              <strong data-testid="book-restaurant">{r.name}</strong>
              <div className="tt-meta">📅 {ctx.longDay(day)} · 🕖 {ctx.time(time)} · 👤 {party} {party === 1 ? "person" : "people"}</div>
              <div className="tt-muted">{r.address}</div>
            </div>
          </div>
          <form action="/api/reservations" method="post" className="tt-form" data-testid="book-form">
            <input type="hidden" name="_idem" value={pageToken("dining/book", sp)} />
            <input type="hidden" name="r" value={r.slug} />
            <input type="hidden" name="date" value={day} />
            <input type="hidden" name="time" value={time} />
            <input type="hidden" name="party" value={party} />
            <h2>Diner details</h2>
            <p>
              {user.full_name} · {user.phone} · {user.email}
            </p>
            <label>
              Select an occasion (optional)
              <select name="occasion" defaultValue="" data-testid="occasion">
                <option value="">None</option>
                {Object.entries(OCCASIONS).map(([key, label]) => (
                  <option key={key} value={key}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Add a special request (optional)
              <textarea name="request" maxLength={MAX_REQUEST * 2} rows={3} placeholder="Birthday, allergies, a quiet table…" />
            </label>
            {large ? (
              <p className="tt-policy" data-testid="large-party">
                {r.name} seats parties of more than {MAX_PARTY} on request. TableTime sends your request to the restaurant, which confirms by email or calls you; no table is held until it does.
              </p>
            ) : r.late_cancel_cents ? (
              <p className="tt-policy" data-testid="policy">
                {r.name} holds this reservation with your {card ? `${card.brand} ending ${card.last4}` : "card"}. Nothing is charged now; cancelling
                less than 24 hours before costs {ctx.money(r.late_cancel_cents * party, r.currency)} ({ctx.money(r.late_cancel_cents, r.currency)} per guest).
              </p>
            ) : (
              <p className="tt-muted">Free to cancel any time before your reservation.</p>
            )}
            <button type="submit" className="tt-primary">
              {large ? "Send request" : "Complete reservation"}
            </button>
            <Link href={`/r/${r.slug}?date=${day}&party=${party}`} className="tt-muted">
              Choose another time
            </Link>
          </form>
        </section>
      </div>
    </Shell>
  );
}
