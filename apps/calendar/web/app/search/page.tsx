import Link from "next/link";
import { Shell } from "@/calendar/components/Shell";
import { requireUser } from "@/calendar/lib/auth";
import { calContext } from "@/calendar/lib/context";
import { db } from "@/calendar/lib/db";
import type { EventRow } from "@/calendar/lib/events";
import { shortDate } from "@/calendar/lib/format";
import { one, type Search } from "@/calendar/lib/search";

export const metadata = { title: "Search" };

export default async function SearchPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const ctx = calContext();
  const q = one(sp.q).trim().slice(0, 200);
  const rows = q
    ? (db()
        .prepare("SELECT * FROM events WHERE instr(lower(title), lower(?)) > 0 OR instr(lower(location), lower(?)) > 0 OR instr(lower(description), lower(?)) > 0 ORDER BY start_utc DESC LIMIT 100")
        .all(q, q, q) as EventRow[])
    : [];
  return (
    <Shell user={user} view={null} date={ctx.today} title="Search">
      <div className="dbk-list" data-testid="search-results">
        <h2>{q ? `Events matching “${q}”` : "Search your events"}</h2>
        <ul>
          {rows.map((e) => (
            <li key={e.id} data-testid="search-result">
              <Link href={`/events/${e.id}`}>{e.title}</Link>
              <span className="muted">
                {e.rrule ? "Repeats · from " : ""}
                {shortDate(ctx, e.start_local.slice(0, 10))} {e.start_local.slice(0, 4)}
                {e.location ? ` · ${e.location}` : ""}
              </span>
            </li>
          ))}
        </ul>
        {q && !rows.length ? <p className="dbk-empty">No events match.</p> : null}
      </div>
    </Shell>
  );
}
