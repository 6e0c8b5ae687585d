import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { airport, passengersOf, trips, type Trip } from "@/airline/lib/air";
import { requireUser } from "@/airline/lib/auth";
import { airContext, travelers } from "@/airline/lib/context";
import { one, type SP } from "@/airline/lib/page";
import { day } from "@/airline/lib/time";

export const metadata = { title: "My Trips" };

const TABS = [["upcoming", "Upcoming"], ["past", "Past"], ["cancelled", "Cancelled"]] as const;

function route(t: Trip): string {
  const out = t.segments.filter((s) => s.direction === "outbound");
  return [out[0]?.origin, ...out.map((s) => s.destination)].filter(Boolean).join(" → ");
}

export default async function MyTrips({ searchParams }: { searchParams: SP }) {
  const sp = await searchParams;
  const error = errorMessage(sp);
  const user = await requireUser();
  const ctx = airContext();
  const all = trips(ctx, user.id);
  const tab = (TABS.find(([k]) => k === one(sp.tab))?.[0] ?? "upcoming") as Trip["status"];
  const list = all.filter((t) => t.status === tab);
  return (
    <div className="ma-page">
      <h1>My Trips</h1>
      {error ? <p className="ma-alert" role="alert">{error}</p> : null}
      <form className="ma-find" action="/trips/find" method="get">
        <label>
          Find a trip by confirmation code
          <input name="pnr" maxLength={6} placeholder="ABC123" />
        </label>
        <button type="submit" className="ma-secondary">Find trip</button>
      </form>
      <div className="ma-tabs" role="tablist">
        {TABS.map(([k, label]) => (
          <Link key={k} href={`/?tab=${k}`} className={k === tab ? "active" : ""} role="tab" aria-selected={k === tab} data-testid={`tab-${k}`}>
            {label} <span className="ma-count">{all.filter((t) => t.status === k).length}</span>
          </Link>
        ))}
      </div>
      {list.length === 0 ? (
        <div className="ma-empty">
          <p>No {tab} trips.</p>
          {tab === "upcoming" ? <Link href="/book" className="ma-primary">Book a flight</Link> : null}
        </div>
      ) : (
        <ul className="ma-trips" data-testid={`trips-${tab}`}>
          {list.map((t) => {
            const first = t.segments[0];
            const last = t.segments[t.segments.length - 1];
            const dest = airport(t.segments.filter((s) => s.direction === "outbound").at(-1)?.destination ?? first.destination);
            const pax = passengersOf(t.booking.id);
            return (
              <li key={t.booking.id} className="ma-trip" data-testid="trip" data-pnr={t.booking.pnr}>
                <Link href={`/trips/${t.booking.pnr}`}>
                  <div className="ma-trip-dest">
                    <span className="ma-trip-city">{dest?.city ?? t.booking.destination}</span>
                    <span className="ma-muted">{route(t)}</span>
                  </div>
                  <div className="ma-trip-dates">
                    {day(first.dep_local, ctx.locale)} – {day(last.arr_local, ctx.locale)}
                  </div>
                  <div className="ma-trip-meta">
                    <span>Confirmation <b data-testid="pnr">{t.booking.pnr}</b></span>
                    <span>{travelers(ctx, pax.length)}</span>
                    <span>{t.segments.length} flight{t.segments.length > 1 ? "s" : ""}</span>
                    {t.segments.some((s) => s.was_dep_local && s.status !== "flown") ? (
                      <span className="ma-status ma-status-changed" data-testid="schedule-changed">Schedule change</span>
                    ) : null}
                  </div>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
