import type { Metadata } from "next";
import Link from "next/link";
import { errorMessage } from "@persona/platform/http";
import { Shell } from "@/calendar/components/Shell";
import { eventHref } from "@/calendar/components/links";
import { requireUser } from "@/calendar/lib/auth";
import { coveredDates, occurrencesBetween, type Occurrence } from "@/calendar/lib/events";
import { shortDate, timeLabel } from "@/calendar/lib/format";
import { noticeText, one, type Search } from "@/calendar/lib/search";
import { plusDays } from "@/calendar/lib/tz";
import { viewRange } from "@/calendar/lib/view";

export async function generateMetadata({ searchParams }: { searchParams: Promise<Search> }): Promise<Metadata> {
  return { title: `Schedule from ${viewRange("agenda", one((await searchParams).date)).date}` };
}

export default async function AgendaPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const r = viewRange("agenda", one(sp.date));
  const { ctx } = r;
  const list = occurrencesBetween(r.days[0], plusDays(r.days[13], 1), { ctx });
  const byDay = new Map<string, Occurrence[]>(r.days.map((d) => [d, []]));
  for (const o of list) for (const d of coveredDates(o)) byDay.get(d)?.push(o);
  return (
    <Shell user={user} view="agenda" date={r.date} title={r.title} prev={r.prev} next={r.next} notice={noticeText(one(sp.notice))} error={errorMessage(sp) || undefined}>
      <div className="dbk-agenda" data-testid="agenda">
        {r.days.filter((d) => byDay.get(d)!.length).map((d) => (
          <section key={d} className={`dbk-agenda-day${d === ctx.today ? " today" : ""}`} data-date={d}>
            <h2>
              <span className="num">{Number(d.slice(8, 10))}</span>
              <span>{shortDate(ctx, d)}</span>
            </h2>
            <ul>
              {byDay.get(d)!.map((o) => (
                <li key={o.key} data-testid="agenda-item" data-title={o.title} data-key={o.key}>
                  <span className="sw" style={{ background: o.color }} />
                  <span className="when">
                    {o.allDay ? "All day" : o.banner ? (d === o.start.slice(0, 10) ? `From ${timeLabel(ctx, o.start)}` : d === o.end.slice(0, 10) ? `Until ${timeLabel(ctx, o.end)}` : "All day") : `${timeLabel(ctx, o.start)} – ${timeLabel(ctx, o.end)}`}
                  </span>
                  <Link href={eventHref(o)} className="what">
                    {o.title}
                    {o.conflict ? <span className="dbk-warn" title="Overlaps another event">!</span> : null}
                  </Link>
                  {o.location ? <span className="where">{o.location}</span> : null}
                </li>
              ))}
            </ul>
          </section>
        ))}
        {!list.length ? <p className="dbk-empty">Nothing planned for these two weeks.</p> : null}
      </div>
    </Shell>
  );
}
