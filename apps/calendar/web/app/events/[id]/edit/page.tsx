import { errorMessage } from "@persona/platform/http";
import { idempotencyToken } from "@persona/platform/once";
import { notFound } from "next/navigation";
import { EventForm } from "@/calendar/components/EventForm";
import { Shell } from "@/calendar/components/Shell";
import { requireUser } from "@/calendar/lib/auth";
import { calContext } from "@/calendar/lib/context";
import { calendars, getEvent, occurrenceOf, remindersOf } from "@/calendar/lib/events";
import { one, type Search } from "@/calendar/lib/search";
import { plusDays, toLocal } from "@/calendar/lib/tz";
import { REMINDER_FIELDS, ruleEnd } from "@/calendar/lib/write";

export const metadata = { title: "Edit event" };

export default async function EditEventPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Search> }) {
  const [{ id }, sp] = await Promise.all([params, searchParams]);
  const user = await requireUser();
  const e = getEvent(id);
  if (!e) notFound();
  const ctx = calContext();
  const occ = one(sp.occ);
  const scope = e.rrule ? (one(sp.scope) === "all" ? "all" : "this") : "all";
  const o = occurrenceOf(e, e.rrule ? occ || null : null, ctx);
  if (e.rrule && scope === "this" && !o) notFound();
  // "this": the occurrence in its own zone; "all": the series' first start in its zone.
  let startLocal: string, endLocal: string, tz: string;
  if (e.all_day) {
    startLocal = scope === "this" && o ? o.start : e.start_local;
    endLocal = scope === "this" && o ? o.end : e.end_local;
    tz = ctx.tz;
  } else if (scope === "this" && o) {
    startLocal = toLocal(o.startMs, e.start_tz);
    endLocal = toLocal(o.endMs, e.start_tz);
    tz = e.start_tz;
  } else {
    startLocal = e.start_local;
    endLocal = e.end_tz === e.start_tz ? e.end_local : toLocal(Date.parse(e.end_utc), e.start_tz);
    tz = e.start_tz;
  }
  const error = errorMessage(sp);
  const had = !!error;
  const end = ruleEnd(e.rrule, e.start_tz);
  const values = {
    title: had ? one(sp.title) : (o && scope === "this" ? o.title : e.title),
    date: had ? one(sp.date) : startLocal.slice(0, 10),
    start_time: had ? one(sp.start_time) : e.all_day ? "09:00" : startLocal.slice(11, 16),
    end_date: had ? one(sp.end_date) : e.all_day ? plusDays(endLocal.slice(0, 10), -1) : endLocal.slice(0, 10),
    end_time: had ? one(sp.end_time) : e.all_day ? "10:00" : endLocal.slice(11, 16),
    all_day: had ? one(sp.all_day) === "1" : !!e.all_day,
    timezone: tz,
    calendar: e.calendar_id,
    location: had ? one(sp.location) : (o && scope === "this" ? o.location : e.location),
    description: had ? one(sp.description) : e.description,
    repeat: had ? one(sp.repeat) || "keep" : "keep",
    reminders: had ? REMINDER_FIELDS.map((k) => one(sp[k])) : remindersOf(e.id).map((r) => String(r.minutes)),
    ends: had ? one(sp.ends) : end.kind,
    until: had ? one(sp.until) : end.kind === "on" ? end.until : "",
    count: had ? one(sp.count) : end.kind === "after" ? String(end.count) : "10",
    color: had ? one(sp.color) || e.color || "calendar" : e.color || "calendar",
  };
  const q = occ ? `?occ=${encodeURIComponent(occ)}` : "";
  const repeatChoices = e.rrule && scope === "this" ? null : [
    { value: "keep", label: e.rrule ? "Keep the current pattern" : "Does not repeat" },
    ...(e.rrule ? [{ value: "none", label: "Stop repeating" }] : []),
    { value: "daily", label: "Daily" },
    { value: "weekdays", label: "Every weekday (Monday to Friday)" },
    { value: "weekly", label: "Weekly on this day" },
    { value: "monthly", label: "Monthly on this weekday" },
    { value: "yearly", label: "Annually on this date" },
  ];
  return (
    <Shell user={user} view={null} date={startLocal.slice(0, 10)} title={e.rrule ? (scope === "this" ? "Edit this event" : "Edit all events") : "Edit event"}>
      <EventForm action={`/api/events/${e.id}`} values={values} cals={calendars()} error={error || undefined} field={one(sp.field) || undefined} hidden={{ scope, occ, _idem: idempotencyToken() }} cancel={`/events/${e.id}${q}`} repeatChoices={repeatChoices} submit="Save" />
    </Shell>
  );
}
