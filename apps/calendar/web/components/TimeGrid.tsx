import Link from "next/link";
import type { CalContext } from "@/calendar/lib/context";
import { coveredDates, type Occurrence } from "@/calendar/lib/events";
import { DAYS, shortTime, timeLabel } from "@/calendar/lib/format";
import { dayNumber, naiveMs, plusDays, weekday, zoneAbbr } from "@/calendar/lib/tz";
import { eventHref } from "./links";
import { ScrollToHour } from "./ScrollToHour";

const HOUR = 48; // px per hour

interface Seg {
  o: Occurrence;
  day: string;
  top: number;
  height: number;
  col: number;
  cols: number;
  first: boolean;
}

function segments(days: string[], list: Occurrence[]): Map<string, Seg[]> {
  const out = new Map<string, Seg[]>(days.map((d) => [d, []]));
  for (const o of list) {
    if (o.allDay || o.banner) continue;
    for (const d of coveredDates(o)) {
      if (!out.has(d)) continue;
      const dayStart = naiveMs(d);
      const s = Math.max(naiveMs(o.start), dayStart);
      const e = Math.min(naiveMs(o.end), dayStart + 86400000);
      const top = ((s - dayStart) / 3600000) * HOUR;
      const height = Math.max(((e - s) / 3600000) * HOUR, 18);
      out.get(d)!.push({ o, day: d, top, height, col: 0, cols: 1, first: d === o.start.slice(0, 10) });
    }
  }
  for (const segs of out.values()) {
    segs.sort((a, b) => a.top - b.top || b.height - a.height);
    let cluster: Seg[] = [];
    let clusterEnd = -1;
    const flush = () => {
      const n = Math.max(1, ...cluster.map((s) => s.col + 1));
      for (const s of cluster) s.cols = n;
      cluster = [];
    };
    for (const s of segs) {
      if (s.top >= clusterEnd) {
        flush();
        clusterEnd = -1;
      }
      const used = new Set(cluster.filter((c) => c.top + c.height > s.top).map((c) => c.col));
      let col = 0;
      while (used.has(col)) col++;
      s.col = col;
      cluster.push(s);
      clusterEnd = Math.max(clusterEnd, s.top + s.height);
    }
    flush();
  }
  return out;
}

function timeRange(ctx: CalContext, o: Occurrence): string {
  return `${timeLabel(ctx, o.start)} – ${timeLabel(ctx, o.end)}`;
}

