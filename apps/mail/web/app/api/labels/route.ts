import type { NextRequest } from "next/server";
import { requestUser } from "@/mail/lib/auth";
import { field, seeOther, withQuery } from "@/mail/lib/http";
import { createLabel, MailError } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

/** New label form (settings page). */
export async function POST(req: NextRequest) {
  const user = requestUser(req);
  if (!user) return seeOther("/login?next=/settings");
  const form = await req.formData();
  try {
    const l = createLabel(field(form, "name"));
    return seeOther(withQuery("/settings", { notice: `Label "${l.name}" created.` }));
  } catch (e) {
    if (e instanceof MailError) return seeOther(withQuery("/settings", { error: e.message }));
    throw e;
  }
}
