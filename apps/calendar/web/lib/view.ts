import { calContext, startOfMonth, startOfWeek, plusMonths, type CalContext } from "./context";
import { validDate, plusDays } from "./tz";
import { monthTitle, rangeTitle, longDate } from "./format";

export interface ViewRange {
  ctx: CalContext;
  date: string;
  days: string[];
  title: string;
  prev: string;
  next: string;
}

/** The dates a view shows around `?date=` (today when missing or not a date). */
export function viewRange(view: "day" | "week" | "month" | "agenda", dateParam: string): ViewRange {
  const ctx = calContext();
  const date = validDate(dateParam) ? dateParam : ctx.today;
  if (view === "day") {
    return { ctx, date, days: [date], title: longDate(ctx, date), prev: `/day?date=${plusDays(date, -1)}`, next: `/day?date=${plusDays(date, 1)}` };
  }
  if (view === "week") {
    const ws = startOfWeek(date, ctx.weekStart);
    const days = Array.from({ length: 7 }, (_, i) => plusDays(ws, i));
    return { ctx, date, days, title: rangeTitle(days[0], days[6]), prev: `/week?date=${plusDays(ws, -7)}`, next: `/week?date=${plusDays(ws, 7)}` };
  }
  if (view === "month") {
    const first = startOfMonth(date);
    const gs = startOfWeek(first, ctx.weekStart);
    const nextFirst = plusMonths(first, 1);
    const weeks = Math.ceil((Math.round((Date.parse(nextFirst) - Date.parse(gs)) / 86400000)) / 7);
    const days = Array.from({ length: weeks * 7 }, (_, i) => plusDays(gs, i));
    return { ctx, date, days, title: monthTitle(first), prev: `/month?date=${plusMonths(first, -1)}`, next: `/month?date=${nextFirst}` };
  }
  const days = Array.from({ length: 14 }, (_, i) => plusDays(date, i));
  return { ctx, date, days, title: rangeTitle(days[0], days[13]), prev: `/agenda?date=${plusDays(date, -14)}`, next: `/agenda?date=${plusDays(date, 14)}` };
}
