import { internalOnly } from "@persona/platform/internal";
import { deliver } from "@/mail/lib/deliver";
import { json, jsonError } from "@/mail/lib/http";
import { MailError } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

/**
 * Mail from another app on this machine (the calendar's RSVP answers, say):
 * `{from, to, cc?, subject, body, in_reply_to?, folder: "inbox"|"sent", attachments?: [{filename, content_type, content_base64}]}`
 * -> `{id}`; 400 `{error, field}` on a bad field (nothing stored); 403 without the internal key.
 */
export async function POST(req: Request) {
  const denied = internalOnly(req);
  if (denied) return denied;
  let payload: unknown;
  try {
    payload = await req.json();
  } catch {
    return jsonError("The body must be JSON.");
  }
  try {
    return json({ id: deliver(payload) });
  } catch (e) {
    if (e instanceof MailError) return jsonError(e.message, 400, e.field);
    throw e;
  }
}
