import { db } from "./db";

/** Workflow order of a ticket's status (the board's columns, left to right). */
export const STATUSES = ["backlog", "todo", "in_progress", "in_review", "done"] as const;
export type Status = (typeof STATUSES)[number];
export const STATUS_LABEL: Record<Status, string> = {
  backlog: "Backlog",
  todo: "To do",
  in_progress: "In progress",
  in_review: "In review",
  done: "Done",
};
export const PRIORITIES = ["urgent", "high", "medium", "low"] as const;
export const PRIORITY_LABEL: Record<string, string> = { urgent: "Urgent", high: "High", medium: "Medium", low: "Low" };
export const TYPES = ["story", "task", "bug"] as const;
export const TYPE_LABEL: Record<string, string> = { story: "Story", task: "Task", bug: "Bug" };
export const POINTS = [1, 2, 3, 5, 8, 13] as const;
const LABEL_RE = /^[\p{Ll}\p{N}][\p{Ll}\p{N}-]{0,29}$/u;

/** A refused change: `message` says what is wrong with `field`; nothing was written. */
export class BoardError extends Error {
  constructor(
    message: string,
    public field: string = "",
    public status = 400,
  ) {
    super(message);
  }
}

export interface Person {
  id: number;
  name: string;
  email: string;
  is_me: number;
}
export interface Project {
  id: number;
  name: string;
  slug: string;
  start: string;
  end: string | null;
}
export interface Sprint {
  id: number;
  name: string;
  start: string;
  end: string;
  opens: string;
  closes: string;
  goal: string;
  state: "past" | "current" | "next";
}
export interface TicketRow {
  id: number;
  key: string;
  number: number;
  type: string;
  title: string;
  description: string;
  status: Status;
  priority: string;
  points: number | null;
  due: string | null;
  sprint_id: number | null;
  rank: number;
  created_at: string;
  updated_at: string;
  project_id: number;
  project: string;
  assignee_id: number | null;
  assignee: string | null;
  reporter_id: number;
  reporter: string;
  labels: string[];
}
export interface Filters {
  /** a sprint id, "backlog" (no sprint) or "" (every ticket) */
  sprint?: number | "backlog" | "";
  status?: string;
  assignee?: string;
  label?: string;
  priority?: string;
  q?: string;
}

export function people(): Person[] {
  return db().prepare("SELECT id, name, email, is_me FROM people ORDER BY id").all() as Person[];
}

export function projects(): Project[] {
  return db().prepare('SELECT id, name, slug, start, "end" FROM projects ORDER BY id').all() as Project[];
}

/** Every sprint with its state at `now` (past / current / next), oldest first. */
export function sprints(now: string): Sprint[] {
  const rows = db().prepare('SELECT id, name, start, "end", opens, closes, goal FROM sprints ORDER BY id').all() as Omit<Sprint, "state">[];
  return rows.map((s) => ({ ...s, state: s.closes <= now ? "past" : s.opens <= now ? "current" : "next" }));
}

export function currentSprint(now: string): Sprint | null {
  const all = sprints(now);
  return all.find((s) => s.state === "current") ?? all.filter((s) => s.state === "past").at(-1) ?? null;
}

const TICKET_SQL = `SELECT t.id, t.key, t.number, t.type, t.title, t.description, t.status, t.priority, t.points, t.due,
  t.sprint_id, t.rank, t.created_at, t.updated_at, t.project_id, p.name AS project, t.assignee_id, a.name AS assignee,
  t.reporter_id, r.name AS reporter,
  (SELECT group_concat(label, ',') FROM (SELECT label FROM ticket_labels l WHERE l.ticket_id = t.id ORDER BY label)) AS label_list
  FROM tickets t JOIN projects p ON p.id = t.project_id LEFT JOIN people a ON a.id = t.assignee_id JOIN people r ON r.id = t.reporter_id`;

type RawTicket = Omit<TicketRow, "labels"> & { label_list: string | null };
const withLabels = (t: RawTicket): TicketRow => {
  const { label_list, ...rest } = t;
  return { ...rest, labels: label_list ? label_list.split(",") : [] };
};

