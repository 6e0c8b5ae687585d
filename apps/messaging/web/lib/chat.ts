import { addSeconds } from "@persona/platform/clock";
import { reply, type ContactCard, type Turn } from "@persona/platform/replies";
import { db } from "./db";
import { chatContext } from "./context";

/** The tapbacks Parley offers, in menu order (apps/messaging/seed.py TAPBACKS). */
export const TAPBACKS = ["❤️", "👍", "😂", "😮", "😢", "❗"] as const;
/** The longest message Parley sends, in characters (UTF-16 code units, as a textarea counts). */
export const MAX_MESSAGE = 4000;
export const MAX_GROUP_NAME = 80;
/** Most people one group may hold (the contacts list is far shorter). */
export const MAX_GROUP_MEMBERS = 200;
/** How many messages a conversation page shows at once. */
export const PAGE = 150;
/** How long after sending the persona may edit a text, in minutes (apps/messaging/models.py EDIT_WINDOW_MINUTES). */
export const EDIT_WINDOW_MINUTES = 15;
/** How many earlier messages the reply engine sees. */
const HISTORY = 30;

export interface Contact {
  id: number;
  name: string;
  phone: string;
  email: string | null;
  relationship: string | null;
  messaging_style: string | null;
  closeness: number | null;
  birthday: string | null;
  city: string | null;
  shared_activities: string;
}

export interface Conversation {
  id: number;
  kind: "direct" | "group";
  title: string | null;
  contact_id: number | null;
  contact_name: string | null;
  created_at: string;
}

export interface Message {
  id: number;
  conversation_id: number;
  sender_id: number | null;
  sender_name: string | null;
  body: string;
  sent_at: string;
  deliver_at: string;
  read_at: string | null;
  world_ref: string | null;
  quote_id: number | null;
  edited_at: string | null;
  deleted_at: string | null;
  /** The quoted message (quote_id), when it is in the same conversation. */
  quote_mine: number | null;
  quote_sender: string | null;
  quote_body: string | null;
  quote_deleted: string | null;
}

export interface ListItem extends Conversation {
  name: string;
  last: Message | null;
  last_at: string;
  unread: number;
  members: string[];
}

export class ChatError extends Error {
  constructor(
    message: string,
    public field?: string,
    public status = 400,
  ) {
    super(message);
  }
}

const CONV_SQL = `SELECT c.id, c.kind, c.title, c.contact_id, k.name AS contact_name, c.created_at
                    FROM conversations c LEFT JOIN contacts k ON k.id = c.contact_id`;
const MSG_SQL = `SELECT m.id, m.conversation_id, m.sender_id, k.name AS sender_name, m.body, m.sent_at, m.deliver_at,
                        m.read_at, m.world_ref, m.quote_id, m.edited_at, m.deleted_at,
                        CASE WHEN q.id IS NULL THEN NULL ELSE q.sender_id IS NULL END AS quote_mine, qk.name AS quote_sender,
                        q.body AS quote_body, q.deleted_at AS quote_deleted
                   FROM messages m LEFT JOIN contacts k ON k.id = m.sender_id
                   LEFT JOIN messages q ON q.id = m.quote_id AND q.conversation_id = m.conversation_id
                   LEFT JOIN contacts qk ON qk.id = q.sender_id`;

/** A conversation's display name: the contact's name, or the group's title. */
export function conversationName(c: Pick<Conversation, "kind" | "title" | "contact_name">): string {
  return (c.kind === "direct" ? c.contact_name : c.title) ?? "Conversation";
}

export function memberNames(conversationId: number): string[] {
  return (
    db()
      .prepare("SELECT k.name FROM members b JOIN contacts k ON k.id = b.contact_id WHERE b.conversation_id = ? ORDER BY k.id")
      .all(conversationId) as { name: string }[]
  ).map((r) => r.name);
}

