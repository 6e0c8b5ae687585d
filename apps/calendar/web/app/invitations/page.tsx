import Link from "next/link";
import { Shell } from "@/calendar/components/Shell";
import { eventHref } from "@/calendar/components/links";
import { requireUser } from "@/calendar/lib/auth";
import { calContext } from "@/calendar/lib/context";
import { nextOccurrence, occurrenceOf, pendingInvitations } from "@/calendar/lib/events";
import { shortDate, timeLabel } from "@/calendar/lib/format";

export const metadata = { title: "Invitations" };

export default async function InvitationsPage() {
  const user = await requireUser();
  const ctx = calContext();
  const rows = pendingInvitations(ctx).map((e) => ({ e, o: e.rrule ? nextOccurrence(e, ctx.now, ctx) : occurrenceOf(e, null, ctx) })).filter((x) => x.o && x.o.end >= ctx.now);
  return (
    <Shell user={user} view={null} date={ctx.today} title="Invitations">
      <div className="dbk-list" data-testid="invitations">
        <h2>Waiting for your answer</h2>
        {rows.length ? (
          <ul>
            {rows.map(({ e, o }) => (
              <li key={e.id} data-testid="invitation" data-title={e.title}>
                <span className="sw" style={{ background: o!.color }} />
                <Link href={eventHref(o!)}>{e.title}</Link>
                <span className="muted">
                  {e.rrule ? "Next: " : ""}
                  {shortDate(ctx, o!.start.slice(0, 10))}
                  {o!.allDay ? "" : `, ${timeLabel(ctx, o!.start)}`} · from {e.organizer_name}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="dbk-empty">You have answered every invitation.</p>
        )}
      </div>
    </Shell>
  );
}
