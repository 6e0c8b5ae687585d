import { callApp } from "@persona/platform/internal";
import { serviceDomain } from "@persona/platform/services";
import { db, mailContext } from "./db";
import { ownAddresses, type User } from "./auth";
import { ANSWERS, parseInvite, replyIcs, type Answer, type Invite } from "./ics";
import { getMessage, insertMessage, MailError, newMessageId, type MessageRow, writeTime } from "./mail";

/** The calendar app's host (whichever app provides `calendar`) and its internal route for answers (the calendar keeps its own copy). */
export const CALENDAR_DOMAIN = serviceDomain("calendar") ?? "daybook.test";
export const CALENDAR_RSVP_PATH = "/api/internal/rsvp";
/** The calendar's internal route that adds the events of an .ics (or finds them by UID). */
export const CALENDAR_EVENTS_PATH = "/api/internal/events";

export interface CalendarAdd {
  /** Events in the file, and how many were new to the calendar. */
  count: number;
  added: number;
  /** Events already there that the file's newer SEQUENCE updated (a rescheduled flight). */
  updated: number;
  /** The first event's page in the calendar. */
  url: string;
}

/**
 * "Add to Daybook" on a calendar file that is not an invitation (a booking's itinerary, METHOD
 * PUBLISH): sends the attachment's text to the calendar, which adds each event or finds it by
 * UID. Throws MailError for an attachment that is not the user's, not a calendar file, or an
 * invitation (those are answered Yes/Maybe/No), and when the calendar cannot be reached.
 */
export async function addToCalendar(attachmentId: number): Promise<CalendarAdd> {
  const att = db()
    .prepare("SELECT a.content, a.content_type, a.message_id FROM attachments a WHERE a.id = ?")
    .get(attachmentId) as { content: Buffer; content_type: string; message_id: number } | undefined;
  if (!att || !getMessage(att.message_id)) throw new MailError("That attachment was not found.");
  if (!att.content_type.toLowerCase().startsWith("text/calendar")) throw new MailError("Only calendar files (.ics) can be added to Daybook.");
  const text = Buffer.from(att.content).toString("utf8");
  const inv = parseInvite(text);
  if (inv && (!inv.method || inv.method === "REQUEST")) throw new MailError("This is an invitation: answer it with Yes, Maybe or No.");
  try {
    const r = await callApp<{ url: string; events: { created: boolean; updated?: boolean }[] }>(CALENDAR_DOMAIN, CALENDAR_EVENTS_PATH, { ics: text }, 5000);
    return { count: r.events.length, added: r.events.filter((e) => e.created).length, updated: r.events.filter((e) => e.updated).length, url: r.url };
  } catch (e) {
    throw new MailError(`Daybook could not add the file: ${e instanceof Error ? e.message.replace(/^.*answered \d+: /, "") : String(e)}`);
  }
}

export interface InviteView {
  invite: Invite;
  answer: { partstat: string; calendar_status: string; answered_at: string } | null;
  /** The user is the organizer: no answer to give. */
  mine: boolean;
}

/** The invitation carried by message `m` (its first text/calendar attachment), or null. */
export function inviteOf(m: MessageRow, user: User): InviteView | null {
  const att = db()
    .prepare("SELECT content FROM attachments WHERE message_id = ? AND content_type LIKE 'text/calendar%' ORDER BY id LIMIT 1")
    .get(m.id) as { content: Buffer } | undefined;
  if (!att) return null;
  const invite = parseInvite(Buffer.from(att.content).toString("utf8"));
  if (!invite || (invite.method && invite.method !== "REQUEST")) return null;
  const answer = db().prepare("SELECT partstat, calendar_status, answered_at FROM rsvps WHERE message_id = ?").get(m.id) as InviteView["answer"] | undefined;
  return { invite, answer: answer ?? null, mine: ownAddresses(user).includes(invite.organizer.email.toLowerCase()) };
}

function utcStamp(): string {
  return new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

export interface RsvpResult {
  replyId: number;
  calendar: "notified" | "pending";
  partstat: string;
}

/**
 * Answer the invitation in message `messageId` with `answer` (yes/maybe/no): record it, send the
 * METHOD:REPLY mail to the organizer (filed in Sent, in the invitation's thread) and tell the
 * calendar app. When the calendar cannot be reached the answer is kept with calendar status
 * `pending`. Throws MailError for a message without an invitation or an unknown answer.
 */
export async function rsvp(user: User, messageId: number, answer: string): Promise<RsvpResult> {
  if (!Object.hasOwn(ANSWERS, answer)) throw new MailError("Answer Yes, Maybe or No.");
  const m = getMessage(messageId);
  if (!m) throw new MailError("That invitation no longer exists.");
  const view = inviteOf(m, user);
  if (!view) throw new MailError("That message holds no invitation.");
  if (view.mine) throw new MailError("You organized this event: there is nothing to answer.");
  const inv = view.invite;
  const a = ANSWERS[answer as Answer];
  const own = ownAddresses(user);
  // Answer as the address that was invited (work or personal).
  const invited = inv.attendees.find((x) => own.includes(x.email.toLowerCase()))?.email
    ?? (JSON.parse(m.to_json) as { email: string }[]).map((x) => x.email).find((e) => own.includes(e.toLowerCase()))
    ?? user.email;
  const me = { name: user.full_name, email: invited };
  const now = writeTime();
  const ics = replyIcs(inv, me, a.partstat, utcStamp());
  const organizer = { name: inv.organizer.name, email: inv.organizer.email };
  const save = db().transaction(() => {
    const replyId = insertMessage({
      message_id: newMessageId(invited.split("@")[1] ?? "mailbox.test"),
      thread_id: m.thread_id,
      in_reply_to: m.message_id,
      references: [...(JSON.parse(m.references_json || "[]") as string[]), m.message_id],
      folder: "sent",
      from: me,
      to: [organizer],
      cc: [],
      subject: `${a.verb}: ${inv.summary}`,
      body: `${user.full_name} has ${a.says} this invitation.\n\n${inv.summary}\n${inv.location ? `Where: ${inv.location}\n` : ""}`,
      sent_at: now,
      deliver_at: mailContext().now,
      is_read: true,
      origin: "app",
      ref: m.ref,
      attachments: [{ filename: "invite.ics", content_type: "text/calendar; method=REPLY", content: Buffer.from(ics, "utf8") }],
    });
    db()
      .prepare(
        `INSERT INTO rsvps (message_id, uid, partstat, answered_at, reply_message_id, calendar_status) VALUES (?, ?, ?, ?, ?, 'pending')
         ON CONFLICT(message_id) DO UPDATE SET partstat = excluded.partstat, answered_at = excluded.answered_at,
           reply_message_id = excluded.reply_message_id, calendar_status = 'pending'`,
      )
      .run(m.id, inv.uid, a.partstat, now, replyId);
    db().prepare("UPDATE messages SET is_read = 1 WHERE id = ?").run(m.id);
    return replyId;
  });
  const replyId = save();
  let calendar: "notified" | "pending" = "pending";
  try {
    await callApp(CALENDAR_DOMAIN, CALENDAR_RSVP_PATH, { uid: inv.uid, partstat: a.partstat }, 5000);
    calendar = "notified";
    db().prepare("UPDATE rsvps SET calendar_status = 'notified' WHERE message_id = ?").run(m.id);
  } catch {
    // The calendar app is not served or refused: the answer stays recorded here (status pending).
  }
  return { replyId, calendar, partstat: a.partstat };
}
