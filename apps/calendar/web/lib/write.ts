/**
 * Changing the calendar: create, edit (this occurrence or the whole series), move, delete, RSVP.
 * Every entry point validates first and throws CalError (with the field) before touching a row,
 * so bad input changes nothing. Text is stored verbatim.
 */
import crypto from "node:crypto";
import { callApp } from "@persona/platform/internal";
import { serviceDomain } from "@persona/platform/services";
import { db } from "./db";
import { calContext } from "./context";
import { attendeesOf, calendars, compact, getEvent, overridesOf, instances, type EventRow } from "./events";
import { calendarText, type IcsEvent } from "./ics";
import { isEventColor } from "./colors";
import { lastInstance, parseRule, RuleError, ruleText } from "./rrule";
import { dayNumber, plusDays, toLocal, toUtc, utcText, validDate, validTime, validZone } from "./tz";

export class CalError extends Error {
  constructor(message: string, readonly field?: string, readonly status = 400) {
    super(message);
  }
}

export const MAX_TITLE = 200;
/** Largest event form (create/edit) body read (bytes): more than the fields' caps allow, so an over-long field is told
 * apart with its own message; larger bodies are a 413. */
export const EVENT_FORM_BYTES = 2 * 1024 * 1024;
export const NO_EVENT = "That event does not exist (it may have been deleted).";
export const MAX_LOCATION = 500;
export const MAX_DESCRIPTION = 8000;
/** Longest value per posted field (characters), checked before any other work (lib/http.ts checkCaps); others 200. */
export const FIELD_CAPS: Record<string, number> = { title: MAX_TITLE, location: MAX_LOCATION, description: MAX_DESCRIPTION, back: 2000 };
export const REPEATS = ["none", "daily", "weekdays", "weekly", "monthly", "yearly"] as const;
export const REMINDER_CHOICES = [0, 5, 10, 15, 30, 60, 120, 1440, 10080];
/** Reminders an event may have (the form's slots: `reminder`, `reminder2`..`reminder5`). */
export const MAX_REMINDERS = 5;
/** Most occurrences a series may be given ("after N times"): two years of a daily event. */
export const MAX_COUNT = 730;
export const REMINDER_FIELDS = ["reminder", "reminder2", "reminder3", "reminder4", "reminder5"] as const;
/** Every field the create/edit form posts (the routes read these and refill the form with them on an error). */
export const EVENT_FIELDS = [
  "title", "date", "start_time", "end_date", "end_time", "all_day", "timezone", "calendar", "location", "description", "repeat",
  ...REMINDER_FIELDS, "reminders", "reminders_form", "ends", "until", "count", "color",
] as const;
const FAR = "9999-12-31T23:59:59Z";

/**
 * `last_utc` of a row: the end of its last occurrence; for a series whose rule ends (COUNT, UNTIL) the end of the
 * rule's last instance, FAR for one that does not end (or ends beyond what an expansion ever walks).
 */
function lastUtc(rrule: string | null, startLocal: string, tz: string, startMs: number, endMs: number): string {
  if (!rrule) return utcText(endMs);
  const last = lastInstance(parseRule(rrule), startLocal, tz);
  return last === null ? FAR : utcText(toUtc(last, tz) + (endMs - startMs));
}

/** A series occurrence now ending at `endLocal` (series zone): keep `last_utc` at or after it. */
function stretchLast(e: EventRow, endLocal: string): void {
  db().prepare("UPDATE events SET last_utc = MAX(last_utc, ?) WHERE id = ?").run(utcText(toUtc(endLocal, e.start_tz)), e.id);
}

export interface EventInput {
  title: string;
  date: string;
  start_time: string;
  end_date: string;
  end_time: string;
  all_day: string;
  timezone: string;
  calendar: string;
  location: string;
  description: string;
  repeat: string;
  reminder: string;
  /** Slots 2-5 of the form (slot 1 is `reminder`). */
  reminder2?: string;
  reminder3?: string;
  reminder4?: string;
  reminder5?: string;
  /** All reminders at once, comma-separated minutes (API callers); when given, the slots are not read. */
  reminders?: string;
  /** "1" when the form with every slot posted: its slots are the whole list (all empty: no reminder). */
  reminders_form?: string;
  /** How a repeating event ends: "never", "on" (`until`, a date) or "after" (`count` occurrences); empty: keep. */
  ends?: string;
  until?: string;
  count?: string;
  /** A palette name (lib/colors.ts), "calendar" for the calendar's colour; empty: keep (edit) or the calendar's. */
  color?: string;
}

/** How a series ends: never, on a date (its last day, the series' own dates) or after `count` occurrences. */
export type RepeatEnd = { kind: "never" } | { kind: "on"; until: string } | { kind: "after"; count: number };

export interface Checked {
  title: string;
  allDay: boolean;
  startLocal: string;
  endLocal: string;
  tz: string;
  calendar: string;
  location: string;
  description: string;
  repeat: string;
  reminder: number | null;
  /** The reminders to store (minutes), or null to leave the event's as they are. */
  reminders: number[] | null;
  /** The series' end the form asks for, or null to keep the rule's own. */
  end: RepeatEnd | null;
  /** A palette name, null for the calendar's colour, undefined to keep the event's. */
  color: string | null | undefined;
  startMs: number;
  endMs: number;
}

