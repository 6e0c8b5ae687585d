/**
 * iCalendar (RFC 5545) for the calendar files apps attach to their mails: a VCALENDAR of VEVENTs with
 * METHOD:PUBLISH, written the way the world writes a booking's `.ics` (builder/world/templates/mail/
 * booking.ics.j2 and builder/world/mail.py `_booking_ics`), so a file from an app and one from the world
 * look alike: CRLF line ends, content lines folded at 75 octets (continuation lines start with one space,
 * never inside a UTF-8 character), TEXT values escaped (backslash, semicolon, comma, newline), times in
 * UTC `YYYYMMDDTHHMMSSZ` (or `VALUE=DATE` for all-day events), DTSTAMP and UID given by the caller.
 *
 * UIDs follow builder.world.calendar.booking_uid: `<reference>@<booking site's host>`, so the calendar
 * finds an entry it already has instead of adding a second one. DTSTAMP is the app's clock (appNow), never
 * Date.now().
 */

/** One event. `start`/`end` are instants with a zone (`2026-11-20T13:45:00-08:00`, `...Z`) or, for an
 * all-day event, dates `YYYY-MM-DD` (`end` exclusive, the day after the last day). */
export interface IcsEvent {
  /** Stable identifier, e.g. `icsUid("ABC123-1", "meridianair.test")`. */
  uid: string;
  start: string;
  end: string;
  summary: string;
  location?: string;
  description?: string;
  allDay?: boolean;
  /** Revision number (0 for the first version; bump it when an entry changes). */
  sequence?: number;
  /** CONFIRMED (default) or CANCELLED. */
  status?: "CONFIRMED" | "CANCELLED";
}

export interface IcsCalendar {
  /** PRODID, e.g. `-//Meridian Air//Trips//EN`. */
  prodid: string;
  /** DTSTAMP of every event: an instant with a zone (the app clock), e.g. from `new Date(nowMs).toISOString()`. */
  stamp: string;
  events: IcsEvent[];
  /** PUBLISH (default) or CANCEL. */
  method?: "PUBLISH" | "CANCEL";
}

/** Thrown for an instant without a zone or a malformed date: nothing is written. */
export class IcsError extends Error {}

/** `<ref>@<host>` (builder.world.calendar.booking_uid): `host` a bare host name (`bramblestay.test`). */
export function icsUid(ref: string, host: string): string {
  return `${ref}@${host.replace(/^[a-z]+:\/\//i, "").split("/")[0] || "bookings.invalid"}`;
}

/** A TEXT value (RFC 5545 3.3.11): `\` `;` `,` escaped, every line break written as `\n`. */
export function icsText(value: string): string {
  return String(value)
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/** An instant with a zone as UTC `YYYYMMDDTHHMMSSZ`; throws IcsError for a naive or invalid one. */
export function icsUtc(instant: string): string {
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(instant)) throw new IcsError(`iCalendar times need a zone: ${instant}`);
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) throw new IcsError(`Not a time: ${instant}`);
  return new Date(ms).toISOString().replace(/\.\d{3}/, "").replace(/[-:]/g, "");
}

function icsDate(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new IcsError(`All-day events need dates YYYY-MM-DD: ${day}`);
  return day.replace(/-/g, "");
}

/** Fold one content line at `limit` octets (RFC 5545 3.1): continuation lines start with a space, which counts
 * toward their 75; a character is never split (code points are kept whole). Returns the folded line, no CRLF. */
export function icsFold(line: string, limit = 75): string {
  const out: string[] = [];
  let cur = "";
  let octets = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch, "utf8");
    if (octets + n > (out.length ? limit - 1 : limit)) {
      out.push(cur);
      cur = "";
      octets = 0;
    }
    cur += ch;
    octets += n;
  }
  out.push(cur);
  return out.join("\r\n ");
}

/** The whole calendar as a string (CRLF, folded, ending with CRLF). Throws IcsError on a bad time. */
export function icsCalendar(cal: IcsCalendar): string {
  const stamp = icsUtc(cal.stamp);
  const lines = ["BEGIN:VCALENDAR", `PRODID:${cal.prodid}`, "VERSION:2.0", "CALSCALE:GREGORIAN", `METHOD:${cal.method ?? "PUBLISH"}`];
  for (const e of cal.events) {
    if (!e.uid || /[\r\n]/.test(e.uid)) throw new IcsError("Every event needs a one-line UID.");
    lines.push("BEGIN:VEVENT", `UID:${e.uid}`, `DTSTAMP:${stamp}`);
    if (e.allDay) lines.push(`DTSTART;VALUE=DATE:${icsDate(e.start)}`, `DTEND;VALUE=DATE:${icsDate(e.end)}`);
    else lines.push(`DTSTART:${icsUtc(e.start)}`, `DTEND:${icsUtc(e.end)}`);
    lines.push(`SUMMARY:${icsText(e.summary)}`);
    if (e.location) lines.push(`LOCATION:${icsText(e.location)}`);
    if (e.description) lines.push(`DESCRIPTION:${icsText(e.description)}`);
    if (e.sequence) lines.push(`SEQUENCE:${Math.max(0, Math.floor(e.sequence))}`);
    if (e.status === "CANCELLED") lines.push("STATUS:CANCELLED");
    lines.push(e.status === "CANCELLED" ? "TRANSP:TRANSPARENT" : "TRANSP:OPAQUE", "END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return lines.map((l) => `${icsFold(l)}\r\n`).join("");
}

/** A mail attachment (the mail app's deliver route shape) holding `cal` as `filename`. */
export function icsAttachment(filename: string, cal: IcsCalendar): { filename: string; content_type: string; content_base64: string } {
  return {
    filename,
    content_type: `text/calendar; method=${cal.method ?? "PUBLISH"}`,
    content_base64: Buffer.from(icsCalendar(cal), "utf8").toString("base64"),
  };
}
