import type { NextRequest } from "next/server";
import { fileResponse, seeOther } from "@persona/platform/http";
import { requestUser } from "@/calendar/lib/auth";
import { calContext } from "@/calendar/lib/context";
import { db } from "@/calendar/lib/db";
import type { EventRow } from "@/calendar/lib/events";
import { calendarText } from "@/calendar/lib/ics";
import { toUtc } from "@/calendar/lib/tz";

export const dynamic = "force-dynamic";

/** The whole calendar (every calendar, `?calendar=<id>` for one) as an .ics file. */
export async function GET(req: NextRequest) {
  if (!requestUser(req)) return seeOther("/login");
  const cal = req.nextUrl.searchParams.get("calendar");
  const rows = (cal
    ? db().prepare("SELECT * FROM events WHERE calendar_id = ? ORDER BY start_utc, id").all(cal)
    : db().prepare("SELECT * FROM events ORDER BY start_utc, id").all()) as EventRow[];
  const ctx = calContext();
  return fileResponse(calendarText(rows, toUtc(ctx.now, ctx.tz), { method: "PUBLISH", name: "Daybook" }), "text/calendar; charset=utf-8", "daybook.ics");
}