/** Validate the event form. Throws CalError naming the first bad field. */
export function checkInput(v: EventInput, opts: { needRepeat?: boolean; have?: number[] } = {}): Checked {
  const title = v.title ?? "";
  if (!title.trim()) throw new CalError("Add a title for the event.", "title");
  if ([...title].length > MAX_TITLE) throw new CalError(`The title is too long: at most ${MAX_TITLE} characters.`, "title");
  if ((v.location ?? "").length > MAX_LOCATION) throw new CalError(`The location is too long: at most ${MAX_LOCATION} characters.`, "location");
  if ((v.description ?? "").length > MAX_DESCRIPTION) throw new CalError(`The description is too long: at most ${MAX_DESCRIPTION} characters.`, "description");
  const allDay = v.all_day === "1" || v.all_day === "on" || v.all_day === "true";
  if (!validDate(v.date ?? "")) throw new CalError("Enter the start date as YYYY-MM-DD (a real calendar date).", "date");
  const endDate = v.end_date ? v.end_date : v.date;
  if (!validDate(endDate)) throw new CalError("Enter the end date as YYYY-MM-DD (a real calendar date).", "end_date");
  const ctx = calContext();
  const tz = v.timezone || ctx.tz;
  if (tz.length > 64 || !validZone(tz)) throw new CalError(`Unknown time zone "${excerpt(tz)}".`, "timezone");
  const cal = v.calendar || "personal";
  if (!calendars().some((c) => c.id === cal)) throw new CalError("Choose one of your calendars.", "calendar");
  const repeat = v.repeat || "none";
  if (repeat !== "keep" && !(REPEATS as readonly string[]).includes(repeat)) throw new CalError("Choose how the event repeats from the list.", "repeat");
  if (opts.needRepeat === false && repeat !== "none") throw new CalError("Only the whole series can change how it repeats.", "repeat");
  let reminder: number | null = null;
  if (v.reminder !== undefined && v.reminder !== "" && v.reminder !== "none") {
    const n = Number(v.reminder);
    if (!REMINDER_CHOICES.includes(n) && !(opts.have ?? []).includes(n)) throw new CalError("Choose a reminder from the list.", "reminder");
    reminder = n;
  }
  const reminders = checkReminders(v, opts.have ?? []);
  const color = checkColor(v.color);
  let startLocal: string, endLocal: string, startMs: number, endMs: number;
  if (allDay) {
    startLocal = v.date;
    endLocal = plusDays(endDate, 1);
    if (endDate < v.date) throw new CalError("The event must end after it starts.", "end_date");
    startMs = toUtc(startLocal, ctx.tz);
    endMs = toUtc(endLocal, ctx.tz);
  } else {
    if (!validTime(v.start_time ?? "")) throw new CalError("Enter the start time as HH:MM (24-hour).", "start_time");
    if (!validTime(v.end_time ?? "")) throw new CalError("Enter the end time as HH:MM (24-hour).", "end_time");
    startLocal = `${v.date}T${v.start_time}:00`;
    endLocal = `${endDate}T${v.end_time}:00`;
    startMs = toUtc(startLocal, tz);
    endMs = toUtc(endLocal, tz);
    if (endMs <= startMs) throw new CalError("The event must end after it starts.", "end_time");
    if (endMs - startMs > 366 * 86400000) throw new CalError("An event can last at most a year.", "end_date");
  }
  const end = repeat === "none" ? null : checkEnd(v, startLocal.slice(0, 10));
  return { title, allDay, startLocal, endLocal, tz: allDay ? ctx.tz : tz, calendar: cal, location: v.location ?? "", description: v.description ?? "", repeat, reminder, reminders, end, color, startMs, endMs };
}

/** A reminder's words in a message ("10 minutes before", "1 day before"). */
function reminderWords(n: number): string {
  if (n === 0) return "At the start";
  if (n % 1440 === 0) return `${n / 1440} ${n === 1440 ? "day" : "days"} before`;
  if (n % 60 === 0) return `${n / 60} ${n === 60 ? "hour" : "hours"} before`;
  return `${n} minutes before`;
}

/**
 * The reminders the form asks for (minutes, in the order given), or null to keep the event's: `reminders` (comma
 * list) when given, else the slots `reminder`..`reminder5` ("" and "none" are empty slots). Without `reminders_form`
 * an empty list keeps the event's (a caller posting only `reminder`), except `reminder=none`, which clears them. Each
 * must be one of REMINDER_CHOICES (or one the event already has: a seeded 9:00 the day before), at most MAX_REMINDERS,
 * none twice.
 */
function checkReminders(v: EventInput, have: number[]): number[] | null {
  const raw = v.reminders ? v.reminders.split(",").map((x) => x.trim()) : REMINDER_FIELDS.map((k) => v[k] ?? "");
  const given = raw.filter((x) => x !== "" && x !== "none");
  if (given.length > MAX_REMINDERS) throw new CalError(`An event can have at most ${MAX_REMINDERS} reminders.`, "reminders");
  const out: number[] = [];
  for (const x of given) {
    const n = /^\d{1,6}$/.test(x) ? Number(x) : NaN;
    if (!REMINDER_CHOICES.includes(n) && !have.includes(n)) throw new CalError("Choose each reminder from the list.", "reminders");
    if (out.includes(n)) throw new CalError(`The reminder "${reminderWords(n)}" is there twice: each reminder must be different.`, "reminders");
    out.push(n);
  }
  if (out.length || v.reminders_form === "1" || v.reminder === "none") return out;
  return null;
}

/** The colour field: a palette name, null (the calendar's colour: "calendar"), undefined (empty: keep/default). */
function checkColor(raw: string | undefined): string | null | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (raw === "calendar") return null;
  if (!isEventColor(raw)) throw new CalError(`"${excerpt(raw)}" is not one of Daybook's colours: choose one from the list.`, "color");
  return raw;
}

