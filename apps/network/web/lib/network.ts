import { createHash } from "node:crypto";
import { reply, type ContactCard, type Turn } from "@persona/platform/replies";
import { db } from "./db";
import { networkContext } from "./context";

/** Limits of what a person may type. */
export const LIMITS = { headline: 220, pronouns: 30, about: 2600, location: 100, title: 100, company: 100, description: 2000, skill: 60, post: 3000, comment: 1250, message: 4000 } as const;
export const REACTIONS = ["like", "celebrate", "support", "love", "insightful"] as const;
export const REACTION_LABEL: Record<string, string> = { like: "Like", celebrate: "Celebrate", support: "Support", love: "Love", insightful: "Insightful" };
export const MAX_SKILLS = 50;

/** A refused request: `message` is shown to the person, `field` names the form field; nothing was written. */
export class NetworkError extends Error {
  constructor(message: string, public field = "", public status = 400) {
    super(message);
  }
}

/** `value` trimmed, required unless `optional`, at most `max` characters; verbatim otherwise. */
export function text(value: string, label: string, fieldName: string, max: number, optional = false): string {
  const v = value.trim();
  if (!v && !optional) throw new NetworkError(`${label} can't be empty.`, fieldName);
  if (v.length > max) throw new NetworkError(`${label} can be at most ${max} characters (it has ${v.length}).`, fieldName);
  return v;
}

/** A `YYYY-MM` month (1900-2100), or null when empty and `optional`. */
export function monthValue(value: string, label: string, fieldName: string, optional = false): string | null {
  const v = value.trim();
  if (!v && optional) return null;
  const m = /^(\d{4})-(\d{2})$/.exec(v);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12 || Number(m[1]) < 1900 || Number(m[1]) > 2100)
    throw new NetworkError(`${label} must be a month like 2024-03.`, fieldName);
  return v;
}

export interface Profile { headline: string; about: string; location: string; pronouns: string; updated_at: string | null }
export interface Experience { id: number; title: string; company: string; location: string; start_month: string; end_month: string | null; description: string; world_ref: string | null }
export interface Education { id: number; school: string; degree: string; start_year: number; end_year: number }
export interface Skill { id: number; name: string }
export interface Person {
  id: number; name: string; headline: string; title: string; company: string; location: string; relation: string;
  connected_on: string | null; started: string; previous_title: string | null; previous_company: string | null; mutual_json: string; world_ref: string;
}

export function getProfile(): Profile {
  return db().prepare("SELECT headline, about, location, pronouns, updated_at FROM profile WHERE id = 1").get() as Profile;
}
export function listExperience(): Experience[] {
  return db().prepare("SELECT * FROM experience ORDER BY end_month IS NOT NULL, start_month DESC, id").all() as Experience[];
}
export function getExperience(id: number): Experience | null {
  return (db().prepare("SELECT * FROM experience WHERE id = ?").get(id) as Experience | undefined) ?? null;
}
export function listEducation(): Education[] {
  return db().prepare("SELECT * FROM education ORDER BY end_year DESC, id").all() as Education[];
}
export function listSkills(): Skill[] {
  return db().prepare("SELECT id, name FROM skills ORDER BY position, id").all() as Skill[];
}

export function updateProfile(headline: string, about: string, location: string, pronouns: string): void {
  const h = text(headline, "The headline", "headline", LIMITS.headline);
  const a = text(about, "About", "about", LIMITS.about, true);
  const l = text(location, "The location", "location", LIMITS.location);
  const p = text(pronouns, "The pronouns", "pronouns", LIMITS.pronouns, true);
  db().prepare("UPDATE profile SET headline = ?, about = ?, location = ?, pronouns = ?, updated_at = ? WHERE id = 1").run(h, a, l, p, networkContext().now);
}

