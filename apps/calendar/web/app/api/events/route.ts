import type { NextRequest } from "next/server";
import { requestUser } from "@/calendar/lib/auth";
import { occurrencesBetween } from "@/calendar/lib/events";
import { json, jsonError, signedWrite, withQuery } from "@/calendar/lib/http";
import { validDate, dayNumber } from "@/calendar/lib/tz";
import { createEvent, EVENT_FIELDS, EVENT_FORM_BYTES, type EventInput } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

const FIELDS = EVENT_FIELDS;

function input(f: Record<string, string>): EventInput {
  return Object.fromEntries(FIELDS.map((k) => [k, f[k] ?? ""])) as unknown as EventInput;
}

/** Occurrences between `from` and `to` (dates, `to` exclusive, at most 400 days) as JSON, times in the persona's zone. */
export async function GET(req: NextRequest) {
  if (!requestUser(req)) return jsonError("Sign in first.", 401);
  const from = req.nextUrl.searchParams.get("from") ?? "";
  const to = req.nextUrl.searchParams.get("to") ?? "";
  if (!validDate(from) || !validDate(to)) return jsonError("from and to must be dates YYYY-MM-DD (years 1900–2199).", 400, validDate(from) ? "to" : "from");
  if (to <= from || dayNumber(to) - dayNumber(from) > 400) return jsonError("to must be after from, at most 400 days later.", 400, "to");
  const list = occurrencesBetween(from, to, { includeHidden: req.nextUrl.searchParams.get("hidden") === "1" });
  return json({ from, to, occurrences: list.map(({ startMs, endMs, ...o }) => ({ ...o, start_utc: new Date(startMs).toISOString(), end_utc: new Date(endMs).toISOString() })) });
}

/** Create an event (form or JSON; idempotent by the form's `_idem` or an Idempotency-Key). */
export async function POST(req: NextRequest) {
  return signedWrite(
    req,
    "/events/new",
    (_u, f) => {
      const id = createEvent(input(f));
      return { path: withQuery(`/events/${id}`, { notice: "created" }), body: { id } };
    },
    (f, e) => withQuery("/events/new", { ...input(f), error: e.message, field: e.field }),
    { maxBytes: EVENT_FORM_BYTES },
  );
}
