import { readMeta } from "@persona/platform/db";
import { appNow } from "@persona/platform/clock";
import { db } from "./db";
import { weekday, dayNumber, plusDays } from "./tz";

export interface CalContext {
  /** The persona's zone: every view shows times in it. */
  tz: string;
  locale: string;
  /** Local now in `tz`, `YYYY-MM-DDTHH:MM:SS` (never before the world's now). */
  now: string;
  today: string;
  /** 0 = weeks start on Sunday, 1 = Monday. */
  weekStart: number;
  hour12: boolean;
}

/** The calendar's frozen-clock context from `meta`. */
export function calContext(): CalContext {
  const meta = readMeta(db());
  const tz = meta.timezone || "UTC";
  const now = appNow(tz, meta.now);
  const locale = meta.locale || "en-US";
  return { tz, locale, now, today: now.slice(0, 10), weekStart: meta.week_start === "sunday" ? 0 : 1, hour12: locale === "en-US" };
}

/** First day of `date`'s week. */
export function startOfWeek(date: string, weekStart: number): string {
  const n = dayNumber(date);
  return plusDays(date, -((weekday(n) - weekStart + 7) % 7));
}

/** First day of `date`'s month. */
export function startOfMonth(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

/** `date` moved by `months` (day clamped to the month's length). */
export function plusMonths(date: string, months: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7)) - 1 + months;
  const ny = y + Math.floor(m / 12);
  const nm = ((m % 12) + 12) % 12;
  const dim = new Date(Date.UTC(ny, nm + 1, 0)).getUTCDate();
  const d = Math.min(Number(date.slice(8, 10)), dim);
  return `${ny}-${String(nm + 1).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}
