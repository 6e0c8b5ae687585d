import Link from "next/link";
import { Header, RatingBadge, Stars } from "@/stays/components/Brand";
import { coverKind, Photo } from "@/stays/components/Photo";
import { SearchForm } from "@/stays/components/SearchForm";
import { requireUser } from "@/stays/lib/auth";
import { stayContext } from "@/stays/lib/context";
import { one, type SearchParams } from "@/stays/lib/params";
import { parseMoney } from "@persona/ui/format";
import { checkStay, cities, cityByName, search, StayError, type SearchFilters } from "@/stays/lib/stays";

export const metadata = { title: "Search stays" };

const SORTS: [string, string][] = [
  ["recommended", "Recommended"],
  ["price", "Price (lowest first)"],
  ["price_desc", "Price (highest first)"],
  ["rating", "Guest rating"],
];

export default async function SearchPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const sp = await searchParams;
  const ctx = stayContext();
  const cityName = one(sp.city);
  const checkIn = one(sp.checkin);
  const checkOut = one(sp.checkout);
  const guests = one(sp.guests) || "2";
  const type = ["hotel", "rental"].includes(one(sp.type)) ? one(sp.type) : "";
  const sort = SORTS.some(([k]) => k === one(sp.sort)) ? one(sp.sort) : "recommended";
  const maxText = one(sp.max);
  const maxNightly = maxText ? parseMoney(maxText, ctx.locale) : null;
  const minRating = ["7", "8", "9"].includes(one(sp.rating)) ? Number(one(sp.rating)) : null;
  const freeCancel = one(sp.free) === "1";
  let error = "";
  const city = cityByName(cityName);
  const cur = city ? ctx.cityCurrency(city.name) : ctx.currency;
  let hits: ReturnType<typeof search> = [];
  let nights = 0;
  try {
    if (!city) throw new StayError(cityName ? `We don't list stays in “${cityName.length > 60 ? `${cityName.slice(0, 60)}…` : cityName}” yet.` : "Choose a destination.");
    const q = checkStay(checkIn, checkOut, guests, ctx.today);
    // A filter the page doesn't offer is refused, not silently dropped.
    if (one(sp.type) && !type) throw new StayError("Choose Hotels or Rentals (or any type).");
    if (one(sp.rating) && minRating == null) throw new StayError("Choose a guest rating of 7+, 8+ or 9+.");
    if (one(sp.sort) && one(sp.sort) !== sort) throw new StayError("Choose one of the sort orders.");
    if (maxText && maxNightly == null) throw new StayError("Enter the maximum price per night as an amount, e.g. 250.");
    const filters: SearchFilters = { type, maxNightly, minRating, freeCancel, sort };
    hits = search(city, q, filters, ctx.timezone);
    nights = Math.round((Date.parse(q.checkOut) - Date.parse(q.checkIn)) / 86_400_000);
  } catch (e) {
    if (!(e instanceof StayError)) throw e;
    error = e.message;
  }
  const keep = { city: cityName, checkin: checkIn, checkout: checkOut, guests };
  const qs = (extra: Record<string, string>) => new URLSearchParams({ ...keep, ...(type ? { type } : {}), ...(maxText ? { max: maxText } : {}), ...(minRating ? { rating: String(minRating) } : {}), ...(freeCancel ? { free: "1" } : {}), sort, ...extra }).toString();
  return (
    <>
      <Header name={user.full_name} active="search" />
      <div className="bs-searchbar">
        <SearchForm cities={cities().map((c) => c.name)} city={city?.name ?? cityName} checkIn={checkIn} checkOut={checkOut} guests={guests} compact />
      </div>
      <main className="bs-page bs-results-layout">
        <aside className="bs-filters">
          <form action="/search" method="get" data-testid="filters">
            {Object.entries(keep).map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
            <h3>Filter by</h3>
            <fieldset>
              <legend>Property type</legend>
              {[["", "All stays"], ["hotel", "Hotels"], ["rental", "Homes & apartments"]].map(([v, l]) => (
                <label key={v} className="bs-check">
                  <input type="radio" name="type" value={v} defaultChecked={type === v} /> {l}
                </label>
              ))}
            </fieldset>
            <fieldset>
              <legend>Max price per night</legend>
              <input name="max" inputMode="decimal" placeholder="Any" defaultValue={maxText} aria-label="Max price per night" />
            </fieldset>
            <fieldset>
              <legend>Guest rating</legend>
              {[["", "Any"], ["9", "Wonderful 9+"], ["8", "Very good 8+"], ["7", "Good 7+"]].map(([v, l]) => (
                <label key={v} className="bs-check">
                  <input type="radio" name="rating" value={v} defaultChecked={String(minRating ?? "") === v} /> {l}
                </label>
              ))}
            </fieldset>
            <fieldset>
              <label className="bs-check">
                <input type="checkbox" name="free" value="1" defaultChecked={freeCancel} /> Free cancellation
              </label>
            </fieldset>
            <input type="hidden" name="sort" value={sort} />
            <button type="submit" className="bs-secondary">
              Apply filters
            </button>
          </form>
        </aside>
        <section className="bs-results">
          {error ? (
            <p className="bs-alert" role="alert" data-testid="search-error">
              {error}
            </p>
          ) : (
            <>
              <div className="bs-results-head">
                <h1 data-testid="results-title">
                  {city!.name}: {hits.length} {hits.length === 1 ? "property" : "properties"} found
                </h1>
                <nav className="bs-sort" aria-label="Sort">
                  {SORTS.map(([k, l]) => (
                    <Link key={k} href={`/search?${qs({ sort: k })}`} className={k === sort ? "is-active" : ""} data-testid={`sort-${k}`}>
                      {l}
                    </Link>
                  ))}
                </nav>
              </div>
              {hits.length === 0 ? <p className="bs-empty">No stays match. Try other dates or fewer filters.</p> : null}
              <ol className="bs-hits">
                {hits.map((h) => (
                  <li key={h.property.id} className="bs-hit" data-testid="result" data-slug={h.property.slug} data-kind={h.property.kind} data-total={h.best.quote.total_cents} data-nightly={h.best.quote.nightly_cents} data-rating={h.property.rating_x10}>
                    <Photo seed={h.property.art} kind={coverKind(h.property.kind, h.property.art)} label={h.property.name} className="bs-hit-img" />
                    <div className="bs-hit-main">
                      <div className="bs-hit-kind">{h.property.kind === "hotel" ? "Hotel" : h.best.room.name}</div>
                      <h2>
                        <Link href={`/p/${h.property.slug}?${new URLSearchParams(keep)}`} data-testid="result-link">
                          {h.property.name}
                        </Link>{" "}
                        <Stars n={h.property.stars} />
                      </h2>
                      <div className="bs-muted">
                        {h.property.neighbourhood}, {city!.name}
                        {h.property.host_name ? ` · Hosted by ${h.property.host_name}` : ""}
                      </div>
                      <RatingBadge x10={h.property.rating_x10} count={h.property.review_count} />
                      {h.freeCancel ? <div className="bs-good">Free cancellation available</div> : <div className="bs-muted">Non-refundable</div>}
                    </div>
                    <div className="bs-hit-price">
                      <div className="bs-price">{ctx.money(h.best.quote.nightly_cents, cur)}</div>
                      <div className="bs-muted">per night</div>
                      <div className="bs-small">
                        {ctx.money(h.best.quote.total_cents, cur)} total for {nights} night{nights === 1 ? "" : "s"}, incl. taxes &amp; fees
                      </div>
                    </div>
                  </li>
                ))}
              </ol>
            </>
          )}
        </section>
      </main>
    </>
  );
}