function checkExperience(f: Record<string, string>) {
  const title = text(f.title ?? "", "The title", "title", LIMITS.title);
  const company = text(f.company ?? "", "The company", "company", LIMITS.company);
  const location = text(f.location ?? "", "The location", "location", LIMITS.location, true);
  const start = monthValue(f.start ?? "", "The start", "start") as string;
  const end = monthValue(f.end ?? "", "The end", "end", true);
  const { today } = networkContext();
  if (start > today.slice(0, 7)) throw new NetworkError("The start can't be in the future.", "start");
  if (end && end < start) throw new NetworkError("The end can't be before the start.", "end");
  if (end && end > today.slice(0, 7)) throw new NetworkError("The end can't be in the future; leave it empty for a current job.", "end");
  const description = text(f.description ?? "", "The description", "description", LIMITS.description, true);
  return { title, company, location, start, end, description };
}

/** Add an experience entry; returns its id. */
export function addExperience(f: Record<string, string>): number {
  const x = checkExperience(f);
  return Number(
    db().prepare(`INSERT INTO experience (title, company, location, start_month, end_month, description, updated_at, world_ref)
                  VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`).run(x.title, x.company, x.location, x.start, x.end, x.description, networkContext().now).lastInsertRowid,
  );
}

export function updateExperience(id: number, f: Record<string, string>): void {
  if (!getExperience(id)) throw new NetworkError("That experience entry does not exist.", "id", 404);
  const x = checkExperience(f);
  db().prepare(`UPDATE experience SET title = ?, company = ?, location = ?, start_month = ?, end_month = ?, description = ?, updated_at = ? WHERE id = ?`)
    .run(x.title, x.company, x.location, x.start, x.end, x.description, networkContext().now, id);
}

export function deleteExperience(id: number): void {
  if (!getExperience(id)) throw new NetworkError("That experience entry does not exist.", "id", 404);
  db().prepare("DELETE FROM experience WHERE id = ?").run(id);
}

export function addSkill(name: string): void {
  const n = text(name, "The skill", "skill", LIMITS.skill);
  const d = db();
  if (d.prepare("SELECT 1 FROM skills WHERE lower(name) = lower(?)").get(n)) throw new NetworkError(`${n} is already on your profile.`, "skill");
  const count = (d.prepare("SELECT COUNT(*) AS n FROM skills").get() as { n: number }).n;
  if (count >= MAX_SKILLS) throw new NetworkError(`A profile lists at most ${MAX_SKILLS} skills.`, "skill");
  const pos = (d.prepare("SELECT COALESCE(MAX(position), 0) + 1 AS p FROM skills").get() as { p: number }).p;
  d.prepare("INSERT INTO skills (name, position, world_ref) VALUES (?, ?, NULL)").run(n, pos);
}

export function removeSkill(id: number): void {
  const r = db().prepare("DELETE FROM skills WHERE id = ?").run(id);
  if (!r.changes) throw new NetworkError("That skill is not on your profile.", "skill", 404);
}

// --- people and invitations ------------------------------------------------------------------------

export function getPerson(id: number): Person | null {
  return (db().prepare("SELECT * FROM people WHERE id = ?").get(id) as Person | undefined) ?? null;
}
export function listConnections(): Person[] {
  return db().prepare("SELECT * FROM people WHERE connected_on IS NOT NULL ORDER BY connected_on DESC, name").all() as Person[];
}
export function suggestions(limit = 5): Person[] {
  return db().prepare(`SELECT * FROM people WHERE connected_on IS NULL AND relation = 'second'
                        AND id NOT IN (SELECT person_id FROM invitations WHERE status = 'pending') ORDER BY id LIMIT ?`).all(limit) as Person[];
}

export interface Invitation { id: number; person_id: number; direction: string; note: string; sent_at: string; status: string; name: string; headline: string; mutual_json: string }
export function pendingInvitations(direction: "incoming" | "sent"): Invitation[] {
  return db().prepare(`SELECT i.*, p.name, p.headline, p.mutual_json FROM invitations i JOIN people p ON p.id = i.person_id
                        WHERE i.direction = ? AND i.status = 'pending' ORDER BY i.sent_at DESC, i.id DESC`).all(direction) as Invitation[];
}

