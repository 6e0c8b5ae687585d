import { addSeconds } from "@persona/platform/clock";
import { reply, type ContactCard, type Turn } from "@persona/platform/replies";
import type { User } from "./auth";
import { chatContext } from "./context";
import { db } from "./db";
import { isEmoji } from "./emoji";

/**
 * Everything Huddle writes. Each function validates its input and throws ChatError (a message for
 * people, and the form field it is about) before changing anything. Text is stored exactly as typed.
 */
export class ChatError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Longest message Huddle accepts, in characters (code points). */
export const MAX_MESSAGE = 4000;
export const MAX_STATUS = 100;

function checkText(text: string): void {
  if (!text.trim()) throw new ChatError("Write a message before sending.", "text");
  const length = [...text].length;
  if (length > MAX_MESSAGE) throw new ChatError(`Messages can be at most ${MAX_MESSAGE.toLocaleString("en-US")} characters (this one has ${length.toLocaleString("en-US")}).`, "text");
}

interface PersonRow {
  id: number;
  name: string;
  card_json: string | null;
}

/** People written as `@First Last` in `text`, in order of appearance (longest names win at one spot). */
export function parseMentions(text: string): PersonRow[] {
  const people = (db().prepare("SELECT id, name, card_json FROM people").all() as PersonRow[]).sort((a, b) => b.name.length - a.name.length);
  const found: { at: number; person: PersonRow }[] = [];
  for (const p of people) {
    let from = 0;
    for (;;) {
      const i = text.indexOf(`@${p.name}`, from);
      if (i < 0) break;
      const end = i + p.name.length + 1;
      const next = text.slice(end, end + 1);
      const taken = found.some((f) => i >= f.at && i < f.at + f.person.name.length + 1);
      if (!taken && !/[\p{L}\p{N}]/u.test(next) && !found.some((f) => f.person.id === p.id)) found.push({ at: i, person: p });
      from = end;
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.person);
}

function setMentions(messageId: number, text: string): PersonRow[] {
  const d = db();
  d.prepare("DELETE FROM mentions WHERE message_id = ?").run(messageId);
  const people = parseMentions(text);
  people.forEach((p, i) => d.prepare("INSERT INTO mentions (message_id, person_id, position) VALUES (?, ?, ?)").run(messageId, p.id, i));
  return people;
}

interface ChannelRow {
  id: number;
  name: string;
  kind: string;
  dm_person_id: number | null;
}

function channelNamed(name: string): ChannelRow {
  const ch = db().prepare("SELECT id, name, kind, dm_person_id FROM channels WHERE name = ?").get(name) as ChannelRow | undefined;
  if (!ch) throw new ChatError("That conversation does not exist.", "channel");
  return ch;
}

interface MsgRow {
  id: number;
  channel_id: number;
  thread_root_id: number | null;
  sender_id: number;
  deleted: number;
  deliver_at: string;
  pinned: number;
}

/** A delivered, undeleted message, or ChatError. */
function visibleMessage(id: number, now: string): MsgRow {
  const m = Number.isSafeInteger(id)
    ? (db().prepare("SELECT id, channel_id, thread_root_id, sender_id, deleted, deliver_at, pinned FROM messages WHERE id = ?").get(id) as MsgRow | undefined)
    : undefined;
  if (!m || m.deleted || m.deliver_at > now) throw new ChatError("That message no longer exists.", "message");
  return m;
}

/** The root message of thread `threadId` in `ch` (delivered, undeleted, a root), or null without a thread; ChatError
 * otherwise. */
function threadRoot(ch: ChannelRow, threadId: number | null, now: string): MsgRow | null {
  if (threadId === null) return null;
  const root = visibleMessage(threadId, now);
  if (root.channel_id !== ch.id || root.thread_root_id !== null) throw new ChatError("That thread is not in this conversation.", "thread");
  return root;
}

/** The reply engine's view of a conversation: its last 30 delivered messages, as turns. */
function history(meId: number, channelId: number, rootId: number | null, now: string): Turn[] {
  const rows = db()
    .prepare(
      `SELECT sender_id, text, sent_at FROM messages
        WHERE channel_id = ? AND deleted = 0 AND deliver_at <= ? AND (? IS NULL AND thread_root_id IS NULL OR thread_root_id = ? OR id = ?)
        ORDER BY sent_at DESC, id DESC LIMIT 30`,
    )
    .all(channelId, now, rootId, rootId, rootId) as { sender_id: number; text: string; sent_at: string }[];
  return rows.reverse().map((r) => ({ from: r.sender_id === meId ? "me" : "them", text: r.text, at: r.sent_at }));
}

export interface Posted {
  id: number;
  channel: string;
  thread: number | null;
  /** Colleague replies now waiting to be delivered. */
  replies: number;
}

/**
 * Post `text` as the persona in channel `channelName` (in the thread of root `threadId` when given).
 * A DM's colleague answers in the DM; colleagues mentioned in a channel answer in the message's thread.
 * Each answer comes from the reply engine and is stored with `deliver_at = sent_at + delay`.
 */
export async function postMessage(user: User, channelName: string, text: string, threadId: number | null): Promise<Posted> {
  const ctx = chatContext();
  const ch = channelNamed(channelName);
  checkText(text);
  const root = threadRoot(ch, threadId, ctx.now);
  const d = db();
  const now = ctx.now;
  // Turns before this message (the engine sees the conversation so far, then the new message).
  const before = history(user.person_id, ch.id, root?.id ?? null, now);
  const id = Number(
    d
      .prepare(
        `INSERT INTO messages (channel_id, thread_root_id, sender_id, text, sent_at, deliver_at, edited_at, deleted, is_read, pinned, pinned_at, world_ref, event_ref, reply_to_id)
         VALUES (?, ?, ?, ?, ?, ?, NULL, 0, 1, 0, NULL, NULL, NULL, NULL)`,
      )
      .run(ch.id, root?.id ?? null, user.person_id, text, now, now).lastInsertRowid,
  );
  const mentioned = setMentions(id, text);
  // Opening a conversation to write in it reads it.
  d.prepare("UPDATE messages SET is_read = 1 WHERE channel_id = ? AND deliver_at <= ?").run(ch.id, now);

  const answerers: { person: PersonRow; thread: number | null }[] = [];
  if (ch.kind === "dm" && ch.dm_person_id !== null) {
    const p = d.prepare("SELECT id, name, card_json FROM people WHERE id = ?").get(ch.dm_person_id) as PersonRow;
    if (p.card_json) answerers.push({ person: p, thread: root?.id ?? null });
  } else {
    const members = new Set((d.prepare("SELECT person_id FROM channel_members WHERE channel_id = ?").all(ch.id) as { person_id: number }[]).map((r) => r.person_id));
    for (const p of mentioned) {
      if (p.id !== user.person_id && p.card_json && members.has(p.id) && answerers.length < 3) answerers.push({ person: p, thread: root?.id ?? id });
    }
  }
  let replies = 0;
  for (const a of answerers) {
    const card = JSON.parse(a.person.card_json!) as ContactCard;
    const seed = `workchat/${ctx.replySeed}/${ch.name}/${a.thread ?? "main"}/${a.person.name}`;
    const answer = await reply(card, before, text, { seed, now, channel: "work" });
    const delay = Math.max(1, Math.round(answer.delaySeconds)) + replies * 20;
    d.prepare(
      `INSERT INTO messages (channel_id, thread_root_id, sender_id, text, sent_at, deliver_at, edited_at, deleted, is_read, pinned, pinned_at, world_ref, event_ref, reply_to_id)
       VALUES (?, ?, ?, ?, ?, ?, NULL, 0, 0, 0, NULL, NULL, NULL, ?)`,
    ).run(ch.id, a.thread, a.person.id, answer.text, addSeconds(now, delay), addSeconds(now, delay), id);
    replies += 1;
  }
  return { id, channel: ch.name, thread: root?.id ?? null, replies };
}

function ownMessage(user: User, id: number, now: string): MsgRow {
  const m = visibleMessage(id, now);
  if (m.sender_id !== user.person_id) throw new ChatError("You can only change your own messages.", "message");
  return m;
}

/** Replace the text of one of the persona's own messages (mentions re-read, `edited_at` set). */
export function editMessage(user: User, id: number, text: string): void {
  const { now } = chatContext();
  ownMessage(user, id, now);
  checkText(text);
  db().prepare("UPDATE messages SET text = ?, edited_at = ? WHERE id = ?").run(text, now, id);
  setMentions(id, text);
}

/** Delete one of the persona's own messages (the row stays with `deleted = 1`; saves and pins go). */
export function deleteMessage(user: User, id: number): void {
  const { now } = chatContext();
  ownMessage(user, id, now);
  const d = db();
  d.prepare("UPDATE messages SET deleted = 1, pinned = 0 WHERE id = ?").run(id);
  d.prepare("DELETE FROM saved_items WHERE message_id = ?").run(id);
}

/** Add the persona's `emoji` reaction to a message, or take it away when it is there. Returns whether it is now on. */
export function toggleReaction(user: User, id: number, emoji: string): boolean {
  const { now } = chatContext();
  visibleMessage(id, now);
  if (!isEmoji(emoji)) throw new ChatError("Pick one of the emoji offered.", "emoji");
  const d = db();
  const had = d.prepare("DELETE FROM reactions WHERE message_id = ? AND emoji = ? AND person_id = ?").run(id, emoji, user.person_id).changes > 0;
  if (!had) d.prepare("INSERT INTO reactions (message_id, emoji, person_id, added_at) VALUES (?, ?, ?, ?)").run(id, emoji, user.person_id, now);
  return !had;
}

/** Save a message for later, or remove it from Saved. Returns whether it is now saved. */
export function toggleSaved(user: User, id: number): boolean {
  const { now } = chatContext();
  visibleMessage(id, now);
  const d = db();
  const had = d.prepare("DELETE FROM saved_items WHERE message_id = ?").run(id).changes > 0;
  if (!had) d.prepare("INSERT INTO saved_items (message_id, saved_at) VALUES (?, ?)").run(id, now);
  return !had;
}

/** Pin a message to its channel, or unpin it. Returns whether it is now pinned. */
export function togglePin(user: User, id: number): boolean {
  const { now } = chatContext();
  const m = visibleMessage(id, now);
  if (m.pinned) db().prepare("UPDATE messages SET pinned = 0, pinned_at = NULL WHERE id = ?").run(id);
  else db().prepare("UPDATE messages SET pinned = 1, pinned_at = ? WHERE id = ?").run(now, id);
  return !m.pinned;
}

/** Mark every delivered message of a channel read. */
export function markRead(channelId: number): void {
  const { now } = chatContext();
  db().prepare("UPDATE messages SET is_read = 1 WHERE channel_id = ? AND is_read = 0 AND deliver_at <= ?").run(channelId, now);
}

export const CLEAR_AFTER = {
  never: "Don't clear",
  "30m": "30 minutes",
  "1h": "1 hour",
  "4h": "4 hours",
  today: "Today",
  week: "This week",
  date: "Choose date…",
} as const;
export type ClearAfter = keyof typeof CLEAR_AFTER;

/** When a status set at `now` with `clear` (and `date`, `YYYY-MM-DD`, for "date") expires; null = never. */
export function statusExpiry(now: string, clear: string, date: string): string | null {
  const today = now.slice(0, 10);
  switch (clear) {
    case "never":
      return null;
    case "30m":
      return addSeconds(now, 1800);
    case "1h":
      return addSeconds(now, 3600);
    case "4h":
      return addSeconds(now, 4 * 3600);
    case "today":
      return `${today}T23:59:59`;
    case "week": {
      const dow = new Date(`${today}T12:00:00Z`).getUTCDay();
      return `${addSeconds(`${today}T23:59:59`, ((7 - dow) % 7) * 86400)}`;
    }
    case "date": {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T12:00:00Z`)) || new Date(`${date}T12:00:00Z`).toISOString().slice(0, 10) !== date)
        throw new ChatError("Choose the date the status should clear.", "date");
      if (date < today) throw new ChatError("The clear date cannot be in the past.", "date");
      return `${date}T23:59:59`;
    }
    default:
      throw new ChatError("Choose when the status should clear.", "clear");
  }
}

/** Set the persona's status (emoji shortcode or "", text ≤ 100 characters) with its clear-after. */
export function setStatus(user: User, emoji: string, text: string, clear: string, date: string): void {
  const { now } = chatContext();
  if (emoji && !isEmoji(emoji)) throw new ChatError("Pick one of the emoji offered.", "emoji");
  if (!text.trim() && !emoji) throw new ChatError("Type a status or pick an emoji.", "text");
  if ([...text].length > MAX_STATUS) throw new ChatError(`A status can be at most ${MAX_STATUS} characters.`, "text");
  if (/[\r\n]/.test(text)) throw new ChatError("A status is one line.", "text");
  const expires = statusExpiry(now, clear, date);
  db()
    .prepare("UPDATE users SET status_emoji = ?, status_text = ?, status_expires_at = ?, status_set_at = ? WHERE id = ?")
    .run(emoji, text, expires, now, user.id);
}

/** Clear the persona's status. */
export function clearStatus(user: User): void {
  const { now } = chatContext();
  db().prepare("UPDATE users SET status_emoji = '', status_text = '', status_expires_at = NULL, status_set_at = ? WHERE id = ?").run(now, user.id);
}

/** The persona's status while it lasts at `now`, or null. */
export function activeStatus(user: Pick<User, "status_emoji" | "status_text" | "status_expires_at">, now: string): { emoji: string; text: string; until: string | null } | null {
  if (!user.status_text && !user.status_emoji) return null;
  if (user.status_expires_at && user.status_expires_at <= now) return null;
  return { emoji: user.status_emoji, text: user.status_text, until: user.status_expires_at };
}

// --- scheduled messages -------------------------------------------------------------------------------

/** How far ahead a message can be scheduled (days), as Slack allows. */
export const SCHEDULE_DAYS = 120;

/** A `datetime-local` value (`YYYY-MM-DDTHH:MM`, seconds optional) at least a minute after `now` and at most
 * SCHEDULE_DAYS ahead, as local ISO with seconds; ChatError on the `at` field otherwise. */
export function scheduleTime(value: string, now: string): string {
  const v = value.trim();
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v);
  const at = m ? `${m[1]}T${m[2]}:${m[3]}:${m[4] ?? "00"}` : "";
  const t = at ? new Date(`${at}Z`) : null;
  if (!t || Number.isNaN(t.getTime()) || t.toISOString().slice(0, 19) !== at) throw new ChatError("Choose a date and time to send it.", "at");
  if (at < addSeconds(now, 60)) throw new ChatError("Choose a time in the future to schedule a message.", "at");
  if (at > addSeconds(now, SCHEDULE_DAYS * 86400)) throw new ChatError(`Messages can be scheduled up to ${SCHEDULE_DAYS} days ahead.`, "at");
  return at;
}

/** Schedule `text` for `at` (see scheduleTime) in channel `channelName` (in the thread of root `threadId` when given):
 * the persona's message with `sent_at = deliver_at = at`, seen only in Scheduled until then. Colleagues answer what
 * they see, so no reply is written for it now. Returns its id and channel. */
export function scheduleMessage(user: User, channelName: string, text: string, threadId: number | null, at: string): { id: number; channel: string; at: string } {
  const { now } = chatContext();
  const ch = channelNamed(channelName);
  checkText(text);
  threadRoot(ch, threadId, now);
  const when = scheduleTime(at, now);
  const id = Number(
    db()
      .prepare(
        `INSERT INTO messages (channel_id, thread_root_id, sender_id, text, sent_at, deliver_at, edited_at, deleted, is_read, pinned, pinned_at, world_ref, event_ref, reply_to_id, scheduled_at)
         VALUES (?, ?, ?, ?, ?, ?, NULL, 0, 1, 0, NULL, NULL, NULL, NULL, ?)`,
      )
      .run(ch.id, threadId, user.person_id, text, when, when, now).lastInsertRowid,
  );
  setMentions(id, text);
  return { id, channel: ch.name, at: when };
}

/** One of the persona's messages still waiting to go out, or ChatError. */
function waitingMessage(user: User, id: number, now: string): MsgRow {
  const m = Number.isSafeInteger(id)
    ? (db().prepare("SELECT id, channel_id, thread_root_id, sender_id, deleted, deliver_at, pinned FROM messages WHERE id = ? AND scheduled_at IS NOT NULL").get(id) as MsgRow | undefined)
    : undefined;
  if (!m || m.deleted || m.sender_id !== user.person_id) throw new ChatError("That scheduled message does not exist.", "message");
  if (m.deliver_at <= now) throw new ChatError("That message was already sent.", "message");
  return m;
}

/** Change a scheduled message: `action` send (now), reschedule (to `at`, see scheduleTime) or delete. Returns the
 * channel's name. */
export function changeScheduled(user: User, id: number, action: string, at: string): string {
  const { now } = chatContext();
  const m = waitingMessage(user, id, now);
  const d = db();
  if (action === "send") d.prepare("UPDATE messages SET sent_at = ?, deliver_at = ? WHERE id = ?").run(now, now, id);
  else if (action === "reschedule") {
    const when = scheduleTime(at, now);
    d.prepare("UPDATE messages SET sent_at = ?, deliver_at = ? WHERE id = ?").run(when, when, id);
  } else if (action === "delete") d.prepare("UPDATE messages SET deleted = 1 WHERE id = ?").run(id);
  else throw new ChatError("Send, reschedule or delete the message.", "action");
  return (d.prepare("SELECT name FROM channels WHERE id = ?").get(m.channel_id) as { name: string }).name;
}

// --- notification preferences -------------------------------------------------------------------------

export const NOTIFY = { all: "All new messages", mentions: "Mentions", nothing: "Nothing" } as const;

/** Set the persona's notifications for channel `channelName`: `notify` all / mentions / nothing, and `muted`. */
export function setNotifications(user: User, channelName: string, notify: string, muted: boolean): string {
  const ch = channelNamed(channelName);
  if (!(notify in NOTIFY)) throw new ChatError("Choose all new messages, mentions or nothing.", "notify");
  const r = db()
    .prepare("UPDATE channel_members SET notify = ?, muted = ?, prefs_set_at = ? WHERE channel_id = ? AND person_id = ?")
    .run(notify, muted ? 1 : 0, chatContext().now, ch.id, user.person_id);
  if (!r.changes) throw new ChatError("You are not a member of that conversation.", "channel");
  return ch.name;
}
