import type { Metadata } from "next";
import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { Shell } from "@/calendar/components/Shell";
import { eventHref } from "@/calendar/components/links";
import { requireUser } from "@/calendar/lib/auth";
import { coveredDates, occurrencesBetween, type Occurrence } from "@/calendar/lib/events";
import { DAYS, shortTime } from "@/calendar/lib/format";
import { noticeText, one, type Search } from "@/calendar/lib/search";
import { plusDays } from "@/calendar/lib/tz";
import { viewRange } from "@/calendar/lib/view";

const SHOWN = 4;

export async function generateMetadata({ searchParams }: { searchParams: Promise<Search> }): Promise<Metadata> {
  return { title: viewRange("month", one((await searchParams).date)).title };
}

export default async function MonthPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const r = viewRange("month", one(sp.date));
  const { ctx } = r;
  const list = occurrencesBetween(r.days[0], plusDays(r.days[r.days.length - 1], 1), { ctx });
  const byDay = new Map<string, Occurrence[]>(r.days.map((d) => [d, []]));
  for (const o of list) for (const d of coveredDates(o)) byDay.get(d)?.push(o);
  const month = r.date.slice(0, 7);
  const heads = Array.from({ length: 7 }, (_, i) => DAYS[(i + ctx.weekStart) % 7].slice(0, 3).toUpperCase());
  return (
    <Shell user={user} view="month" date={r.date} title={r.title} prev={r.prev} next={r.next} notice={noticeText(one(sp.notice))} error={errorMessage(sp) || undefined}>
      <div className="dbk-month" data-testid="month-grid" data-month={month} style={{ gridTemplateRows: `auto repeat(${r.days.length / 7}, minmax(96px, 1fr))` }}>
        {heads.map((h) => (
          <div key={h} className="dbk-month-dow">
            {h}
          </div>
        ))}
        {r.days.map((d) => {
          const items = byDay.get(d)!;
          const inMonth = d.slice(0, 7) === month;
          return (
            <div key={d} className={`dbk-cell${inMonth ? "" : " out"}${d === ctx.today ? " today" : ""}`} data-testid="month-cell" data-date={d} data-in-month={inMonth ? "1" : "0"} data-count={items.length}>
              <Link href={`/day?date=${d}`} className="dbk-cell-num">
                {Number(d.slice(8, 10)) === 1 ? `${["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][Number(d.slice(5, 7)) - 1]} 1` : Number(d.slice(8, 10))}
              </Link>
              {items.slice(0, SHOWN).map((o) => (
                <Link
                  key={o.key}
                  href={eventHref(o)}
                  className={`dbk-chip${o.allDay || o.banner ? " solid" : ""}${o.conflict ? " conflict" : ""}${o.myStatus === "DECLINED" ? " declined" : ""}`}
                  style={{ ["--c" as string]: o.color }}
                  data-testid="month-chip"
                  data-title={o.title}
                  data-key={o.key}
                >
                  {o.allDay || o.banner ? null : <span className="dot" />}
                  {o.allDay ? "" : o.start.slice(0, 10) === d ? <span className="tm">{shortTime(ctx, o.start)}</span> : null}
                  <span className="ti">{o.title}</span>
                </Link>
              ))}
              {items.length > SHOWN ? (
                <Link href={`/day?date=${d}`} className="dbk-more" data-testid="month-more" data-more={items.length - SHOWN}>
                  {items.length - SHOWN} more
                </Link>
              ) : null}
            </div>
          );
        })}
      </div>
    </Shell>
  );
}
