import type { Metadata } from "next";
import { errorMessage } from "@persona/platform/http";
import { Shell } from "@/calendar/components/Shell";
import { TimeGrid } from "@/calendar/components/TimeGrid";
import { requireUser } from "@/calendar/lib/auth";
import { occurrencesBetween } from "@/calendar/lib/events";
import { noticeText, one, type Search } from "@/calendar/lib/search";
import { plusDays } from "@/calendar/lib/tz";
import { viewRange } from "@/calendar/lib/view";

export async function generateMetadata({ searchParams }: { searchParams: Promise<Search> }): Promise<Metadata> {
  return { title: viewRange("day", one((await searchParams).date)).title };
}

export default async function DayPage({ searchParams }: { searchParams: Promise<Search> }) {
  const sp = await searchParams;
  const user = await requireUser();
  const r = viewRange("day", one(sp.date));
  const list = occurrencesBetween(r.date, plusDays(r.date, 1), { ctx: r.ctx });
  return (
    <Shell user={user} view="day" date={r.date} title={r.title} prev={r.prev} next={r.next} notice={noticeText(one(sp.notice))} error={errorMessage(sp) || undefined}>
      <TimeGrid ctx={r.ctx} days={r.days} list={list} view="day" />
    </Shell>
  );
}