/** The series' end the form asks for (`ends`, `until`, `count`), or null to keep the rule's own (no `ends`). */
function checkEnd(v: EventInput, firstDate: string): RepeatEnd | null {
  const ends = v.ends ?? "";
  if (ends === "") return null;
  if (ends === "never") return { kind: "never" };
  if (ends === "on") {
    const until = v.until ?? "";
    if (!validDate(until)) throw new CalError("Enter the date the event stops repeating as YYYY-MM-DD (a real calendar date).", "until");
    if (until < firstDate) throw new CalError("The repeat cannot end before the event's first day.", "until");
    return { kind: "on", until };
  }
  if (ends === "after") {
    const count = /^\d{1,6}$/.test((v.count ?? "").trim()) ? Number(v.count!.trim()) : NaN;
    if (!(count >= 1 && count <= MAX_COUNT)) throw new CalError(`Repeat it between 1 and ${MAX_COUNT} times.`, "count");
    return { kind: "after", count };
  }
  throw new CalError("Choose when the repeat ends: never, on a date or after a number of times.", "ends");
}

/** The end of a stored rule as the form shows it (an UNTIL instant as its date in the series' zone `tz`). */
export function ruleEnd(rrule: string | null, tz: string): RepeatEnd {
  if (!rrule) return { kind: "never" };
  try {
    const r = parseRule(rrule);
    if (r.count) return { kind: "after", count: r.count };
    if (r.until) {
      const u = r.until;
      const date = `${u.slice(0, 4)}-${u.slice(4, 6)}-${u.slice(6, 8)}`;
      if (u.length < 15) return { kind: "on", until: date };
      const ms = Date.parse(`${date}T${u.slice(9, 11)}:${u.slice(11, 13)}:${u.slice(13, 15)}Z`);
      return { kind: "on", until: toLocal(ms, tz).slice(0, 10) };
    }
  } catch {
    /* a rule the calendar cannot read has no end it can show */
  }
  return { kind: "never" };
}

function sameEnd(a: RepeatEnd, b: RepeatEnd): boolean {
  return a.kind === b.kind && (a.kind !== "on" || a.until === (b as { until: string }).until) && (a.kind !== "after" || a.count === (b as { count: number }).count);
}

/**
 * `rrule` ending as `end` says (RFC 5545): COUNT=n, or UNTIL= the last day's end; for a timed series that is
 * 23:59:59 of the day in the series' zone `tz` as a UTC instant (`YYYYMMDDTHHMMSSZ`), for an all-day one the DATE.
 */
function withEnd(rrule: string, end: RepeatEnd, tz: string, allDay: boolean): string {
  const r = parseRule(rrule);
  r.count = end.kind === "after" ? end.count : null;
  r.until = null;
  if (end.kind === "on") r.until = allDay ? compact(end.until) : utcText(toUtc(`${end.until}T23:59:59`, tz)).replace(/[-:]/g, "");
  return ruleText(r);
}

/** At most `n` characters of input for a message (an ellipsis when cut). */
function excerpt(text: string, n = 40): string {
  const chars = [...text];
  return chars.length > n ? `${chars.slice(0, n).join("")}…` : text;
}

/** A UNIQUE or PRIMARY KEY constraint failed (a made id that is taken). */
function collided(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? "";
  return code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
}

function ruleFor(repeat: string, startLocal: string): string | null {
  const wd = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][(((dayNumber(startLocal) + 4) % 7) + 7) % 7];
  const dom = Number(startLocal.slice(8, 10));
  switch (repeat) {
    case "daily":
      return "FREQ=DAILY";
    case "weekdays":
      return "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR";
    case "weekly":
      return `FREQ=WEEKLY;BYDAY=${wd}`;
    case "monthly":
      return `FREQ=MONTHLY;BYDAY=${Math.floor((dom - 1) / 7) + 1}${wd}`;
    case "yearly":
      return "FREQ=YEARLY";
    default:
      return null;
  }
}

function nowStamp(): { now: string; nowMs: number } {
  const ctx = calContext();
  return { now: ctx.now, nowMs: toUtc(ctx.now, ctx.tz) };
}

function selfFor(calendarId: string): { name: string; email: string } {
  const u = db().prepare("SELECT full_name, email, work_email FROM users WHERE id = 1").get() as { full_name: string; email: string; work_email: string | null };
  return { name: u.full_name, email: calendarId === "work" && u.work_email ? u.work_email : u.email };
}

/** Create an event (or series) from the form; returns its id. The id and UID are made in the write transaction (BEGIN
 * IMMEDIATE) and made again on a collision, so two events never share one and a collision is never an error. */
export function createEvent(v: EventInput): string {
  const c = checkInput(v);
  const { now } = nowStamp();
  const base = ruleFor(c.repeat, c.startLocal);
  const rrule = base && c.end ? withEnd(base, c.end, c.tz, c.allDay) : base;
  const me = selfFor(c.calendar);
  for (let attempt = 0; ; attempt++) {
    const id = crypto.randomUUID();
    try {
      insertEvent(id, c, rrule, me, now);
      return id;
    } catch (err) {
      if (!collided(err) || attempt >= 5) throw err;
    }
  }
}

function insertEvent(id: string, c: Checked, rrule: string | null, me: { name: string; email: string }, now: string): void {
  const tx = db().transaction(() => {
    db()
      .prepare(
        `INSERT INTO events (id, uid, calendar_id, title, description, location, all_day, start_local, start_tz, end_local, end_tz,
           start_utc, end_utc, last_utc, rrule, color, exdates, organizer_name, organizer_email, organizer_is_self, source, ref, invite_message_id,
           sequence, world_ref, created_at, edited_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, 1, 'app', NULL, NULL, 0, NULL, ?, ?)`,
      )
      .run(id, `${id}@daybook.test`, c.calendar, c.title, c.description, c.location, c.allDay ? 1 : 0, c.startLocal, c.tz, c.endLocal, c.tz,
        utcText(c.startMs), utcText(c.endMs), lastUtc(rrule, c.startLocal, c.tz, c.startMs, c.endMs), rrule, c.color ?? null, me.name, me.email, now, now);
    const ins = db().prepare("INSERT INTO reminders (event_id, minutes, method) VALUES (?, ?, 'popup')");
    for (const n of c.reminders ?? []) ins.run(id, n);
  });
  tx.immediate();
}

