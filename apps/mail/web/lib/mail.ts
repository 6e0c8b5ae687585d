import crypto from "node:crypto";
import { addSeconds } from "@persona/platform/clock";
import { db, mailContext } from "./db";

/** Reads and writes of the mailbox. Every list shows only delivered mail (`deliver_at <= now`). */

export class MailError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export interface Person {
  name: string;
  email: string;
}

export interface MessageRow {
  id: number;
  message_id: string;
  thread_id: string;
  in_reply_to: string | null;
  references_json: string;
  folder: string;
  prev_folder: string | null;
  from_name: string;
  from_email: string;
  to_json: string;
  cc_json: string;
  subject: string;
  body: string;
  snippet: string;
  sent_at: string;
  deliver_at: string;
  is_read: number;
  is_starred: number;
  has_attachments: number;
  origin: string;
  world_ref: string | null;
  ref: string | null;
}

export interface AttachmentRow {
  id: number;
  message_id: number;
  filename: string;
  content_type: string;
  size: number;
}

export interface LabelRow {
  id: number;
  name: string;
  color: string;
}

export const SYSTEM_FOLDERS = [
  { key: "inbox", title: "Inbox", href: "/" },
  { key: "starred", title: "Starred", href: "/starred" },
  { key: "sent", title: "Sent", href: "/sent" },
  { key: "drafts", title: "Drafts", href: "/drafts" },
  { key: "archive", title: "Archive", href: "/archive" },
  { key: "spam", title: "Spam", href: "/spam" },
  { key: "trash", title: "Trash", href: "/trash" },
] as const;

export type FolderKey = (typeof SYSTEM_FOLDERS)[number]["key"];

export function people(json: string): Person[] {
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? v.map((p) => ({ name: String(p?.name ?? ""), email: String(p?.email ?? "") })) : [];
  } catch {
    return [];
  }
}

export function personText(p: Person): string {
  return p.name ? `${p.name} <${p.email}>` : p.email;
}

/** The SQL condition of a folder view over `messages m`. */
export function folderCondition(folder: FolderKey): { where: string; args: (string | number)[] } {
  if (folder === "starred") return { where: "m.is_starred = 1 AND m.folder NOT IN ('trash', 'spam')", args: [] };
  return { where: "m.folder = ?", args: [folder] };
}

export function labelCondition(labelId: number): { where: string; args: (string | number)[] } {
  return {
    where: "m.folder NOT IN ('trash', 'spam') AND m.id IN (SELECT message_id FROM message_labels WHERE label_id = ?)",
    args: [labelId],
  };
}

export interface Conversation {
  thread_id: string;
  latest: MessageRow;
  matched: number;
  in_thread: number;
  unread: number;
  starred: boolean;
  attachments: boolean;
  senders: string[];
  labels: LabelRow[];
}

export interface ListPage {
  conversations: Conversation[];
  threads: number;
  messages: number;
  unread: number;
  page: number;
  pages: number;
}

export const PAGE_SIZE = 50;

/** One page (1-based) of conversations with a message matching `cond`, newest first, with totals. */
export function listConversations(cond: { where: string; args: (string | number)[] }, page: number): ListPage {
  const { now } = mailContext();
  const where = `m.deliver_at <= ? AND (${cond.where})`;
  const args = [now, ...cond.args];
  const totals = db()
    .prepare(`SELECT COUNT(*) AS messages, COUNT(DISTINCT m.thread_id) AS threads, COALESCE(SUM(1 - m.is_read), 0) AS unread FROM messages m WHERE ${where}`)
    .get(...args) as { messages: number; threads: number; unread: number };
  const pages = Math.max(1, Math.ceil(totals.threads / PAGE_SIZE));
  const p = Math.min(Math.max(1, page || 1), pages);
  const groups = db()
    .prepare(
      `SELECT m.thread_id, MAX(m.sent_at) AS last_at, MAX(m.id) AS last_id, COUNT(*) AS matched, SUM(1 - m.is_read) AS unread,
              MAX(m.is_starred) AS starred, MAX(m.has_attachments) AS att
         FROM messages m WHERE ${where} GROUP BY m.thread_id ORDER BY last_at DESC, last_id DESC LIMIT ? OFFSET ?`,
    )
    .all(...args, PAGE_SIZE, (p - 1) * PAGE_SIZE) as { thread_id: string; matched: number; unread: number; starred: number; att: number }[];
  const latestQ = db().prepare(`SELECT m.* FROM messages m WHERE m.thread_id = ? AND ${where} ORDER BY m.sent_at DESC, m.id DESC LIMIT 1`);
  const threadQ = db().prepare(
    "SELECT from_name, from_email FROM messages WHERE thread_id = ? AND deliver_at <= ? AND folder NOT IN ('drafts', 'trash', 'spam') ORDER BY sent_at, id",
  );
  const conversations = groups.map((g) => {
    const latest = latestQ.get(g.thread_id, ...args) as MessageRow;
    const inThread = threadQ.all(g.thread_id, now) as { from_name: string; from_email: string }[];
    const senders = [...new Set(inThread.map((r) => r.from_name || r.from_email))];
    return {
      thread_id: g.thread_id,
      latest,
      matched: g.matched,
      in_thread: Math.max(inThread.length, 1),
      unread: g.unread,
      starred: !!g.starred,
      attachments: !!g.att,
      senders: senders.length ? senders : [latest.from_name || latest.from_email],
      labels: labelsOf([latest.id]).get(latest.id) ?? [],
    };
  });
  return { conversations, threads: totals.threads, messages: totals.messages, unread: totals.unread, page: p, pages };
}

