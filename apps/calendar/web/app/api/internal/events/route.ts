import { internalOnly } from "@persona/platform/internal";
import { BadRequest, json, jsonError, readJson, readText, textOf } from "@persona/platform/http";
import { calContext } from "@/calendar/lib/context";
import { IcsError, parseEvents } from "@/calendar/lib/ics";
import { addAllFromIcs, CalError } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/** Largest iCalendar text taken (characters), and the largest body read (bytes; JSON escapes make it longer). */
const MAX_ICS = 1_000_000;
const MAX_BODY = 3 * 1024 * 1024;

/**
 * For the mail app's "Add to calendar" (guarded): `{ics}` (iCalendar text) or a raw text/calendar
 * body. Adds its events, updates those with the same UID and a higher SEQUENCE, or finds them as
 * they are. Answers `{id, uid, created, updated, url, events}` (the first event's id/uid/url;
 * `created` / `updated` if any was; `events`: `{id, uid, created, updated}` each). A body that is not a JSON object
 * with text `ics` nor iCalendar text is a 400 (413 over 3 MB), nothing written.
 */
export async function POST(req: Request) {
  const denied = internalOnly(req);
  if (denied) return denied;
  let text = "";
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  try {
    if (type.includes("application/json")) {
      const body = await readJson(req, MAX_BODY);
      if (typeof body.ics !== "string") return jsonError("ics is required: iCalendar text.", 400, "ics");
      text = textOf(body, "ics");
    } else if (!type || type.startsWith("text/calendar") || type.startsWith("text/plain")) {
      text = await readText(req, MAX_BODY);
    } else return jsonError("Send JSON {ics} or a text/calendar body.", 400);
  } catch (e) {
    if (e instanceof BadRequest) return jsonError(e.message, e.status);
    throw e;
  }
  if (!text.trim()) return jsonError("ics is required.", 400, "ics");
  if (text.length > MAX_ICS) return jsonError("ics is too large (at most 1 MB).", 413, "ics");
  try {
    const r = addAllFromIcs(parseEvents(text, calContext().tz));
    return json({ ...r, url: `http://daybook.test/events/${r.id}` }, r.created ? 201 : 200);
  } catch (e) {
    if (e instanceof IcsError || e instanceof CalError) return jsonError(e.message, 400, "ics");
    throw e;
  }
}
