import Link from "next/link";
import { Header } from "@/stays/components/Brand";
import { coverKind, Photo } from "@/stays/components/Photo";
import { requireUser } from "@/stays/lib/auth";
import { stayContext } from "@/stays/lib/context";
import { one, type SearchParams } from "@/stays/lib/params";
import { trips, tripState, type TripRow } from "@/stays/lib/stays";

export const metadata = { title: "Trips" };

const TABS = [
  ["upcoming", "Upcoming"],
  ["past", "Past"],
  ["cancelled", "Cancelled"],
] as const;

export default async function TripsPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireUser();
  const sp = await searchParams;
  const ctx = stayContext();
  const tab = TABS.some(([k]) => k === one(sp.tab)) ? one(sp.tab) : "upcoming";
  const all = trips(user.id);
  const groups: Record<string, TripRow[]> = { upcoming: [], past: [], cancelled: [] };
  for (const t of all) {
    const s = tripState(t, ctx.today);
    groups[s === "current" ? "upcoming" : s]!.push(t);
  }
  groups.upcoming!.sort((a, b) => a.check_in.localeCompare(b.check_in));
  const shown = groups[tab]!;
  return (
    <>
      <Header name={user.full_name} active="trips" />
      <main className="bs-page">
        <h1>Trips</h1>
        <nav className="bs-tabs" aria-label="Trips">
          {TABS.map(([k, l]) => (
            <Link key={k} href={`/trips?tab=${k}`} className={k === tab ? "is-active" : ""} data-testid={`tab-${k}`}>
              {l} <span className="bs-count">{groups[k]!.length}</span>
            </Link>
          ))}
        </nav>
        {shown.length === 0 ? <p className="bs-empty">No {tab} trips.</p> : null}
        <ul className="bs-trip-list">
          {shown.map((t) => (
            <li key={t.id}>
              <Link href={`/trips/${t.confirmation}`} className="bs-trip-row" data-testid="trip" data-confirmation={t.confirmation} data-city={t.city} data-total={t.total_cents} data-check-in={t.check_in} data-check-out={t.check_out} data-status={tripState(t, ctx.today)}>
                <Photo seed={t.art} kind={coverKind(t.kind, t.art)} label={t.property_name} className="bs-trip-thumb" />
                <div className="bs-trip-main">
                  <strong>{t.city}</strong>
                  <span>{t.property_name}</span>
                  <span className="bs-muted">
                    {ctx.date(t.check_in)} – {ctx.date(t.check_out)} · {t.nights} night{t.nights === 1 ? "" : "s"} · {t.room_name}
                  </span>
                </div>
                <div className="bs-trip-side">
                  <span className="bs-price-sm">{ctx.money(t.total_cents, ctx.cityCurrency(t.city))}</span>
                  <span className="bs-muted bs-small">Confirmation {t.confirmation}</span>
                  {tripState(t, ctx.today) === "current" ? <span className="bs-good bs-small">Staying now</span> : null}
                  {tab === "past" && !t.reviewed ? <span className="bs-accent bs-small">Write a review</span> : null}
                </div>
              </Link>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