/** Accept or decline an incoming invitation, or withdraw a sent one. Accepting connects the person today. */
export function answerInvitation(id: number, action: string): { name: string; status: string } {
  const d = db();
  const inv = Number.isFinite(id)
    ? (d.prepare("SELECT i.*, p.name FROM invitations i JOIN people p ON p.id = i.person_id WHERE i.id = ?").get(id) as Invitation | undefined)
    : undefined;
  if (!inv) throw new NetworkError("That invitation does not exist.", "invitation", 404);
  if (inv.status !== "pending") throw new NetworkError(`That invitation was already ${inv.status}.`, "invitation", 409);
  const allowed = inv.direction === "incoming" ? ["accept", "decline"] : ["withdraw"];
  if (!allowed.includes(action))
    throw new NetworkError(inv.direction === "incoming" ? "Accept or ignore an invitation you received." : "A sent invitation can only be withdrawn.", "action");
  const status = { accept: "accepted", decline: "declined", withdraw: "withdrawn" }[action] as string;
  const { now, today } = networkContext();
  d.transaction(() => {
    d.prepare("UPDATE invitations SET status = ?, responded_at = ? WHERE id = ?").run(status, now, id);
    if (status === "accepted") d.prepare("UPDATE people SET connected_on = ? WHERE id = ?").run(today, inv.person_id);
  })();
  return { name: inv.name, status };
}

// --- the feed ---------------------------------------------------------------------------------------

export interface Post { id: number; author_id: number | null; kind: string; body: string; created_at: string; author_name: string | null; author_headline: string | null }
export interface PostView extends Post { reactions: number; mine: string | null; top: string[]; comments: CommentView[] }
export interface CommentView { id: number; person_id: number | null; name: string | null; body: string; created_at: string }

export function feed(now: string, opts: { author?: number | "me"; limit?: number } = {}): PostView[] {
  const d = db();
  const where = opts.author === "me" ? "AND p.author_id IS NULL" : typeof opts.author === "number" ? "AND p.author_id = ?" : "";
  const args: (string | number)[] = [now];
  if (typeof opts.author === "number") args.push(opts.author);
  args.push(opts.limit ?? 40);
  const posts = d.prepare(`SELECT p.*, a.name AS author_name, a.headline AS author_headline FROM posts p LEFT JOIN people a ON a.id = p.author_id
                            WHERE p.created_at <= ? ${where} ORDER BY p.created_at DESC, p.id DESC LIMIT ?`).all(...args) as Post[];
  return posts.map((p) => {
    const rs = d.prepare("SELECT reaction, person_id FROM reactions WHERE post_id = ?").all(p.id) as { reaction: string; person_id: number | null }[];
    const counts = new Map<string, number>();
    for (const r of rs) counts.set(r.reaction, (counts.get(r.reaction) ?? 0) + 1);
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3).map(([k]) => k);
    const comments = d.prepare(`SELECT c.id, c.person_id, x.name, c.body, c.created_at FROM comments c LEFT JOIN people x ON x.id = c.person_id
                                 WHERE c.post_id = ? AND c.created_at <= ? ORDER BY c.created_at, c.id`).all(p.id, now) as CommentView[];
    return { ...p, reactions: rs.length, mine: rs.find((r) => r.person_id === null)?.reaction ?? null, top, comments };
  });
}

function visiblePost(id: number): Post {
  const { now } = networkContext();
  const p = Number.isFinite(id) ? (db().prepare("SELECT * FROM posts WHERE id = ? AND created_at <= ?").get(id, now) as Post | undefined) : undefined;
  if (!p) throw new NetworkError("That post does not exist.", "post", 404);
  return p;
}

export function createPost(body: string): number {
  const b = text(body, "Your post", "body", LIMITS.post);
  return Number(db().prepare("INSERT INTO posts (author_id, kind, body, created_at, world_ref) VALUES (NULL, 'post', ?, ?, NULL)").run(b, networkContext().now).lastInsertRowid);
}

