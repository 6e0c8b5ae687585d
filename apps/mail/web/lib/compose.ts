import { addSeconds } from "@persona/platform/clock";
import { reply as contactReply, type ContactCard, type Turn } from "@persona/platform/replies";
import { db, mailContext } from "./db";
import { ownAddresses, type User } from "./auth";
import { parseAddresses } from "./addresses";
import {
  getMessage, insertMessage, MailError, newMessageId, newThreadId, people, type MessageRow, type Person, writeTime
} from "./mail";

/** Writing mail: validation, drafts, sending, and the contact's answer from the reply engine. */

export const LIMITS = {
  subject: 998, // RFC 5322's line length limit
  body: 100_000,
  recipients: 50,
  /** Characters in the To or Cc field (50 recipients with names fit easily). */
  addressField: 20_000,
  files: 10,
  fileBytes: 10 * 1024 * 1024,
  totalBytes: 20 * 1024 * 1024,
};

export interface Upload {
  filename: string;
  content_type: string;
  content: Buffer;
}

export interface ComposeInput {
  action: "send" | "draft";
  from: string;
  to: string;
  cc: string;
  subject: string;
  body: string;
  draftId: number | null;
  replyTo: number | null;
  mode: "new" | "reply" | "all" | "forward";
  forwardAttachments: number[];
  uploads: Upload[];
}

function contactName(email: string): string | undefined {
  const row = db().prepare("SELECT name FROM contacts WHERE email = ? COLLATE NOCASE").get(email) as { name: string } | undefined;
  return row?.name;
}

/** A file name safe to store and serve: no path, no control characters, at most 200 characters. */
export function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 200);
  return clean && clean !== "." && clean !== ".." ? clean : "attachment";
}

/** The signature block added to sent mail ("-- " line, RFC 3676), before any quoted or forwarded text. */
export function withSignature(body: string, signature: string): string {
  const sig = signature.trim();
  if (!sig) return body;
  const block = `-- \n${sig}`;
  if (body.includes(block)) return body;
  const lines = body.split("\n");
  const at = lines.findIndex((l) => /^On .+ wrote:$/.test(l.trim()) || l.startsWith("---------- Forwarded message"));
  if (at < 0) return `${body.trimEnd()}\n\n${block}\n`;
  const head = lines.slice(0, at).join("\n").trimEnd();
  return `${head}\n\n${block}\n\n${lines.slice(at).join("\n")}`;
}

interface Checked {
  from: Person;
  to: Person[];
  cc: Person[];
  parent: MessageRow | null;
}

/** Check every field; throws MailError naming the field. Drafts may lack recipients. */
function check(user: User, input: ComposeInput): Checked {
  const own = ownAddresses(user);
  const fromEmail = (input.from || user.email).trim().toLowerCase();
  if (!own.includes(fromEmail)) throw new MailError("You can only send from your own addresses.", "from");
  const from = { name: user.full_name, email: fromEmail === user.email.toLowerCase() ? user.email : (user.work_email ?? user.email) };
  for (const f of ["to", "cc"] as const)
    if (input[f].length > LIMITS.addressField) throw new MailError(`The ${f === "to" ? "To" : "Cc"} field is too long (at most ${LIMITS.addressField.toLocaleString("en-US")} characters).`, f);
  if (input.from.length > 254) throw new MailError("You can only send from your own addresses.", "from");
  const to = parseAddresses(input.to, contactName);
  if (!to.ok) throw new MailError(`"${to.bad.slice(0, 80)}" is not a valid email address.`, "to");
  const cc = parseAddresses(input.cc, contactName);
  if (!cc.ok) throw new MailError(`"${cc.bad.slice(0, 80)}" is not a valid email address.`, "cc");
  if (input.action === "send" && !to.people.length) throw new MailError("Add at least one recipient.", "to");
  if (to.people.length + cc.people.length > LIMITS.recipients) throw new MailError(`At most ${LIMITS.recipients} recipients per message.`, "to");
  if (input.subject.length > LIMITS.subject) throw new MailError(`The subject is too long (at most ${LIMITS.subject} characters).`, "subject");
  if (/[\r\n]/.test(input.subject)) throw new MailError("The subject must be one line.", "subject");
  if (input.body.length > LIMITS.body) throw new MailError("The message is too long (at most 100,000 characters).", "body");
  if (input.uploads.length > LIMITS.files) throw new MailError(`Attach at most ${LIMITS.files} files.`, "files");
  let total = 0;
  for (const u of input.uploads) {
    if (u.content.length > LIMITS.fileBytes) throw new MailError(`"${u.filename}" is larger than 10 MB.`, "files");
    total += u.content.length;
  }
  if (total > LIMITS.totalBytes) throw new MailError("Attachments may total at most 20 MB.", "files");
  let parent: MessageRow | null = null;
  if (input.replyTo !== null) {
    parent = getMessage(input.replyTo);
    if (!parent) throw new MailError("The message you are answering no longer exists.");
  }
  return { from, to: to.people, cc: cc.people, parent };
}

