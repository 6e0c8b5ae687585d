import Link from "next/link";
import { Photo } from "@/dining/components/Photo";
import { SearchBar } from "@/dining/components/SearchBar";
import { Alert, Shell, signedIn } from "@/dining/components/Shell";
import { Stars } from "@/dining/components/Brand";
import { diningContext } from "@/dining/lib/context";
import { searchDefaults } from "@/dining/lib/defaults";
import type { SearchParams } from "@/dining/lib/params";
import { bandText, cuisinesIn, favourites, isUpcoming, reservationsOf, search } from "@/dining/lib/tabletime";
import { errorMessage } from "@persona/platform/http";

export default async function Home({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const user = await signedIn("/");
  const ctx = diningContext();
  const s = searchDefaults(ctx, user, sp);
  const upcoming = reservationsOf(user.id).filter((v) => isUpcoming(ctx, v));
  const saved = favourites(user.id);
  const picks = search(ctx, { city: s.city, cuisine: "", hood: "", q: "", day: s.day, time: s.time, party: s.party }).slice(0, 8);
  const first = user.full_name.split(" ")[0];
  return (
    <Shell user={user} current="/">
      <section className="tt-hero">
        <h1>Find your table for any occasion, {first}</h1>
        <SearchBar cities={s.cities} city={s.city} day={s.day} time={s.time} party={s.party} q="" min={ctx.today} timeLabel={ctx.time} />
      </section>
      <Alert error={errorMessage(sp)} />
      {upcoming.length ? (
        <section className="tt-section">
          <h2>Upcoming reservations</h2>
          <div className="tt-upcoming">
            {upcoming.map((v) => (
              <Link key={v.id} href={`/reservations/${v.confirmation}`} className="tt-upcoming-card" data-testid="upcoming" data-confirmation={v.confirmation}>
                <Photo palette={v.palette} motif={v.motif} label={v.name} height={70} />
                <div>
                  <strong>{v.name}</strong>
                  <span>
                    {ctx.day(v.day)} · {ctx.time(v.time)} · {v.party_size} {v.party_size === 1 ? "person" : "people"}
                  </span>
                  <span className="tt-muted">Confirmation {v.confirmation}</span>
                </div>
              </Link>
            ))}
          </div>
        </section>
      ) : null}
      <section className="tt-section">
        <div className="tt-section-head">
          <h2>Available near you in {s.city}</h2>
          <Link href={`/search?city=${encodeURIComponent(s.city)}&date=${s.day}&time=${s.time}&party=${s.party}`}>See all {s.city} restaurants</Link>
        </div>
        <div className="tt-grid">
          {picks.map(({ r, times }) => (
            <div key={r.id} className="tt-card">
              <Link href={`/r/${r.slug}?date=${s.day}&time=${s.time}&party=${s.party}`}>
                <Photo palette={r.palette} motif={r.motif} label={r.name} height={120} />
              </Link>
              <div className="tt-card-body">
                <Link href={`/r/${r.slug}?date=${s.day}&time=${s.time}&party=${s.party}`} className="tt-card-title">
                  {r.name}
                </Link>
                <div className="tt-meta">
                  <Stars x10={r.rating_x10} /> <span>{r.review_count.toLocaleString(ctx.locale)}</span>
                </div>
                <div className="tt-meta">
                  {r.cuisine} · {bandText(r.band)} · {r.neighbourhood}
                </div>
                <div className="tt-times">
                  {times.length ? (times.length >= 5 ? times.slice(1, 4) : times.slice(0, 3)).map((t) => (
                    <Link key={t} className="tt-time" href={`/book?r=${r.slug}&date=${s.day}&time=${t}&party=${s.party}`}>
                      {ctx.time(t)}
                    </Link>
                  )) : <span className="tt-muted">No tables near {ctx.time(s.time)}</span>}
                </div>
              </div>
            </div>
          ))}
        </div>
      </section>
      {saved.length ? (
        <section className="tt-section">
          <h2>Your saved restaurants</h2>
          <ul className="tt-chips">
            {saved.map((r) => (
              <li key={r.id}>
                <Link href={`/r/${r.slug}`} data-testid="saved">{r.name}</Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="tt-section">
        <h2>Explore by cuisine</h2>
        <ul className="tt-chips">
          {cuisinesIn(s.city).map((c) => (
            <li key={c}>
              <Link href={`/search?city=${encodeURIComponent(s.city)}&cuisine=${encodeURIComponent(c)}&date=${s.day}&time=${s.time}&party=${s.party}`}>{c}</Link>
            </li>
          ))}
        </ul>
      </section>
    </Shell>
  );
}