function requireEvent(id: string): EventRow {
  const e = getEvent(id);
  if (!e) throw new CalError(NO_EVENT, undefined, 404);
  return e;
}

function requireOccurrence(e: EventRow, occ: string): void {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?$/.test(occ)) throw new CalError("Say which occurrence (occ=YYYY-MM-DDTHH:MM:SS).", "occ");
  const found = instances(e, plusDays(occ.slice(0, 10), 1), undefined, occ.slice(0, 10)).some((i) => i.recurrenceId === occ);
  const ov = overridesOf(e.id).some((o) => o.recurrence_id === occ && !o.cancelled);
  if (!found && !ov) throw new CalError("That occurrence is not part of the series.", "occ", 404);
}

/**
 * Edit an event. `scope` "this" (a series occurrence `occ`: an override row) or "all" (the row itself;
 * for a series, a new time of day moves every occurrence, EXDATEs and overrides along).
 */
export function updateEvent(id: string, v: EventInput, scope: string, occ: string): void {
  const e = requireEvent(id);
  if (e.rrule && scope !== "this" && scope !== "all") throw new CalError("Choose whether to change this event or all events in the series.", "scope");
  const { now } = nowStamp();
  if (e.rrule && scope === "this") {
    requireOccurrence(e, occ);
    const c = checkInput({ ...v, repeat: "none", calendar: v.calendar || e.calendar_id, timezone: e.start_tz }, { needRepeat: false });
    if (c.allDay !== !!e.all_day) throw new CalError("One occurrence cannot switch between all-day and timed; edit all events instead.", "all_day");
    const start = c.allDay ? c.startLocal : toLocal(c.startMs, e.start_tz);
    const end = c.allDay ? c.endLocal : toLocal(c.endMs, e.start_tz);
    const tx = db().transaction(() => {
      db()
        .prepare(
          `INSERT INTO overrides (event_id, recurrence_id, start_local, end_local, title, location, description, cancelled, world_ref, edited_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, ?)
           ON CONFLICT(event_id, recurrence_id) DO UPDATE SET start_local = excluded.start_local, end_local = excluded.end_local,
             title = excluded.title, location = excluded.location, description = excluded.description, cancelled = 0, edited_at = excluded.edited_at`,
        )
        .run(e.id, occ, start, end, c.title === e.title ? null : c.title, c.location === e.location ? null : c.location,
          c.description === e.description ? null : c.description, now);
      db().prepare("UPDATE events SET sequence = sequence + 1 WHERE id = ?").run(e.id);
      stretchLast(e, end);
    });
    tx();
    return;
  }
  const have = (db().prepare("SELECT minutes FROM reminders WHERE event_id = ?").all(e.id) as { minutes: number }[]).map((r) => r.minutes);
  const c = checkInput({ ...v, calendar: v.calendar || e.calendar_id }, { needRepeat: true, have });
  let rrule = e.rrule;
  let exdates = e.exdates;
  const tx = db().transaction(() => {
    if (e.rrule) {
      // Keep the series' own rule unless the form asks for another pattern.
      if (v.repeat && v.repeat !== "keep") {
        rrule = v.repeat === "none" ? null : ruleFor(v.repeat, c.startLocal);
        if (rrule && c.end) rrule = withEnd(rrule, c.end, c.tz, c.allDay);
      }
      // A new end (COUNT, UNTIL or none) on the kept pattern; the one the form showed leaves the rule's text alone.
      else if (rrule && c.end && !sameEnd(c.end, ruleEnd(rrule, e.start_tz))) {
        try {
          rrule = withEnd(rrule, c.end, c.tz, c.allDay);
        } catch (err) {
          if (err instanceof RuleError) throw new CalError(err.message, "repeat");
          throw err;
        }
      }
      if (!c.allDay && !e.all_day && rrule) {
        // A new time of day: move EXDATEs and overrides' keys with it (same dates, new time).
        const oldT = e.start_local.slice(10);
        const newT = c.startLocal.slice(10);
        if (oldT !== newT) {
          exdates = exdates ? exdates.split(",").map((x) => compact(`${x.slice(0, 4)}-${x.slice(4, 6)}-${x.slice(6, 8)}${newT}`)).join(",") : "";
          for (const o of overridesOf(e.id)) {
            db().prepare("UPDATE overrides SET recurrence_id = ? WHERE id = ?").run(`${o.recurrence_id.slice(0, 10)}${newT}`, o.id);
          }
        }
      }
    } else {
      rrule = v.repeat && v.repeat !== "keep" ? ruleFor(v.repeat, c.startLocal) : null;
      if (rrule && c.end) rrule = withEnd(rrule, c.end, c.tz, c.allDay);
    }
    let last = utcText(c.endMs);
    if (rrule) {
      try {
        const r = parseRule(rrule);
        const same = e.rrule === rrule && e.start_local === c.startLocal && e.end_local === c.endLocal && e.start_tz === c.tz;
        last = r.until || r.count ? (same ? e.last_utc : lastUtc(rrule, c.startLocal, c.tz, c.startMs, c.endMs)) : FAR;
      } catch (err) {
        if (err instanceof RuleError) throw new CalError(err.message, "repeat");
        throw err;
      }
    }
    db()
      .prepare(
        `UPDATE events SET title = ?, description = ?, location = ?, all_day = ?, start_local = ?, start_tz = ?, end_local = ?, end_tz = ?,
           start_utc = ?, end_utc = ?, last_utc = ?, rrule = ?, exdates = ?, calendar_id = ?, color = ?, sequence = sequence + 1, edited_at = ? WHERE id = ?`,
      )
      .run(c.title, c.description, c.location, c.allDay ? 1 : 0, c.startLocal, c.tz, c.endLocal, c.tz, utcText(c.startMs), utcText(c.endMs),
        last, rrule, rrule ? exdates : "", c.calendar, c.color === undefined ? e.color : c.color, now, e.id);
    if (!rrule) db().prepare("DELETE FROM overrides WHERE event_id = ?").run(e.id);
    if (c.reminders !== null && (v.reminders_form === "1" || v.reminders || c.reminders.length > 1 || REMINDER_FIELDS.slice(1).some((k) => v[k]))) {
      // The form's list is the whole list: drop the others, add the new ones (a kept one keeps its method).
      const have = db().prepare("SELECT id, minutes FROM reminders WHERE event_id = ?").all(e.id) as { id: number; minutes: number }[];
      const seen = new Set<number>();
      for (const r of have) {
        if (c.reminders.includes(r.minutes) && !seen.has(r.minutes)) seen.add(r.minutes);
        else db().prepare("DELETE FROM reminders WHERE id = ?").run(r.id);
      }
      for (const n of c.reminders) if (!seen.has(n)) db().prepare("INSERT INTO reminders (event_id, minutes, method) VALUES (?, ?, 'popup')").run(e.id, n);
    } else if (c.reminder !== null) {
      db().prepare("DELETE FROM reminders WHERE event_id = ? AND method = 'popup'").run(e.id);
      db().prepare("INSERT INTO reminders (event_id, minutes, method) VALUES (?, ?, 'popup')").run(e.id, c.reminder);
    } else if (v.reminder === "none") db().prepare("DELETE FROM reminders WHERE event_id = ?").run(e.id);
  });
  tx();
}