/** Every conversation, newest activity first (last delivered message, else creation), with its unread count. */
export function listConversations(now: string): ListItem[] {
  const convs = db().prepare(CONV_SQL).all() as Conversation[];
  const lastStmt = db().prepare(`${MSG_SQL} WHERE m.conversation_id = ? AND m.deliver_at <= ? ORDER BY m.deliver_at DESC, m.id DESC LIMIT 1`);
  const unreadStmt = db().prepare(
    "SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ? AND sender_id IS NOT NULL AND read_at IS NULL AND deliver_at <= ?",
  );
  const items = convs.map((c) => {
    const last = (lastStmt.get(c.id, now) as Message | undefined) ?? null;
    return {
      ...c,
      name: conversationName(c),
      last,
      last_at: last?.deliver_at ?? c.created_at,
      unread: (unreadStmt.get(c.id, now) as { n: number }).n,
      members: c.kind === "group" ? memberNames(c.id) : [],
    };
  });
  return items.sort((a, b) => (a.last_at < b.last_at ? 1 : a.last_at > b.last_at ? -1 : b.id - a.id));
}

export function getConversation(id: number): Conversation | null {
  if (!Number.isInteger(id)) return null;
  return (db().prepare(`${CONV_SQL} WHERE c.id = ?`).get(id) as Conversation | undefined) ?? null;
}

export interface Window {
  messages: Message[];
  hasEarlier: boolean;
  /** For each of the persona's messages in the window: when the contact read it (their next message), or null. */
  readAt: Map<number, string | null>;
}

/**
 * The messages a conversation page shows, oldest first, delivered by `now`: the latest PAGE, or
 * those around message `around`, or the PAGE before message `before`.
 */
export function messageWindow(conversationId: number, now: string, opts: { around?: number; before?: number } = {}): Window {
  const d = db();
  const pivotId = opts.around ?? opts.before;
  const pivot = pivotId
    ? (d.prepare("SELECT id, deliver_at FROM messages WHERE id = ? AND conversation_id = ? AND deliver_at <= ?").get(pivotId, conversationId, now) as
        | { id: number; deliver_at: string }
        | undefined)
    : undefined;
  let rows: Message[];
  if (pivot) {
    const earlier = d
      .prepare(
        `${MSG_SQL} WHERE m.conversation_id = ? AND (m.deliver_at < ? OR (m.deliver_at = ? AND m.id < ?))
          ORDER BY m.deliver_at DESC, m.id DESC LIMIT ?`,
      )
      .all(conversationId, pivot.deliver_at, pivot.deliver_at, pivot.id, opts.around ? PAGE / 2 : PAGE) as Message[];
    const later = opts.around
      ? (d
          .prepare(
            `${MSG_SQL} WHERE m.conversation_id = ? AND m.deliver_at <= ? AND (m.deliver_at > ? OR (m.deliver_at = ? AND m.id >= ?))
              ORDER BY m.deliver_at, m.id LIMIT ?`,
          )
          .all(conversationId, now, pivot.deliver_at, pivot.deliver_at, pivot.id, PAGE / 2) as Message[])
      : [];
    rows = [...earlier.reverse(), ...later];
  } else {
    rows = (
      d.prepare(`${MSG_SQL} WHERE m.conversation_id = ? AND m.deliver_at <= ? ORDER BY m.deliver_at DESC, m.id DESC LIMIT ?`).all(conversationId, now, PAGE) as Message[]
    ).reverse();
  }
  const first = rows[0];
  const hasEarlier = first
    ? !!d
        .prepare("SELECT 1 FROM messages WHERE conversation_id = ? AND (deliver_at < ? OR (deliver_at = ? AND id < ?)) LIMIT 1")
        .get(conversationId, first.deliver_at, first.deliver_at, first.id)
    : false;
  // Read receipts: a later message from a contact means they read it.
  const readAt = new Map<number, string | null>();
  const last = rows[rows.length - 1];
  let next: string | null = last
    ? ((
        d
          .prepare(
            `SELECT MIN(deliver_at) AS at FROM messages WHERE conversation_id = ? AND sender_id IS NOT NULL AND deliver_at <= ?
               AND (deliver_at > ? OR (deliver_at = ? AND id > ?))`,
          )
          .get(conversationId, now, last.deliver_at, last.deliver_at, last.id) as { at: string | null }
      ).at ?? null)
    : null;
  for (let i = rows.length - 1; i >= 0; i--) {
    const m = rows[i]!;
    if (m.sender_id === null) readAt.set(m.id, next);
    else next = m.deliver_at;
  }
  return { messages: rows, hasEarlier, readAt };
}