/** Tickets matching `f`, in column order (status, rank) then key; `q` searches key, title and description. */
export function listTickets(f: Filters): TicketRow[] {
  const where: string[] = [];
  const args: (string | number)[] = [];
  if (f.sprint === "backlog") where.push("t.sprint_id IS NULL");
  else if (typeof f.sprint === "number") {
    where.push("t.sprint_id = ?");
    args.push(f.sprint);
  }
  if (f.status) {
    where.push("t.status = ?");
    args.push(f.status);
  }
  if (f.assignee === "none") where.push("t.assignee_id IS NULL");
  else if (f.assignee) {
    where.push("t.assignee_id = ?");
    args.push(Number(f.assignee) || -1);
  }
  if (f.label) {
    where.push("EXISTS (SELECT 1 FROM ticket_labels l WHERE l.ticket_id = t.id AND l.label = ?)");
    args.push(f.label);
  }
  if (f.priority) {
    where.push("t.priority = ?");
    args.push(f.priority);
  }
  const q = (f.q ?? "").trim().toLowerCase();
  if (q) {
    where.push("(lower(t.key) = ? OR instr(lower(t.title), ?) > 0 OR instr(lower(t.description), ?) > 0)");
    args.push(q, q, q);
  }
  const sql = `${TICKET_SQL}${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY t.rank, t.number`;
  return (db().prepare(sql).all(...args) as RawTicket[]).map(withLabels);
}

/** Every label in use, sorted. */
export function allLabels(): string[] {
  return (db().prepare("SELECT DISTINCT label FROM ticket_labels ORDER BY label").all() as { label: string }[]).map((r) => r.label);
}

export interface TicketDetail extends TicketRow {
  subtasks: { id: number; position: number; title: string; done: number }[];
  comments: { id: number; author: string; body: string; created_at: string }[];
  activity: { id: number; at: string; actor: string; field: string; old: string | null; new: string | null }[];
  sprint: string | null;
}

/** The ticket with this key (case-insensitive), with sub-tasks, comments and activity; null if none. */
export function ticket(key: string): TicketDetail | null {
  const row = db().prepare(`${TICKET_SQL} WHERE t.key = ? COLLATE NOCASE`).get(key) as RawTicket | undefined;
  if (!row) return null;
  const t = withLabels(row);
  const d = db();
  return {
    ...t,
    sprint: t.sprint_id ? ((d.prepare("SELECT name FROM sprints WHERE id = ?").get(t.sprint_id) as { name: string } | undefined)?.name ?? null) : null,
    subtasks: d.prepare("SELECT id, position, title, done FROM subtasks WHERE ticket_id = ? ORDER BY position").all(t.id) as TicketDetail["subtasks"],
    comments: d
      .prepare("SELECT c.id, p.name AS author, c.body, c.created_at FROM comments c JOIN people p ON p.id = c.author_id WHERE c.ticket_id = ? ORDER BY c.created_at, c.id")
      .all(t.id) as TicketDetail["comments"],
    activity: d
      .prepare("SELECT a.id, a.at, p.name AS actor, a.field, a.old, a.new FROM activity a JOIN people p ON p.id = a.actor_id WHERE a.ticket_id = ? ORDER BY a.at DESC, a.id DESC")
      .all(t.id) as TicketDetail["activity"],
  };
}

function mustTicket(key: string): TicketRow {
  const row = db().prepare(`${TICKET_SQL} WHERE t.key = ? COLLATE NOCASE`).get(key) as RawTicket | undefined;
  if (!row) throw new BoardError(`There is no ticket ${key.slice(0, 40)}.`, "key", 404);
  return withLabels(row);
}

function log(ticketId: number, at: string, actor: number, field: string, old: string | null, value: string | null) {
  db()
    .prepare("INSERT INTO activity (ticket_id, at, actor_id, field, old, new, meeting, world_ref) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)")
    .run(ticketId, at, actor, field, old, value);
}

const nextRank = (sprint: number | null, status: string): number =>
  ((db().prepare("SELECT max(rank) AS r FROM tickets WHERE sprint_id IS ? AND status = ?").get(sprint, status) as { r: number | null }).r ?? 0) + 1;

/** Check a posted status: one of STATUSES. */
export function parseStatus(v: string): Status {
  if (!(STATUSES as readonly string[]).includes(v)) throw new BoardError(`"${v.slice(0, 40)}" is not a status; use one of ${STATUSES.join(", ")}.`, "status");
  return v as Status;
}

