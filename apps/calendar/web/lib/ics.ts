/**
 * iCalendar (RFC 5545) text: writing events (CRLF line ends, lines folded at 75 octets without
 * splitting a UTF-8 character, TEXT escaped, a VTIMEZONE for every TZID used) and reading the
 * VEVENTs of an invitation file.
 */
import { attendeesOf, compact, overridesOf, remindersOf, type EventRow } from "./events";
import { offsetMinutes, toLocal, toUtc, utcText } from "./tz";

/** TEXT value escaping (RFC 5545 3.3.11). */
export function escapeText(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r\n|\r|\n/g, "\\n");
}

/** A parameter value, quoted when it holds `:;,` (RFC 5545 3.2); quotes and controls dropped. */
function param(s: string): string {
  const clean = s.replace(/["\r\n\x00-\x1f]/g, "");
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

/** Fold one content line at 75 octets (continuations start with a space). */
export function fold(line: string): string {
  const bytes = Buffer.from(line, "utf8");
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--; // never inside a character
    parts.push(bytes.subarray(start, end).toString("utf8"));
    start = end;
    limit = 74; // the leading space counts
  }
  return parts.join("\r\n ");
}

function stamp(ms: number): string {
  return utcText(ms).replace(/[-:]/g, "");
}

function offsetText(min: number): string {
  const sign = min < 0 ? "-" : "+";
  const a = Math.abs(min);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, "0")}${String(a % 60).padStart(2, "0")}`;
}

interface Transition {
  ms: number;
  from: number;
  to: number;
}

const STEP_MS = 7 * 86400000; // no zone changes its offset twice within a week (checked for every zone, 1900-2040)
const yearCache = new Map<string, { start: number; transitions: Transition[] }>();
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

function yearStartMs(year: number): number {
  return new Date(0).setUTCFullYear(year, 0, 1);
}

/** Offset of `tz` at `ms` in minutes east of UTC, as tz.ts `offsetMinutes` gives it, from one Intl call ("GMT-07:52:58"). */
function zoneOffset(tz: string, ms: number): number {
  let f = offsetFormats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: "longOffset" });
    offsetFormats.set(tz, f);
  }
  const v = f.formatToParts(new Date(ms)).find((p) => p.type === "timeZoneName")?.value ?? "";
  const m = /^GMT([+-])(\d{1,2}):?(\d{2})?(?::?(\d{2}))?$/.exec(v);
  if (!m) return v === "GMT" ? 0 : offsetMinutes(tz, ms);
  const secs = (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0)) * (m[1] === "-" ? -1 : 1);
  return Math.round(secs / 60);
}

/**
 * The offset changes of `tz` in UTC year `year` (a change at the next year's first instant counts here), found by
 * comparing offsets a week apart and bisecting to the minute; with the offset at the year's start. Cached per zone-year.
 */
function yearTransitions(tz: string, year: number): { start: number; transitions: Transition[] } {
  const key = `${tz}|${year}`;
  const hit = yearCache.get(key);
  if (hit) return hit;
  const a = yearStartMs(year);
  const b = yearStartMs(year + 1);
  let prev = zoneOffset(tz, a);
  const out = { start: prev, transitions: [] as Transition[] };
  for (let t = a; t < b; t += STEP_MS) {
    const t2 = Math.min(t + STEP_MS, b);
    const off = zoneOffset(tz, t2);
    if (off === prev) continue;
    let lo = t;
    let hi = t2;
    while (hi - lo > 60000) {
      const mid = lo + Math.floor((hi - lo) / 120000) * 60000;
      if (zoneOffset(tz, mid) === prev) lo = mid;
      else hi = mid;
    }
    out.transitions.push({ ms: hi, from: prev, to: off });
    prev = off;
  }
  if (yearCache.size > 20000) yearCache.clear();
  yearCache.set(key, out);
  return out;
}

function observance(tr: Transition, rrule?: string): string[] {
  const kind = tr.to > tr.from ? "DAYLIGHT" : "STANDARD";
  const wall = new Date(tr.ms + tr.from * 60000).toISOString().slice(0, 19);
  return [`BEGIN:${kind}`, `DTSTART:${compact(wall)}`, ...(rrule ? [`RRULE:${rrule}`] : []), `TZOFFSETFROM:${offsetText(tr.from)}`, `TZOFFSETTO:${offsetText(tr.to)}`, `END:${kind}`];
}

const WD = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];

/** A change's place in its year as a yearly rule names it: month, weekday, day of the month, whether it is the month's last such weekday, wall time. */
function ruleShape(tr: Transition): { month: number; day: number; last: boolean; wd: number; time: string; from: number; to: number } {
  const wall = new Date(tr.ms + tr.from * 60000);
  const m = wall.getUTCMonth() + 1;
  const d = wall.getUTCDate();
  const dim = new Date(new Date(0).setUTCFullYear(wall.getUTCFullYear(), m, 0)).getUTCDate();
  return { month: m, day: d, last: d + 7 > dim, wd: wall.getUTCDay(), time: wall.toISOString().slice(11, 19), from: tr.from, to: tr.to };
}

/**
 * The zone's yearly rules after `year` as two RRULE observances (RFC 5545 3.6.5) starting with the changes of
 * `year + 1`, when the eight years around then change twice a year, each change on a weekday of one month at one
 * wall time: the last such weekday (`-1SU`), the nth (`2SU`), or the first on or after a day (`BYDAY=FR;BYMONTHDAY=23,...,29`),
 * as every zone with daylight saving time has today. [] otherwise: the last offset then simply goes on.
 */
function yearlyRules(tz: string, year: number): string[] {
  const years = Array.from({ length: 8 }, (_, i) => yearTransitions(tz, year - 2 + i).transitions);
  if (years.some((t) => t.length !== 2)) return [];
  const out: string[] = [];
  for (const i of [0, 1]) {
    const shapes = years.map((t) => ruleShape(t[i]));
    const s0 = shapes[0];
    if (!shapes.every((x) => x.month === s0.month && x.wd === s0.wd && x.time === s0.time && x.from === s0.from && x.to === s0.to)) return [];
    const days = [...new Set(shapes.map((x) => x.day))].sort((p, q) => p - q);
    const nth = Math.floor((s0.day - 1) / 7) + 1;
    let by: string | null = null;
    if (shapes.every((x) => x.last)) by = `BYDAY=-1${WD[s0.wd]}`;
    else if (nth <= 4 && shapes.every((x) => Math.floor((x.day - 1) / 7) + 1 === nth)) by = `BYDAY=${nth}${WD[s0.wd]}`;
    else if (days.length === 7 && days[6] - days[0] === 6) by = `BYDAY=${WD[s0.wd]};BYMONTHDAY=${days.join(",")}`;
    if (!by) return [];
    out.push(...observance(years[3][i], `FREQ=YEARLY;BYMONTH=${s0.month};${by}`));
  }
  return out;
}

/**
 * VTIMEZONE lines of `tz` for the UTC years `spans` (sorted, disjoint `[from, to]` ranges): one STANDARD/DAYLIGHT per
 * change found in them; a range after a gap opens with the offset then in effect when it differs. `endless`: some
 * event goes on past the last range, so the zone's yearly rules follow as RRULE observances when it has such rules.
 */
export function vtimezone(tz: string, spans: [number, number][], endless = false): string[] {
  const lines = ["BEGIN:VTIMEZONE", `TZID:${tz}`];
  let prevTo: number | null = null;
  for (const [a, b] of spans) {
    const start = yearTransitions(tz, a).start;
    const trs: Transition[] = [];
    for (let y = a; y <= b; y++) trs.push(...yearTransitions(tz, y).transitions);
    if (prevTo === null && !trs.length) {
      lines.push("BEGIN:STANDARD", `DTSTART:${a}0101T000000`, `TZOFFSETFROM:${offsetText(start)}`, `TZOFFSETTO:${offsetText(start)}`, "END:STANDARD");
    } else if (prevTo !== null && start !== prevTo) lines.push(...observance({ ms: yearStartMs(a), from: prevTo, to: start }));
    for (const tr of trs) lines.push(...observance(tr));
    prevTo = trs.length ? trs[trs.length - 1].to : start;
  }
  if (endless && spans.length) lines.push(...yearlyRules(tz, spans[spans.length - 1][1]));
  lines.push("END:VTIMEZONE");
  return lines;
}

/** Years of time-zone rules an export covers after the persona's now (or after a later start) for an event that goes on. */
export const ICS_ZONE_YEARS_AHEAD = 10;
/**
 * At most this many zone-years of changes looked up for one file (about 0.4 s the first time, cached after): the
 * oldest years are left out past it, and the yearly rules after the last year (5 more each) only while some are left.
 */
export const ICS_MAX_ZONE_YEARS = 300;
const RULE_YEARS = 5;

/**
 * The UTC years each zone needs: per timed event from the year before it starts to the year its last occurrence
 * ends, but never more than `ICS_ZONE_YEARS_AHEAD` years past the persona's now (or past a later start); a series
 * that goes on past that makes its zone `endless`. Ranges closer than three years merge.
 */
function zoneSpans(events: EventRow[], nowMs: number): { zones: Map<string, { spans: [number, number][]; endless: boolean }>; years: number } {
  const nowYear = new Date(nowMs).getUTCFullYear();
  const raw = new Map<string, { spans: [number, number][]; endless: boolean }>();
  for (const e of events) {
    if (e.all_day) continue;
    const startYear = Number(e.start_local.slice(0, 4));
    const endYear = Number(e.end_local.slice(0, 4));
    let lastYear = Math.max(endYear, Number(e.last_utc.slice(0, 4)) || endYear);
    if (e.rrule) {
      const until = /UNTIL=(\d{4})/i.exec(e.rrule);
      if (until) lastYear = Math.max(endYear, Math.min(lastYear, Number(until[1]) + 1));
    }
    const cap = Math.max(startYear, nowYear) + ICS_ZONE_YEARS_AHEAD;
    const span: [number, number] = [startYear - 1, Math.max(endYear, Math.min(lastYear, cap))];
    for (const z of new Set([e.start_tz, e.end_tz])) {
      const cur = raw.get(z) ?? { spans: [], endless: false };
      cur.spans.push(span);
      cur.endless ||= lastYear > span[1];
      raw.set(z, cur);
    }
  }
  for (const v of raw.values()) {
    v.spans.sort((x, y) => x[0] - y[0]);
    const merged: [number, number][] = [];
    for (const [a, b] of v.spans) {
      const last = merged[merged.length - 1];
      if (last && a <= last[1] + 3) last[1] = Math.max(last[1], b);
      else merged.push([a, b]);
    }
    v.spans = merged;
  }
  // Past the budget, leave out the oldest years (each zone keeps at least its last year).
  const total = (floor: number) => [...raw.values()].reduce((n, v) => n + v.spans.reduce((k, [a, b]) => k + Math.max(1, b - Math.max(a, floor) + 1), 0), 0);
  if (total(-Infinity) > ICS_MAX_ZONE_YEARS) {
    const ends = [...raw.values()].flatMap((v) => v.spans.map((x) => x[1]));
    let floor = Math.min(...[...raw.values()].flatMap((v) => v.spans.map((x) => x[0])));
    const top = Math.max(...ends);
    while (floor < top && total(floor) > ICS_MAX_ZONE_YEARS) floor++;
    for (const v of raw.values()) {
      const kept = v.spans.filter(([, b]) => b >= floor).map(([a, b]): [number, number] => [Math.max(a, floor), b]);
      v.spans = kept.length ? kept : [[v.spans[v.spans.length - 1][1], v.spans[v.spans.length - 1][1]]];
    }
  }
  return { zones: raw, years: total(-Infinity) };
}

function dt(prop: string, local: string, tz: string, allDay: boolean): string {
  if (allDay) return `${prop};VALUE=DATE:${compact(local.slice(0, 10))}`;
  return `${prop};TZID=${tz}:${compact(local.slice(0, 19))}`;
}

const PARTSTATS = new Set(["ACCEPTED", "DECLINED", "TENTATIVE", "NEEDS-ACTION"]);

/** The VEVENT lines of one event row (and its overrides as extra VEVENTs with RECURRENCE-ID). */
export function veventLines(e: EventRow, nowMs: number, opts: { method?: string; onlyAttendee?: string; partstat?: string } = {}): string[] {
  const out: string[] = [];
  const attendees = attendeesOf(e.id);
  const base = (start: string, end: string, title: string, location: string, description: string, rid: string | null): string[] => {
    const l = ["BEGIN:VEVENT", `UID:${e.uid}`, `DTSTAMP:${stamp(nowMs)}`];
    if (rid) l.push(e.all_day ? `RECURRENCE-ID;VALUE=DATE:${compact(rid)}` : `RECURRENCE-ID;TZID=${e.start_tz}:${compact(rid)}`);
    l.push(dt("DTSTART", start, e.start_tz, !!e.all_day), dt("DTEND", end, rid ? e.start_tz : e.end_tz, !!e.all_day));
    if (e.rrule && !rid && opts.method !== "REPLY") {
      l.push(`RRULE:${e.rrule}`);
      if (e.exdates) l.push(e.all_day ? `EXDATE;VALUE=DATE:${e.exdates}` : `EXDATE;TZID=${e.start_tz}:${e.exdates}`);
    }
    l.push(`SUMMARY:${escapeText(title)}`);
    if (location) l.push(`LOCATION:${escapeText(location)}`);
    if (description && opts.method !== "REPLY") l.push(`DESCRIPTION:${escapeText(description)}`);
    l.push(`SEQUENCE:${e.sequence}`, "STATUS:CONFIRMED", `TRANSP:${e.all_day ? "TRANSPARENT" : "OPAQUE"}`);
    if (e.organizer_email) l.push(`ORGANIZER;CN=${param(e.organizer_name ?? e.organizer_email)}:mailto:${e.organizer_email}`);
    for (const a of attendees) {
      if (!a.email) continue;
      if (opts.onlyAttendee && a.email !== opts.onlyAttendee) continue;
      const ps = opts.onlyAttendee && opts.partstat ? opts.partstat : PARTSTATS.has(a.partstat) ? a.partstat : "NEEDS-ACTION";
      l.push(`ATTENDEE;CN=${param(a.name)};ROLE=${a.role === "organizer" ? "CHAIR" : "REQ-PARTICIPANT"};PARTSTAT=${ps}:mailto:${a.email}`);
    }
    if (opts.method !== "REPLY") {
      for (const r of remindersOf(e.id)) {
        l.push("BEGIN:VALARM", r.method === "email" ? "ACTION:EMAIL" : "ACTION:DISPLAY", `DESCRIPTION:${escapeText(title)}`);
        if (r.method === "email") l.push(`SUMMARY:${escapeText(title)}`, ...(e.organizer_email ? [`ATTENDEE:mailto:${attendees.find((a) => a.is_self)?.email ?? e.organizer_email}`] : []));
        l.push(`TRIGGER:-PT${r.minutes}M`, "END:VALARM");
      }
    }
    l.push("END:VEVENT");
    return l;
  };
  out.push(...base(e.start_local, e.end_local, e.title, e.location, e.description, null));
  if (e.rrule && opts.method !== "REPLY") {
    for (const o of overridesOf(e.id)) {
      if (o.cancelled) continue; // cancelled occurrences are exported as EXDATE-equivalent: left out below
      out.push(...base(o.start_local, o.end_local, o.title ?? e.title, o.location ?? e.location, o.description ?? e.description, o.recurrence_id));
    }
  }
  return out;
}

/** A whole VCALENDAR of `events` (TZIDs resolved by VTIMEZONEs), folded, CRLF, ending in CRLF. */
export function calendarText(events: EventRow[], nowMs: number, opts: { method?: string; name?: string; onlyAttendee?: string; partstat?: string } = {}): string {
  const lines = ["BEGIN:VCALENDAR", "PRODID:-//Daybook//Daybook Calendar 1.0//EN", "VERSION:2.0", "CALSCALE:GREGORIAN"];
  if (opts.method) lines.push(`METHOD:${opts.method}`);
  if (opts.name) lines.push(`X-WR-CALNAME:${escapeText(opts.name)}`);
  const body: string[] = [];
  for (const e of events) {
    const ev = veventLines(e, nowMs, opts);
    // Cancelled occurrences: add them to EXDATE so other calendars drop them too.
    const cancelled = e.rrule ? overridesOf(e.id).filter((o) => o.cancelled).map((o) => compact(o.recurrence_id)) : [];
    if (cancelled.length && opts.method !== "REPLY") {
      const i = ev.findIndex((l) => l.startsWith("EXDATE"));
      const all = [...(e.exdates ? e.exdates.split(",") : []), ...cancelled].sort().join(",");
      const line = e.all_day ? `EXDATE;VALUE=DATE:${all}` : `EXDATE;TZID=${e.start_tz}:${all}`;
      if (i >= 0) ev[i] = line;
      else ev.splice(ev.findIndex((l) => l.startsWith("SUMMARY")), 0, line);
    }
    body.push(...ev);
  }
  const { zones, years } = zoneSpans(events, nowMs);
  let spare = ICS_MAX_ZONE_YEARS - years;
  for (const z of [...zones.keys()].sort()) {
    const { spans, endless } = zones.get(z)!;
    const rules = endless && spare >= RULE_YEARS;
    if (rules) spare -= RULE_YEARS;
    lines.push(...vtimezone(z, spans, rules));
  }
  lines.push(...body, "END:VCALENDAR");
  return lines.map(fold).join("\r\n") + "\r\n";
}

// --- reading ---------------------------------------------------------------------------------------

export interface IcsProp {
  name: string;
  params: Record<string, string>;
  value: string;
}

export interface IcsEvent {
  uid: string;
  summary: string;
  description: string;
  location: string;
  allDay: boolean;
  start: { local: string; tz: string };
  end: { local: string; tz: string };
  rrule: string | null;
  organizer: { name: string; email: string } | null;
  attendees: { name: string; email: string; partstat: string }[];
  recurrenceId: string | null;
  /** RFC 5545 SEQUENCE (3.8.7.4): the organizer's revision; 0 when absent. */
  sequence: number;
}

export class IcsError extends Error {}

/** Unfold and split content lines into properties. */
export function parseLines(text: string): IcsProp[] {
  const unfolded = text.replace(/\r\n/g, "\n").replace(/\r/g, "\n").replace(/\n[ \t]/g, "");
  const out: IcsProp[] = [];
  for (const raw of unfolded.split("\n")) {
    if (!raw.trim()) continue;
    let i = 0;
    let inQuote = false;
    for (; i < raw.length; i++) {
      const c = raw[i];
      if (c === '"') inQuote = !inQuote;
      else if (c === ":" && !inQuote) break;
    }
    if (i >= raw.length) continue;
    const head = raw.slice(0, i);
    const value = raw.slice(i + 1);
    const segs: string[] = [];
    let cur = "";
    inQuote = false;
    for (const c of head) {
      if (c === '"') inQuote = !inQuote;
      if (c === ";" && !inQuote) {
        segs.push(cur);
        cur = "";
      } else cur += c;
    }
    segs.push(cur);
    const params: Record<string, string> = {};
    for (const s of segs.slice(1)) {
      const eq = s.indexOf("=");
      if (eq > 0) params[s.slice(0, eq).toUpperCase()] = s.slice(eq + 1).replace(/^"|"$/g, "");
    }
    out.push({ name: segs[0].toUpperCase(), params, value });
  }
  return out;
}

/** TEXT value unescaping. */
export function unescapeText(s: string): string {
  return s.replace(/\\([\\;,nN])/g, (_m, c: string) => (c === "n" || c === "N" ? "\n" : c));
}

function readTime(p: IcsProp, fallbackTz: string): { local: string; tz: string; allDay: boolean } {
  const v = p.value.trim();
  if (p.params.VALUE === "DATE" || /^\d{8}$/.test(v)) {
    if (!/^\d{8}$/.test(v)) throw new IcsError(`bad date ${v} in ${p.name}`);
    return { local: `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`, tz: fallbackTz, allDay: true };
  }
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/.exec(v);
  if (!m) throw new IcsError(`bad date-time ${v} in ${p.name}`);
  const local = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
  if (m[7] === "Z") return { local: toLocal(Date.parse(`${local}Z`), fallbackTz), tz: fallbackTz, allDay: false };
  const tz = p.params.TZID || fallbackTz;
  try {
    toLocal(0, tz);
    return { local, tz, allDay: false };
  } catch {
    // An unknown TZID: read the wall time as the calendar's zone.
    return { local, tz: fallbackTz, allDay: false };
  }
}

function mailto(v: string): string {
  return v.replace(/^mailto:/i, "").trim();
}

/** The VEVENTs of an iCalendar text. Throws IcsError when there is none or one lacks DTSTART/UID. */
export function parseEvents(text: string, fallbackTz: string): IcsEvent[] {
  const props = parseLines(text);
  const out: IcsEvent[] = [];
  let cur: IcsProp[] | null = null;
  let depth = 0;
  for (const p of props) {
    if (p.name === "BEGIN" && p.value.toUpperCase() === "VEVENT") {
      cur = [];
      depth = 0;
      continue;
    }
    if (!cur) continue;
    if (p.name === "BEGIN") depth++;
    else if (p.name === "END" && p.value.toUpperCase() !== "VEVENT") depth--;
    else if (p.name === "END" && p.value.toUpperCase() === "VEVENT") {
      out.push(toEvent(cur, fallbackTz));
      cur = null;
    } else if (depth === 0) cur.push(p);
  }
  if (!out.length) throw new IcsError("the file has no VEVENT");
  return out;
}

function toEvent(props: IcsProp[], tz: string): IcsEvent {
  const get = (n: string) => props.find((p) => p.name === n);
  const uid = get("UID")?.value.trim();
  const ds = get("DTSTART");
  if (!uid) throw new IcsError("an event has no UID");
  if (!ds) throw new IcsError("an event has no DTSTART");
  const start = readTime(ds, tz);
  const de = get("DTEND");
  let end: { local: string; tz: string; allDay: boolean };
  if (de) end = readTime(de, tz);
  else if (start.allDay) end = { ...start, local: new Date(Date.parse(`${start.local}T00:00:00Z`) + 86400000).toISOString().slice(0, 10) };
  else {
    const dur = get("DURATION")?.value ?? "PT1H";
    const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/.exec(dur);
    const secs = m ? (Number(m[1] ?? 0) * 86400 + Number(m[2] ?? 0) * 3600 + Number(m[3] ?? 0) * 60) : 3600;
    end = { local: toLocal(toUtc(start.local, start.tz) + secs * 1000, start.tz), tz: start.tz, allDay: false };
  }
  const org = get("ORGANIZER");
  const rid = get("RECURRENCE-ID");
  return {
    uid,
    summary: unescapeText(get("SUMMARY")?.value ?? "").trim(),
    description: unescapeText(get("DESCRIPTION")?.value ?? ""),
    location: unescapeText(get("LOCATION")?.value ?? ""),
    allDay: start.allDay,
    start: { local: start.local, tz: start.tz },
    end: { local: end.local, tz: end.tz },
    rrule: get("RRULE")?.value ?? null,
    organizer: org ? { name: org.params.CN ?? mailto(org.value), email: mailto(org.value) } : null,
    attendees: props.filter((p) => p.name === "ATTENDEE").map((p) => ({ name: p.params.CN ?? mailto(p.value), email: mailto(p.value), partstat: (p.params.PARTSTAT ?? "NEEDS-ACTION").toUpperCase() })),
    recurrenceId: rid ? readTime(rid, tz).local : null,
    sequence: /^\d{1,9}$/.test(get("SEQUENCE")?.value.trim() ?? "") ? Number(get("SEQUENCE")!.value.trim()) : 0,
  };
}

/** `nowMs` as the UTC stamp form. */
export { stamp as icsStamp };