/** Set the persona's reaction on a post (the same reaction again takes it back); returns the reaction now on, or null. */
export function react(postId: number, reaction: string): string | null {
  if (!(REACTIONS as readonly string[]).includes(reaction)) throw new NetworkError(`Pick one of ${REACTIONS.join(", ")}.`, "reaction");
  const p = visiblePost(postId);
  const d = db();
  const have = d.prepare("SELECT id, reaction FROM reactions WHERE post_id = ? AND person_id IS NULL").get(p.id) as { id: number; reaction: string } | undefined;
  if (have) {
    d.prepare("DELETE FROM reactions WHERE id = ?").run(have.id);
    if (have.reaction === reaction) return null;
  }
  d.prepare("INSERT INTO reactions (post_id, person_id, reaction, created_at, world_ref) VALUES (?, NULL, ?, ?, NULL)").run(p.id, reaction, networkContext().now);
  return reaction;
}

export function addComment(postId: number, body: string): number {
  const p = visiblePost(postId);
  const b = text(body, "Your comment", "body", LIMITS.comment);
  return Number(db().prepare("INSERT INTO comments (post_id, person_id, body, created_at, world_ref) VALUES (?, NULL, ?, ?, NULL)").run(p.id, b, networkContext().now).lastInsertRowid);
}

// --- messaging --------------------------------------------------------------------------------------

export interface ThreadItem { id: number; person_id: number; name: string; headline: string; job_title: string | null; last_body: string | null; last_at: string | null; unread: number }
export function listThreads(now: string): ThreadItem[] {
  return db().prepare(`SELECT t.id, t.person_id, p.name, p.headline, j.title AS job_title,
        (SELECT body FROM messages m WHERE m.thread_id = t.id AND m.sent_at <= ? ORDER BY sent_at DESC, id DESC LIMIT 1) AS last_body,
        (SELECT MAX(sent_at) FROM messages m WHERE m.thread_id = t.id AND m.sent_at <= ?) AS last_at,
        (SELECT COUNT(*) FROM messages m WHERE m.thread_id = t.id AND m.sender_id IS NOT NULL AND m.read_at IS NULL AND m.sent_at <= ?) AS unread
      FROM threads t JOIN people p ON p.id = t.person_id LEFT JOIN jobs j ON j.id = t.job_id
      ORDER BY last_at DESC, t.id DESC`).all(now, now, now) as ThreadItem[];
}
export function getThread(id: number): ThreadItem | null {
  const { now } = networkContext();
  return listThreads(now).find((t) => t.id === id) ?? null;
}
export interface MessageRow { id: number; sender_id: number | null; body: string; sent_at: string }
export function threadMessages(id: number, now: string): MessageRow[] {
  return db().prepare("SELECT id, sender_id, body, sent_at FROM messages WHERE thread_id = ? AND sent_at <= ? ORDER BY sent_at, id").all(id, now) as MessageRow[];
}
export function markThreadRead(id: number, now: string): void {
  db().prepare("UPDATE messages SET read_at = ? WHERE thread_id = ? AND sender_id IS NOT NULL AND read_at IS NULL AND sent_at <= ?").run(now, id, now);
}

/** Open (or find) the thread with connection `personId`; returns its id. */
export function openThread(personId: number): number {
  const d = db();
  const p = getPerson(personId);
  if (!p) throw new NetworkError("That person is not on Guildline.", "person", 404);
  const have = d.prepare("SELECT id FROM threads WHERE person_id = ?").get(personId) as { id: number } | undefined;
  if (have) return have.id;
  if (!p.connected_on) throw new NetworkError(`Connect with ${p.name} before sending a message.`, "person", 403);
  return Number(d.prepare("INSERT INTO threads (person_id, job_id, world_ref) VALUES (?, NULL, NULL)").run(personId).lastInsertRowid);
}