/** Move a ticket to `status` (the drop of a drag, or the Move form): updates the row, records the change. */
export function moveStatus(key: string, status: string, actor: number, now: string): TicketRow {
  const st = parseStatus(status);
  const d = db();
  return d.transaction(() => {
    const t = mustTicket(key);
    if (t.status === st) return t;
    d.prepare("UPDATE tickets SET status = ?, rank = ?, updated_at = ? WHERE id = ?").run(st, nextRank(t.sprint_id, st), now, t.id);
    log(t.id, now, actor, "status", t.status, st);
    return mustTicket(key);
  })();
}

export interface TicketFields {
  title?: string;
  description?: string;
  assignee?: string;
  priority?: string;
  type?: string;
  labels?: string;
  points?: string;
  due?: string;
  sprint?: string;
  project?: string;
}

interface Parsed {
  title?: string;
  description?: string;
  assignee_id?: number | null;
  priority?: string;
  type?: string;
  labels?: string[];
  points?: number | null;
  due?: string | null;
  sprint_id?: number | null;
  project_id?: number;
}

/** How many years past this one a due date may lie (a board plans quarters and years, not centuries). */
export const DUE_YEARS_AHEAD = 10;

/** Validate posted fields (only those present); throws BoardError naming the first bad one. */
function parse(f: TicketFields, now: string): Parsed {
  const out: Parsed = {};
  if (f.title !== undefined) {
    const t = f.title.trim();
    if (!t) throw new BoardError("A ticket needs a title.", "title");
    if (t.length > 200) throw new BoardError("The title is too long (200 characters at most).", "title");
    out.title = t;
  }
  if (f.description !== undefined) {
    if (f.description.length > 10000) throw new BoardError("The description is too long (10,000 characters at most).", "description");
    out.description = f.description.replace(/\r\n/g, "\n");
  }
  if (f.assignee !== undefined) {
    if (f.assignee === "") out.assignee_id = null;
    else {
      const id = /^\d{1,6}$/.test(f.assignee) ? Number(f.assignee) : NaN;
      if (!people().some((p) => p.id === id)) throw new BoardError("Pick an assignee from the team.", "assignee");
      out.assignee_id = id;
    }
  }
  if (f.priority !== undefined) {
    if (!(PRIORITIES as readonly string[]).includes(f.priority)) throw new BoardError(`Priority must be one of ${PRIORITIES.join(", ")}.`, "priority");
    out.priority = f.priority;
  }
  if (f.type !== undefined) {
    if (!(TYPES as readonly string[]).includes(f.type)) throw new BoardError(`Type must be one of ${TYPES.join(", ")}.`, "type");
    out.type = f.type;
  }
  if (f.labels !== undefined) {
    const labels = [...new Set(f.labels.split(",").map((l) => l.trim().toLowerCase()).filter(Boolean))].sort();
    const bad = labels.find((l) => !LABEL_RE.test(l));
    if (bad !== undefined) throw new BoardError(`"${bad.slice(0, 40)}" is not a label: use letters, digits and dashes (30 at most).`, "labels");
    if (labels.length > 6) throw new BoardError("A ticket can have 6 labels at most.", "labels");
    out.labels = labels;
  }
  if (f.points !== undefined) {
    if (f.points === "") out.points = null;
    else {
      const n = /^\d{1,2}$/.test(f.points) ? Number(f.points) : NaN;
      if (!(POINTS as readonly number[]).includes(n)) throw new BoardError(`Story points must be one of ${POINTS.join(", ")} (or empty).`, "points");
      out.points = n;
    }
  }
  if (f.due !== undefined) {
    if (f.due === "") out.due = null;
    else {
      const ok = /^\d{4}-\d{2}-\d{2}$/.test(f.due) && !Number.isNaN(Date.parse(`${f.due}T12:00:00Z`)) && new Date(`${f.due}T12:00:00Z`).toISOString().slice(0, 10) === f.due;
      if (!ok) throw new BoardError("The due date must be a real date (YYYY-MM-DD).", "due");
      const last = `${Number(now.slice(0, 4)) + DUE_YEARS_AHEAD}-12-31`;
      if (f.due < "2000-01-01" || f.due > last) throw new BoardError(`The due date must fall between 2000-01-01 and ${last}.`, "due");
      out.due = f.due;
    }
  }
  if (f.sprint !== undefined && f.sprint !== "keep") {
    if (f.sprint === "" || f.sprint === "backlog") out.sprint_id = null;
    else {
      const s = sprints(now).find((x) => String(x.id) === f.sprint);
      if (!s) throw new BoardError("There is no such sprint.", "sprint");
      if (s.state === "past") throw new BoardError(`${s.name} is closed; pick the current or the next sprint.`, "sprint");
      out.sprint_id = s.id;
    }
  }
  if (f.project !== undefined) {
    const p = projects().find((x) => String(x.id) === f.project);
    if (!p) throw new BoardError("Pick a project.", "project");
    out.project_id = p.id;
  }
  return out;
}

