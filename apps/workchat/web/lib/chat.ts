import { db } from "./db";

/**
 * Reads of Huddle's database. Every query is parameterised and shows only messages delivered at
 * `now` (`deliver_at <= now`): a colleague's reply waits in the table until its time comes.
 */

export interface Person {
  id: number;
  name: string;
  handle: string;
  email: string;
  title: string;
  is_me: number;
  colleague: number;
}

export interface Channel {
  id: number;
  name: string;
  kind: "channel" | "dm";
  topic: string;
  purpose: string;
  created: string;
  position: number;
  dm_person_id: number | null;
  dm_name: string | null;
  /** Delivered, unread messages from others (roots and thread replies). */
  unread: number;
  /** Of those, the ones that mention the persona. */
  mentions: number;
  /** The persona's notifications here: all / mentions / nothing, and whether the channel is muted. */
  notify: "all" | "mentions" | "nothing";
  muted: number;
}

export interface Reaction {
  emoji: string;
  count: number;
  names: string[];
  mine: boolean;
}

export interface Message {
  id: number;
  channel_id: number;
  channel_name: string;
  channel_kind: "channel" | "dm";
  thread_root_id: number | null;
  sender_id: number;
  sender_name: string;
  text: string;
  sent_at: string;
  edited_at: string | null;
  deleted: number;
  is_read: number;
  pinned: number;
  world_ref: string | null;
  reply_count: number;
  last_reply_at: string | null;
  repliers: string[];
  reactions: Reaction[];
  mentions: string[];
  saved: boolean;
}

/** A label of a channel for people: `#general`, or the colleague's name for a DM. */
export function channelLabel(c: Pick<Channel, "kind" | "name" | "dm_name">): string {
  return c.kind === "dm" ? (c.dm_name ?? c.name) : `#${c.name}`;
}

export function listPeople(): Person[] {
  return db().prepare("SELECT id, name, handle, email, title, is_me, colleague FROM people ORDER BY id").all() as Person[];
}

/** Every channel and DM in sidebar order, with the persona's unread and mention counts. */
export function listChannels(meId: number, now: string): Channel[] {
  return db()
    .prepare(
      `SELECT c.id, c.name, c.kind, c.topic, c.purpose, c.created, c.position, c.dm_person_id, p.name AS dm_name,
              COALESCE(me.notify, 'mentions') AS notify, COALESCE(me.muted, 0) AS muted,
              (SELECT COUNT(*) FROM messages m WHERE m.channel_id = c.id AND m.is_read = 0 AND m.deleted = 0
                  AND m.deliver_at <= ? AND m.sender_id <> ?) AS unread,
              (SELECT COUNT(*) FROM messages m JOIN mentions x ON x.message_id = m.id AND x.person_id = ?
                WHERE m.channel_id = c.id AND m.is_read = 0 AND m.deleted = 0 AND m.deliver_at <= ?) AS mentions
         FROM channels c LEFT JOIN people p ON p.id = c.dm_person_id
         LEFT JOIN channel_members me ON me.channel_id = c.id AND me.person_id = ?
        ORDER BY c.position`,
    )
    .all(now, meId, meId, now, meId) as Channel[];
}

export function channelByName(meId: number, now: string, name: string): Channel | null {
  return listChannels(meId, now).find((c) => c.name === name) ?? null;
}

export function channelMembers(channelId: number): Person[] {
  return db()
    .prepare(
      `SELECT p.id, p.name, p.handle, p.email, p.title, p.is_me, p.colleague
         FROM channel_members cm JOIN people p ON p.id = cm.person_id WHERE cm.channel_id = ? ORDER BY p.is_me DESC, p.name`,
    )
    .all(channelId) as Person[];
}

const BASE = `SELECT m.id, m.channel_id, c.name AS channel_name, c.kind AS channel_kind, m.thread_root_id, m.sender_id,
       p.name AS sender_name, m.text, m.sent_at, m.edited_at, m.deleted, m.is_read, m.pinned, m.world_ref,
       (SELECT COUNT(*) FROM messages r WHERE r.thread_root_id = m.id AND r.deleted = 0 AND r.deliver_at <= @now) AS reply_count,
       (SELECT MAX(r.sent_at) FROM messages r WHERE r.thread_root_id = m.id AND r.deleted = 0 AND r.deliver_at <= @now) AS last_reply_at
  FROM messages m JOIN channels c ON c.id = m.channel_id JOIN people p ON p.id = m.sender_id`;

