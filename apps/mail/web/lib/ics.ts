/**
 * Invitations (iCalendar, RFC 5545): reading a REQUEST and writing the attendee's REPLY.
 * Only what an invitation card and a reply need: UID, SUMMARY, LOCATION, DTSTART/DTEND,
 * ORGANIZER and ATTENDEE lines.
 */

export interface Invite {
  uid: string;
  method: string;
  summary: string;
  location: string;
  start: string;
  end: string;
  allDay: boolean;
  organizer: { name: string; email: string };
  attendees: { name: string; email: string; line: string }[];
  dtstartLine: string;
  dtendLine: string;
}

/** Unfold (RFC 5545 3.1) and split into lines. */
function lines(text: string): string[] {
  return text.replace(/\r\n/g, "\n").replace(/\n[ \t]/g, "").split("\n").filter(Boolean);
}

function unescapeText(v: string): string {
  return v.replace(/\\n/gi, "\n").replace(/\\([,;\\])/g, "$1");
}

function param(nameAndParams: string, key: string): string {
  const m = new RegExp(`;${key}=("[^"]*"|[^;:]*)`, "i").exec(nameAndParams);
  return m ? m[1].replace(/^"|"$/g, "") : "";
}

/** `20261113T103000` / `20261113` -> `2026-11-13T10:30:00` / `2026-11-13`. */
function isoOf(v: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(v.trim());
  if (!m) return "";
  return m[4] ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}` : `${m[1]}-${m[2]}-${m[3]}`;
}

/** The invitation in `text`, or null when it has no VEVENT with a UID. */
export function parseInvite(text: string): Invite | null {
  const inv: Invite = {
    uid: "", method: "", summary: "", location: "", start: "", end: "", allDay: false,
    organizer: { name: "", email: "" }, attendees: [], dtstartLine: "", dtendLine: "",
  };
  let inEvent = false;
  for (const line of lines(text)) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const head = line.slice(0, colon);
    const value = line.slice(colon + 1);
    const name = head.split(";")[0].toUpperCase();
    if (name === "METHOD") inv.method = value.trim().toUpperCase();
    if (name === "BEGIN" && value.trim() === "VEVENT") inEvent = true;
    if (name === "END" && value.trim() === "VEVENT") break;
    if (!inEvent) continue;
    if (name === "UID") inv.uid = value.trim();
    else if (name === "SUMMARY") inv.summary = unescapeText(value);
    else if (name === "LOCATION") inv.location = unescapeText(value);
    else if (name === "DTSTART") {
      inv.start = isoOf(value);
      inv.allDay = /VALUE=DATE(;|$)/i.test(head) || !value.includes("T");
      inv.dtstartLine = line;
    } else if (name === "DTEND") {
      inv.end = isoOf(value);
      inv.dtendLine = line;
    } else if (name === "ORGANIZER") inv.organizer = { name: param(head, "CN"), email: value.replace(/^mailto:/i, "").trim() };
    else if (name === "ATTENDEE") inv.attendees.push({ name: param(head, "CN"), email: value.replace(/^mailto:/i, "").trim(), line });
  }
  return inv.uid ? inv : null;
}

export const ANSWERS = {
  yes: { partstat: "ACCEPTED", verb: "Accepted", says: "accepted" },
  maybe: { partstat: "TENTATIVE", verb: "Tentatively accepted", says: "tentatively accepted" },
  no: { partstat: "DECLINED", verb: "Declined", says: "declined" },
} as const;
export type Answer = keyof typeof ANSWERS;

function escapeText(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/[,;]/g, (c) => "\\" + c).replace(/\r?\n/g, "\\n");
}

function cn(v: string): string {
  return `"${v.replace(/["\r\n]/g, "")}"`;
}

/** The attendee's METHOD:REPLY calendar (CRLF line ends) answering `inv` with `partstat`; `stampUtc` is `YYYYMMDDTHHMMSSZ`. */
export function replyIcs(inv: Invite, me: { name: string; email: string }, partstat: string, stampUtc: string): string {
  const out = [
    "BEGIN:VCALENDAR",
    "PRODID:-//Persona Desktop//Mailbox//EN",
    "VERSION:2.0",
    "CALSCALE:GREGORIAN",
    "METHOD:REPLY",
    "BEGIN:VEVENT",
    `UID:${inv.uid}`,
    `DTSTAMP:${stampUtc}`,
    inv.dtstartLine,
    inv.dtendLine,
    `SUMMARY:${escapeText(inv.summary)}`,
    `ORGANIZER;CN=${cn(inv.organizer.name)}:mailto:${inv.organizer.email}`,
    `ATTENDEE;CN=${cn(me.name)};PARTSTAT=${partstat}:mailto:${me.email}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ].filter(Boolean);
  return out.join("\r\n") + "\r\n";
}
