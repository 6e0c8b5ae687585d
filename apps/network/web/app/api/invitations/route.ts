import { field, formPost, idValue, withQuery } from "@/network/lib/http";
import { answerInvitation } from "@/network/lib/network";

export const dynamic = "force-dynamic";

const DONE: Record<string, string> = { accepted: "You're now connected with", declined: "Ignored the invitation from", withdrawn: "Withdrew your invitation to" };

/** Answer an invitation: `invitation`, `action` accept / decline (received) or withdraw (sent). */
export const POST = formPost("/network", (_u, form) => {
  const r = answerInvitation(idValue(field(form, "invitation")), field(form, "action"));
  return withQuery("/network", { done: `${DONE[r.status]} ${r.name}.` });
});