type Row = Omit<Message, "repliers" | "reactions" | "mentions" | "saved">;

/** Attach reactions, mentions, repliers and the saved flag to message rows. */
function enrich(rows: Row[], meId: number, now: string): Message[] {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const marks = ids.map(() => "?").join(",");
  const d = db();
  const reacts = d
    .prepare(
      `SELECT x.message_id, x.emoji, x.person_id, p.name FROM reactions x JOIN people p ON p.id = x.person_id
        WHERE x.message_id IN (${marks}) ORDER BY x.message_id, x.emoji, p.name`,
    )
    .all(...ids) as { message_id: number; emoji: string; person_id: number; name: string }[];
  const mentions = d
    .prepare(
      `SELECT x.message_id, p.name FROM mentions x JOIN people p ON p.id = x.person_id
        WHERE x.message_id IN (${marks}) ORDER BY x.message_id, x.position`,
    )
    .all(...ids) as { message_id: number; name: string }[];
  const repliers = d
    .prepare(
      `SELECT r.thread_root_id AS root, p.name, MIN(r.sent_at) AS first FROM messages r JOIN people p ON p.id = r.sender_id
        WHERE r.thread_root_id IN (${marks}) AND r.deleted = 0 AND r.deliver_at <= ? GROUP BY r.thread_root_id, p.name ORDER BY root, first`,
    )
    .all(...ids, now) as { root: number; name: string }[];
  const saved = new Set(
    (d.prepare(`SELECT message_id FROM saved_items WHERE message_id IN (${marks})`).all(...ids) as { message_id: number }[]).map((r) => r.message_id),
  );
  const byMsg = new Map<number, Reaction[]>();
  for (const r of reacts) {
    const list = byMsg.get(r.message_id) ?? [];
    let entry = list.find((e) => e.emoji === r.emoji);
    if (!entry) {
      entry = { emoji: r.emoji, count: 0, names: [], mine: false };
      list.push(entry);
    }
    entry.count += 1;
    entry.names.push(r.name);
    if (r.person_id === meId) entry.mine = true;
    byMsg.set(r.message_id, list);
  }
  return rows.map((r) => ({
    ...r,
    reactions: byMsg.get(r.id) ?? [],
    mentions: mentions.filter((x) => x.message_id === r.id).map((x) => x.name),
    repliers: repliers.filter((x) => x.root === r.id).map((x) => x.name),
    saved: saved.has(r.id),
  }));
}

export const PAGE_SIZE = 80;

/**
 * The channel's root messages (newest `PAGE_SIZE` before message `before`, when given), oldest first,
 * with `more` telling whether earlier ones exist. A deleted root stays (as "deleted") only while it has replies.
 */
export function channelMessages(meId: number, now: string, channelId: number, before?: number): { messages: Message[]; more: boolean } {
  const rows = db()
    .prepare(
      `${BASE} WHERE m.channel_id = @channel AND m.thread_root_id IS NULL AND m.deliver_at <= @now
         AND (@before IS NULL OR m.id < @before)
         AND (m.deleted = 0 OR EXISTS (SELECT 1 FROM messages r WHERE r.thread_root_id = m.id AND r.deleted = 0))
       ORDER BY m.sent_at DESC, m.id DESC LIMIT @limit`,
    )
    .all({ channel: channelId, now, before: before ?? null, limit: PAGE_SIZE + 1 }) as Row[];
  const more = rows.length > PAGE_SIZE;
  return { messages: enrich(rows.slice(0, PAGE_SIZE).reverse(), meId, now), more };
}

/** Counts of a channel's delivered, undeleted messages: all of them, roots, and threads with replies. */
export function channelStats(channelId: number, now: string): { messages: number; roots: number; threads: number } {
  return db()
    .prepare(
      `SELECT COUNT(*) AS messages, SUM(thread_root_id IS NULL) AS roots,
              COUNT(DISTINCT thread_root_id) AS threads
         FROM messages WHERE channel_id = ? AND deleted = 0 AND deliver_at <= ?`,
    )
    .get(channelId, now) as { messages: number; roots: number; threads: number };
}