/** Send a message in thread `threadId`; the other side's reply (@persona/platform/replies) lands after its delay. */
export async function sendMessage(threadId: number, body: string): Promise<number> {
  const t = Number.isFinite(threadId) ? getThread(threadId) : null;
  if (!t) throw new NetworkError("That conversation does not exist.", "thread", 404);
  const b = text(body, "Your message", "body", LIMITS.message);
  const { now, seed } = networkContext();
  const d = db();
  const history: Turn[] = threadMessages(threadId, now).slice(-20).map((m) => ({ from: m.sender_id === null ? "me" : "them", text: m.body, at: m.sent_at }));
  const card = JSON.parse((d.prepare("SELECT card_json FROM people WHERE id = ?").get(t.person_id) as { card_json: string }).card_json) as ContactCard;
  const answer = await reply(card, history, b, { seed: `network/${seed}/${threadId}`, now, channel: "mail" });
  return d.transaction(() => {
    const id = Number(d.prepare("INSERT INTO messages (thread_id, sender_id, body, sent_at, read_at, reply_to_id, world_ref) VALUES (?, NULL, ?, ?, NULL, NULL, NULL)").run(threadId, b, now).lastInsertRowid);
    if (answer.text.trim()) {
      const at = addSeconds(now, Math.max(30, Math.round(answer.delaySeconds)));
      d.prepare("INSERT INTO messages (thread_id, sender_id, body, sent_at, read_at, reply_to_id, world_ref) VALUES (?, ?, ?, ?, NULL, ?, NULL)")
        .run(threadId, t.person_id, answer.text.slice(0, LIMITS.message), at, id);
    }
    return id;
  })();
}

/** `iso` (local, no zone) plus `seconds`, as local ISO. */
export function addSeconds(iso: string, seconds: number): string {
  const t = new Date(`${iso}Z`).getTime() + seconds * 1000;
  return new Date(t).toISOString().slice(0, 19);
}

// --- jobs -------------------------------------------------------------------------------------------

export interface Job { id: number; slug: string; title: string; company: string; location: string; workplace: string; salary_min_cents: number; salary_max_cents: number; currency: string; summary: string; skills_json: string; posted_at: string; saved: number; applied_at: string | null }

/** Escape `%`, `_` and `\` for a LIKE pattern (ESCAPE '\'). */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const JOB = `SELECT j.*, (s.job_id IS NOT NULL) AS saved, a.submitted_at AS applied_at FROM jobs j
             LEFT JOIN saved_jobs s ON s.job_id = j.id LEFT JOIN applications a ON a.job_id = j.id`;

/** Jobs matching `keywords` (title, company, summary, skills) and `location` (location or workplace), newest first;
 * `only` "saved" or "applied" keeps the persona's saved or applied jobs. */
export function searchJobs(keywords: string, location: string, only: "" | "saved" | "applied" = ""): Job[] {
  const k = keywords.trim().slice(0, 100);
  const l = location.trim().slice(0, 100);
  const { now } = networkContext();
  return db().prepare(`${JOB}
      WHERE j.posted_at <= ?
        AND (? = '' OR j.title LIKE ? ESCAPE '\\' OR j.company LIKE ? ESCAPE '\\' OR j.summary LIKE ? ESCAPE '\\' OR j.skills_json LIKE ? ESCAPE '\\')
        AND (? = '' OR j.location LIKE ? ESCAPE '\\' OR j.workplace LIKE ? ESCAPE '\\')
        AND (? != 'saved' OR s.job_id IS NOT NULL) AND (? != 'applied' OR a.job_id IS NOT NULL)
      ORDER BY j.posted_at DESC, j.id DESC`).all(now, k, likePattern(k), likePattern(k), likePattern(k), likePattern(k), l, likePattern(l), likePattern(l), only, only) as Job[];
}

export function getJob(id: number): Job | null {
  return (db().prepare(`${JOB} WHERE j.id = ?`).get(id) as Job | undefined) ?? null;
}

export function setSaved(jobId: number, on: boolean): void {
  const j = Number.isFinite(jobId) ? getJob(jobId) : null;
  if (!j) throw new NetworkError("That job does not exist.", "job", 404);
  const d = db();
  if (on) d.prepare("INSERT OR IGNORE INTO saved_jobs (job_id, saved_at, world_ref) VALUES (?, ?, NULL)").run(jobId, networkContext().now);
  else d.prepare("DELETE FROM saved_jobs WHERE job_id = ?").run(jobId);
}

// --- people search and connecting ---------------------------------------------------------------------

