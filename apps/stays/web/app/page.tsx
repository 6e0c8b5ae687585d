import Link from "next/link";
import { Header } from "@/stays/components/Brand";
import { coverKind, Photo } from "@/stays/components/Photo";
import { SearchForm } from "@/stays/components/SearchForm";
import { requireUser } from "@/stays/lib/auth";
import { stayContext } from "@/stays/lib/context";
import type { SearchParams } from "@/stays/lib/params";
import { plusDays } from "@/stays/lib/rates";
import { cities, trips, tripState } from "@/stays/lib/stays";
import { errorMessage } from "@persona/platform/http";

export default async function Home({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const sp = await searchParams;
  const error = errorMessage(sp);
  const ctx = stayContext();
  const all = trips(user.id);
  const upcoming = all.filter((t) => ["upcoming", "current"].includes(tripState(t, ctx.today))).sort((a, b) => a.check_in.localeCompare(b.check_in));
  const list = cities();
  const featured = ["Lisbon", "Tokyo", "Honolulu", "Barcelona", "New York", "Edinburgh"].filter((n) => list.some((c) => c.name === n));
  const first = user.full_name.split(/\s+/)[0];
  return (
    <>
      <Header name={user.full_name} active="search" />
      <main>
        <section className="bs-hero">
          <div className="bs-hero-in">
            <h1>Where to next, {first}?</h1>
            <p>Hotels, apartments and homes in {list.length} cities, most with free cancellation.</p>
            {error ? <p className="bs-alert" role="alert">{error}</p> : null}
            <SearchForm cities={list.map((c) => c.name)} city="" checkIn={plusDays(ctx.today, 14)} checkOut={plusDays(ctx.today, 17)} guests="2" />
          </div>
        </section>
        <div className="bs-page">
          {upcoming.length ? (
            <section>
              <h2>Your upcoming trips</h2>
              <div className="bs-cards">
                {upcoming.map((t) => (
                  <Link key={t.id} href={`/trips/${t.confirmation}`} className="bs-trip-card" data-testid="upcoming-trip" data-confirmation={t.confirmation}>
                    <Photo seed={t.art} kind={coverKind(t.kind, t.art)} label={t.property_name} className="bs-trip-img" />
                    <div>
                      <strong>{t.city}</strong>
                      <div>{t.property_name}</div>
                      <div className="bs-muted">
                        {ctx.date(t.check_in)} – {ctx.date(t.check_out)}
                      </div>
                    </div>
                  </Link>
                ))}
              </div>
            </section>
          ) : null}
          <section>
            <h2>Trending destinations</h2>
            <div className="bs-dest-grid">
              {featured.map((name, i) => (
                <Link key={name} className="bs-dest" href={`/search?city=${encodeURIComponent(name)}&checkin=${plusDays(ctx.today, 21)}&checkout=${plusDays(ctx.today, 24)}&guests=2`}>
                  <Photo seed={i * 97 + name.length} kind="skyline" label={name} className="bs-dest-img" />
                  <span>{name}</span>
                </Link>
              ))}
            </div>
          </section>
          <section className="bs-perks">
            <div><strong>Free cancellation</strong><span>On most rooms, until the date shown on your booking.</span></div>
            <div><strong>Pay with your saved card</strong><span>One tap with the card on file; the charge shows in your bank at once.</span></div>
            <div><strong>Talk to your host</strong><span>Message hosts and hotels from your trip page.</span></div>
          </section>
        </div>
      </main>
    </>
  );
}