export function getMessage(meId: number, now: string, id: number): Message | null {
  const rows = db().prepare(`${BASE} WHERE m.id = @id AND m.deliver_at <= @now`).all({ id, now }) as Row[];
  return enrich(rows, meId, now)[0] ?? null;
}

/** Messages by id (delivered ones only), in the order of `ids`. */
export function messagesByIds(meId: number, now: string, ids: number[]): Message[] {
  if (!ids.length) return [];
  const marks = ids.map(() => "?").join(",");
  const rows = db().prepare(`${BASE.replaceAll("@now", "?")} WHERE m.id IN (${marks}) AND m.deliver_at <= ?`).all(now, now, ...ids, now) as Row[];
  const order = new Map(ids.map((id, i) => [id, i]));
  return enrich(rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!), meId, now);
}

/** A thread: its root and delivered replies, oldest first; null when the root is unknown. */
export function thread(meId: number, now: string, rootId: number): { root: Message; replies: Message[] } | null {
  const root = getMessage(meId, now, rootId);
  if (!root || root.thread_root_id !== null) return null;
  const rows = db()
    .prepare(`${BASE} WHERE m.thread_root_id = @root AND m.deleted = 0 AND m.deliver_at <= @now ORDER BY m.sent_at, m.id`)
    .all({ root: rootId, now }) as Row[];
  return { root, replies: enrich(rows, meId, now) };
}

export function pinnedMessages(meId: number, now: string, channelId: number): Message[] {
  const rows = db()
    .prepare(`${BASE} WHERE m.channel_id = @channel AND m.pinned = 1 AND m.deleted = 0 AND m.deliver_at <= @now ORDER BY m.sent_at DESC, m.id DESC`)
    .all({ channel: channelId, now }) as Row[];
  return enrich(rows, meId, now);
}

export function savedMessages(meId: number, now: string): (Message & { saved_at: string })[] {
  const rows = db()
    .prepare(
      `${BASE} JOIN saved_items s ON s.message_id = m.id WHERE m.deleted = 0 AND m.deliver_at <= @now ORDER BY s.saved_at DESC, m.id DESC`,
    )
    .all({ now }) as Row[];
  const at = new Map(
    (db().prepare("SELECT message_id, saved_at FROM saved_items").all() as { message_id: number; saved_at: string }[]).map((r) => [r.message_id, r.saved_at]),
  );
  return enrich(rows, meId, now).map((m) => ({ ...m, saved_at: at.get(m.id) ?? "" }));
}

/** Threads the persona started or replied in, most recent activity first (at most `limit`). */
export function myThreads(meId: number, now: string, limit = 15): { root: Message; replies: Message[] }[] {
  const roots = db()
    .prepare(
      `SELECT root, MAX(sent_at) AS last FROM (
          SELECT r.thread_root_id AS root, r.sent_at FROM messages r
           WHERE r.thread_root_id IS NOT NULL AND r.deleted = 0 AND r.deliver_at <= @now
             AND (r.thread_root_id IN (SELECT id FROM messages WHERE sender_id = @me)
                  OR r.thread_root_id IN (SELECT thread_root_id FROM messages WHERE sender_id = @me AND thread_root_id IS NOT NULL)))
        GROUP BY root ORDER BY last DESC, root DESC LIMIT @limit`,
    )
    .all({ me: meId, now, limit }) as { root: number }[];
  return roots.map((r) => thread(meId, now, r.root)).filter((t): t is { root: Message; replies: Message[] } => t !== null);
}

export interface Activity {
  kind: "mention" | "reaction";
  at: string;
  message: Message;
  /** For a reaction: who reacted and with what. */
  by?: string;
  emoji?: string;
}

