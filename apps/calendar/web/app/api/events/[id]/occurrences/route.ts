import type { NextRequest } from "next/server";
import { requestUser } from "@/calendar/lib/auth";
import { getEvent, instances } from "@/calendar/lib/events";
import { json, jsonError } from "@/calendar/lib/http";
import { validDate } from "@/calendar/lib/tz";

export const dynamic = "force-dynamic";

/** Every occurrence of one event (series expanded) up to `until` (default 2199-12-31), local starts in the series' zone. */
export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  if (!requestUser(req)) return jsonError("Sign in first.", 401);
  const e = getEvent((await params).id);
  if (!e) return jsonError("No such event.", 404);
  const until = req.nextUrl.searchParams.get("until") || "2199-12-31";
  if (!validDate(until)) return jsonError("until must be a date YYYY-MM-DD.", 400, "until");
  const list = instances(e, until).filter((i) => i.start.slice(0, 10) <= until);
  return json({ id: e.id, rrule: e.rrule, tz: e.start_tz, occurrences: list });
}
