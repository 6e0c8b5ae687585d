/**
 * Reading the calendar: event rows, their occurrences in a range (series expanded with their
 * RRULE, EXDATEs and overrides), conflicts. Every instant is converted to the viewer's zone.
 */
import { cache } from "react";
import { db } from "./db";
import { idToken } from "./ids";
import { calContext, type CalContext } from "./context";
import { eventHex } from "./colors";
import { expandRule, parseRule } from "./rrule";
import { dayNumber, naiveMs, plusDays, toLocal, toUtc } from "./tz";

export interface EventRow {
  id: string;
  uid: string;
  calendar_id: string;
  title: string;
  description: string;
  location: string;
  all_day: number;
  start_local: string;
  start_tz: string;
  end_local: string;
  end_tz: string;
  start_utc: string;
  end_utc: string;
  last_utc: string;
  rrule: string | null;
  /** A palette name (lib/colors.ts) or null: the calendar's colour. */
  color: string | null;
  exdates: string;
  organizer_name: string | null;
  organizer_email: string | null;
  organizer_is_self: number;
  source: string;
  ref: string | null;
  invite_message_id: string | null;
  sequence: number;
  world_ref: string | null;
  created_at: string;
  edited_at: string | null;
}

export interface OverrideRow {
  id: number;
  event_id: string;
  recurrence_id: string;
  start_local: string;
  end_local: string;
  title: string | null;
  location: string | null;
  description: string | null;
  cancelled: number;
  world_ref: string | null;
  edited_at: string | null;
}

export interface CalendarRow {
  id: string;
  name: string;
  color: string;
  owner_email: string;
  position: number;
  hidden: number;
}

export interface AttendeeRow {
  id: number;
  event_id: string;
  position: number;
  name: string;
  email: string | null;
  role: string;
  partstat: string;
  is_self: number;
  responded_at: string | null;
}

/** One occurrence as a view shows it, times in the viewer's zone. */
export interface Occurrence {
  key: string; // eventId or eventId|recurrenceId
  eventId: string;
  recurrenceId: string | null; // in the series' zone
  title: string;
  location: string;
  calendarId: string;
  color: string;
  allDay: boolean;
  /** Viewer-zone local start/end (`YYYY-MM-DDTHH:MM:SS`); all-day: dates, end exclusive. */
  start: string;
  end: string;
  startMs: number;
  endMs: number;
  source: string;
  series: boolean;
  invitation: boolean;
  myStatus: string | null;
  /** Shown in the all-day row: all-day or lasting 24 hours or more. */
  banner: boolean;
  conflict?: boolean;
}

export const calendars = cache((): CalendarRow[] => db().prepare("SELECT * FROM calendars ORDER BY position").all() as CalendarRow[]);

export function getEvent(id: string): EventRow | null {
  if (!idToken(id)) return null;
  return (db().prepare("SELECT * FROM events WHERE id = ?").get(id) as EventRow | undefined) ?? null;
}

export function overridesOf(id: string): OverrideRow[] {
  return db().prepare("SELECT * FROM overrides WHERE event_id = ? ORDER BY recurrence_id").all(id) as OverrideRow[];
}

export function attendeesOf(id: string): AttendeeRow[] {
  return db().prepare("SELECT * FROM attendees WHERE event_id = ? ORDER BY position, id").all(id) as AttendeeRow[];
}

export function remindersOf(id: string): { minutes: number; method: string }[] {
  return db().prepare("SELECT minutes, method FROM reminders WHERE event_id = ? ORDER BY minutes DESC, id").all(id) as { minutes: number; method: string }[];
}

/** Compact `YYYYMMDDTHHMMSS` / `YYYYMMDD` of a local ISO string (EXDATE form). */
export function compact(local: string): string {
  return local.replace(/[-:]/g, "");
}

/** Extended `YYYY-MM-DDTHH:MM:SS` / `YYYY-MM-DD` of a compact local string. */
export function extended(c: string): string {
  if (c.length === 8) return `${c.slice(0, 4)}-${c.slice(4, 6)}-${c.slice(6, 8)}`;
  return `${c.slice(0, 4)}-${c.slice(4, 6)}-${c.slice(6, 8)}T${c.slice(9, 11)}:${c.slice(11, 13)}:${c.slice(13, 15)}`;
}

function durationMs(e: EventRow): number {
  if (e.all_day) return (dayNumber(e.end_local) - dayNumber(e.start_local)) * 86400000;
  return toUtc(e.end_local, e.end_tz) - toUtc(e.start_local, e.start_tz);
}

/**
 * Instances of one event row (a single row gives one): `{recurrenceId, startLocal, endLocal (series zone), title,
 * location, cancelled}`. A series is expanded on the dates `fromDate..lastDate` (default: from its first date), widened
 * back by its length so an occurrence that started earlier and still runs is there, plus the occurrences moved into
 * that range from outside it; the expansion itself is bounded (rrule.ts: `EXPAND_MAX_DAYS`, `EXPAND_MAX_INSTANCES`).
 */