export interface ReactionRow {
  message_id: number;
  emoji: string;
  contact_id: number | null;
  name: string | null;
}

/** The tapbacks on `ids`, grouped by message. */
export function reactionsFor(ids: number[]): Map<number, ReactionRow[]> {
  const out = new Map<number, ReactionRow[]>();
  if (!ids.length) return out;
  const rows = db()
    .prepare(
      `SELECT r.message_id, r.emoji, r.contact_id, k.name FROM reactions r LEFT JOIN contacts k ON k.id = r.contact_id
        WHERE r.message_id IN (${ids.map(() => "?").join(",")}) ORDER BY r.id`,
    )
    .all(...ids) as ReactionRow[];
  for (const r of rows) out.set(r.message_id, [...(out.get(r.message_id) ?? []), r]);
  return out;
}

/** The next reply still on its way in a conversation (deliver_at after now), with who is typing. */
export function pendingReply(conversationId: number, now: string): { at: string; name: string } | null {
  const row = db()
    .prepare(
      `SELECT m.deliver_at AS at, k.name FROM messages m JOIN contacts k ON k.id = m.sender_id
        WHERE m.conversation_id = ? AND m.deliver_at > ? ORDER BY m.deliver_at LIMIT 1`,
    )
    .get(conversationId, now) as { at: string; name: string } | undefined;
  return row ?? null;
}

/** Mark a conversation's delivered messages from contacts read; returns how many changed. */
export function markRead(conversationId: number, now: string): number {
  return db()
    .prepare("UPDATE messages SET read_at = ? WHERE conversation_id = ? AND sender_id IS NOT NULL AND read_at IS NULL AND deliver_at <= ?")
    .run(now, conversationId, now).changes;
}

export function unreadCount(conversationId: number, now: string): number {
  return (
    db()
      .prepare("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ? AND sender_id IS NOT NULL AND read_at IS NULL AND deliver_at <= ?")
      .get(conversationId, now) as { n: number }
  ).n;
}

/** `%q%` for LIKE with `\` escaping `\`, `%` and `_`. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
}

export interface Hit extends Message {
  kind: "direct" | "group";
  title: string | null;
  contact_name: string | null;
}

/** Delivered messages whose text contains `q` (case-insensitive for ASCII), newest first: the count and the first `limit`. */
export function searchMessages(q: string, now: string, limit = 100): { total: number; hits: Hit[] } {
  const like = likePattern(q);
  const total = (
    db().prepare("SELECT COUNT(*) AS n FROM messages WHERE deliver_at <= ? AND deleted_at IS NULL AND body LIKE ? ESCAPE '\\'").get(now, like) as { n: number }
  ).n;
  const hits = db()
    .prepare(
      `SELECT m.id, m.conversation_id, m.sender_id, s.name AS sender_name, m.body, m.sent_at, m.deliver_at, m.read_at, m.world_ref,
              m.quote_id, m.edited_at, m.deleted_at, NULL AS quote_mine, NULL AS quote_sender, NULL AS quote_body, NULL AS quote_deleted,
              c.kind, c.title, k.name AS contact_name
         FROM messages m JOIN conversations c ON c.id = m.conversation_id
         LEFT JOIN contacts k ON k.id = c.contact_id LEFT JOIN contacts s ON s.id = m.sender_id
        WHERE m.deliver_at <= ? AND m.deleted_at IS NULL AND m.body LIKE ? ESCAPE '\\'
        ORDER BY m.deliver_at DESC, m.id DESC LIMIT ?`,
    )
    .all(now, like, limit) as Hit[];
  return { total, hits };
}

export function listContacts(): Contact[] {
  return db().prepare("SELECT * FROM contacts ORDER BY name COLLATE NOCASE").all() as Contact[];
}

