import { back, field, formRoute, optionalId, seeOther } from "@/mail/lib/http";
import { rsvp } from "@/mail/lib/invites";
import { MailError } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

/** The invitation card's Yes / Maybe / No: records the answer, mails the organizer, tells the calendar. */
export const POST = formRoute("/login", async (_req, user, form) => {
  const to = field(form, "back") || "/";
  try {
    const r = await rsvp(user, optionalId(field(form, "message"), "message") ?? -1, field(form, "answer"));
    const notice =
      r.calendar === "notified"
        ? "Your answer was sent to the organizer and added to your calendar."
        : "Your answer was sent to the organizer. The calendar could not be reached; it will show the answer once it syncs.";
    return seeOther(back(to, { notice }));
  } catch (e) {
    if (e instanceof MailError) return seeOther(back(to, { error: e.message }));
    throw e;
  }
});
