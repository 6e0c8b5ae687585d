import type { NextRequest } from "next/server";
import { BadRequest, readForm } from "@persona/platform/http";
import { idempotent } from "@persona/platform/once";
import { requestUser } from "@/calendar/lib/auth";
import { calContext } from "@/calendar/lib/context";
import { jsonError, seeOther, withQuery } from "@/calendar/lib/http";
import { IcsError, parseEvents } from "@/calendar/lib/ics";
import { addAllFromIcs, CalError } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/** Largest file taken (bytes), and the largest upload read (the file plus the form around it; more is a 413). */
const MAX_FILE = 1_000_000;
const MAX_UPLOAD = 4 * 1024 * 1024;

/** Upload an .ics file (multipart field `file`): add its events, or open the one already there. Idempotent by `_idem`. */
export const POST = idempotent(
  async (req: NextRequest) => {
    if (!requestUser(req)) return seeOther("/login?next=/import");
    let text = "";
    try {
      const type = (req.headers.get("content-type") ?? "").toLowerCase();
      if (type && !type.startsWith("multipart/form-data") && !type.startsWith("application/x-www-form-urlencoded")) {
        throw new BadRequest("Send the .ics file as a multipart/form-data upload (field file).");
      }
      const form = await readForm(req, MAX_UPLOAD);
      if (![...form.keys()].length) throw new BadRequest("The request has no fields: send the .ics file (field file).");
      const file = form.get("file");
      if (file && typeof file !== "string") {
        if (file.size > MAX_FILE) return seeOther(withQuery("/import", { error: "The file is too large (at most 1 MB)." }));
        text = await file.text();
      }
    } catch (e) {
      if (e instanceof BadRequest) return jsonError(e.message, e.status);
      throw e;
    }
    if (!text.trim()) return seeOther(withQuery("/import", { error: "Choose an .ics file to import." }));
    try {
      const r = addAllFromIcs(parseEvents(text, calContext().tz));
      return seeOther(withQuery(`/events/${r.id}`, { notice: r.created ? "imported" : r.updated ? "import_updated" : "import_exists" }));
    } catch (e) {
      if (e instanceof IcsError || e instanceof CalError) return seeOther(withQuery("/import", { error: `The file could not be imported: ${e.message}` }));
      throw e;
    }
  },
  { user: (req) => requestUser(req)?.id ?? null, maxBytes: MAX_UPLOAD },
);
