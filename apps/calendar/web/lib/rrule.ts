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
    else if (key === "UNTIL") {
      if (!/^\d{8}(T\d{6}Z?)?$/.test(val)) throw new RuleError(`unsupported UNTIL ${val.slice(0, 40)}`);
      rule.until = val;
    }
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

/**
 * Bounds of every expansion, whatever the rule says (a never-ending DAILY series, COUNT=10^9, an UNTIL in 9999, a
 * caller asking for centuries): occurrences are produced only on the dates `[from, last]` with `last - from` at most
 * `EXPAND_MAX_DAYS`, at most `EXPAND_MAX_INSTANCES` of them, and a rule with COUNT is counted from its DTSTART for at
 * most `SCAN_MAX_DAYS` days (a rule without COUNT starts right at `from`: each date's membership depends only on
 * DTSTART, so the days before need no walk). One expansion is thus at most a few hundred thousand integer steps.
 */
export const EXPAND_MAX_DAYS = 4100; // a little over 11 years: the longest window a route may ask for (10 years) and margins
export const EXPAND_MAX_INSTANCES = 5000; // more than one a day over 11 years cannot happen (one start per date)
export const SCAN_MAX_DAYS = 366 * 320; // DTSTART 1900 counted up to 2220

/** `[year, month, day]` of a day number (days since 1970-01-01), by integer arithmetic (H. Hinnant's civil_from_days). */
function ymd(n: number): [number, number, number] {
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

function daysInMonth(y: number, m: number): number {
  return m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
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
 * Walk the rule's instances from `dtstart` (in zone `tz`) in date order: `visit(n)` is called for each one
 * dated `fromDay` or later (day numbers) up to `lastDay`; it returns false to stop. COUNT and UNTIL applied; the
 * walk never goes past the bounds above. Answers whether the series ended (COUNT or UNTIL) within the walk.
 */
function walk(rule: Rule, dtstart: string, tz: string, fromDay: number, lastDay: number, visit: (n: number) => boolean): boolean {
  const dateOnly = dtstart.length === 10;
  const time = dateOnly ? "" : dtstart.slice(10, 19);
  const first = dayNumber(dtstart);
  if (!Number.isFinite(first)) return true;
  const bound = Math.min(lastDay, first + SCAN_MAX_DAYS);
  let last = bound;
  let untilMs: number | null = null;
  let untilDay = Infinity;
  if (rule.until) {
    const u = rule.until;
    const ud = `${u.slice(0, 4)}-${u.slice(4, 6)}-${u.slice(6, 8)}`;
    untilDay = dayNumber(ud);
    if (!Number.isFinite(untilDay)) return true;
    if (u.length >= 15) {
      untilMs = Date.parse(`${ud}T${u.slice(9, 11)}:${u.slice(11, 13)}:${u.slice(13, 15)}Z`);
      last = Math.min(last, untilDay + 1);
    } else last = Math.min(last, untilDay);
  }
  const [sy, sm, sd] = ymd(first);
  const wkstShift = (n: number) => n - ((weekday(n) - rule.wkst + 7) % 7); // start of n's week
  const week0 = wkstShift(first);
  const weekdays = rule.byday.length ? rule.byday.map((b) => b.wd) : [weekday(first)];
  let count = 0;
  // Without COUNT a date's membership depends on DTSTART alone: start at `fromDay`. With COUNT, count from DTSTART.
  const begin = rule.count ? first : Math.max(first, fromDay);
  for (let n = begin; n <= last; n++) {
    let ok = false;
    switch (rule.freq) {
      case "DAILY":
        ok = (n - first) % rule.interval === 0;
        break;
      case "WEEKLY":
        ok = weekdays.includes(weekday(n)) && ((wkstShift(n) - week0) / 7) % rule.interval === 0;
        break;
      case "MONTHLY": {
        const [y, m] = ymd(n);
        ok = ((y - sy) * 12 + (m - sm)) % rule.interval === 0 && matchesMonthly(rule, n, sd);
        break;
      }
      case "YEARLY": {
        const [y, m, d] = ymd(n);
        ok = (y - sy) % rule.interval === 0 && m === sm && d === sd;
        break;
      }
    }
    if (n === first) ok = true; // DTSTART is always the first instance
    if (!ok) continue;
    // Only the last two dates can be past a UTC UNTIL (a zone is at most 14 hours off UTC).
    if (untilMs !== null && n >= untilDay - 1) {
      const local = dateOnly ? dayDate(n) : `${dayDate(n)}${time}`;
      if (toUtc(local, tz) > untilMs) return true;
    }
    count++;
    if (n >= fromDay && !visit(n)) return false;
    if (rule.count && count >= rule.count) return true;
  }
  return last < bound; // UNTIL came before the bounds
}

/**
 * The local start times (`YYYY-MM-DDTHH:MM:SS`, or `YYYY-MM-DD` when `dtstart` is a date) the rule makes from
 * `dtstart` (in zone `tz`) on dates `fromDate..lastDate` inclusive (`fromDate` defaults to DTSTART's), COUNT and
 * UNTIL applied; bounded: at most `EXPAND_MAX_DAYS` days after `fromDate` and `EXPAND_MAX_INSTANCES` starts.
 */
export function expandRule(rule: Rule, dtstart: string, tz: string, lastDate: string, fromDate?: string): string[] {
  const first = dayNumber(dtstart);
  const fromDay = Math.max(first, fromDate ? dayNumber(fromDate) : first);
  const lastDay = Math.min(dayNumber(lastDate), fromDay + EXPAND_MAX_DAYS);
  const out: string[] = [];
  if (!Number.isFinite(fromDay) || !Number.isFinite(lastDay)) return out;
  const time = dtstart.length === 10 ? "" : dtstart.slice(10, 19);
  walk(rule, dtstart, tz, fromDay, lastDay, (n) => {
    out.push(`${dayDate(n)}${time}`);
    return out.length < EXPAND_MAX_INSTANCES;
  });
  return out;
}

/**
 * The local start of the rule's last instance, or null when the series does not end (no COUNT or UNTIL) or ends
 * further out than the walk looks (`SCAN_MAX_DAYS` after DTSTART).
 */
export function lastInstance(rule: Rule, dtstart: string, tz: string): string | null {
  if (!rule.count && !rule.until) return null;
  const first = dayNumber(dtstart);
  let last = first;
  const ended = walk(rule, dtstart, tz, first, first + SCAN_MAX_DAYS, (n) => {
    last = n;
    return true;
  });
  // A rule still making instances where the walk stops is as good as endless.
  return ended ? `${dayDate(last)}${dtstart.length === 10 ? "" : dtstart.slice(10, 19)}` : null;
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
