import { back, field, formRoute, optionalId, seeOther } from "@/mail/lib/http";
import { addToCalendar } from "@/mail/lib/invites";
import { MailError } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

/** "Add to Daybook" on a booking's .ics attachment (form: attachment, back): the calendar adds its events. */
export const POST = formRoute("/login", async (_req, _user, form) => {
  const to = field(form, "back") || "/";
  try {
    const r = await addToCalendar(optionalId(field(form, "attachment"), "attachment") ?? -1);
    const what = r.count === 1 ? "the event" : `${r.count} events`;
    const some = (n: number) => (n === r.count ? what : `${n} of ${r.count} events`);
    const notice = r.updated > 0 ? `Updated in Daybook: ${some(r.updated)}${r.added ? `, ${r.added} added` : ""}.`
      : r.added === 0 ? `Already in Daybook: ${what}.` : `Added to Daybook: ${some(r.added)}.`;
    return seeOther(back(to, { notice }));
  } catch (e) {
    if (e instanceof MailError) return seeOther(back(to, { error: e.message }));
    throw e;
  }
});
