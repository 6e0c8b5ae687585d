/**
 * The search box's query language, turned into a parameterised SQL condition over `messages m`.
 *
 *   from:<text>  to:<text>  cc:<text>  subject:<text>  label:<name>  in:<folder>  is:unread|read|starred
 *   has:attachment  before:YYYY-MM-DD (sent before that day)  after:YYYY-MM-DD (sent on or after that day)
 *   free words (each must appear in the subject, body, sender or recipients); "quoted phrases" too.
 *
 * Text is matched with LIKE and an escape character, so `%` and `_` in a query match themselves.
 * Without an in: operator, Spam and Trash are left out, as in Gmail.
 */

export class SearchError extends Error {}

export interface SqlCondition {
  where: string;
  args: (string | number)[];
}

const FOLDERS = new Set(["inbox", "sent", "drafts", "archive", "spam", "trash", "anywhere"]);

/** `%text%` with LIKE's wildcards (and the escape character) escaped by a backslash. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
}

/** Split a query into tokens: `key:value`, `key:"a b"`, `"a phrase"` and bare words. */
export function tokenize(q: string): { key: string | null; value: string }[] {
  const out: { key: string | null; value: string }[] = [];
  const re = /(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(q)) !== null) {
    const key = m[1]?.toLowerCase() ?? null;
    const value = m[2] ?? m[3] ?? "";
    if (!key && !value) continue;
    out.push({ key, value });
  }
  return out;
}

function isDate(s: string): boolean {
  if (!/^\d{4}[-/]\d{2}[-/]\d{2}$/.test(s)) return false;
  const d = new Date(`${s.replace(/\//g, "-")}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s.replace(/\//g, "-");
}

const KNOWN = new Set(["from", "to", "cc", "subject", "label", "in", "is", "has", "before", "after"]);

/** The SQL condition of query `q`; throws SearchError with a message for a malformed operator. */
export function searchCondition(q: string): SqlCondition {
  const clauses: string[] = [];
  const args: (string | number)[] = [];
  let folderGiven = false;
  if (q.length > 500) throw new SearchError("The search is too long (at most 500 characters).");
  for (const { key, value } of tokenize(q)) {
    const like = likePattern(value);
    if (key && !KNOWN.has(key)) {
      // "re:" or a URL's "https:": search the text as typed.
      const whole = likePattern(`${key}:${value}`);
      clauses.push("(m.subject LIKE ? ESCAPE '\\' OR m.body LIKE ? ESCAPE '\\')");
      args.push(whole, whole);
      continue;
    }
    if (key && !value) throw new SearchError(`"${key}:" needs something after it.`);
    switch (key) {
      case "from":
        clauses.push("(m.from_name LIKE ? ESCAPE '\\' OR m.from_email LIKE ? ESCAPE '\\')");
        args.push(like, like);
        break;
      case "to":
        clauses.push("m.to_json LIKE ? ESCAPE '\\'");
        args.push(like);
        break;
      case "cc":
        clauses.push("m.cc_json LIKE ? ESCAPE '\\'");
        args.push(like);
        break;
      case "subject":
        clauses.push("m.subject LIKE ? ESCAPE '\\'");
        args.push(like);
        break;
      case "label":
        clauses.push("m.id IN (SELECT ml.message_id FROM message_labels ml JOIN labels l ON l.id = ml.label_id WHERE l.name = ? COLLATE NOCASE)");
        args.push(value);
        break;
      case "in": {
        const f = value.toLowerCase();
        if (!FOLDERS.has(f)) throw new SearchError(`"in:${value}" is not a folder (inbox, sent, drafts, archive, spam, trash, anywhere).`);
        folderGiven = true;
        if (f !== "anywhere") {
          clauses.push("m.folder = ?");
          args.push(f);
        }
        break;
      }
      case "is": {
        const v = value.toLowerCase();
        if (v === "unread") clauses.push("m.is_read = 0");
        else if (v === "read") clauses.push("m.is_read = 1");
        else if (v === "starred") clauses.push("m.is_starred = 1");
        else throw new SearchError(`"is:${value}" is not known (use is:unread, is:read or is:starred).`);
        break;
      }
      case "has":
        if (!/^attachments?$/i.test(value)) throw new SearchError(`"has:${value}" is not known (use has:attachment).`);
        clauses.push("m.has_attachments = 1");
        break;
      case "before":
      case "after":
        if (!isDate(value)) throw new SearchError(`"${key}:" needs a date like 2026-10-01.`);
        clauses.push(key === "before" ? "substr(m.sent_at, 1, 10) < ?" : "substr(m.sent_at, 1, 10) >= ?");
        args.push(value.replace(/\//g, "-"));
        break;
      default:
        clauses.push(
          "(m.subject LIKE ? ESCAPE '\\' OR m.body LIKE ? ESCAPE '\\' OR m.from_name LIKE ? ESCAPE '\\' OR m.from_email LIKE ? ESCAPE '\\' OR m.to_json LIKE ? ESCAPE '\\')",
        );
        args.push(like, like, like, like, like);
    }
  }
  if (!clauses.length) throw new SearchError("Type something to search for.");
  if (!folderGiven) clauses.push("m.folder NOT IN ('spam', 'trash')");
  return { where: clauses.join(" AND "), args };
}