const nameOf = (id: number | null | undefined): string | null =>
  id == null ? null : ((db().prepare("SELECT name FROM people WHERE id = ?").get(id) as { name: string } | undefined)?.name ?? null);
const sprintName = (id: number | null | undefined): string | null =>
  id == null ? null : ((db().prepare("SELECT name FROM sprints WHERE id = ?").get(id) as { name: string } | undefined)?.name ?? null);

/** Edit a ticket: validates every posted field, then writes the changed ones and one activity row per change. */
export function updateTicket(key: string, f: TicketFields, actor: number, now: string): TicketRow {
  const p = parse(f, now);
  const d = db();
  return d.transaction(() => {
    const t = mustTicket(key);
    const set = (col: string, v: unknown) => d.prepare(`UPDATE tickets SET ${col} = ?, updated_at = ? WHERE id = ?`).run(v, now, t.id);
    if (p.title !== undefined && p.title !== t.title) {
      set("title", p.title);
      log(t.id, now, actor, "title", t.title, p.title);
    }
    if (p.description !== undefined && p.description !== t.description) {
      set("description", p.description);
      log(t.id, now, actor, "description", null, null);
    }
    if (p.assignee_id !== undefined && p.assignee_id !== t.assignee_id) {
      set("assignee_id", p.assignee_id);
      log(t.id, now, actor, "assignee", t.assignee, nameOf(p.assignee_id));
    }
    if (p.priority !== undefined && p.priority !== t.priority) {
      set("priority", p.priority);
      log(t.id, now, actor, "priority", t.priority, p.priority);
    }
    if (p.type !== undefined && p.type !== t.type) {
      set("type", p.type);
      log(t.id, now, actor, "type", t.type, p.type);
    }
    if (p.labels !== undefined && p.labels.join(",") !== t.labels.join(",")) {
      d.prepare("DELETE FROM ticket_labels WHERE ticket_id = ?").run(t.id);
      for (const l of p.labels) d.prepare("INSERT INTO ticket_labels (ticket_id, label) VALUES (?, ?)").run(t.id, l);
      set("updated_at", now);
      log(t.id, now, actor, "labels", t.labels.join(", ") || null, p.labels.join(", ") || null);
    }
    if (p.points !== undefined && p.points !== t.points) {
      set("points", p.points);
      log(t.id, now, actor, "points", t.points == null ? null : String(t.points), p.points == null ? null : String(p.points));
    }
    if (p.due !== undefined && p.due !== t.due) {
      set("due", p.due);
      log(t.id, now, actor, "due", t.due, p.due);
    }
    if (p.sprint_id !== undefined && p.sprint_id !== t.sprint_id) {
      set("sprint_id", p.sprint_id);
      set("rank", nextRank(p.sprint_id, t.status));
      log(t.id, now, actor, "sprint", sprintName(t.sprint_id), sprintName(p.sprint_id));
    }
    if (p.project_id !== undefined && p.project_id !== t.project_id) {
      set("project_id", p.project_id);
      log(t.id, now, actor, "project", t.project, projects().find((x) => x.id === p.project_id)?.name ?? null);
    }
    return mustTicket(key);
  })();
}

/** The ticket key prefix of a project: its own when the persona spec names one (meta `project_keys`, a JSON
 * object slug -> key, written only then), else the team's `fallback`. */