/** Labels of each message id. */
export function labelsOf(ids: number[]): Map<number, LabelRow[]> {
  const out = new Map<number, LabelRow[]>();
  if (!ids.length) return out;
  const rows = db()
    .prepare(
      `SELECT ml.message_id, l.id, l.name, l.color FROM message_labels ml JOIN labels l ON l.id = ml.label_id
        WHERE ml.message_id IN (${ids.map(() => "?").join(",")}) ORDER BY l.name`,
    )
    .all(...ids) as (LabelRow & { message_id: number })[];
  for (const r of rows) {
    const list = out.get(r.message_id) ?? [];
    list.push({ id: r.id, name: r.name, color: r.color });
    out.set(r.message_id, list);
  }
  return out;
}

export function allLabels(): LabelRow[] {
  return db().prepare("SELECT id, name, color FROM labels ORDER BY name").all() as LabelRow[];
}

export function labelByName(name: string): LabelRow | null {
  return (db().prepare("SELECT id, name, color FROM labels WHERE name = ?").get(name) as LabelRow | undefined) ?? null;
}

/** Unread conversations per folder and label, and the number of drafts: the left rail's badges. */
export function railCounts(): { folders: Record<string, number>; labels: Record<number, number> } {
  const { now } = mailContext();
  const folders: Record<string, number> = {};
  for (const r of db()
    .prepare("SELECT folder, COUNT(DISTINCT thread_id) AS n FROM messages WHERE deliver_at <= ? AND is_read = 0 GROUP BY folder")
    .all(now) as { folder: string; n: number }[])
    folders[r.folder] = r.n;
  folders.drafts = (db().prepare("SELECT COUNT(*) AS n FROM messages WHERE folder = 'drafts'").get() as { n: number }).n;
  const labels: Record<number, number> = {};
  for (const r of db()
    .prepare(
      `SELECT ml.label_id, COUNT(DISTINCT m.thread_id) AS n FROM messages m JOIN message_labels ml ON ml.message_id = m.id
        WHERE m.deliver_at <= ? AND m.is_read = 0 AND m.folder NOT IN ('trash', 'spam') GROUP BY ml.label_id`,
    )
    .all(now) as { label_id: number; n: number }[])
    labels[r.label_id] = r.n;
  return { folders, labels };
}

export function getMessage(id: number): MessageRow | null {
  const { now } = mailContext();
  return (db().prepare("SELECT * FROM messages WHERE id = ? AND deliver_at <= ?").get(id, now) as MessageRow | undefined) ?? null;
}

export function messageByMessageId(mid: string): MessageRow | null {
  return (db().prepare("SELECT * FROM messages WHERE message_id = ?").get(mid) as MessageRow | undefined) ?? null;
}

/** The delivered messages of a thread (drafts last), oldest first. */
export function threadMessages(threadId: string): MessageRow[] {
  const { now } = mailContext();
  return db()
    .prepare("SELECT * FROM messages WHERE thread_id = ? AND deliver_at <= ? ORDER BY folder = 'drafts', sent_at, id")
    .all(threadId, now) as MessageRow[];
}

export function attachmentsOf(ids: number[]): Map<number, AttachmentRow[]> {
  const out = new Map<number, AttachmentRow[]>();
  if (!ids.length) return out;
  const rows = db()
    .prepare(`SELECT id, message_id, filename, content_type, size FROM attachments WHERE message_id IN (${ids.map(() => "?").join(",")}) ORDER BY id`)
    .all(...ids) as AttachmentRow[];
  for (const r of rows) out.set(r.message_id, [...(out.get(r.message_id) ?? []), r]);
  return out;
}

export function attachmentContent(id: number): (AttachmentRow & { content: Buffer }) | null {
  const { now } = mailContext();
  return (
    (db()
      .prepare(
        `SELECT a.id, a.message_id, a.filename, a.content_type, a.size, a.content FROM attachments a JOIN messages m ON m.id = a.message_id
          WHERE a.id = ? AND m.deliver_at <= ?`,
      )
      .get(id, now) as (AttachmentRow & { content: Buffer }) | undefined) ?? null
  );
}

