import { internalOnly } from "@persona/platform/internal";
import { json, jsonError } from "@persona/platform/http";
import { CalError, rsvpFromMail } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/**
 * For the mail app (guarded): `{uid, partstat}` with partstat ACCEPTED|DECLINED|TENTATIVE sets the
 * persona's answer on the event whose iCalendar UID is `uid` (the invite.ics UID). Answers
 * `{id, partstat}`; 400 on bad input, 404 for an unknown UID, 403 without the internal key.
 */
export async function POST(req: Request) {
  const denied = internalOnly(req);
  if (denied) return denied;
  let body: { uid?: unknown; partstat?: unknown };
  try {
    body = await req.json();
  } catch {
    return jsonError("The body must be JSON {uid, partstat}.");
  }
  try {
    return json(rsvpFromMail(String(body?.uid ?? ""), String(body?.partstat ?? "").toUpperCase()));
  } catch (e) {
    if (e instanceof CalError) return jsonError(e.message, e.status, e.field);
    throw e;
  }
}