/** "Mentions & reactions": messages mentioning the persona and others' reactions on its messages, newest first. */
export function activity(meId: number, now: string, limit = 60): Activity[] {
  const d = db();
  const mentionRows = d
    .prepare(
      `${BASE} JOIN mentions x ON x.message_id = m.id AND x.person_id = @me
        WHERE m.deleted = 0 AND m.deliver_at <= @now AND m.sender_id <> @me ORDER BY m.sent_at DESC, m.id DESC LIMIT @limit`,
    )
    .all({ me: meId, now, limit }) as Row[];
  const reactRows = d
    .prepare(
      `SELECT x.message_id, x.emoji, p.name, COALESCE(x.added_at, (SELECT MIN(r.sent_at) FROM messages r
                WHERE r.channel_id = m.channel_id AND r.sent_at > m.sent_at AND r.deliver_at <= @now), m.sent_at) AS at
         FROM reactions x JOIN messages m ON m.id = x.message_id JOIN people p ON p.id = x.person_id
        WHERE m.sender_id = @me AND x.person_id <> @me AND m.deleted = 0 AND m.deliver_at <= @now
        ORDER BY m.sent_at DESC, m.id DESC LIMIT @limit`,
    )
    .all({ me: meId, now, limit }) as { message_id: number; emoji: string; name: string; at: string }[];
  const msgs = new Map(enrich(mentionRows, meId, now).map((m) => [m.id, m]));
  const reactedIds = [...new Set(reactRows.map((r) => r.message_id))];
  const reacted = new Map(
    enrich(
      reactedIds.map((id) => d.prepare(`${BASE} WHERE m.id = @id`).get({ id, now }) as Row),
      meId,
      now,
    ).map((m) => [m.id, m]),
  );
  const out: Activity[] = [
    ...[...msgs.values()].map((m) => ({ kind: "mention" as const, at: m.sent_at, message: m })),
    ...reactRows.map((r) => ({ kind: "reaction" as const, at: r.at, message: reacted.get(r.message_id)!, by: r.name, emoji: r.emoji })),
  ];
  out.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.message.id - a.message.id));
  return out.slice(0, limit);
}

/** Replies a colleague has written but not yet delivered in `channelId`: their count and the earliest delivery time. */
export function pendingReplies(channelId: number, now: string): { count: number; next: string | null; names: string[] } {
  const rows = db()
    .prepare(
      `SELECT m.deliver_at, p.name FROM messages m JOIN people p ON p.id = m.sender_id
        WHERE m.channel_id = ? AND m.deliver_at > ? AND m.scheduled_at IS NULL ORDER BY m.deliver_at`,
    )
    .all(channelId, now) as { deliver_at: string; name: string }[];
  return { count: rows.length, next: rows[0]?.deliver_at ?? null, names: [...new Set(rows.map((r) => r.name))] };
}

/** How many messages the sidebar counts for `c` by its notifications: every unread one (all, and DMs), the unread
 * mentions (mentions), none (nothing). */
export function badgeCount(c: Channel): number {
  if (c.kind === "dm" || c.notify === "all") return c.unread;
  return c.notify === "mentions" ? c.mentions : 0;
}

export interface ScheduledMessage {
  id: number;
  channel: string;
  kind: "channel" | "dm";
  dm_name: string | null;
  thread_root_id: number | null;
  text: string;
  deliver_at: string;
  /** The names it mentions, in order (a JSON list). */
  mentions_json: string;
}

/** The persona's messages waiting to go out, soonest first. */
export function scheduledMessages(meId: number, now: string): ScheduledMessage[] {
  return db()
    .prepare(
      `SELECT m.id, c.name AS channel, c.kind, p.name AS dm_name, m.thread_root_id, m.text, m.deliver_at,
              (SELECT json_group_array(name) FROM (SELECT q.name FROM mentions x JOIN people q ON q.id = x.person_id
                WHERE x.message_id = m.id ORDER BY x.position)) AS mentions_json
         FROM messages m JOIN channels c ON c.id = m.channel_id LEFT JOIN people p ON p.id = c.dm_person_id
        WHERE m.sender_id = ? AND m.scheduled_at IS NOT NULL AND m.deleted = 0 AND m.deliver_at > ?
        ORDER BY m.deliver_at, m.id`,
    )
    .all(meId, now) as ScheduledMessage[];
}