export function getContact(id: number): Contact | null {
  if (!Number.isInteger(id)) return null;
  return (db().prepare("SELECT * FROM contacts WHERE id = ?").get(id) as Contact | undefined) ?? null;
}

/** The group conversations `contactId` is in, by title. */
export function groupsOf(contactId: number): { id: number; title: string }[] {
  return db()
    .prepare(
      `SELECT c.id, c.title FROM conversations c JOIN members b ON b.conversation_id = c.id
        WHERE c.kind = 'group' AND b.contact_id = ? ORDER BY c.title COLLATE NOCASE, c.id`,
    )
    .all(contactId) as { id: number; title: string }[];
}

export function directConversationOf(contactId: number): number | null {
  const row = db().prepare("SELECT id FROM conversations WHERE kind = 'direct' AND contact_id = ?").get(contactId) as { id: number } | undefined;
  return row?.id ?? null;
}

// --- writes ----------------------------------------------------------------------------------------
// Rows the app writes have world_ref NULL (models.py): task checks tell them from seeded rows.

/** The one-to-one conversation with a contact, made now if there is none yet. */
export function openDirect(contactId: number): number {
  const contact = getContact(contactId);
  if (!contact) throw new ChatError("That contact does not exist.", "contact", 404);
  const have = directConversationOf(contactId);
  if (have) return have;
  return Number(
    db()
      .prepare("INSERT INTO conversations (kind, title, contact_id, created_at, thread_id, world_ref) VALUES ('direct', NULL, ?, ?, NULL, NULL)")
      .run(contactId, chatContext().now).lastInsertRowid,
  );
}

/** Check a message's text: non-empty after trimming, at most MAX_MESSAGE characters. Returns it verbatim. */
export function checkBody(body: string): string {
  if (!body.trim()) throw new ChatError("Type a message first.", "body");
  if (body.length > MAX_MESSAGE) {
    throw new ChatError(`Messages can be at most ${MAX_MESSAGE.toLocaleString("en-US")} characters (this one has ${body.length.toLocaleString("en-US")}).`, "body");
  }
  return body;
}

function responder(conv: Conversation, body: string): Contact | null {
  if (conv.kind === "direct") return conv.contact_id ? getContact(conv.contact_id) : null;
  const members = db()
    .prepare(
      `SELECT k.* FROM members b JOIN contacts k ON k.id = b.contact_id WHERE b.conversation_id = ?
        ORDER BY COALESCE(k.closeness, 0) DESC, k.id`,
    )
    .all(conv.id) as Contact[];
  const lower = body.toLowerCase();
  return members.find((m) => lower.includes(m.name.split(/\s+/)[0]!.toLowerCase())) ?? members[0] ?? null;
}

/**
 * Send `body` (verbatim) to conversation `conversationId` now, and store the contact's reply,
 * delivered `delaySeconds` later (@persona/platform/replies). Returns the new message's id.
 * Throws ChatError on an unknown conversation or a bad text (nothing is written then).
 */