function copiedAttachments(ids: number[], parent: MessageRow | null): Upload[] {
  if (!ids.length || !parent) return [];
  return db()
    .prepare(`SELECT filename, content_type, content FROM attachments WHERE message_id = ? AND id IN (${ids.map(() => "?").join(",")}) ORDER BY id`)
    .all(parent.id, ...ids) as Upload[];
}

export interface ComposeResult {
  id: number;
  folder: "sent" | "drafts";
  threadId: string;
  replyId: number | null;
}

/**
 * Save a draft or send a message for `user`. Sending appends the signature, files the message
 * in Sent (in its thread when it answers one) and, when the first recipient is a contact, stores
 * the contact's answer to arrive after the engine's delay. Throws MailError; nothing changes then.
 */
export async function compose(user: User, input: ComposeInput): Promise<ComposeResult> {
  const c = check(user, input);
  const now = writeTime();
  let draft: MessageRow | null = null;
  if (input.draftId !== null) {
    draft = db().prepare("SELECT * FROM messages WHERE id = ? AND folder = 'drafts'").get(input.draftId) as MessageRow | null;
    if (!draft) throw new MailError("That draft was already sent or deleted.");
  }
  const parent = c.parent ?? (draft?.in_reply_to ? (db().prepare("SELECT * FROM messages WHERE message_id = ?").get(draft.in_reply_to) as MessageRow | null) : null);
  const sending = input.action === "send";
  const body = sending ? withSignature(input.body.replace(/\r\n/g, "\n"), user.signature) : input.body.replace(/\r\n/g, "\n");
  const threadId = draft?.thread_id ?? parent?.thread_id ?? newThreadId();
  const refs = parent ? [...(JSON.parse(parent.references_json || "[]") as string[]), parent.message_id] : [];
  const files = [...(draft ? [] : copiedAttachments(input.forwardAttachments, parent)), ...input.uploads];
  const folder = sending ? "sent" : "drafts";
  const save = db().transaction((): number => {
    if (draft) {
      db()
        .prepare(
          `UPDATE messages SET folder = ?, from_name = ?, from_email = ?, to_json = ?, cc_json = ?, subject = ?, body = ?, snippet = ?,
                  sent_at = ?, deliver_at = ?, has_attachments = has_attachments OR ? WHERE id = ?`,
        )
        .run(folder, c.from.name, c.from.email, JSON.stringify(c.to), JSON.stringify(c.cc), input.subject, body,
          body.split(/\s+/).filter(Boolean).join(" ").slice(0, 160), now, mailContext().now, files.length ? 1 : 0, draft.id);
      const att = db().prepare("INSERT INTO attachments (message_id, filename, content_type, size, content) VALUES (?, ?, ?, ?, ?)");
      for (const f of files) att.run(draft.id, f.filename, f.content_type, f.content.length, f.content);
      return draft.id;
    }
    return insertMessage({
      message_id: newMessageId(c.from.email.split("@")[1] ?? "mailbox.test"),
      thread_id: threadId,
      in_reply_to: parent?.message_id ?? null,
      references: refs,
      folder,
      from: c.from,
      to: c.to,
      cc: c.cc,
      subject: input.subject,
      body,
      sent_at: now,
      deliver_at: mailContext().now,
      is_read: true,
      origin: "app",
      attachments: files,
    });
  });
  const id = save();
  let replyId: number | null = null;
  if (sending) replyId = await contactAnswer(user, id);
  return { id, folder, threadId, replyId };
}