/** Move an event (or one occurrence `occ` of a series) to start at `date` `time` in the viewer's zone, keeping its length. */
export function moveEvent(id: string, occ: string, date: string, time: string): void {
  const e = requireEvent(id);
  if (!validDate(date)) throw new CalError("Enter the new date as YYYY-MM-DD (a real calendar date).", "date");
  if (!e.all_day && !validTime(time)) throw new CalError("Enter the new start time as HH:MM (24-hour).", "time");
  const ctx = calContext();
  const { now } = nowStamp();
  if (e.rrule) {
    if (!occ) throw new CalError("Say which occurrence of the series to move.", "occ");
    requireOccurrence(e, occ);
    const inst = instances(e, plusDays(occ.slice(0, 10), 3), undefined, occ.slice(0, 10)).find((i) => i.recurrenceId === occ);
    const cur = inst ?? { start: occ, end: occ };
    let start: string, end: string;
    if (e.all_day) {
      start = date;
      end = plusDays(date, dayNumber(cur.end) - dayNumber(cur.start));
    } else {
      const dur = toUtc(cur.end, e.start_tz) - toUtc(cur.start, e.start_tz);
      const ms = toUtc(`${date}T${time}:00`, ctx.tz);
      start = toLocal(ms, e.start_tz);
      end = toLocal(ms + dur, e.start_tz);
    }
    db()
      .prepare(
        `INSERT INTO overrides (event_id, recurrence_id, start_local, end_local, title, location, description, cancelled, world_ref, edited_at)
         VALUES (?, ?, ?, ?, NULL, NULL, NULL, 0, NULL, ?)
         ON CONFLICT(event_id, recurrence_id) DO UPDATE SET start_local = excluded.start_local, end_local = excluded.end_local, cancelled = 0, edited_at = excluded.edited_at`,
      )
      .run(e.id, occ, start, end, now);
    db().prepare("UPDATE events SET sequence = sequence + 1 WHERE id = ?").run(e.id);
    stretchLast(e, end);
    return;
  }
  if (e.all_day) {
    const len = dayNumber(e.end_local) - dayNumber(e.start_local);
    const endD = plusDays(date, len);
    db().prepare("UPDATE events SET start_local = ?, end_local = ?, start_utc = ?, end_utc = ?, last_utc = ?, sequence = sequence + 1, edited_at = ? WHERE id = ?")
      .run(date, endD, utcText(toUtc(date, ctx.tz)), utcText(toUtc(endD, ctx.tz)), utcText(toUtc(endD, ctx.tz)), now, e.id);
    return;
  }
  const dur = toUtc(e.end_local, e.end_tz) - toUtc(e.start_local, e.start_tz);
  const ms = toUtc(`${date}T${time}:00`, ctx.tz);
  db().prepare("UPDATE events SET start_local = ?, end_local = ?, start_utc = ?, end_utc = ?, last_utc = ?, sequence = sequence + 1, edited_at = ? WHERE id = ?")
    .run(toLocal(ms, e.start_tz), toLocal(ms + dur, e.end_tz), utcText(ms), utcText(ms + dur), utcText(ms + dur), now, e.id);
}

