import type { NextRequest } from "next/server";
import { fileResponse, seeOther, withQuery } from "@persona/platform/http";
import { requestUser } from "@/calendar/lib/auth";
import { calContext } from "@/calendar/lib/context";
import { getEvent } from "@/calendar/lib/events";
import { idToken } from "@/calendar/lib/ids";
import { calendarText } from "@/calendar/lib/ics";
import { toUtc } from "@/calendar/lib/tz";

export const dynamic = "force-dynamic";

/** One event (a series with its RRULE, EXDATEs and overrides) as an .ics file. */
export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const id = idToken((await params).id);
  if (!requestUser(req)) return seeOther(withQuery("/login", { next: id ? `/events/${id}` : "/week" }));
  const e = id ? getEvent(id) : null;
  if (!e) return new Response("Event not found", { status: 404 });
  const ctx = calContext();
  const name = `${e.title.replace(/[^\p{L}\p{N} ._-]/gu, "").trim().slice(0, 60) || "event"}.ics`;
  return fileResponse(calendarText([e], toUtc(ctx.now, ctx.tz), { method: "PUBLISH" }), "text/calendar; charset=utf-8", name);
}
