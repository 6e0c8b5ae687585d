import Link from "next/link";
import { notFound } from "next/navigation";
import { Header, RatingBadge, Stars } from "@/stays/components/Brand";
import { galleryKinds, Photo } from "@/stays/components/Photo";
import { requireUser } from "@/stays/lib/auth";
import { stayContext } from "@/stays/lib/context";
import { one, type SearchParams } from "@/stays/lib/params";
import { plusDays } from "@/stays/lib/rates";
import { amenities, checkStay, cityById, offersFor, propertyBySlug, reviewsOf, StayError } from "@/stays/lib/stays";
import { errorMessage } from "@persona/platform/http";

export default async function PropertyPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: SearchParams }) {
  const user = await requireUser();
  const { slug } = await params;
  const sp = await searchParams;
  const p = propertyBySlug(slug);
  if (!p) notFound();
  const ctx = stayContext();
  const city = cityById(p.city_id)!;
  const cur = ctx.cityCurrency(city.name);
  const checkIn = one(sp.checkin) || plusDays(ctx.today, 14);
  const checkOut = one(sp.checkout) || plusDays(checkIn, 3);
  const guests = one(sp.guests) || "2";
  let error = errorMessage(sp);
  let offers: ReturnType<typeof offersFor> = [];
  try {
    offers = offersFor(p, city, checkStay(checkIn, checkOut, guests, ctx.today), ctx.timezone);
  } catch (e) {
    if (!(e instanceof StayError)) throw e;
    error = error || e.message;
  }
  const reviews = reviewsOf(p.id);
  const avg = reviews.length ? reviews.reduce((s, r) => s + r.rating, 0) / reviews.length : 0;
  const kinds = galleryKinds(p.kind, p.art);
  // Map-like block: the property's position in a 2 km box around the city centre.
  const mx = Math.max(6, Math.min(94, 50 + ((p.lon - city.lon) / 0.05) * 88));
  const my = Math.max(8, Math.min(92, 50 - ((p.lat - city.lat) / 0.04) * 84));
  return (
    <>
      <Header name={user.full_name} active="search" />
      <main className="bs-page">
        <p className="bs-crumbs">
          <Link href={`/search?${new URLSearchParams({ city: city.name, checkin: checkIn, checkout: checkOut, guests })}`}>← {city.name} results</Link>
        </p>
        <div className="bs-prop-head">
          <div>
            <div className="bs-hit-kind">{p.kind === "hotel" ? (p.chain ? `Hotel · ${p.chain}` : "Hotel") : "Home"}</div>
            <h1 data-testid="property-name">
              {p.name} <Stars n={p.stars} />
            </h1>
            <div className="bs-muted" data-testid="property-address">
              {p.address}
            </div>
          </div>
          <RatingBadge x10={p.rating_x10} count={p.review_count} />
        </div>
        <div className="bs-gallery">
          {kinds.map((k, i) => (
            <Photo key={k} seed={p.art + i} kind={k} label={`${p.name}: ${k}`} className={i === 0 ? "bs-gallery-main" : "bs-gallery-side"} />
          ))}
        </div>
        <div className="bs-prop-body">
          <div>
            <section>
              <h2>About this {p.kind === "hotel" ? "hotel" : "place"}</h2>
              <p>{p.description}</p>
              {p.host_name ? (
                <p className="bs-host" data-testid="host">
                  <span className="bs-avatar">{p.host_name.slice(0, 1)}</span> Hosted by <strong>{p.host_name}</strong> · hosting since {p.host_since}
                </p>
              ) : null}
            </section>
            <section>
              <h2>Amenities</h2>
              <ul className="bs-amenities" data-testid="amenities">
                {amenities(p).map((a) => (
                  <li key={a}>{a}</li>
                ))}
              </ul>
            </section>
            <section>
              <h2>Location</h2>
              <div className="bs-map" role="img" aria-label={`Map: ${p.neighbourhood}, ${city.name}`}>
                <svg viewBox="0 0 100 60" preserveAspectRatio="none" aria-hidden="true">
                  <rect width="100" height="60" fill="#e6efe9" />
                  <path d="M0 42 C20 36 35 50 55 44 S85 30 100 36 V60 H0 Z" fill="#b9dbe6" />
                  <path d="M0 20 H100 M0 32 H100 M25 0 V60 M50 0 V60 M75 0 V60" stroke="#fff" strokeWidth="1.4" />
                  <path d="M10 0 L90 60" stroke="#fff" strokeWidth="2" />
                </svg>
                <span className="bs-pin" style={{ left: `${mx}%`, top: `${my}%` }} />
                <span className="bs-map-label">{p.neighbourhood}</span>
              </div>
              <p className="bs-muted">
                {p.neighbourhood}, {city.name}
                {city.region ? `, ${city.region}` : ""} · {city.country}
              </p>
            </section>
            <section>
              <h2>
                Guest reviews <span className="bs-muted">({reviews.length} shown{reviews.length ? `, average ${avg.toFixed(1)} / 5` : ""})</span>
              </h2>
              <ul className="bs-reviews">
                {reviews.map((r) => (
                  <li key={r.id} data-testid="review" lang={r.language}>
                    <div className="bs-review-head">
                      <strong>{r.author}</strong>
                      {r.author_city ? <span className="bs-muted"> · {r.author_city}</span> : null}
                      <span className="bs-review-score">{"★".repeat(r.rating)}{"☆".repeat(5 - r.rating)}</span>
                    </div>
                    <p>{r.body}</p>
                    <div className="bs-small bs-muted">Stayed {ctx.month(r.stayed)}</div>
                  </li>
                ))}
              </ul>
            </section>
          </div>
          <aside className="bs-book-box" id="rooms">
            <form action={`/p/${p.slug}`} method="get" className="bs-dates">
              <label>
                Check-in
                <input type="date" name="checkin" defaultValue={checkIn} />
              </label>
              <label>
                Check-out
                <input type="date" name="checkout" defaultValue={checkOut} />
              </label>
              <label>
                Guests
                <input type="number" name="guests" min={1} max={8} defaultValue={guests} />
              </label>
              <button className="bs-secondary" type="submit">
                Update
              </button>
            </form>
            {error ? (
              <p className="bs-alert" role="alert" data-testid="property-error">
                {error}
              </p>
            ) : null}
            {!error && offers.length === 0 ? <p className="bs-empty">No room here sleeps {guests} guests.</p> : null}
            <ul className="bs-offers">
              {offers.map((o) => (
                <li key={`${o.room.id}-${o.plan}`} className="bs-offer" data-testid="offer" data-room={o.room.id} data-plan={o.plan} data-total={o.quote.total_cents} data-free={o.free}>
                  <div className="bs-offer-room">
                    <strong>{o.room.name}</strong>
                    <span className="bs-muted">
                      {o.room.beds} · sleeps {o.room.sleeps}
                    </span>
                  </div>
                  <div className={o.cancelUntil ? "bs-good" : "bs-warn"}>
                    {o.cancelUntil ? `Free cancellation until ${ctx.dateTime(o.cancelUntil)}` : "Non-refundable"}
                  </div>
                  <div className="bs-offer-price">
                    <span className="bs-price">{ctx.money(o.quote.nightly_cents, cur)}</span> <span className="bs-muted">avg. per night</span>
                    <div className="bs-small">{ctx.money(o.quote.total_cents, cur)} total incl. taxes &amp; fees</div>
                  </div>
                  {o.free > 0 ? (
                    <Link className="bs-primary" data-testid="reserve" href={`/book?${new URLSearchParams({ p: p.slug, room: String(o.room.id), plan: o.plan, checkin: checkIn, checkout: checkOut, guests })}`}>
                      Reserve
                    </Link>
                  ) : (
                    <span className="bs-soldout" data-testid="sold-out">Sold out for your dates</span>
                  )}
                  {o.free > 0 && o.free <= 2 ? <span className="bs-warn bs-small">Only {o.free} left</span> : null}
                </li>
              ))}
            </ul>
          </aside>
        </div>
      </main>
    </>
  );
}
