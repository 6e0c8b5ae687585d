import { db } from "./db";
import { messagesByIds, type Message } from "./chat";

/**
 * Message search, Slack's way: words plus modifiers. `in:#general` (or `in:general`, `in:@sam.okafor`
 * for a DM) keeps one conversation, `from:@sam.okafor` (or `from:me`, `from:"Sam Okafor"`) one sender,
 * `before:YYYY-MM-DD` / `after:YYYY-MM-DD` / `on:YYYY-MM-DD` a date range; the other words must all
 * appear in the text (case-insensitive for ASCII). Every value is bound as a parameter.
 */
export interface ParsedQuery {
  words: string[];
  channel: string | null;
  from: string | null;
  before: string | null;
  after: string | null;
  on: string | null;
}

const TOKEN = /(\w+):("([^"]*)"|(\S+))|"([^"]*)"|(\S+)/g;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function parseQuery(q: string): ParsedQuery {
  const out: ParsedQuery = { words: [], channel: null, from: null, before: null, after: null, on: null };
  for (const m of q.matchAll(TOKEN)) {
    const key = m[1]?.toLowerCase();
    const value = (m[3] ?? m[4] ?? "").trim();
    if (key === "in") out.channel = value.replace(/^[#@]/, "");
    else if (key === "from") out.from = value.replace(/^@/, "");
    else if ((key === "before" || key === "after" || key === "on") && DATE.test(value)) out[key] = value;
    else {
      const word = m[5] ?? m[6] ?? m[0];
      if (word.trim()) out.words.push(word.trim());
    }
  }
  return out;
}

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface SearchResult {
  query: ParsedQuery;
  total: number;
  messages: Message[];
  /** A modifier that matched nothing (an unknown channel or person), to tell the user. */
  unknown: string | null;
}

/** Run `q` for the persona `meId` at `now`: newest first, at most `limit` shown, `total` counted. */
export function searchMessages(meId: number, now: string, q: string, limit = 50): SearchResult {
  const query = parseQuery(q);
  const d = db();
  const where = ["m.deleted = 0", "m.deliver_at <= ?"];
  const params: (string | number)[] = [now];
  let unknown: string | null = null;
  if (query.channel !== null) {
    const ch = d
      .prepare(
        `SELECT c.id FROM channels c LEFT JOIN people p ON p.id = c.dm_person_id
          WHERE lower(c.name) = lower(?) OR lower(p.handle) = lower(?) OR lower(p.name) = lower(?)`,
      )
      .get(query.channel, query.channel, query.channel) as { id: number } | undefined;
    if (!ch) unknown = `No channel called “${query.channel}”.`;
    where.push("m.channel_id = ?");
    params.push(ch?.id ?? -1);
  }
  if (query.from !== null) {
    const who = query.from.toLowerCase() === "me"
      ? ({ id: meId } as { id: number })
      : (d
          .prepare("SELECT id FROM people WHERE lower(handle) = lower(?) OR lower(name) = lower(?) OR lower(name) LIKE lower(?) || ' %' ORDER BY id LIMIT 1")
          .get(query.from, query.from, query.from) as { id: number } | undefined);
    if (!who) unknown = `No one called “${query.from}” is in this workspace.`;
    where.push("m.sender_id = ?");
    params.push(who?.id ?? -1);
  }
  if (query.on) {
    where.push("substr(m.sent_at, 1, 10) = ?");
    params.push(query.on);
  }
  if (query.before) {
    where.push("substr(m.sent_at, 1, 10) < ?");
    params.push(query.before);
  }
  if (query.after) {
    where.push("substr(m.sent_at, 1, 10) > ?");
    params.push(query.after);
  }
  for (const w of query.words) {
    where.push("m.text LIKE ? ESCAPE '\\'");
    params.push(like(w));
  }
  const clause = where.join(" AND ");
  const total = (d.prepare(`SELECT COUNT(*) AS n FROM messages m WHERE ${clause}`).get(...params) as { n: number }).n;
  const ids = (d.prepare(`SELECT m.id FROM messages m WHERE ${clause} ORDER BY m.sent_at DESC, m.id DESC LIMIT ?`).all(...params, limit) as { id: number }[]).map(
    (r) => r.id,
  );
  return { query, total, messages: messagesByIds(meId, now, ids), unknown };
}
