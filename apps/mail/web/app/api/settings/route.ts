import { field, formRoute, seeOther, withQuery } from "@/mail/lib/http";
import { MailError, saveSignature } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

/** Settings form: the signature. */
export const POST = formRoute("/login?next=/settings", (_req, user, form) => {
  try {
    if (!form.has("signature")) throw new MailError("Type a signature (or leave it empty to have none).", "signature");
    saveSignature(user.id, field(form, "signature"));
    return seeOther(withQuery("/settings", { notice: "Signature saved." }));
  } catch (e) {
    if (e instanceof MailError) return seeOther(withQuery("/settings", { error: e.message }));
    throw e;
  }
});
