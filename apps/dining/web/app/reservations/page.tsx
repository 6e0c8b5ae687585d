import Link from "next/link";
import { Photo } from "@/dining/components/Photo";
import { Alert, Shell, signedIn } from "@/dining/components/Shell";
import { diningContext } from "@/dining/lib/context";
import { one, type SearchParams } from "@/dining/lib/params";
import { isUpcoming, reservationsOf, stateText } from "@/dining/lib/tabletime";
import { errorMessage } from "@persona/platform/http";

export const metadata = { title: "Reservations" };

export default async function Reservations({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const user = await signedIn("/reservations");
  const ctx = diningContext();
  const all = reservationsOf(user.id);
  const upcoming = all.filter((v) => isUpcoming(ctx, v));
  const past = all.filter((v) => !isUpcoming(ctx, v) && v.status !== "cancelled").reverse();
  const cancelled = all.filter((v) => v.status === "cancelled").reverse();
  const tab = ["past", "cancelled"].includes(one(sp.tab)) ? one(sp.tab) : "upcoming";
  const rows = tab === "past" ? past : tab === "cancelled" ? cancelled : upcoming;
  return (
    <Shell user={user} current="/reservations">
      <h1>Reservations</h1>
      <Alert error={errorMessage(sp)} />
      <nav className="tt-tabs">
        <Link href="/reservations" className={tab === "upcoming" ? "tt-on" : ""}>Upcoming ({upcoming.length})</Link>
        <Link href="/reservations?tab=past" className={tab === "past" ? "tt-on" : ""}>Past ({past.length})</Link>
        <Link href="/reservations?tab=cancelled" className={tab === "cancelled" ? "tt-on" : ""}>Cancelled ({cancelled.length})</Link>
      </nav>
      {rows.length === 0 ? <p className="tt-empty">Nothing here yet. <Link href="/">Find a table</Link></p> : null}
      <ul className="tt-res-list">
        {rows.map((v) => (
          <li key={v.id} data-testid="reservation" data-confirmation={v.confirmation} data-day={v.day} data-time={v.time} data-party={v.party_size} data-status={v.status}>
            <Link href={`/reservations/${v.confirmation}`} className="tt-res-row">
              <Photo palette={v.palette} motif={v.motif} label={v.name} height={64} />
              <div className="tt-res-main">
                <strong>{v.name}</strong>
                <span>{ctx.longDay(v.day)} at {ctx.time(v.time)}</span>
                <span className="tt-muted">
                  {v.party_size} {v.party_size === 1 ? "person" : "people"} · {v.neighbourhood} · Confirmation {v.confirmation}
                </span>
              </div>
              <span className="tt-res-state">
                {tab === "past" && v.status !== "requested" ? (v.reviewed ? "Reviewed" : "Write a review") : stateText(v, tab === "upcoming")}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Shell>
  );
}
