import type { NextRequest } from "next/server";
import { requestUser } from "@/calendar/lib/auth";
import { getEvent, instances } from "@/calendar/lib/events";
import { json, jsonError } from "@/calendar/lib/http";
import { dayNumber, plusDays, validDate } from "@/calendar/lib/tz";

export const dynamic = "force-dynamic";

/** The longest range one request may ask for: ten years (a longer one is paged with `from`). */
const MAX_RANGE_DAYS = 3653;

/**
 * Every occurrence of one event (series expanded) on the dates `from..until` (local starts in the series' zone):
 * `from` defaults to the event's first date, `until` to ten years after `from`, and `until` may be at most ten years
 * after `from` (a never-ending series is read a page at a time). Answers `next_from` when the series may go on.
 */
export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  if (!requestUser(req)) return jsonError("Sign in first.", 401);
  const e = getEvent((await params).id);
  if (!e) return jsonError("No such event.", 404);
  const sp = req.nextUrl.searchParams;
  const first = e.start_local.slice(0, 10);
  const from = sp.get("from") || first;
  if (!validDate(from)) return jsonError("from must be a date YYYY-MM-DD (years 1900–2199).", 400, "from");
  const maxUntil = plusDays(from, MAX_RANGE_DAYS - 1);
  const untilParam = sp.get("until");
  const until = untilParam || (maxUntil < "2199-12-31" ? maxUntil : "2199-12-31");
  if (!validDate(until)) return jsonError("until must be a date YYYY-MM-DD (years 1900–2199).", 400, "until");
  if (until < from) return jsonError("until must not be before from.", 400, "until");
  if (dayNumber(until) - dayNumber(from) >= MAX_RANGE_DAYS) return jsonError("until must be at most ten years after from; ask for later dates with from.", 400, "until");
  const list = instances(e, until, undefined, from).filter((i) => i.start.slice(0, 10) <= until && (!sp.get("from") || i.start.slice(0, 10) >= from));
  const goesOn = !!e.rrule && e.last_utc.slice(0, 10) > until && until < "2199-12-31";
  return json({ id: e.id, rrule: e.rrule, tz: e.start_tz, from, until, occurrences: list, ...(goesOn ? { next_from: plusDays(until, 1) } : {}) });
}
