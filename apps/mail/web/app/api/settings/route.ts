import type { NextRequest } from "next/server";
import { requestUser } from "@/mail/lib/auth";
import { field, seeOther, withQuery } from "@/mail/lib/http";
import { MailError, saveSignature } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

/** Settings form: the signature. */
export async function POST(req: NextRequest) {
  const user = requestUser(req);
  if (!user) return seeOther("/login?next=/settings");
  const form = await req.formData();
  try {
    saveSignature(user.id, field(form, "signature"));
    return seeOther(withQuery("/settings", { notice: "Signature saved." }));
  } catch (e) {
    if (e instanceof MailError) return seeOther(withQuery("/settings", { error: e.message }));
    throw e;
  }
}
