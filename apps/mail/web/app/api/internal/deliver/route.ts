import { internalOnly } from "@persona/platform/internal";
import { BadRequest, readJson } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import { deliver } from "@/mail/lib/deliver";
import { LIMITS } from "@/mail/lib/compose";
import { json, jsonError } from "@/mail/lib/http";
import { MailError } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

/** Largest delivery: the attachments' limit as base64 (4/3) plus the text fields. */
const MAX_DELIVER_BYTES = Math.ceil((LIMITS.totalBytes * 4) / 3) + 1024 * 1024;

/**
 * Mail from another app on this machine (the calendar's RSVP answers, say):
 * `{from, to, cc?, subject, body, in_reply_to?, folder: "inbox"|"sent", attachments?: [{filename, content_type, content_base64}]}`
 * -> `{id}`; 400 `{error, field}` on a bad field or a body that is not a JSON object (nothing stored); 403 without
 * the internal key. An `Idempotency-Key` header delivers a message once.
 */
export const POST = idempotent(
  async (req) => {
    const denied = internalOnly(req);
    if (denied) return denied;
    let payload: Record<string, unknown>;
    try {
      payload = await readJson(req, MAX_DELIVER_BYTES);
    } catch (e) {
      if (e instanceof BadRequest) return jsonError(e.message, e.status);
      throw e;
    }
    try {
      return json({ id: deliver(payload) });
    } catch (e) {
      if (e instanceof MailError) return jsonError(e.message, 400, e.field);
      throw e;
    }
  },
  { user: (req) => (internalOnly(req) ? null : "internal"), maxBytes: MAX_DELIVER_BYTES },
);
