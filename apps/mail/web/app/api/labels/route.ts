import { field, formRoute, seeOther, withQuery } from "@/mail/lib/http";
import { createLabel, MailError } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

/** New label form (settings page). */
export const POST = formRoute("/login?next=/settings", (_req, _user, form) => {
  try {
    const l = createLabel(field(form, "name"));
    return seeOther(withQuery("/settings", { notice: `Label "${l.name}" created.` }));
  } catch (e) {
    if (e instanceof MailError) return seeOther(withQuery("/settings", { error: e.message }));
    throw e;
  }
});
