import type { Metadata } from "next";
import { errorMessage } from "@persona/platform/http";
import { Shell } from "@/calendar/components/Shell";
import { TimeGrid } from "@/calendar/components/TimeGrid";
import { requireUser } from "@/calendar/lib/auth";
import { occurrencesBetween } from "@/calendar/lib/events";
import { MONTHS } from "@/calendar/lib/format";
import { noticeText, one, type Search } from "@/calendar/lib/search";
import { plusDays } from "@/calendar/lib/tz";
import { viewRange } from "@/calendar/lib/view";

export async function generateMetadata({ searchParams }: { searchParams: Promise<Search> }): Promise<Metadata> {
  const r = viewRange("week", one((await searchParams).date));
  const ws = r.days[0];
  return { title: `Week of ${MONTHS[Number(ws.slice(5, 7)) - 1]} ${Number(ws.slice(8, 10))}, ${ws.slice(0, 4)}` };
}

export default async function WeekPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const r = viewRange("week", one(sp.date));
  const list = occurrencesBetween(r.days[0], plusDays(r.days[6], 1), { ctx: r.ctx });
  return (
    <Shell user={user} view="week" date={r.date} title={r.title} prev={r.prev} next={r.next} notice={noticeText(one(sp.notice))} error={errorMessage(sp) || undefined}>
      <TimeGrid ctx={r.ctx} days={r.days} list={list} view="week" />
    </Shell>
  );
}