export function instances(e: EventRow, lastDate: string, overrides?: OverrideRow[], fromDate?: string) {
  type Inst = { recurrenceId: string | null; start: string; end: string; title: string; location: string; edited: boolean };
  if (!e.rrule) return [{ recurrenceId: null, start: e.start_local, end: e.end_local, title: e.title, location: e.location, edited: !!e.edited_at }] as Inst[];
  const ovList = overrides ?? overridesOf(e.id);
  const ov = new Map(ovList.map((o) => [o.recurrence_id, o]));
  const ex = new Set(e.exdates ? e.exdates.split(",") : []);
  const dur = durationMs(e);
  const rule = parseRule(e.rrule);
  const from = fromDate ? plusDays(fromDate, -(Math.ceil(dur / 86400000) + 1)) : undefined;
  const rids = expandRule(rule, e.start_local, e.start_tz, lastDate, from);
  if (from) {
    // An occurrence moved here from a date outside the expanded range (its recurrence id is that date).
    const lo = rids.length ? rids[0] : null;
    const hi = rids.length ? rids[rids.length - 1] : null;
    const moved = ovList.filter(
      (o) => !o.cancelled && (lo === null || o.recurrence_id < lo || o.recurrence_id > hi!) && o.start_local.slice(0, 10) <= lastDate && o.end_local.slice(0, 10) >= from,
    );
    for (const o of moved) {
      const d = o.recurrence_id.slice(0, 10);
      if (expandRule(rule, e.start_local, e.start_tz, d, d).includes(o.recurrence_id)) rids.push(o.recurrence_id);
    }
    if (moved.length) rids.sort();
  }
  const out: Inst[] = [];
  for (const rid of rids) {
    if (ex.has(compact(rid))) continue;
    const o = ov.get(rid);
    if (o?.cancelled) continue;
    let start = rid;
    let end: string;
    if (o) {
      start = o.start_local;
      end = o.end_local;
    } else if (e.all_day) end = plusDays(rid, Math.round(dur / 86400000));
    else end = toLocal(toUtc(rid, e.start_tz) + dur, e.start_tz);
    out.push({ recurrenceId: rid, start, end, title: o?.title ?? e.title, location: o?.location ?? e.location, edited: !!o?.edited_at });
  }
  return out;
}

interface Loaded {
  events: EventRow[];
  overrides: Map<string, OverrideRow[]>;
  self: Map<string, string>;
}

function load(fromUtc: string, toUtcT: string, includeHidden: boolean): Loaded {
  const events = db()
    .prepare(
      `SELECT e.* FROM events e JOIN calendars c ON c.id = e.calendar_id
        WHERE e.start_utc < ? AND e.last_utc > ? ${includeHidden ? "" : "AND c.hidden = 0"}
        ORDER BY e.start_utc, e.id`,
    )
    .all(toUtcT, fromUtc) as EventRow[];
  const overrides = new Map<string, OverrideRow[]>();
  const series = events.filter((e) => e.rrule).map((e) => e.id);
  if (series.length) {
    const rows = db()
      .prepare(`SELECT * FROM overrides WHERE event_id IN (${series.map(() => "?").join(",")})`)
      .all(...series) as OverrideRow[];
    for (const r of rows) overrides.set(r.event_id, [...(overrides.get(r.event_id) ?? []), r]);
  }
  const self = new Map<string, string>();
  for (const r of db().prepare("SELECT event_id, partstat FROM attendees WHERE is_self = 1").all() as { event_id: string; partstat: string }[]) self.set(r.event_id, r.partstat);
  return { events, overrides, self };
}

/**
 * Every occurrence overlapping the viewer-zone dates `[fromDate, toDate)` (all-day events by date,
 * timed events by instant), sorted by start then title. Hidden calendars are left out unless asked.
 */