export async function sendMessage(conversationId: number, body: string, quoteId: number | null = null): Promise<number> {
  const conv = getConversation(conversationId);
  if (!conv) throw new ChatError("That conversation does not exist.", "conversation", 404);
  const text = checkBody(body);
  const { now, seed } = chatContext();
  const d = db();
  if (quoteId !== null) {
    const q = Number.isInteger(quoteId)
      ? (d.prepare("SELECT id, deleted_at FROM messages WHERE id = ? AND conversation_id = ? AND deliver_at <= ?").get(quoteId, conversationId, now) as
          | { id: number; deleted_at: string | null }
          | undefined)
      : undefined;
    if (!q) throw new ChatError("The message you are replying to is not in this chat.", "quote");
    if (q.deleted_at) throw new ChatError("The message you are replying to was deleted.", "quote");
  }
  const history = (
    d
      .prepare(
        `SELECT sender_id, body, deliver_at FROM messages WHERE conversation_id = ? AND deliver_at <= ? AND deleted_at IS NULL
          ORDER BY deliver_at DESC, id DESC LIMIT ?`,
      )
      .all(conversationId, now, HISTORY) as { sender_id: number | null; body: string; deliver_at: string }[]
  )
    .reverse()
    .map((m): Turn => ({ from: m.sender_id === null ? "me" : "them", text: m.body, at: m.deliver_at }));
  const who = responder(conv, text);
  const card = who ? (JSON.parse((d.prepare("SELECT card_json FROM contacts WHERE id = ?").get(who.id) as { card_json: string }).card_json) as ContactCard) : null;
  const answer = card ? await reply(card, history, text, { seed: `messaging/${seed}/${conversationId}`, now, channel: "chat" }) : null;
  const write = d.transaction(() => {
    const id = Number(
      d
        .prepare(
          `INSERT INTO messages (conversation_id, sender_id, body, sent_at, deliver_at, read_at, reply_to_id, quote_id, ref, world_ref)
           VALUES (?, NULL, ?, ?, ?, NULL, NULL, ?, NULL, NULL)`,
        )
        .run(conversationId, text, now, now, quoteId).lastInsertRowid,
    );
    if (answer && who && answer.text.trim()) {
      const at = addSeconds(now, Math.max(1, Math.round(answer.delaySeconds)));
      d.prepare(
        `INSERT INTO messages (conversation_id, sender_id, body, sent_at, deliver_at, read_at, reply_to_id, ref, world_ref)
         VALUES (?, ?, ?, ?, ?, NULL, ?, NULL, NULL)`,
      ).run(conversationId, who.id, answer.text.slice(0, MAX_MESSAGE), at, at, id);
    }
    return id;
  });
  return write();
}

/** Toggle the persona's tapback `emoji` on message `messageId`; returns whether it is now on. */
export function toggleReaction(messageId: number, emoji: string): { on: boolean; conversationId: number } {
  if (!(TAPBACKS as readonly string[]).includes(emoji)) throw new ChatError(`Pick one of ${TAPBACKS.join(" ")}.`, "emoji");
  const { now } = chatContext();
  const msg = Number.isInteger(messageId)
    ? (db().prepare("SELECT id, conversation_id FROM messages WHERE id = ? AND deliver_at <= ?").get(messageId, now) as
        | { id: number; conversation_id: number }
        | undefined)
    : undefined;
  if (!msg) throw new ChatError("That message does not exist.", "message", 404);
  const d = db();
  if ((d.prepare("SELECT deleted_at FROM messages WHERE id = ?").get(msg.id) as { deleted_at: string | null }).deleted_at) {
    throw new ChatError("That message was deleted.", "message");
  }
  const have = d.prepare("SELECT id FROM reactions WHERE message_id = ? AND contact_id IS NULL AND emoji = ?").get(msg.id, emoji) as
    | { id: number }
    | undefined;
  if (have) {
    d.prepare("DELETE FROM reactions WHERE id = ?").run(have.id);
    return { on: false, conversationId: msg.conversation_id };
  }
  d.prepare("INSERT INTO reactions (message_id, contact_id, emoji, created_at, world_ref) VALUES (?, NULL, ?, ?, NULL)").run(msg.id, emoji, now);
  return { on: true, conversationId: msg.conversation_id };
}

/** Create a group named `title` (trimmed, 1-80 characters) with two or more distinct contacts; returns its id. */
export function createGroup(title: string, memberIds: number[]): number {
  const name = title.trim();
  if (!name) throw new ChatError("Give the group a name.", "title");
  if (name.length > MAX_GROUP_NAME) throw new ChatError(`Group names can be at most ${MAX_GROUP_NAME} characters.`, "title");
  const ids = [...new Set(memberIds)];
  if (ids.length > MAX_GROUP_MEMBERS) throw new ChatError(`A group can have at most ${MAX_GROUP_MEMBERS} people.`, "members");
  if (ids.some((id) => !getContact(id))) throw new ChatError("One of the people picked is not in your contacts.", "members");
  if (ids.length < 2) throw new ChatError("Pick at least two people for a group.", "members");
  const d = db();
  const { now } = chatContext();
  return d.transaction(() => {
    const id = Number(
      d
        .prepare("INSERT INTO conversations (kind, title, contact_id, created_at, thread_id, world_ref) VALUES ('group', ?, NULL, ?, NULL, NULL)")
        .run(name, now).lastInsertRowid,
    );
    const add = d.prepare("INSERT INTO members (conversation_id, contact_id) VALUES (?, ?)");
    for (const m of ids) add.run(id, m);
    return id;
  })();
}