/** Delete an event; for a series `scope` "this" cancels occurrence `occ`, "following" ends the series before it, "all" deletes it. */
export function deleteEvent(id: string, scope: string, occ: string): void {
  const e = requireEvent(id);
  const { now } = nowStamp();
  if (e.rrule && scope === "this") {
    requireOccurrence(e, occ);
    db()
      .prepare(
        `INSERT INTO overrides (event_id, recurrence_id, start_local, end_local, title, location, description, cancelled, world_ref, edited_at)
         VALUES (?, ?, ?, ?, NULL, NULL, NULL, 1, NULL, ?)
         ON CONFLICT(event_id, recurrence_id) DO UPDATE SET cancelled = 1, edited_at = excluded.edited_at`,
      )
      .run(e.id, occ, occ, occ, now);
    return;
  }
  if (e.rrule && scope === "following") {
    requireOccurrence(e, occ);
    if (occ.slice(0, 10) <= e.start_local.slice(0, 10)) return deleteEvent(id, "all", occ);
    const r = parseRule(e.rrule);
    r.count = null;
    const before = e.all_day ? plusDays(occ, -1) : toLocal(toUtc(occ, e.start_tz) - 1000, e.start_tz);
    r.until = e.all_day ? compact(before) : utcText(toUtc(before, e.start_tz)).replace(/[-:]/g, "");
    db().prepare("UPDATE events SET rrule = ?, last_utc = ?, sequence = sequence + 1, edited_at = ? WHERE id = ?")
      .run(ruleText(r), utcText(toUtc(occ, e.start_tz)), now, e.id);
    db().prepare("DELETE FROM overrides WHERE event_id = ? AND recurrence_id >= ?").run(e.id, occ);
    return;
  }
  if (e.rrule && scope !== "all") throw new CalError("Choose this event, this and following events, or all events.", "scope");
  db().prepare("DELETE FROM events WHERE id = ?").run(e.id);
}

export const PARTSTAT = { yes: "ACCEPTED", no: "DECLINED", maybe: "TENTATIVE" } as const;
const VERB: Record<string, string> = { ACCEPTED: "Accepted", DECLINED: "Declined", TENTATIVE: "Tentatively accepted" };

/** Set the persona's answer on event `e` (no mail). Returns the attendee email used. */
function setPartstat(e: EventRow, partstat: string): string {
  const { now } = nowStamp();
  const me = attendeesOf(e.id).find((a) => a.is_self);
  if (me) {
    db().prepare("UPDATE attendees SET partstat = ?, responded_at = ? WHERE id = ?").run(partstat, now, me.id);
    return me.email ?? selfFor(e.calendar_id).email;
  }
  const self = selfFor(e.calendar_id);
  const pos = (db().prepare("SELECT COALESCE(MAX(position), -1) + 1 AS p FROM attendees WHERE event_id = ?").get(e.id) as { p: number }).p;
  db().prepare("INSERT INTO attendees (event_id, position, name, email, role, partstat, is_self, responded_at) VALUES (?, ?, ?, ?, 'guest', ?, 1, ?)")
    .run(e.id, pos, self.name, self.email, partstat, now);
  return self.email;
}

/** Events whose reply mail this process is sending right now (a `pending` reply row of one of them is in flight). */
const sending: Set<string> = ((globalThis as unknown as { __daybookSending?: Set<string> }).__daybookSending ??= new Set<string>());

/**
 * Whether `partstat` is already the persona's answer on `e` and that answer's reply went (or is going) out: the
 * newest reply row has the same answer and was sent, came from the mail app (which mails its own reply), or is being
 * sent now. A second "Yes" (another tab, a double click with a fresh form) then changes nothing and mails nothing.
 */
function alreadyAnswered(e: EventRow, partstat: string): boolean {
  const me = attendeesOf(e.id).find((a) => a.is_self);
  if (!me || me.partstat !== partstat || !me.responded_at) return false;
  const last = db().prepare("SELECT partstat, mail_status FROM rsvp_replies WHERE event_id = ? ORDER BY id DESC LIMIT 1").get(e.id) as
    | { partstat: string; mail_status: string }
    | undefined;
  if (!last || last.partstat !== partstat) return false;
  return last.mail_status === "sent" || last.mail_status === "internal" || (last.mail_status === "pending" && sending.has(e.id));
}

/**
 * Answer an invitation: store the RSVP, then mail the reply (an iCalendar REPLY) to the organizer
 * through the mail app. The answer and its reply row (`pending`) are written first, in one immediate transaction,
 * then the mail app is asked, then the row says `sent` or `failed`: the RSVP stays even when the mail app cannot take
 * it; the result says so. The same answer again, while or after its reply goes out, changes nothing (`unchanged`).
 */