export function occurrencesBetween(fromDate: string, toDate: string, opts: { includeHidden?: boolean; ctx?: CalContext } = {}): Occurrence[] {
  const ctx = opts.ctx ?? calContext();
  const fromMs = toUtc(fromDate, ctx.tz);
  const toMs = toUtc(toDate, ctx.tz);
  // Load a little wider: all-day rows are stored at the persona's midnight, moved occurrences may sit outside.
  const loaded = load(new Date(fromMs - 3 * 86400000).toISOString().slice(0, 19) + "Z", new Date(toMs + 3 * 86400000).toISOString().slice(0, 19) + "Z", !!opts.includeHidden);
  const colors = new Map(calendars().map((c) => [c.id, c.color]));
  const out: Occurrence[] = [];
  const lastDate = plusDays(toDate, 2);
  for (const e of loaded.events) {
    const myStatus = loaded.self.get(e.id) ?? null;
    for (const inst of instances(e, lastDate, loaded.overrides.get(e.id) ?? [], plusDays(fromDate, -2))) {
      let o: Occurrence;
      if (e.all_day) {
        if (!(inst.start < toDate && inst.end > fromDate)) continue;
        o = {
          key: inst.recurrenceId ? `${e.id}|${inst.recurrenceId}` : e.id, eventId: e.id, recurrenceId: inst.recurrenceId, title: inst.title, location: inst.location,
          calendarId: e.calendar_id, color: eventHex(e.color, colors.get(e.calendar_id) ?? "#3f4bb8"), allDay: true, start: inst.start, end: inst.end,
          startMs: toUtc(inst.start, ctx.tz), endMs: toUtc(inst.end, ctx.tz), source: e.source, series: !!e.rrule,
          invitation: !e.organizer_is_self, myStatus, banner: true,
        };
      } else {
        const startMs = toUtc(inst.start, e.start_tz);
        const endMs = e.rrule ? toUtc(inst.end, e.start_tz) : toUtc(inst.end, e.end_tz);
        if (!(startMs < toMs && (endMs > fromMs || (endMs === startMs && startMs >= fromMs)))) continue;
        o = {
          key: inst.recurrenceId ? `${e.id}|${inst.recurrenceId}` : e.id, eventId: e.id, recurrenceId: inst.recurrenceId, title: inst.title, location: inst.location,
          calendarId: e.calendar_id, color: eventHex(e.color, colors.get(e.calendar_id) ?? "#3f4bb8"), allDay: false, start: toLocal(startMs, ctx.tz), end: toLocal(endMs, ctx.tz),
          startMs, endMs, source: e.source, series: !!e.rrule, invitation: !e.organizer_is_self, myStatus, banner: endMs - startMs >= 86400000,
        };
      }
      out.push(o);
    }
  }
  out.sort((a, b) => (a.allDay === b.allDay ? 0 : a.allDay ? -1 : 1) || a.startMs - b.startMs || b.endMs - a.endMs || a.title.localeCompare(b.title));
  markConflicts(out);
  return out;
}

/** Flag timed occurrences (under 24 hours, not declined) that overlap another such occurrence. */
export function markConflicts(list: Occurrence[]): void {
  const timed = list.filter((o) => !o.allDay && !o.banner && o.myStatus !== "DECLINED").sort((a, b) => a.startMs - b.startMs);
  for (let i = 0; i < timed.length; i++) {
    for (let j = i + 1; j < timed.length && timed[j].startMs < timed[i].endMs; j++) {
      if (timed[j].startMs < timed[i].endMs && timed[i].startMs < timed[j].endMs) {
        timed[i].conflict = true;
        timed[j].conflict = true;
      }
    }
  }
}

/** Viewer-zone dates `[first, last]` an occurrence covers (end exclusive; a timed event ending at midnight stops the day before). */
export function coveredDates(o: Occurrence): string[] {
  const first = o.start.slice(0, 10);
  let endDate: string;
  if (o.allDay) endDate = plusDays(o.end.slice(0, 10), -1);
  else {
    endDate = o.end.slice(0, 10);
    if (o.end.slice(11) === "00:00:00" && o.endMs > o.startMs) endDate = plusDays(endDate, -1);
  }
  const out: string[] = [];
  for (let d = first; d <= endDate && out.length < 400; d = plusDays(d, 1)) out.push(d);
  if (!out.length) out.push(first);
  return out;
}

/** One occurrence of event `e` by recurrence id (series) or the event itself; null when it does not occur. */
export function occurrenceOf(e: EventRow, recurrenceId: string | null, ctx = calContext()): Occurrence | null {
  if (e.rrule && recurrenceId) {
    const day = recurrenceId.slice(0, 10);
    const list = occurrencesBetween(plusDays(day, -2), plusDays(day, 3), { includeHidden: true, ctx });
    return list.find((o) => o.eventId === e.id && o.recurrenceId === recurrenceId) ?? null;
  }
  if (e.rrule) return null;
  const s = e.all_day ? e.start_local : toLocal(toUtc(e.start_local, e.start_tz), ctx.tz).slice(0, 10);
  const list = occurrencesBetween(plusDays(s, -1), plusDays(s, 2), { includeHidden: true, ctx });
  return list.find((o) => o.eventId === e.id) ?? null;
}

/** The next occurrence of series `e` starting at or after viewer-local `after`. */
export function nextOccurrence(e: EventRow, after: string, ctx = calContext()): Occurrence | null {
  for (let d = after.slice(0, 10), i = 0; i < 60; i++, d = plusDays(d, 14)) {
    const list = occurrencesBetween(d, plusDays(d, 14), { includeHidden: true, ctx }).filter((o) => o.eventId === e.id && o.start >= after);
    if (list.length) return list[0];
    if (naiveMs(d) > Date.parse(e.last_utc)) break;
  }
  return null;
}

/** Events whose persona's answer is still needed (invitations), with their next occurrence at or after now. */
export function pendingInvitations(ctx = calContext()) {
  const rows = db()
    .prepare(
      `SELECT e.* FROM events e JOIN attendees a ON a.event_id = e.id AND a.is_self = 1
        WHERE e.organizer_is_self = 0 AND a.partstat = 'NEEDS-ACTION' AND e.last_utc > ? ORDER BY e.start_utc`,
    )
    .all(new Date(toUtc(ctx.now, ctx.tz)).toISOString().slice(0, 19) + "Z") as EventRow[];
  return rows;
}
