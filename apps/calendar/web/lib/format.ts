/** Date and time labels. Built by hand (not Intl) so the text is the same on every ICU build. */
import type { CalContext } from "./context";
import { dayNumber, weekday } from "./tz";

export const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
export const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** "9:30 AM" / "09:30" for `HH:MM` or a local ISO string. */
export function timeLabel(ctx: Pick<CalContext, "hour12">, local: string): string {
  const hm = local.length > 10 ? local.slice(11, 16) : local.slice(0, 5);
  const h = Number(hm.slice(0, 2));
  const m = hm.slice(3, 5);
  if (!ctx.hour12) return hm;
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}:${m} ${h < 12 ? "AM" : "PM"}`;
}

/** Compact time for chips: "9:30am", "2pm" (12-hour) or "09:30". */
export function shortTime(ctx: Pick<CalContext, "hour12">, local: string): string {
  if (!ctx.hour12) return local.slice(11, 16);
  const h = Number(local.slice(11, 13));
  const m = local.slice(14, 16);
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return `${h12}${m === "00" ? "" : `:${m}`}${h < 12 ? "am" : "pm"}`;
}

/** "Monday, November 16, 2026" (en-US) / "Monday 16 November 2026". */
export function longDate(ctx: Pick<CalContext, "hour12">, date: string): string {
  const n = dayNumber(date);
  const d = Number(date.slice(8, 10));
  const mon = MONTHS[Number(date.slice(5, 7)) - 1];
  return ctx.hour12 ? `${DAYS[weekday(n)]}, ${mon} ${d}, ${date.slice(0, 4)}` : `${DAYS[weekday(n)]} ${d} ${mon} ${date.slice(0, 4)}`;
}

/** "Mon, Nov 16" / "Mon 16 Nov". */
export function shortDate(ctx: Pick<CalContext, "hour12">, date: string): string {
  const n = dayNumber(date);
  const d = Number(date.slice(8, 10));
  const mon = MONTHS[Number(date.slice(5, 7)) - 1].slice(0, 3);
  return ctx.hour12 ? `${DAYS[weekday(n)].slice(0, 3)}, ${mon} ${d}` : `${DAYS[weekday(n)].slice(0, 3)} ${d} ${mon}`;
}

/** "November 2026". */
export function monthTitle(date: string): string {
  return `${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`;
}

/** "Nov 15 – 21, 2026", "Nov 29 – Dec 5, 2026", "Dec 27, 2026 – Jan 2, 2027". */
export function rangeTitle(first: string, last: string): string {
  const m1 = MONTHS[Number(first.slice(5, 7)) - 1].slice(0, 3);
  const m2 = MONTHS[Number(last.slice(5, 7)) - 1].slice(0, 3);
  const d1 = Number(first.slice(8, 10));
  const d2 = Number(last.slice(8, 10));
  if (first.slice(0, 4) !== last.slice(0, 4)) return `${m1} ${d1}, ${first.slice(0, 4)} – ${m2} ${d2}, ${last.slice(0, 4)}`;
  if (m1 === m2) return `${m1} ${d1} – ${d2}, ${first.slice(0, 4)}`;
  return `${m1} ${d1} – ${m2} ${d2}, ${first.slice(0, 4)}`;
}

/** "10 minutes before", "1 hour before", "1 day before", "at 9:00 AM the day before" for an all-day event's 900. */
export function reminderLabel(minutes: number, allDay: boolean): string {
  if (allDay && minutes % 1440 !== 0) {
    const days = Math.ceil(minutes / 1440);
    const at = days * 1440 - minutes;
    const h = Math.floor(at / 60);
    const label = `${h % 12 === 0 ? 12 : h % 12}:${String(at % 60).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
    return `${days === 1 ? "The day before" : `${days} days before`} at ${label}`;
  }
  if (minutes === 0) return "At the start";
  if (minutes % 10080 === 0) return `${minutes / 10080} week${minutes === 10080 ? "" : "s"} before`;
  if (minutes % 1440 === 0) return `${minutes / 1440} day${minutes === 1440 ? "" : "s"} before`;
  if (minutes % 60 === 0) return `${minutes / 60} hour${minutes === 60 ? "" : "s"} before`;
  return `${minutes} minutes before`;
}
