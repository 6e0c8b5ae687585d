import { internalOnly } from "@persona/platform/internal";
import { BadRequest, json, jsonError, readJson } from "@persona/platform/http";
import { CalError, rsvpFromMail } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/**
 * For the mail app (guarded): `{uid, partstat}` with partstat ACCEPTED|DECLINED|TENTATIVE sets the
 * persona's answer on the event whose iCalendar UID is `uid` (the invite.ics UID). Answers
 * `{id, partstat}`; 400 on a body that is not a JSON object with text uid and partstat (nothing written), 404 for an
 * unknown UID, 403 without the internal key. The same answer again changes nothing.
 */
export async function POST(req: Request) {
  const denied = internalOnly(req);
  if (denied) return denied;
  let body: Record<string, unknown>;
  try {
    body = await readJson(req, 16 * 1024);
  } catch (e) {
    if (e instanceof BadRequest) return jsonError(e.message, e.status);
    throw e;
  }
  if (typeof body.uid !== "string" || !body.uid) return jsonError("uid is required: the invitation's UID as text.", 400, "uid");
  if (typeof body.partstat !== "string") return jsonError("partstat must be ACCEPTED, DECLINED or TENTATIVE.", 400, "partstat");
  try {
    return json(rsvpFromMail(body.uid, body.partstat.toUpperCase()));
  } catch (e) {
    if (e instanceof CalError) return jsonError(e.message, e.status, e.field);
    throw e;
  }
}
