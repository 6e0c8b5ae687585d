import { back, field, formRoute, ids, optionalId, seeOther } from "@/mail/lib/http";
import { applyOp, MailError } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

const DONE: Record<string, string> = {
  archive: "Archived.", trash: "Moved to Trash.", restore: "Restored from Trash.", inbox: "Moved to Inbox.",
  spam: "Reported as spam.", read: "Marked as read.", unread: "Marked as unread.", star: "Starred.", unstar: "Star removed.",
  label: "Label added.", unlabel: "Label removed.", move: "Moved.",
};

/** Toolbar actions on selected messages (`id`, repeated) or whole threads (`thread=1`): back to `back` with a notice. */
export const POST = formRoute("/login", (_req, _user, form) => {
  const op = field(form, "op");
  const to = field(form, "back") || "/";
  try {
    const n = applyOp(ids(form.getAll("id")), op, optionalId(field(form, "label"), "label"), field(form, "thread") === "1");
    const after = ["archive", "trash", "spam", "move", "restore", "inbox"].includes(op) && field(form, "thread") === "1" ? field(form, "after") || to : to;
    return seeOther(back(after, { notice: n ? DONE[op] : "Nothing to change." }));
  } catch (e) {
    if (e instanceof MailError) return seeOther(back(to, { error: e.message }));
    throw e;
  }
});
