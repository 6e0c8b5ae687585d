export type Search = Record<string, string | string[] | undefined>;

/** One query value as a string ("" when absent). */
export function one(v: string | string[] | undefined): string {
  return Array.isArray(v) ? (v[0] ?? "") : (v ?? "");
}

const NOTICES: Record<string, string> = {
  created: "Event created.",
  saved: "Event saved.",
  moved: "Event moved.",
  deleted: "Event deleted.",
  rsvp: "Your answer was saved and the organizer was sent a reply.",
  rsvp_same: "You had already given this answer; no new reply was sent.",
  rsvp_mail_failed: "Your answer was saved, but the reply mail could not be sent (the mail app did not take it).",
  imported: "The event was added to your calendar.",
  import_exists: "That event is already in your calendar.",
  import_updated: "The event in your calendar was updated to the file's newer version.",
};

/** The notice line for `?notice=`. */
export function noticeText(v: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(NOTICES, v) ? NOTICES[v] : undefined;
}
