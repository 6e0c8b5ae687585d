import type { NextRequest } from "next/server";
import { requestUser } from "@/calendar/lib/auth";
import { calContext } from "@/calendar/lib/context";
import { seeOther, withQuery } from "@/calendar/lib/http";
import { IcsError, parseEvents } from "@/calendar/lib/ics";
import { addAllFromIcs, CalError } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/** Upload an .ics file (multipart field `file`): add its event, or open the one already there. */
export async function POST(req: NextRequest) {
  if (!requestUser(req)) return seeOther("/login?next=/import");
  let text = "";
  try {
    const form = await req.formData();
    const file = form.get("file");
    if (file && typeof file !== "string") {
      if (file.size > 1_000_000) return seeOther(withQuery("/import", { error: "The file is too large (at most 1 MB)." }));
      text = await file.text();
    }
  } catch {
    return seeOther(withQuery("/import", { error: "Choose an .ics file to import." }));
  }
  if (!text.trim()) return seeOther(withQuery("/import", { error: "Choose an .ics file to import." }));
  try {
    const r = addAllFromIcs(parseEvents(text, calContext().tz));
    return seeOther(`/events/${r.id}?notice=${r.created ? "imported" : r.updated ? "import_updated" : "import_exists"}`);
  } catch (e) {
    if (e instanceof IcsError || e instanceof CalError) return seeOther(withQuery("/import", { error: `The file could not be imported: ${e.message}` }));
    throw e;
  }
}
