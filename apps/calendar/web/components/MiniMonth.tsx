import Link from "next/link";
import { plusMonths, startOfMonth, startOfWeek } from "@/calendar/lib/context";
import { monthTitle } from "@/calendar/lib/format";
import { plusDays } from "@/calendar/lib/tz";

/** The small month in the left rail: every day links to that day in the current view. */
export function MiniMonth({ date, view, today, weekStart }: { date: string; view: string; today: string; weekStart: number }) {
  const first = startOfMonth(date);
  const gridStart = startOfWeek(first, weekStart);
  const heads = weekStart === 0 ? ["S", "M", "T", "W", "T", "F", "S"] : ["M", "T", "W", "T", "F", "S", "S"];
  const days = Array.from({ length: 42 }, (_, i) => plusDays(gridStart, i));
  return (
    <div className="dbk-mini" aria-label="Mini calendar">
      <div className="dbk-mini-head">
        <span>{monthTitle(first)}</span>
        <span>
          <Link href={`/${view}?date=${plusMonths(first, -1)}`} aria-label="Previous month">
            ‹
          </Link>
          <Link href={`/${view}?date=${plusMonths(first, 1)}`} aria-label="Next month">
            ›
          </Link>
        </span>
      </div>
      <div className="dbk-mini-grid">
        {heads.map((h, i) => (
          <span key={`h${i}`} className="dbk-mini-dow">
            {h}
          </span>
        ))}
        {days.map((d) => (
          <Link key={d} href={`/${view}?date=${d}`} className={[d.slice(0, 7) !== first.slice(0, 7) ? "out" : "", d === today ? "today" : "", d === date ? "sel" : ""].join(" ")}>
            {Number(d.slice(8, 10))}
          </Link>
        ))}
      </div>
    </div>
  );
}