export function markThreadRead(threadId: string): void {
  const { now } = mailContext();
  db().prepare("UPDATE messages SET is_read = 1 WHERE thread_id = ? AND deliver_at <= ? AND is_read = 0").run(threadId, now);
}

export const OPS = ["archive", "trash", "restore", "inbox", "spam", "read", "unread", "star", "unstar", "label", "unlabel", "move"] as const;
export type Op = (typeof OPS)[number];

/**
 * Apply `op` to the messages `ids` (and, with `wholeThreads`, to every message of their threads).
 * `label` (an id) is needed by label / unlabel / move. Returns the number of messages changed.
 * Throws MailError on an unknown op, no messages or a missing label; nothing changes then.
 */
export function applyOp(ids: number[], op: string, labelId: number | null, wholeThreads: boolean): number {
  if (!(OPS as readonly string[]).includes(op)) throw new MailError("That action is not known.");
  const { now } = mailContext();
  const found = ids.length
    ? (db()
        .prepare(`SELECT id, thread_id FROM messages WHERE deliver_at <= ? AND id IN (${ids.map(() => "?").join(",")})`)
        .all(now, ...ids) as { id: number; thread_id: string }[])
    : [];
  if (!found.length) throw new MailError("Select at least one conversation first.");
  let targets = found.map((r) => r.id);
  if (wholeThreads) {
    const threads = [...new Set(found.map((r) => r.thread_id))];
    targets = (
      db()
        .prepare(`SELECT id FROM messages WHERE deliver_at <= ? AND folder <> 'drafts' AND thread_id IN (${threads.map(() => "?").join(",")})`)
        .all(now, ...threads) as { id: number }[]
    ).map((r) => r.id);
  }
  let label: LabelRow | undefined;
  if (op === "label" || op === "unlabel" || op === "move") {
    label = labelId ? (db().prepare("SELECT id, name, color FROM labels WHERE id = ?").get(labelId) as LabelRow | undefined) : undefined;
    if (!label) throw new MailError("Choose a label.", "label");
  }
  const inList = `(${targets.map(() => "?").join(",")})`;
  const run = db().transaction(() => {
    const exec = (sql: string, ...extra: unknown[]) => db().prepare(sql + ` WHERE id IN ${inList}`).run(...extra, ...targets).changes;
    switch (op as Op) {
      case "archive":
        return db().prepare(`UPDATE messages SET folder = 'archive' WHERE folder IN ('inbox', 'spam') AND id IN ${inList}`).run(...targets).changes;
      case "trash":
        return db()
          .prepare(`UPDATE messages SET prev_folder = folder, folder = 'trash' WHERE folder <> 'trash' AND id IN ${inList}`)
          .run(...targets).changes;
      case "restore":
        return db()
          .prepare(`UPDATE messages SET folder = COALESCE(prev_folder, 'inbox'), prev_folder = NULL WHERE folder = 'trash' AND id IN ${inList}`)
          .run(...targets).changes;
      case "inbox":
        return db()
          .prepare(`UPDATE messages SET folder = 'inbox', prev_folder = NULL WHERE folder IN ('archive', 'spam', 'trash') AND from_email NOT IN (SELECT email FROM users UNION SELECT work_email FROM users WHERE work_email IS NOT NULL) AND id IN ${inList}`)
          .run(...targets).changes;
      case "spam":
        return db().prepare(`UPDATE messages SET prev_folder = folder, folder = 'spam' WHERE folder IN ('inbox', 'archive') AND id IN ${inList}`).run(...targets).changes;
      case "read":
        return exec("UPDATE messages SET is_read = 1");
      case "unread":
        return exec("UPDATE messages SET is_read = 0");
      case "star":
        return exec("UPDATE messages SET is_starred = 1");
      case "unstar":
        return exec("UPDATE messages SET is_starred = 0");
      case "label":
        return db().prepare(`INSERT OR IGNORE INTO message_labels (message_id, label_id) SELECT id, ? FROM messages WHERE id IN ${inList}`).run(label!.id, ...targets).changes;
      case "unlabel":
        return db().prepare(`DELETE FROM message_labels WHERE label_id = ? AND message_id IN ${inList}`).run(label!.id, ...targets).changes;
      case "move": {
        const n = db().prepare(`INSERT OR IGNORE INTO message_labels (message_id, label_id) SELECT id, ? FROM messages WHERE id IN ${inList}`).run(label!.id, ...targets).changes;
        db().prepare(`UPDATE messages SET folder = 'archive' WHERE folder = 'inbox' AND id IN ${inList}`).run(...targets);
        return n;
      }
    }
    return 0;
  });
  return run() as number;
}