/** The most a sent invitation's note may hold (Guildline's limit, as LinkedIn's for a personalised invitation). */
export const NOTE_MAX = 300;
/** Invitations a member may send in a rolling week (LinkedIn's weekly limit is about this). */
export const WEEKLY_INVITATIONS = 100;

/** A person as the search and the profile show them: `pending` the direction of a pending invitation, or null. */
export interface PersonHit extends Person { pending: "incoming" | "sent" | null; invitation_id: number | null }

const HIT = `SELECT p.*, (SELECT direction FROM invitations i WHERE i.person_id = p.id AND i.status = 'pending' ORDER BY i.id DESC LIMIT 1) AS pending,
                    (SELECT id FROM invitations i WHERE i.person_id = p.id AND i.status = 'pending' ORDER BY i.id DESC LIMIT 1) AS invitation_id
             FROM people p`;

/** People whose name, headline, title, company or location holds `keywords` (case-insensitive; every word must
 * match somewhere), connections first, then by name. At most 50. "" finds nobody. */
export function searchPeople(keywords: string): PersonHit[] {
  const words = keywords.trim().slice(0, 100).split(/\s+/).filter(Boolean).slice(0, 8);
  if (!words.length) return [];
  const clause = words.map(() => "(p.name LIKE ? ESCAPE '\\' OR p.headline LIKE ? ESCAPE '\\' OR p.title LIKE ? ESCAPE '\\' OR p.company LIKE ? ESCAPE '\\' OR p.location LIKE ? ESCAPE '\\')").join(" AND ");
  const args = words.flatMap((w) => Array(5).fill(likePattern(w)) as string[]);
  return db().prepare(`${HIT} WHERE ${clause} ORDER BY p.connected_on IS NULL, p.name, p.id LIMIT 50`).all(...args) as PersonHit[];
}

/** One person with their pending invitation, or null. */
export function personHit(id: number): PersonHit | null {
  return Number.isFinite(id) ? ((db().prepare(`${HIT} WHERE p.id = ?`).get(id) as PersonHit | undefined) ?? null) : null;
}

/** Send `personId` an invitation to connect with an optional `note` (verbatim, at most NOTE_MAX characters).
 * Refused (NetworkError, nothing written) for someone unknown, already connected, already invited either way, or
 * past the weekly limit. Returns the person's name. */
export function sendInvitation(personId: number, note: string): string {
  const p = personHit(personId);
  if (!p) throw new NetworkError("That person is not on Guildline.", "person", 404);
  if (p.connected_on) throw new NetworkError(`You're already connected with ${p.name}.`, "person", 409);
  if (p.pending === "sent") throw new NetworkError(`Your invitation to ${p.name} is still waiting for an answer.`, "person", 409);
  if (p.pending === "incoming") throw new NetworkError(`${p.name} has already invited you: accept their invitation in My Network.`, "person", 409);
  const n = note.trim();
  if (n.length > NOTE_MAX) throw new NetworkError(`A note can be at most ${NOTE_MAX} characters (it has ${n.length}).`, "note");
  const { now } = networkContext();
  const d = db();
  const weekAgo = addSeconds(now, -7 * 86400);
  const recent = (d.prepare("SELECT COUNT(*) AS n FROM invitations WHERE direction = 'sent' AND sent_at > ?").get(weekAgo) as { n: number }).n;
  if (recent >= WEEKLY_INVITATIONS) throw new NetworkError(`You've sent ${WEEKLY_INVITATIONS} invitations this week; try again in a few days.`, "person", 429);
  d.prepare("INSERT INTO invitations (person_id, direction, note, sent_at, status, responded_at, world_ref) VALUES (?, 'sent', ?, ?, 'pending', NULL, NULL)")
    .run(p.id, n, now);
  return p.name;
}

// --- applying to a job (Easy Apply) -----------------------------------------------------------------

/** The largest résumé accepted (bytes), and the types: PDF, Word (.docx) and Word 97-2003 (.doc), checked by their
 * first bytes (%PDF, a zip's PK, an OLE compound file), not only their names. */