/** Subject without Re:/Fwd: prefixes, lower case: what tells one conversation with a contact from another. */
export function baseSubject(subject: string): string {
  return subject.replace(/^\s*((re|fwd?|aw|wg)\s*:\s*)+/i, "").trim().toLowerCase();
}

function plainText(body: string): string {
  const kept: string[] = [];
  for (const line of body.split("\n")) {
    if (line.startsWith(">") || /^On .+ wrote:$/.test(line.trim()) || line === "-- " || line.startsWith("---------- Forwarded")) break;
    kept.push(line);
  }
  return kept.join("\n").trim();
}

/**
 * The contact's answer to sent message `sentId`, when its first recipient is a contact: the reply
 * engine's text (deterministic from the contact's card, the thread so far and the message; its seed is
 * the persona's seed, the contact and the subject), stored in the inbox to arrive `delaySeconds`
 * after the message was sent. Returns the answer's id, or null when no contact was written to.
 */
export async function contactAnswer(user: User, sentId: number): Promise<number | null> {
  const sent = db().prepare("SELECT * FROM messages WHERE id = ?").get(sentId) as MessageRow;
  const to = people(sent.to_json);
  const own = ownAddresses(user);
  let contact: { name: string; email: string; card_json: string } | undefined;
  for (const p of to) {
    if (own.includes(p.email.toLowerCase())) continue;
    contact = db().prepare("SELECT name, email, card_json FROM contacts WHERE email = ? COLLATE NOCASE").get(p.email) as typeof contact;
    if (contact) break;
  }
  if (!contact) return null;
  const card = JSON.parse(contact.card_json) as ContactCard;
  const { seed } = mailContext();
  const history: Turn[] = (
    db()
      .prepare("SELECT from_email, body, sent_at FROM messages WHERE thread_id = ? AND id <> ? AND folder NOT IN ('drafts', 'trash', 'spam') AND sent_at <= ? ORDER BY sent_at, id")
      .all(sent.thread_id, sent.id, sent.sent_at) as { from_email: string; body: string; sent_at: string }[]
  ).map((r) => ({ from: own.includes(r.from_email.toLowerCase()) ? "me" : "them", text: plainText(r.body), at: r.sent_at }));
  const answer = await contactReply(card, history, plainText(sent.body), {
    seed: `mail/${seed}/${contact.email.toLowerCase()}/${baseSubject(sent.subject)}`,
    now: sent.sent_at,
    channel: "mail",
  });
  const at = addSeconds(sent.sent_at, Math.max(1, Math.round(answer.delaySeconds)));
  const quoted = sent.body.trimEnd().split("\n").slice(0, 12).map((l) => (l ? `> ${l}` : ">")).join("\n");
  return insertMessage({
    message_id: newMessageId(contact.email.split("@")[1] ?? "mail.test"),
    thread_id: sent.thread_id,
    in_reply_to: sent.message_id,
    references: [...(JSON.parse(sent.references_json || "[]") as string[]), sent.message_id],
    folder: "inbox",
    from: { name: contact.name, email: contact.email },
    to: [{ name: sent.from_name, email: sent.from_email }],
    cc: [],
    subject: /^re:/i.test(sent.subject) ? sent.subject : `Re: ${sent.subject}`,
    body: `${answer.text.trim()}\n\nOn ${sent.sent_at.slice(0, 10)} at ${sent.sent_at.slice(11, 16)}, ${sent.from_name} <${sent.from_email}> wrote:\n${quoted}\n`,
    sent_at: at,
    deliver_at: at,
    is_read: false,
    origin: "reply",
    attachments: [],
  });
}