export async function answerInvitation(id: string, answer: string): Promise<{ partstat: string; mail: "sent" | "failed" | "unchanged"; error?: string }> {
  const e = requireEvent(id);
  const partstat = Object.prototype.hasOwnProperty.call(PARTSTAT, answer) ? PARTSTAT[answer as keyof typeof PARTSTAT] : ["ACCEPTED", "DECLINED", "TENTATIVE"].includes(answer) ? answer : null;
  if (!partstat) throw new CalError("Answer yes, no or maybe.", "answer");
  if (e.organizer_is_self) throw new CalError("You organize this event; there is no invitation to answer.", "answer");
  if (!e.organizer_email) throw new CalError("This invitation has no organizer to reply to.", "answer");
  const { now, nowMs } = nowStamp();
  const subject = `${VERB[partstat]}: ${e.title}`;
  const reserved = db()
    .transaction((): { myEmail: string; reply: number } | null => {
      if (alreadyAnswered(e, partstat)) return null;
      const myEmail = setPartstat(e, partstat);
      const r = db()
        .prepare("INSERT INTO rsvp_replies (event_id, partstat, at, mail_status, mail_error, subject) VALUES (?, ?, ?, 'pending', NULL, ?)")
        .run(e.id, partstat, now, subject);
      return { myEmail, reply: Number(r.lastInsertRowid) };
    })
    .immediate();
  if (!reserved) return { partstat, mail: "unchanged" };
  const { myEmail, reply } = reserved;
  const self = selfFor(e.calendar_id);
  const ics = calendarText([getEvent(e.id)!], nowMs, { method: "REPLY", onlyAttendee: myEmail, partstat });
  const body = `${self.name} has ${partstat === "ACCEPTED" ? "accepted" : partstat === "DECLINED" ? "declined" : "tentatively accepted"} this invitation.\n\n${e.title}\n\nInvitation from Daybook`;
  let mail: "sent" | "failed" = "sent";
  let error: string | undefined;
  sending.add(e.id);
  try {
    const domain = serviceDomain("mail-delivery");
    if (!domain) throw new Error("no mail app in this build delivers mail");
    await callApp(domain, "/api/internal/deliver", {
      from: { name: self.name, email: myEmail },
      to: [{ name: e.organizer_name ?? e.organizer_email, email: e.organizer_email }],
      subject,
      body,
      folder: "sent",
      ...(e.invite_message_id ? { in_reply_to: e.invite_message_id } : {}),
      attachments: [{ filename: "reply.ics", content_type: "text/calendar; method=REPLY", content_base64: Buffer.from(ics, "utf8").toString("base64") }],
    });
  } catch (err) {
    mail = "failed";
    error = (err as Error).message.slice(0, 300);
  } finally {
    sending.delete(e.id);
  }
  db().prepare("UPDATE rsvp_replies SET mail_status = ?, mail_error = ? WHERE id = ?").run(mail, error ?? null, reply);
  return { partstat, mail, error };
}

/** The mail app's side of an RSVP: set the persona's answer on the event whose UID is `uid` (no reply mail). The same
 * answer told again (a retry) changes nothing. */
export function rsvpFromMail(uid: string, partstat: string): { id: string; partstat: string } {
  if (typeof uid !== "string" || !uid) throw new CalError("uid is required.", "uid");
  if (uid.length > 300) throw new CalError("uid is too long: at most 300 characters.", "uid");
  if (!["ACCEPTED", "DECLINED", "TENTATIVE", "NEEDS-ACTION"].includes(partstat)) throw new CalError("partstat must be ACCEPTED, DECLINED or TENTATIVE.", "partstat");
  const row = db().prepare("SELECT id FROM events WHERE uid = ?").get(uid) as { id: string } | undefined;
  if (!row) throw new CalError(`No event has the UID ${excerpt(uid, 80)}.`, "uid", 404);
  const e = getEvent(row.id)!;
  db()
    .transaction(() => {
      const me = attendeesOf(e.id).find((a) => a.is_self);
      const last = db().prepare("SELECT partstat, mail_status FROM rsvp_replies WHERE event_id = ? ORDER BY id DESC LIMIT 1").get(e.id) as
        | { partstat: string; mail_status: string }
        | undefined;
      if (me?.partstat === partstat && me.responded_at && last?.partstat === partstat && last.mail_status === "internal") return;
      setPartstat(e, partstat);
      const { now } = nowStamp();
      db()
        .prepare("INSERT INTO rsvp_replies (event_id, partstat, at, mail_status, mail_error, subject) VALUES (?, ?, ?, 'internal', NULL, ?)")
        .run(e.id, partstat, now, `${VERB[partstat] ?? partstat}: ${e.title}`);
    })
    .immediate();
  return { id: e.id, partstat };
}

/** A file's RRULE as stored (without the `RRULE:` prefix), or null when it has none or the calendar cannot read it. */
function fileRule(ev: IcsEvent): string | null {
  if (!ev.rrule) return null;
  try {
    parseRule(ev.rrule);
    return ev.rrule.replace(/^RRULE:/i, "");
  } catch {
    return null;
  }
}

/** A file event's start and end instants (ms; all-day dates in the calendar's zone `tz`). Throws CalError if it ends first. */
function fileTimes(ev: IcsEvent, tz: string): { startMs: number; endMs: number } {
  // The years the form takes too: every expansion and time-zone table is bounded by them.
  if (!validDate(ev.start.local.slice(0, 10)) || !validDate(ev.end.local.slice(0, 10))) {
    throw new CalError("The event in the file is dated outside the years 1900–2199.", "ics");
  }
  const startMs = ev.allDay ? toUtc(ev.start.local, tz) : toUtc(ev.start.local, ev.start.tz);
  const endMs = ev.allDay ? toUtc(ev.end.local, tz) : toUtc(ev.end.local, ev.end.tz);
  if (endMs < startMs) throw new CalError("The event in the file ends before it starts.", "ics");
  return { startMs, endMs };
}

type Added = { id: string; uid: string; created: boolean; updated: boolean };

/**
 * Add every event of a file (a booking's itinerary has one VEVENT per flight leg; an invitation
 * one, plus its RECURRENCE-ID overrides, which are skipped): each is added, updated (a higher
 * SEQUENCE than the stored one: a rescheduled flight, a moved meeting) or found as it is by its UID.
 * Answers the first event's {id, uid}, `created` / `updated` if any was, and one entry per event.
 */
export function addAllFromIcs(events: IcsEvent[]): Added & { events: Added[] } {
  const seen = new Set<string>();
  const masters = events.filter((x) => !x.recurrenceId && !seen.has(x.uid) && seen.add(x.uid));
  if (!masters.length) throw new CalError("The file has no event.", "ics");
  const out = db().transaction(() => masters.map((ev) => addFromIcs([ev]))).immediate();
  return { ...out[0], created: out.some((r) => r.created), updated: out.some((r) => r.updated), events: out };
}

/**
 * Add the first VEVENT of a file; an event with its UID already here is updated when the file's
 * SEQUENCE is higher (RFC 5545 3.8.7.4: the organizer's newer revision), else left as it is.
 */