const LABEL_COLORS = ["#0f766e", "#b45309", "#7c3aed", "#be123c", "#1d4ed8", "#15803d", "#a16207", "#9333ea", "#0e7490", "#c2410c"];

/** Create a label; throws MailError for an empty, too long or taken name. */
export function createLabel(name: string): LabelRow {
  const n = name.trim();
  if (!n) throw new MailError("Give the label a name.", "name");
  if (n.length > 40) throw new MailError("Label names are at most 40 characters.", "name");
  if (/[\u0000-\u001f]/.test(n)) throw new MailError("Label names cannot hold control characters.", "name");
  if (db().prepare("SELECT 1 FROM labels WHERE name = ? COLLATE NOCASE").get(n)) throw new MailError(`There is already a label called "${n}".`, "name");
  const count = (db().prepare("SELECT COUNT(*) AS n FROM labels").get() as { n: number }).n;
  const info = db().prepare("INSERT INTO labels (name, color) VALUES (?, ?)").run(n, LABEL_COLORS[count % LABEL_COLORS.length]);
  return { id: Number(info.lastInsertRowid), name: n, color: LABEL_COLORS[count % LABEL_COLORS.length] };
}

/** Store the signature; throws MailError when it is over 2,000 characters. */
export function saveSignature(userId: number, signature: string): void {
  if (signature.length > 2000) throw new MailError("The signature is too long (at most 2,000 characters).", "signature");
  db().prepare("UPDATE users SET signature = ? WHERE id = ?").run(signature.replace(/\r\n/g, "\n"), userId);
}

/** A new Message-ID at `domain`. */
export function newMessageId(domain: string): string {
  return `<${crypto.randomBytes(12).toString("hex")}@${domain}>`;
}

export function newThreadId(): string {
  return crypto.randomBytes(10).toString("hex");
}

export interface NewMessage {
  message_id: string;
  thread_id: string;
  in_reply_to: string | null;
  references: string[];
  folder: string;
  from: Person;
  to: Person[];
  cc: Person[];
  subject: string;
  body: string;
  sent_at: string;
  deliver_at: string;
  is_read: boolean;
  origin: "app" | "reply" | "internal";
  ref?: string | null;
  attachments: { filename: string; content_type: string; content: Buffer }[];
  labels?: number[];
}

function snippetOf(body: string): string {
  const kept: string[] = [];
  for (const line of body.split("\n")) {
    if (line.startsWith(">") || /^On .+ wrote:$/.test(line.trim()) || line.trim() === "-- ") break;
    kept.push(line);
  }
  const text = kept.join(" ").split(/\s+/).filter(Boolean).join(" ");
  return text.length <= 160 ? text : text.slice(0, 159).trimEnd() + "…";
}

/** Insert a message with its attachments (call inside a transaction when it is part of more); returns its id. */
export function insertMessage(m: NewMessage): number {
  const info = db()
    .prepare(
      `INSERT INTO messages (message_id, thread_id, in_reply_to, references_json, folder, prev_folder, from_name, from_email, to_json, cc_json,
                             subject, body, snippet, sent_at, deliver_at, is_read, is_starred, has_attachments, origin, world_ref, ref)
       VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, NULL, ?)`,
    )
    .run(
      m.message_id,
      m.thread_id,
      m.in_reply_to,
      JSON.stringify(m.references),
      m.folder,
      m.from.name,
      m.from.email,
      JSON.stringify(m.to),
      JSON.stringify(m.cc),
      m.subject,
      m.body,
      snippetOf(m.body),
      m.sent_at,
      m.deliver_at,
      m.is_read ? 1 : 0,
      m.attachments.length ? 1 : 0,
      m.origin,
      m.ref ?? null,
    );
  const id = Number(info.lastInsertRowid);
  const att = db().prepare("INSERT INTO attachments (message_id, filename, content_type, size, content) VALUES (?, ?, ?, ?, ?)");
  for (const a of m.attachments) att.run(id, a.filename, a.content_type, a.content.length, a.content);
  const lab = db().prepare("INSERT OR IGNORE INTO message_labels (message_id, label_id) VALUES (?, ?)");
  for (const l of m.labels ?? []) lab.run(id, l);
  return id;
}

/**
 * The time stamp of mail the user writes now: the app's now, or one second after the latest mail
 * written in the app when that is later (the guest's clock starts at the world's now, so several
 * messages written in its first second still keep their order).
 */
export function writeTime(): string {
  const { now } = mailContext();
  const row = db().prepare("SELECT MAX(sent_at) AS last FROM messages WHERE origin IN ('app', 'internal')").get() as { last: string | null };
  return row.last && row.last >= now ? addSeconds(row.last, 1) : now;
}
