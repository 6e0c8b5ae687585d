import Link from "next/link";
import { Stars } from "@/dining/components/Brand";
import { Photo } from "@/dining/components/Photo";
import { SearchBar } from "@/dining/components/SearchBar";
import { Alert, Shell, signedIn } from "@/dining/components/Shell";
import { diningContext } from "@/dining/lib/context";
import { searchDefaults } from "@/dining/lib/defaults";
import { type SearchParams } from "@/dining/lib/params";
import { bandText, cuisinesIn, neighbourhoodsIn, search } from "@/dining/lib/tabletime";

export const metadata = { title: "Search restaurants" };

export default async function SearchPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const user = await signedIn("/search");
  const ctx = diningContext();
  const s = searchDefaults(ctx, user, sp);
  const cuisines = cuisinesIn(s.city);
  const hoods = neighbourhoodsIn(s.city);
  const cuisine = cuisines.includes(s.cuisine) ? s.cuisine : "";
  const hood = hoods.includes(s.hood) ? s.hood : "";
  const results = search(ctx, { city: s.city, cuisine, hood, q: s.q, day: s.day, time: s.time, party: s.party });
  const base = { city: s.city, date: s.day, time: s.time, party: String(s.party), q: s.q };
  const href = (extra: Record<string, string>) => `/search?${new URLSearchParams({ ...base, cuisine, hood, ...extra }).toString()}`;
  return (
    <Shell user={user} current="/search">
      <SearchBar cities={s.cities} city={s.city} day={s.day} time={s.time} party={s.party} q={s.q} min={ctx.today} timeLabel={ctx.time} />
      <Alert notice={s.notice} />
      <div className="tt-results">
        <aside className="tt-filters" aria-label="Filters">
          <h3>Cuisine</h3>
          <ul>
            <li>
              <Link href={href({ cuisine: "" })} className={!cuisine ? "tt-on" : ""}>All cuisines</Link>
            </li>
            {cuisines.map((c) => (
              <li key={c}>
                <Link href={href({ cuisine: c })} className={cuisine === c ? "tt-on" : ""} data-testid="cuisine-filter">{c}</Link>
              </li>
            ))}
          </ul>
          <h3>Neighbourhood</h3>
          <ul>
            <li>
              <Link href={href({ hood: "" })} className={!hood ? "tt-on" : ""}>All of {s.city}</Link>
            </li>
            {hoods.map((h) => (
              <li key={h}>
                <Link href={href({ hood: h })} className={hood === h ? "tt-on" : ""}>{h}</Link>
              </li>
            ))}
          </ul>
        </aside>
        <section>
          <h1 className="tt-results-title" data-testid="result-count" data-count={results.length}>
            {results.length} {results.length === 1 ? "restaurant" : "restaurants"} in {s.city}
            {cuisine ? ` · ${cuisine}` : ""}
            {hood ? ` · ${hood}` : ""}
          </h1>
          <p className="tt-muted">
            Tables for {s.party} on {ctx.longDay(s.day)} around {ctx.time(s.time)}
          </p>
          {results.length === 0 ? <p className="tt-empty">No restaurants match. Try another cuisine or neighbourhood.</p> : null}
          <ol className="tt-list">
            {results.map(({ r, times }) => (
              <li key={r.id} className="tt-row" data-testid="result" data-slug={r.slug} data-times={times.join(",")}>
                <Link href={`/r/${r.slug}?date=${s.day}&time=${s.time}&party=${s.party}`} className="tt-row-photo">
                  <Photo palette={r.palette} motif={r.motif} label={r.name} height={110} />
                </Link>
                <div className="tt-row-body">
                  <Link href={`/r/${r.slug}?date=${s.day}&time=${s.time}&party=${s.party}`} className="tt-card-title">{r.name}</Link>
                  <div className="tt-meta">
                    <Stars x10={r.rating_x10} /> {(r.rating_x10 / 10).toFixed(1)} ({r.review_count.toLocaleString(ctx.locale)} reviews)
                  </div>
                  <div className="tt-meta">
                    {r.cuisine} · {bandText(r.band)} · {r.neighbourhood}
                  </div>
                  <p className="tt-blurb">{r.blurb}</p>
                  <div className="tt-times">
                    {times.length ? times.map((t) => (
                      <Link key={t} className="tt-time" href={`/book?r=${r.slug}&date=${s.day}&time=${t}&party=${s.party}`} data-testid="slot">
                        {ctx.time(t)}
                      </Link>
                    )) : <span className="tt-muted">No tables for {s.party} within an hour of {ctx.time(s.time)}</span>}
                  </div>
                </div>
              </li>
            ))}
          </ol>
        </section>
      </div>
    </Shell>
  );
}
