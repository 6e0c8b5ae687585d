import { db, mailContext } from "./db";
import { isEmail } from "./addresses";
import { cleanFilename, LIMITS } from "./compose";
import { insertMessage, MailError, messageByMessageId, newMessageId, newThreadId, type Person, writeTime } from "./mail";

/**
 * Mail handed over by another app on this machine (POST /api/internal/deliver): checked field by
 * field, filed in the inbox or in Sent, threaded under `in_reply_to` when that message is here.
 */

function person(v: unknown, what: string): Person {
  if (typeof v === "string" && isEmail(v.trim())) return { name: "", email: v.trim() };
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    const email = typeof o.email === "string" ? o.email.trim() : "";
    const name = typeof o.name === "string" ? o.name.replace(/[\r\n]+/g, " ").trim() : "";
    if (isEmail(email) && name.length <= 200) return { name, email };
  }
  throw new MailError(`${what} must be an email address or {name, email}.`, what);
}

/** Store the delivered mail; returns its id. Throws MailError with the field at fault; nothing is stored then. */
export function deliver(payload: unknown): number {
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) throw new MailError("The body must be a JSON object.");
  const p = payload as Record<string, unknown>;
  const from = person(p.from, "from");
  if (!Array.isArray(p.to) || !p.to.length) throw new MailError("to must be a non-empty list of addresses.", "to");
  if (p.to.length > LIMITS.recipients) throw new MailError(`to holds at most ${LIMITS.recipients} addresses.`, "to");
  const to = p.to.map((x) => person(x, "to"));
  const cc = Array.isArray(p.cc) ? p.cc.map((x) => person(x, "cc")) : [];
  if (typeof p.subject !== "string" || p.subject.length > LIMITS.subject || /[\r\n]/.test(p.subject))
    throw new MailError(`subject must be one line of at most ${LIMITS.subject} characters.`, "subject");
  if (typeof p.body !== "string" || p.body.length > LIMITS.body) throw new MailError("body must be text of at most 100,000 characters.", "body");
  const folder = p.folder ?? "inbox";
  if (folder !== "inbox" && folder !== "sent") throw new MailError('folder must be "inbox" or "sent".', "folder");
  if (p.in_reply_to !== undefined && p.in_reply_to !== null && (typeof p.in_reply_to !== "string" || !/^<[^<>\s]{3,250}>$/.test(p.in_reply_to)))
    throw new MailError("in_reply_to must be a Message-ID like <id@host>.", "in_reply_to");
  const atts = p.attachments ?? [];
  if (!Array.isArray(atts) || atts.length > LIMITS.files) throw new MailError(`attachments must be a list of at most ${LIMITS.files}.`, "attachments");
  let total = 0;
  const files = atts.map((a, i) => {
    const o = (a ?? {}) as Record<string, unknown>;
    if (typeof o.filename !== "string" || !o.filename.trim()) throw new MailError(`attachments[${i}].filename is missing.`, "attachments");
    if (typeof o.content_type !== "string" || !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(o.content_type) || o.content_type.length > 200)
      throw new MailError(`attachments[${i}].content_type must be a MIME type.`, "attachments");
    if (typeof o.content_base64 !== "string" || !/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/.test(o.content_base64))
      throw new MailError(`attachments[${i}].content_base64 must be base64.`, "attachments");
    const content = Buffer.from(o.content_base64, "base64");
    total += content.length;
    if (content.length > LIMITS.fileBytes || total > LIMITS.totalBytes) throw new MailError("attachments are too large.", "attachments");
    return { filename: cleanFilename(o.filename), content_type: o.content_type, content };
  });
  const parent = typeof p.in_reply_to === "string" ? messageByMessageId(p.in_reply_to) : null;
  const now = writeTime();
  const save = db().transaction(() =>
    insertMessage({
      message_id: newMessageId(from.email.split("@")[1]),
      thread_id: parent?.thread_id ?? newThreadId(),
      in_reply_to: typeof p.in_reply_to === "string" ? p.in_reply_to : null,
      references: parent ? [...(JSON.parse(parent.references_json || "[]") as string[]), parent.message_id] : [],
      folder,
      from,
      to,
      cc,
      subject: p.subject as string,
      body: p.body as string,
      sent_at: now,
      deliver_at: mailContext().now,
      is_read: folder === "sent",
      origin: "internal",
      attachments: files,
    }),
  );
  return save();
}
