import type { Metadata } from "next";
import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { notFound } from "next/navigation";
import { Shell } from "@/calendar/components/Shell";
import { eventHref } from "@/calendar/components/links";
import { requireUser } from "@/calendar/lib/auth";
import { attendeesOf, calendars, getEvent, nextOccurrence, occurrenceOf, occurrencesBetween, remindersOf } from "@/calendar/lib/events";
import { longDate, reminderLabel, shortDate, timeLabel } from "@/calendar/lib/format";
import { describeRule, parseRule } from "@/calendar/lib/rrule";
import { colorLabel, eventHex } from "@/calendar/lib/colors";
import { noticeText, one, type Search } from "@/calendar/lib/search";
import { plusDays, toLocal, zoneAbbr, zoneLong } from "@/calendar/lib/tz";
import { calContext } from "@/calendar/lib/context";

const STATUS: Record<string, string> = { ACCEPTED: "Going", DECLINED: "Not going", TENTATIVE: "Maybe", "NEEDS-ACTION": "Awaiting response" };

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const e = getEvent((await params).id);
  return { title: e ? e.title : "Event not found" };
}

export default async function EventPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Search> }) {
  const [{ id }, sp] = await Promise.all([params, searchParams]);
  const user = await requireUser();
  const e = getEvent(id);
  if (!e) notFound();
  const ctx = calContext();
  let occParam = one(sp.occ);
  let occ = occurrenceOf(e, e.rrule ? occParam || null : null, ctx);
  if (e.rrule && !occ && !occParam) {
    // The next occurrence; a series that has ended (COUNT, UNTIL) shows its first.
    occ = nextOccurrence(e, ctx.now, ctx) ?? occurrenceOf(e, e.start_local, ctx);
    occParam = occ?.recurrenceId ?? "";
  }
  if (!occ) notFound();
  const cal = calendars().find((c) => c.id === e.calendar_id)!;
  const attendees = attendeesOf(e.id);
  const me = attendees.find((a) => a.is_self);
  const reminders = remindersOf(e.id);
  const day = occ.start.slice(0, 10);
  const conflicts = occ.allDay || occ.banner ? [] : occurrencesBetween(plusDays(day, -1), plusDays(day, 2), { ctx }).filter((o) => o.key !== occ!.key && !o.allDay && !o.banner && o.myStatus !== "DECLINED" && o.startMs < occ!.endMs && occ!.startMs < o.endMs);
  const rule = e.rrule ? parseRule(e.rrule) : null;
  const counts = { yes: attendees.filter((a) => a.partstat === "ACCEPTED").length, no: attendees.filter((a) => a.partstat === "DECLINED").length, maybe: attendees.filter((a) => a.partstat === "TENTATIVE").length, awaiting: attendees.filter((a) => a.partstat === "NEEDS-ACTION").length };
  const back = `/week?date=${day}`;
  const q = occParam ? `?occ=${encodeURIComponent(occParam)}` : "";
  const whenLocal = occ.allDay
    ? occ.end.slice(0, 10) === plusDays(day, 1)
      ? longDate(ctx, day)
      : `${longDate(ctx, day)} – ${longDate(ctx, plusDays(occ.end.slice(0, 10), -1))}`
    : occ.end.slice(0, 10) === day
      ? `${longDate(ctx, day)} · ${timeLabel(ctx, occ.start)} – ${timeLabel(ctx, occ.end)}`
      : `${shortDate(ctx, day)}, ${timeLabel(ctx, occ.start)} – ${shortDate(ctx, occ.end.slice(0, 10))}, ${timeLabel(ctx, occ.end)}`;
  const ownZones = !occ.allDay && (e.start_tz !== ctx.tz || e.end_tz !== ctx.tz);
  const link = /https?:\/\/\S+/.exec(e.description)?.[0];
  return (
    <Shell user={user} view={null} date={day} title="Event" notice={noticeText(one(sp.notice))} error={errorMessage(sp) || undefined}>
      <article className="dbk-detail" data-testid="event-detail" data-event-id={e.id} data-occ={occParam}>
        <div className="dbk-detail-bar">
          <Link href={back} className="dbk-linkbtn">
            ← Back to calendar
          </Link>
          <span className="spacer" />
          <Link href={`/events/${e.id}/edit${q}${q ? "&" : "?"}scope=this`} className="dbk-btn" data-testid="edit-this">
            {e.rrule ? "Edit this event" : "Edit"}
          </Link>
          {e.rrule ? (
            <Link href={`/events/${e.id}/edit${q}${q ? "&" : "?"}scope=all`} className="dbk-btn" data-testid="edit-all">
              Edit all events
            </Link>
          ) : null}
          <a href={`/events/${e.id}/ics`} className="dbk-btn" data-testid="export-ics">
            Export .ics
          </a>
        </div>
        <header className="dbk-detail-head">
          <span className="sw" style={{ background: eventHex(e.color, cal.color) }} data-testid="event-color" data-color={e.color ?? ""} />
          <div>
            <h2 data-testid="event-title">{occ.title}</h2>
            <p className="when" data-testid="event-when">
              {whenLocal}
              {occ.allDay ? "" : ` (${zoneAbbr(ctx.tz, occ.startMs)})`}
            </p>
            {ownZones ? (
              <p className="zones" data-testid="event-zones">
                Local times: starts {timeLabel(ctx, toLocal(occ.startMs, e.start_tz))} {zoneLong(e.start_tz, occ.startMs)} · ends {timeLabel(ctx, toLocal(occ.endMs, e.end_tz))} {zoneLong(e.end_tz, occ.endMs)}
              </p>
            ) : null}
            {rule ? <p className="rule" data-testid="event-rule">{describeRule(rule, e.start_local)}</p> : null}
          </div>
        </header>
        {conflicts.length ? (
          <div className="dbk-conflict" data-testid="event-conflicts">
            <strong>Conflicts with</strong>
            <ul>
              {conflicts.map((c) => (
                <li key={c.key}>
                  <Link href={eventHref(c)}>{c.title}</Link> {timeLabel(ctx, c.start)} – {timeLabel(ctx, c.end)}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <dl className="dbk-facts">
          {occ.location ? (
            <>
              <dt>Where</dt>
              <dd data-testid="event-location">{occ.location}</dd>
            </>
          ) : null}
          {link ? (
            <>
              <dt>Video call</dt>
              <dd>
                <a href={link}>{link}</a>
              </dd>
            </>
          ) : null}
          <dt>Calendar</dt>
          <dd data-testid="event-calendar">{cal.name}</dd>
          {colorLabel(e.color) ? (
            <>
              <dt>Colour</dt>
              <dd data-testid="event-color-name">
                <span className="sw-inline" style={{ background: eventHex(e.color, cal.color) }} /> {colorLabel(e.color)}
              </dd>
            </>
          ) : null}
          {e.organizer_email ? (
            <>
              <dt>Organizer</dt>
              <dd>
                {e.organizer_name} {e.organizer_is_self ? "(you)" : ""}
              </dd>
            </>
          ) : null}
          <dt>Reminders</dt>
          <dd data-testid="event-reminders">
            {reminders.length ? (
              <ul className="dbk-reminder-list">
                {reminders.map((r) => (
                  <li key={`${r.minutes}-${r.method}`} data-testid="event-reminder" data-minutes={r.minutes}>
                    {`${reminderLabel(r.minutes, !!e.all_day)} (${r.method === "email" ? "email" : "notification"})`}
                  </li>
                ))}
              </ul>
            ) : (
              "None"
            )}
          </dd>
        </dl>
        {e.description ? (
          <p className="dbk-desc" data-testid="event-description">
            {e.description}
          </p>
        ) : null}
        {attendees.length ? (
          <section className="dbk-guests" data-testid="guests">
            <h3>
              {attendees.length} guest{attendees.length === 1 ? "" : "s"}
            </h3>
            <p className="muted">
              {counts.yes} yes{counts.maybe ? `, ${counts.maybe} maybe` : ""}
              {counts.no ? `, ${counts.no} no` : ""}
              {counts.awaiting ? `, ${counts.awaiting} awaiting` : ""}
            </p>
            <ul>
              {attendees.map((a) => (
                <li key={a.id} data-testid="guest" data-email={a.email ?? ""} data-partstat={a.partstat}>
                  <span className={`dbk-rsvp ${a.partstat.toLowerCase()}`} aria-hidden="true" />
                  <span className="name">
                    {a.name}
                    {a.is_self ? " (you)" : ""}
                    {a.role === "organizer" ? <span className="tag">Organizer</span> : null}
                  </span>
                  <span className="st">{STATUS[a.partstat] ?? a.partstat}</span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {!e.organizer_is_self ? (
          <section className="dbk-going" data-testid="rsvp">
            <span>Going?</span>
            {(["yes", "no", "maybe"] as const).map((ans) => {
              const ps = { yes: "ACCEPTED", no: "DECLINED", maybe: "TENTATIVE" }[ans];
              return (
                <form key={ans} action={`/api/events/${e.id}/rsvp`} method="post">
                  <input type="hidden" name="answer" value={ans} />
                  <input type="hidden" name="_idem" value={idempotencyToken()} />
                  <input type="hidden" name="back" value={`/events/${e.id}${q}`} />
                  <button type="submit" className={me?.partstat === ps ? "on" : ""} data-testid={`rsvp-${ans}`}>
                    {ans === "yes" ? "Yes" : ans === "no" ? "No" : "Maybe"}
                  </button>
                </form>
              );
            })}
          </section>
        ) : null}
        <section className="dbk-actions">
          <form action={`/api/events/${e.id}/move`} method="post" className="dbk-move" data-testid="move-form">
            <input type="hidden" name="occ" value={occParam} />
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            <label>
              Move to <input type="date" name="date" defaultValue={day} required aria-label="New date" />
            </label>
            {e.all_day ? null : <input type="time" name="time" defaultValue={occ.start.slice(11, 16)} required aria-label="New start time" />}
            <button type="submit" className="dbk-btn">
              Move
            </button>
          </form>
          <form action={`/api/events/${e.id}/delete`} method="post" className="dbk-delete" data-testid="delete-form">
            <input type="hidden" name="occ" value={occParam} />
            <input type="hidden" name="_idem" value={idempotencyToken()} />
            {e.rrule ? (
              <select name="scope" defaultValue="this" aria-label="Which events">
                <option value="this">This event</option>
                <option value="following">This and following events</option>
                <option value="all">All events</option>
              </select>
            ) : (
              <input type="hidden" name="scope" value="all" />
            )}
            <button type="submit" className="dbk-btn danger" data-testid="delete">
              Delete
            </button>
          </form>
        </section>
      </article>
    </Shell>
  );
}
