import { BadRequest, readForm } from "@persona/platform/http";
import { formRoute } from "@persona/platform/forms";
import { requestUser } from "@/calendar/lib/auth";
import { calContext } from "@/calendar/lib/context";
import { withQuery } from "@/calendar/lib/http";
import { IcsError, parseEvents } from "@/calendar/lib/ics";
import { addAllFromIcs, CalError } from "@/calendar/lib/write";

export const dynamic = "force-dynamic";

/** Largest file taken (bytes), and the largest upload read (the file plus the form around it; more is a 413). */
const MAX_FILE = 1_000_000;
const MAX_UPLOAD = 4 * 1024 * 1024;

/** The upload form, strictly: multipart or urlencoded (or no type), at most MAX_UPLOAD bytes, not empty; else BadRequest. */
async function readUpload(req: Request): Promise<FormData> {
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (type && !type.startsWith("multipart/form-data") && !type.startsWith("application/x-www-form-urlencoded")) {
    throw new BadRequest("Send the .ics file as a multipart/form-data upload (field file).");
  }
  const form = await readForm(req, MAX_UPLOAD);
  if (![...form.keys()].length) throw new BadRequest("The request has no fields: send the .ics file (field file).");
  return form;
}

/** Upload an .ics file (multipart field `file`): add its events, or open the one already there. Idempotent by `_idem`. */
export const POST = formRoute({
  user: requestUser,
  refusal: CalError,
  alsoRefused: (e) => (e instanceof IcsError ? new CalError(e.message) : null),
  signedOut: "/login?next=/import",
  read: readUpload,
  unreadable: "json",
  maxBytes: MAX_UPLOAD,
  act: async (_user, form) => {
    const file = form.get("file");
    let text = "";
    if (file && typeof file !== "string") {
      if (file.size > MAX_FILE) return withQuery("/import", { error: "The file is too large (at most 1 MB)." });
      text = await file.text();
    }
    if (!text.trim()) return withQuery("/import", { error: "Choose an .ics file to import." });
    const r = addAllFromIcs(parseEvents(text, calContext().tz));
    return withQuery(`/events/${r.id}`, { notice: r.created ? "imported" : r.updated ? "import_updated" : "import_exists" });
  },
  failed: (e) => withQuery("/import", { error: `The file could not be imported: ${e.message}` }),
});
