import { internalOnly } from "@persona/platform/internal";
import { json, jsonError } from "@persona/platform/http";
import { calContext } from "@/calendar/lib/context";
import { IcsError, parseEvents } from "@/calendar/lib/ics";
import { addAllFromIcs, CalError } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/**
 * For the mail app's "Add to calendar" (guarded): `{ics}` (iCalendar text) or a raw text/calendar
 * body. Adds its events, updates those with the same UID and a higher SEQUENCE, or finds them as
 * they are. Answers `{id, uid, created, updated, url, events}` (the first event's id/uid/url;
 * `created` / `updated` if any was; `events`: `{id, uid, created, updated}` each).
 */
export async function POST(req: Request) {
  const denied = internalOnly(req);
  if (denied) return denied;
  let text = "";
  const type = req.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const body = (await req.json()) as { ics?: unknown };
      text = typeof body?.ics === "string" ? body.ics : "";
    } else text = await req.text();
  } catch {
    return jsonError("The body must be JSON {ics} or text/calendar.");
  }
  if (!text.trim()) return jsonError("ics is required.", 400, "ics");
  if (text.length > 1_000_000) return jsonError("ics is too large (at most 1 MB).", 413, "ics");
  try {
    const r = addAllFromIcs(parseEvents(text, calContext().tz));
    return json({ ...r, url: `http://daybook.test/events/${r.id}` }, r.created ? 201 : 200);
  } catch (e) {
    if (e instanceof IcsError || e instanceof CalError) return jsonError(e.message, 400, "ics");
    throw e;
  }
}
