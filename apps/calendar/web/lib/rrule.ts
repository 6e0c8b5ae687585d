/**
 * A small RFC 5545 RRULE expander for the subset Daybook writes and reads: FREQ=DAILY, WEEKLY
 * (BYDAY, WKST), MONTHLY (BYDAY with an ordinal such as 2TU or -1FR, or BYMONTHDAY) and YEARLY,
 * with INTERVAL, COUNT and UNTIL. Expansion runs on wall-clock dates in the series' zone.
 */
import { dayDate, dayNumber, toUtc, weekday } from "./tz";

const DAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];

export interface Rule {
  freq: "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";
  interval: number;
  byday: { n: number; wd: number }[]; // n = 0: every such weekday
  bymonthday: number[];
  count: number | null;
  until: string | null; // "YYYYMMDD" or "YYYYMMDDTHHMMSSZ"
  wkst: number;
}

export class RuleError extends Error {}

/** Parse `FREQ=...;...` (with or without a leading `RRULE:`). Throws RuleError for anything outside the subset. */
export function parseRule(text: string): Rule {
  const rule: Rule = { freq: "WEEKLY", interval: 1, byday: [], bymonthday: [], count: null, until: null, wkst: 1 };
  let freq = "";
  for (const part of text.replace(/^RRULE:/i, "").split(";")) {
    if (!part) continue;
    const [k, v = ""] = part.split("=");
    const key = k.toUpperCase();
    const val = v.toUpperCase();
    if (key === "FREQ") freq = val;
    else if (key === "INTERVAL") rule.interval = Math.max(1, Number.parseInt(val, 10) || 1);
    else if (key === "COUNT") rule.count = Math.max(1, Number.parseInt(val, 10) || 1);
    else if (key === "UNTIL") rule.until = val;
    else if (key === "WKST") rule.wkst = Math.max(0, DAYS.indexOf(val));
    else if (key === "BYMONTHDAY") rule.bymonthday = val.split(",").map((x) => Number.parseInt(x, 10)).filter((x) => x);
    else if (key === "BYDAY")
      rule.byday = val.split(",").map((x) => {
        const m = /^([+-]?\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/.exec(x);
        if (!m) throw new RuleError(`unsupported BYDAY ${x}`);
        return { n: m[1] ? Number.parseInt(m[1], 10) : 0, wd: DAYS.indexOf(m[2]) };
      });
  }
  if (!["DAILY", "WEEKLY", "MONTHLY", "YEARLY"].includes(freq)) throw new RuleError(`unsupported FREQ ${freq || "(none)"}`);
  rule.freq = freq as Rule["freq"];
  return rule;
}

/** The rule back as text (FREQ first, UNTIL/COUNT last). */
export function ruleText(r: Rule): string {
  const parts = [`FREQ=${r.freq}`];
  if (r.interval > 1) parts.push(`INTERVAL=${r.interval}`);
  if (r.byday.length) parts.push(`BYDAY=${r.byday.map((b) => `${b.n || ""}${DAYS[b.wd]}`).join(",")}`);
  if (r.bymonthday.length) parts.push(`BYMONTHDAY=${r.bymonthday.join(",")}`);
  if (r.interval > 1 && r.wkst !== 1) parts.push(`WKST=${DAYS[r.wkst]}`);
  else if (r.interval > 1 && r.freq === "WEEKLY") parts.push("WKST=MO");
  if (r.count) parts.push(`COUNT=${r.count}`);
  if (r.until) parts.push(`UNTIL=${r.until}`);
  return parts.join(";");
}

function ymd(n: number): [number, number, number] {
  const d = dayDate(n);
  return [Number(d.slice(0, 4)), Number(d.slice(5, 7)), Number(d.slice(8, 10))];
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function matchesMonthly(r: Rule, n: number, startDay: number): boolean {
  const [y, m, d] = ymd(n);
  if (r.byday.length) {
    const wd = weekday(n);
    const dim = daysInMonth(y, m);
    return r.byday.some((b) => {
      if (b.wd !== wd) return false;
      if (b.n === 0) return true;
      if (b.n > 0) return Math.floor((d - 1) / 7) + 1 === b.n;
      return Math.floor((dim - d) / 7) + 1 === -b.n;
    });
  }
  const days = r.bymonthday.length ? r.bymonthday : [startDay];
  const dim = daysInMonth(y, m);
  return days.some((x) => (x > 0 ? x === d : dim + x + 1 === d));
}

/**
 * The local start times (`YYYY-MM-DDTHH:MM:SS`, or `YYYY-MM-DD` when `dtstart` is a date) the rule
 * makes from `dtstart` (in zone `tz`) on dates up to `lastDate` inclusive, COUNT and UNTIL applied.
 */
export function expandRule(rule: Rule, dtstart: string, tz: string, lastDate: string): string[] {
  const dateOnly = dtstart.length === 10;
  const time = dateOnly ? "" : dtstart.slice(10, 19);
  const first = dayNumber(dtstart);
  let last = dayNumber(lastDate);
  let untilMs: number | null = null;
  if (rule.until) {
    const u = rule.until;
    const ud = `${u.slice(0, 4)}-${u.slice(4, 6)}-${u.slice(6, 8)}`;
    if (u.length >= 15) {
      untilMs = Date.parse(`${ud}T${u.slice(9, 11)}:${u.slice(11, 13)}:${u.slice(13, 15)}Z`);
      last = Math.min(last, dayNumber(ud) + 1);
    } else last = Math.min(last, dayNumber(ud));
  }
  const [sy, sm, sd] = ymd(first);
  const wkstShift = (n: number) => n - ((weekday(n) - rule.wkst + 7) % 7); // start of n's week
  const week0 = wkstShift(first);
  const weekdays = rule.byday.length ? rule.byday.map((b) => b.wd) : [weekday(first)];
  const out: string[] = [];
  let count = 0;
  const hardStop = first + 366 * 30;
  for (let n = first; n <= last && n <= hardStop; n++) {
    let ok = false;
    const [y, m, d] = ymd(n);
    switch (rule.freq) {
      case "DAILY":
        ok = (n - first) % rule.interval === 0;
        break;
      case "WEEKLY":
        ok = weekdays.includes(weekday(n)) && ((wkstShift(n) - week0) / 7) % rule.interval === 0;
        break;
      case "MONTHLY":
        ok = ((y - sy) * 12 + (m - sm)) % rule.interval === 0 && matchesMonthly(rule, n, sd);
        break;
      case "YEARLY":
        ok = (y - sy) % rule.interval === 0 && m === sm && d === sd;
        break;
    }
    if (n === first) ok = true; // DTSTART is always the first instance
    if (!ok) continue;
    const local = dateOnly ? dayDate(n) : `${dayDate(n)}${time}`;
    if (untilMs !== null && toUtc(local, tz) > untilMs) break;
    out.push(local);
    count++;
    if (rule.count && count >= rule.count) break;
  }
  return out;
}

/** A sentence for the rule ("Weekly on Monday, Tuesday", "Every 2 weeks on Monday", "Annually on November 30"). */
export function describeRule(rule: Rule, dtstart: string): string {
  const names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  const ord = (n: number) => (n === -1 ? "last" : ["", "first", "second", "third", "fourth", "fifth"][n] ?? `${n}th`);
  let s = "";
  const every = (unit: string) => (rule.interval > 1 ? `Every ${rule.interval} ${unit}s` : "");
  if (rule.freq === "DAILY") s = every("day") || "Daily";
  else if (rule.freq === "WEEKLY") {
    const wds = rule.byday.map((b) => b.wd).sort();
    const on = wds.length === 5 && wds.join() === "1,2,3,4,5" ? "weekdays" : (wds.length ? wds : [weekday(dayNumber(dtstart))]).map((w) => names[w]).join(", ");
    s = `${every("week") || "Weekly"} on ${on}`;
  } else if (rule.freq === "MONTHLY") {
    const b = rule.byday[0];
    s = `${every("month") || "Monthly"} on the ${b ? `${ord(b.n)} ${names[b.wd]}` : `day ${rule.bymonthday[0] ?? Number(dtstart.slice(8, 10))}`}`;
  } else s = `${every("year") || "Annually"} on ${months[Number(dtstart.slice(5, 7)) - 1]} ${Number(dtstart.slice(8, 10))}`;
  if (rule.count) s += `, ${rule.count} times`;
  else if (rule.until) s += `, until ${months[Number(rule.until.slice(4, 6)) - 1].slice(0, 3)} ${Number(rule.until.slice(6, 8))}, ${rule.until.slice(0, 4)}`;
  return s;
}