function projectPrefix(projectId: number, fallback: string): string {
  const d = db();
  const row = d.prepare("SELECT value FROM meta WHERE key = 'project_keys'").get() as { value: string } | undefined;
  if (!row) return fallback;
  const project = d.prepare("SELECT slug FROM projects WHERE id = ?").get(projectId) as { slug: string } | undefined;
  try {
    const keys = JSON.parse(row.value) as Record<string, unknown>;
    const key = project ? keys[project.slug] : undefined;
    return typeof key === "string" && key ? key : fallback;
  } catch {
    return fallback;
  }
}

/** Create a ticket (the next number of the team's sequence, keyed with its project's prefix, else the team's); in a
 * sprint it starts in To do, else in the backlog. */
export function createTicket(f: TicketFields, actor: number, now: string, prefix: string): TicketRow {
  if (f.title === undefined) f.title = "";
  if (f.project === undefined) f.project = "";
  const p = parse({ description: "", priority: "medium", type: "task", labels: "", points: "", due: "", sprint: "", ...f }, now);
  const d = db();
  // The next number and the row are written in one BEGIN IMMEDIATE transaction, so two creations never read the
  // same max(number). Should a key still be taken (another writer on the file), the next number is tried: a
  // collision is never a 500 and never merges two tickets.
  const insert = d.transaction(() => {
    const number = ((d.prepare("SELECT max(number) AS n FROM tickets").get() as { n: number | null }).n ?? 100) + 1;
    const key = `${projectPrefix(p.project_id!, prefix) || "TASK"}-${number}`;
    const status: Status = p.sprint_id ? "todo" : "backlog";
    const info = d
      .prepare(
        `INSERT INTO tickets (key, number, project_id, type, title, description, status, priority, points, due, reporter_id, assignee_id, sprint_id, rank, created_at, updated_at, world_ref)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      )
      .run(key, number, p.project_id!, p.type!, p.title!, p.description ?? "", status, p.priority!, p.points ?? null, p.due ?? null, actor, p.assignee_id ?? null, p.sprint_id ?? null, nextRank(p.sprint_id ?? null, status), now, now);
    const id = Number(info.lastInsertRowid);
    for (const l of p.labels ?? []) d.prepare("INSERT INTO ticket_labels (ticket_id, label) VALUES (?, ?)").run(id, l);
    log(id, now, actor, "created", null, p.title!);
    return mustTicket(key);
  });
  for (let attempt = 1; ; attempt++) {
    try {
      return insert.immediate();
    } catch (e) {
      const taken = e instanceof Error && (e as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE" && /tickets\.(key|number)/.test(e.message);
      if (!taken) throw e;
      if (attempt >= 5) throw new BoardError("The ticket could not be numbered just now; try again.", "key", 409);
    }
  }
}

/** Add a comment (stored verbatim, 1-5,000 characters) and record it in the activity. */
export function addComment(key: string, body: string, actor: number, now: string): number {
  const text = body.replace(/\r\n/g, "\n");
  if (!text.trim()) throw new BoardError("Write something before you comment.", "body");
  if (text.length > 5000) throw new BoardError("The comment is too long (5,000 characters at most).", "body");
  const d = db();
  return d.transaction(() => {
    const t = mustTicket(key);
    const info = d.prepare("INSERT INTO comments (ticket_id, author_id, body, created_at, world_ref) VALUES (?, ?, ?, ?, NULL)").run(t.id, actor, text, now);
    d.prepare("UPDATE tickets SET updated_at = ? WHERE id = ?").run(now, t.id);
    log(t.id, now, actor, "comment", null, text.slice(0, 120));
    return Number(info.lastInsertRowid);
  })();
}

/** Tick or untick a sub-task (by its position on the ticket). */
export function setSubtask(key: string, position: number, done: boolean, actor: number, now: string): void {
  const d = db();
  d.transaction(() => {
    const t = mustTicket(key);
    const s = d.prepare("SELECT id, title, done FROM subtasks WHERE ticket_id = ? AND position = ?").get(t.id, position) as { id: number; title: string; done: number } | undefined;
    if (!s) throw new BoardError("There is no such sub-task.", "subtask", 404);
    if (Boolean(s.done) === done) return;
    d.prepare("UPDATE subtasks SET done = ? WHERE id = ?").run(done ? 1 : 0, s.id);
    d.prepare("UPDATE tickets SET updated_at = ? WHERE id = ?").run(now, t.id);
    log(t.id, now, actor, "subtask", s.title, done ? "done" : "open");
  })();
}