/** One delivered message of a conversation (the composer's reply and edit bars), or null. */
export function messageIn(conversationId: number, messageId: number, now: string): Message | null {
  if (!Number.isInteger(messageId)) return null;
  return (db().prepare(`${MSG_SQL} WHERE m.id = ? AND m.conversation_id = ? AND m.deliver_at <= ?`).get(messageId, conversationId, now) as Message | undefined) ?? null;
}

/** Whether the persona may still edit message `m` at `now`: an own text, not deleted, sent within the window. */
export function canEdit(m: Pick<Message, "sender_id" | "deleted_at" | "sent_at">, now: string): boolean {
  return m.sender_id === null && !m.deleted_at && addSeconds(m.sent_at, EDIT_WINDOW_MINUTES * 60) >= now.slice(0, 19);
}

interface Own {
  id: number;
  conversation_id: number;
  sender_id: number | null;
  body: string;
  sent_at: string;
  deleted_at: string | null;
}

/** The message `messageId` as the persona may change it: delivered, and their own (else a ChatError). */
function ownMessage(messageId: number, now: string, verb: "edit" | "delete"): Own {
  const m = Number.isInteger(messageId)
    ? (db().prepare("SELECT id, conversation_id, sender_id, body, sent_at, deleted_at FROM messages WHERE id = ? AND deliver_at <= ?").get(messageId, now) as
        | Own
        | undefined)
    : undefined;
  if (!m) throw new ChatError("That message does not exist.", "message", 404);
  if (m.sender_id !== null) throw new ChatError(`You can only ${verb} your own messages.`, "message", 403);
  return m;
}

/**
 * Replace the text of the persona's message `messageId` with `body` (verbatim), keeping the old text in
 * message_edits: only the persona's own texts, not deleted, within EDIT_WINDOW_MINUTES of sending (the app's clock).
 * The same text again changes nothing (a double submit edits once).
 */
export function editMessage(messageId: number, body: string): { conversationId: number; changed: boolean } {
  const { now } = chatContext();
  const d = db();
  return d
    .transaction(() => {
      const m = ownMessage(messageId, now, "edit");
      if (m.deleted_at) throw new ChatError("That message was deleted.", "message");
      const text = checkBody(body);
      if (text === m.body) return { conversationId: m.conversation_id, changed: false };
      if (!canEdit(m, now)) throw new ChatError(`Messages can only be edited within ${EDIT_WINDOW_MINUTES} minutes of sending.`, "message");
      d.prepare("INSERT INTO message_edits (message_id, action, body, edited_at) VALUES (?, 'edit', ?, ?)").run(m.id, m.body, now);
      d.prepare("UPDATE messages SET body = ?, edited_at = ? WHERE id = ?").run(text, now, m.id);
      return { conversationId: m.conversation_id, changed: true };
    })
    .immediate();
}

/**
 * Delete the persona's message `messageId` for everyone: the row stays (a tombstone), its text is cleared (and kept
 * in message_edits). Deleting a deleted message again changes nothing.
 */
export function deleteMessage(messageId: number): { conversationId: number; changed: boolean } {
  const { now } = chatContext();
  const d = db();
  return d
    .transaction(() => {
      const m = ownMessage(messageId, now, "delete");
      if (m.deleted_at) return { conversationId: m.conversation_id, changed: false };
      d.prepare("INSERT INTO message_edits (message_id, action, body, edited_at) VALUES (?, 'delete', ?, ?)").run(m.id, m.body, now);
      d.prepare("UPDATE messages SET body = '', deleted_at = ? WHERE id = ?").run(now, m.id);
      return { conversationId: m.conversation_id, changed: true };
    })
    .immediate();
}