export function addFromIcs(events: IcsEvent[]): Added {
  const ev = events.find((x) => !x.recurrenceId) ?? events[0];
  if (!ev.summary) throw new CalError("The event in the file has no SUMMARY (title).", "ics");
  if ([...ev.summary].length > MAX_TITLE) throw new CalError(`The title is too long: at most ${MAX_TITLE} characters.`, "ics");
  const existing = db().prepare("SELECT id, sequence FROM events WHERE uid = ?").get(ev.uid) as { id: string; sequence: number } | undefined;
  if (existing) {
    if (ev.sequence <= existing.sequence) return { id: existing.id, uid: ev.uid, created: false, updated: false };
    updateFromIcs(existing.id, ev);
    return { id: existing.id, uid: ev.uid, created: false, updated: true };
  }
  const ctx = calContext();
  const u = db().prepare("SELECT full_name, email, work_email FROM users WHERE id = 1").get() as { full_name: string; email: string; work_email: string | null };
  const mine = new Set([u.email, u.work_email].filter(Boolean).map((x) => x!.toLowerCase()));
  const orgMine = !ev.organizer || mine.has(ev.organizer.email.toLowerCase());
  const cal = [ev.organizer?.email, ...ev.attendees.map((a) => a.email)].some((x) => x && u.work_email && x.toLowerCase() === u.work_email.toLowerCase()) ? "work" : "personal";
  const rrule = fileRule(ev);
  const { startMs, endMs } = fileTimes(ev, ctx.tz);
  const id = crypto.randomUUID();
  const { now } = nowStamp();
  const tx = db().transaction(() => {
    db()
      .prepare(
        `INSERT INTO events (id, uid, calendar_id, title, description, location, all_day, start_local, start_tz, end_local, end_tz,
           start_utc, end_utc, last_utc, rrule, exdates, organizer_name, organizer_email, organizer_is_self, source, ref, invite_message_id,
           sequence, world_ref, created_at, edited_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, 'ics', NULL, NULL, 0, NULL, ?, ?)`,
      )
      .run(id, ev.uid, cal, ev.summary, ev.description, ev.location, ev.allDay ? 1 : 0, ev.start.local, ev.allDay ? ctx.tz : ev.start.tz,
        ev.end.local, ev.allDay ? ctx.tz : ev.end.tz, utcText(startMs), utcText(endMs),
        lastUtc(rrule, ev.start.local, ev.allDay ? ctx.tz : ev.start.tz, startMs, endMs), rrule, ev.organizer?.name ?? u.full_name, ev.organizer?.email ?? u.email, orgMine ? 1 : 0, now, now);
    let pos = 0;
    const ins = db().prepare("INSERT INTO attendees (event_id, position, name, email, role, partstat, is_self, responded_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)");
    if (ev.organizer && !orgMine) ins.run(id, pos++, ev.organizer.name, ev.organizer.email, "organizer", "ACCEPTED", 0);
    let selfSeen = false;
    for (const a of ev.attendees) {
      if (ev.organizer && a.email.toLowerCase() === ev.organizer.email.toLowerCase() && !orgMine) continue;
      const me = mine.has(a.email.toLowerCase());
      selfSeen ||= me;
      ins.run(id, pos++, a.name, a.email, me && orgMine ? "organizer" : "guest", me ? (orgMine ? "ACCEPTED" : "NEEDS-ACTION") : a.partstat, me ? 1 : 0);
    }
    if (!selfSeen && !orgMine) ins.run(id, pos++, u.full_name, cal === "work" && u.work_email ? u.work_email : u.email, "guest", "NEEDS-ACTION", 1);
    db().prepare("INSERT INTO reminders (event_id, minutes, method) VALUES (?, ?, 'popup')").run(id, ev.allDay ? 900 : 10);
  });
  tx();
  return { id, uid: ev.uid, created: true, updated: false };
}

/**
 * Take the newer revision `ev` of event `id`: title, text, place, times, rule and SEQUENCE (attendees and answers
 * stay). A timed event keeps its own zone (a hotel stay in Austin stays in Austin's time): the file's instants, often
 * UTC, are written as wall times of that zone.
 */
function updateFromIcs(id: string, ev: IcsEvent): void {
  const ctx = calContext();
  const { startMs, endMs } = fileTimes(ev, ctx.tz);
  const cur = db().prepare("SELECT start_tz, end_tz, all_day FROM events WHERE id = ?").get(id) as { start_tz: string; end_tz: string; all_day: number };
  if (!ev.allDay && !cur.all_day) {
    ev = { ...ev, start: { local: toLocal(startMs, cur.start_tz), tz: cur.start_tz }, end: { local: toLocal(endMs, cur.end_tz), tz: cur.end_tz } };
  }
  const rrule = fileRule(ev);
  const { now } = nowStamp();
  db()
    .prepare(
      `UPDATE events SET title = ?, description = ?, location = ?, all_day = ?, start_local = ?, start_tz = ?, end_local = ?,
         end_tz = ?, start_utc = ?, end_utc = ?, last_utc = ?, rrule = ?, sequence = ?, edited_at = ? WHERE id = ?`,
    )
    .run(ev.summary, ev.description, ev.location, ev.allDay ? 1 : 0, ev.start.local, ev.allDay ? ctx.tz : ev.start.tz,
      ev.end.local, ev.allDay ? ctx.tz : ev.end.tz, utcText(startMs), utcText(endMs),
      lastUtc(rrule, ev.start.local, ev.allDay ? ctx.tz : ev.start.tz, startMs, endMs), rrule, ev.sequence, now, id);
}
