import { field, formPost, idValue, withQuery } from "@/network/lib/http";
import { answerInvitation, sendInvitation } from "@/network/lib/network";

export const dynamic = "force-dynamic";

const DONE: Record<string, string> = { accepted: "You're now connected with", declined: "Ignored the invitation from", withdrawn: "Withdrew your invitation to" };

/** `action` send: invite `person` to connect with an optional `note` (at most 300 characters, verbatim; "Send
 * without a note" posts `without_note` 1), back to their profile. Otherwise answer `invitation`: accept / decline
 * (received) or withdraw (sent), back to My Network. */
export const POST = formPost("/network", (_u, form) => {
  if (field(form, "action") === "send") {
    const person = idValue(field(form, "person"));
    const name = sendInvitation(person, field(form, "without_note") === "1" ? "" : field(form, "note"));
    return withQuery(`/in/${person}`, { done: `Invitation sent to ${name}.` });
  }
  const r = answerInvitation(idValue(field(form, "invitation")), field(form, "action"));
  return withQuery("/network", { done: `${DONE[r.status]} ${r.name}.` });
});