/** The day/week time grid: all-day banners on top, timed events placed by the hour, the now line. */
export function TimeGrid({ ctx, days, list, view }: { ctx: CalContext; days: string[]; list: Occurrence[]; view: "day" | "week" }) {
  const segs = segments(days, list);
  const first = days[0];
  const last = days[days.length - 1];
  const banners = list.filter((o) => o.allDay || o.banner);
  // Pack banners into as few rows as fit: each takes the first row free over its days.
  const used: boolean[][] = [];
  const rows: { o: Occurrence; from: number; span: number; row: number }[] = banners.map((o) => {
    const cov = coveredDates(o).filter((d) => d >= first && d <= last);
    const from = Math.max(0, dayNumber(cov[0] ?? first) - dayNumber(first));
    const span = Math.max(1, cov.length);
    let row = 0;
    while (used[row]?.slice(from, from + span).some(Boolean)) row++;
    used[row] ??= [];
    for (let i = from; i < from + span; i++) used[row][i] = true;
    return { o, from, span, row };
  });
  const rowCount = used.length;
  const nowDay = ctx.now.slice(0, 10);
  const nowTop = ((naiveMs(ctx.now) - naiveMs(nowDay)) / 3600000) * HOUR;
  const cols = { gridTemplateColumns: `64px repeat(${days.length}, minmax(0, 1fr))` };
  return (
    <div className={`dbk-grid dbk-grid-${view}`} data-testid={`${view}-grid`}>
      <div className="dbk-grid-head" style={cols}>
        <div className="dbk-gutter-head">{zoneAbbr(ctx.tz, naiveMs(first))}</div>
        {days.map((d) => (
          <Link key={d} href={`/day?date=${d}`} className={`dbk-dayhead${d === ctx.today ? " today" : ""}`} data-testid="day-head" data-date={d}>
            <span className="dow">{DAYS[weekday(dayNumber(d))].slice(0, 3).toUpperCase()}</span>
            <span className="num">{Number(d.slice(8, 10))}</span>
          </Link>
        ))}
      </div>
      <div className="dbk-allday" style={{ ...cols, gridTemplateRows: `repeat(${Math.max(1, rowCount)}, 22px)` }} data-testid="allday-row">
        <div className="dbk-gutter-head small" style={{ gridRow: `1 / span ${Math.max(1, rowCount)}` }}>
          all-day
        </div>
        {rows.map(({ o, from, span, row }) => (
          <Link
            key={o.key}
            href={eventHref(o)}
            className={`dbk-banner src-${o.source}${o.start.slice(0, 10) < first ? " cont-left" : ""}`}
            style={{ gridColumn: `${from + 2} / span ${span}`, gridRow: row + 1, background: o.color }}
            data-testid="event-chip"
            data-kind="banner"
            data-title={o.title}
            data-start={o.start}
            data-end={o.end}
            data-key={o.key}
          >
            {o.allDay ? o.title : `${shortTime(ctx, o.start)} ${o.title}`}
          </Link>
        ))}
      </div>
      <div className="dbk-scroll" id="dbk-scroll">
        <div className="dbk-hours" style={{ ...cols, height: 24 * HOUR }}>
          <div className="dbk-gutter">
            {Array.from({ length: 24 }, (_, h) => (
              <span key={h} style={{ top: h * HOUR }}>
                {h === 0 ? "" : ctx.hour12 ? `${h % 12 === 0 ? 12 : h % 12} ${h < 12 ? "AM" : "PM"}` : `${String(h).padStart(2, "0")}:00`}
              </span>
            ))}
          </div>
          {days.map((d) => (
            <div key={d} className={`dbk-daycol${d === ctx.today ? " today" : ""}`} data-date={d}>
              {Array.from({ length: 24 }, (_, h) => (
                <Link key={h} className="dbk-slot" style={{ top: h * HOUR, height: HOUR }} href={`/events/new?date=${d}&time=${String(h).padStart(2, "0")}:00`} aria-label={`Create at ${h}:00 on ${d}`} />
              ))}
              {d === nowDay ? <div className="dbk-now" style={{ top: nowTop }} /> : null}
              {segs.get(d)!.map((s) => {
                const past = s.o.endMs < naiveMs(ctx.now) - 0 && s.o.end < ctx.now;
                const declined = s.o.myStatus === "DECLINED";
                const pending = s.o.invitation && s.o.myStatus === "NEEDS-ACTION";
                return (
                  <Link
                    key={`${s.o.key}@${d}`}
                    href={eventHref(s.o)}
                    className={["dbk-event", past ? "past" : "", declined ? "declined" : "", pending ? "pending" : "", s.o.conflict ? "conflict" : "", s.height < 34 ? "short" : s.height < 60 ? "mid" : ""].join(" ")}
                    style={{
                      top: s.top,
                      height: s.height - 2,
                      left: `calc(${(s.col / s.cols) * 100}% + 2px)`,
                      width: `calc(${100 / s.cols}% - 6px)`,
                      ["--c" as string]: s.o.color,
                    }}
                    title={`${s.o.title}, ${timeRange(ctx, s.o)}${s.o.location ? `, ${s.o.location}` : ""}`}
                    data-testid={s.first ? "event-chip" : "event-chip-cont"}
                    data-kind="timed"
                    data-title={s.o.title}
                    data-start={s.o.start}
                    data-end={s.o.end}
                    data-key={s.o.key}
                    data-conflict={s.o.conflict ? "1" : "0"}
                  >
                    <span className="t">
                      {s.o.conflict ? <span className="dbk-warn" aria-label="Conflict" title="Overlaps another event">!</span> : null}
                      {s.o.title}
                    </span>
                    <span className="w">
                      {/* A chip of one line keeps the title and only the start, as a calendar's short events do. */}
                      {s.height < 34 ? timeLabel(ctx, s.o.start) : timeRange(ctx, s.o)}
                      {s.o.location && s.height >= 50 ? `, ${s.o.location}` : ""}
                    </span>
                  </Link>
                );
              })}
            </div>
          ))}
        </div>
      </div>
      <ScrollToHour hour={7} px={HOUR} />
      <span hidden data-testid="range" data-from={first} data-to={plusDays(last, 1)} />
    </div>
  );
}