export const RESUME_MAX_BYTES = 2 * 1024 * 1024;
const RESUME_TYPES: { ext: string; magic: number[] }[] = [
  { ext: ".pdf", magic: [0x25, 0x50, 0x44, 0x46] },
  { ext: ".docx", magic: [0x50, 0x4b, 0x03, 0x04] },
  { ext: ".doc", magic: [0xd0, 0xcf, 0x11, 0xe0] },
];
export const RESUME_ACCEPT = RESUME_TYPES.map((t) => t.ext).join(",");

export interface Application { id: number; job_id: number; email: string; phone: string; resume_name: string; resume_size: number; years: number; submitted_at: string }

export function applicationFor(jobId: number): Application | null {
  return (db().prepare("SELECT id, job_id, email, phone, resume_name, length(resume) AS resume_size, years, submitted_at FROM applications WHERE job_id = ?")
    .get(jobId) as Application | undefined) ?? null;
}

/** A visible posting (posted by now), or a NetworkError 404. */
export function visibleJob(jobId: number): Job {
  const j = Number.isFinite(jobId) ? getJob(jobId) : null;
  if (!j || j.posted_at > networkContext().now) throw new NetworkError("That job does not exist.", "job", 404);
  return j;
}

/** What an Easy Apply form sends. `resume` the uploaded file (or null / a string when none was chosen). */
export interface ApplyForm { email: string; phone: string; years: string; resume: FormDataEntryValue | null }

/** Apply to `jobId`: validates the contact, the résumé (NetworkError with the field, nothing written) and stores the
 * application with the résumé's bytes and SHA-256. One application per job (409 for a second). Returns the job and
 * the résumé's file name as stored. */
export async function applyToJob(jobId: number, f: ApplyForm): Promise<{ job: Job; resumeName: string }> {
  const job = visibleJob(jobId);
  if (applicationFor(job.id)) throw new NetworkError(`You've already applied to ${job.title} at ${job.company}.`, "job", 409);
  const email = f.email.trim();
  if (!/^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/.test(email)) throw new NetworkError("Enter a valid email address.", "email");
  const phone = f.phone.trim();
  const digits = phone.replace(/\D/g, "").length;
  if (!/^\+?[\d\s().-]+$/.test(phone) || digits < 6 || digits > 15) throw new NetworkError("Enter a mobile phone number (6 to 15 digits).", "phone");
  const yearsText = f.years.trim();
  if (!/^\d{1,2}$/.test(yearsText)) throw new NetworkError("Enter your years of work experience as a whole number from 0 to 60.", "years");
  const years = Number(yearsText);
  if (years > 60) throw new NetworkError("Enter your years of work experience as a whole number from 0 to 60.", "years");
  const file = f.resume;
  if (!file || typeof file === "string" || !file.name || file.size === 0) throw new NetworkError("Upload your résumé (PDF or Word, up to 2 MB).", "resume");
  if (file.size > RESUME_MAX_BYTES) throw new NetworkError(`${file.name} is ${(file.size / 1048576).toFixed(1)} MB; a résumé can be at most 2 MB.`, "resume");
  const name = file.name.replace(/^.*[\\/]/, "").slice(0, 200);
  const type = RESUME_TYPES.find((t) => name.toLowerCase().endsWith(t.ext));
  if (!type) throw new NetworkError(`${name} is not a PDF or Word document (.pdf, .docx, .doc).`, "resume");
  const bytes = Buffer.from(await file.arrayBuffer());
  if (!type.magic.every((b, i) => bytes[i] === b)) throw new NetworkError(`${name} does not look like a ${type.ext.slice(1).toUpperCase()} file; it may be damaged.`, "resume");
  const sha = createHash("sha256").update(bytes).digest("hex");
  // The check above ran before the file was read: a second application that got in meanwhile wins no row.
  const r = db().prepare(`INSERT INTO applications (job_id, email, phone, resume_name, resume, resume_sha256, years, submitted_at, status, world_ref)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'submitted', NULL) ON CONFLICT (job_id) DO NOTHING`).run(job.id, email, phone, name, bytes, sha, years, networkContext().now);
  if (!r.changes) throw new NetworkError(`You've already applied to ${job.title} at ${job.company}.`, "job", 409);
  return { job, resumeName: name };
}
