import type { AppContext } from "@persona/platform/context";
import { calendar } from "./app";
import { weekday, dayNumber, plusDays } from "./tz";

/** The app's context (@persona/platform/context) plus the calendar's week settings. */
export interface CalContext extends AppContext {
  /** The persona's zone (`timezone`): every view shows times in it. */
  tz: string;
  /** 0 = weeks start on Sunday, 1 = Monday. */
  weekStart: number;
  hour12: boolean;
}

/** The calendar's context from `meta`. */
export function calContext(): CalContext {
  const ctx = calendar.context();
  return { ...ctx, tz: ctx.timezone, weekStart: ctx.meta.week_start === "sunday" ? 0 : 1, hour12: ctx.locale === "en-US" };
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
