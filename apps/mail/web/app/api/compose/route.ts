import type { NextRequest } from "next/server";
import { requestUser } from "@/mail/lib/auth";
import { cleanFilename, compose, type ComposeInput, type Upload } from "@/mail/lib/compose";
import { field, ids, intOrNull, json, jsonError, seeOther, withQuery } from "@/mail/lib/http";
import { MailError } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

/**
 * The compose form (multipart): send or save as draft. The page posts with fetch and
 * `Accept: application/json` and gets `{ok, redirect}` or `{error, field}` (400); a plain form post
 * gets a 303 to where the message went, or back to /compose with the message.
 */
export async function POST(req: NextRequest) {
  const wantsJson = (req.headers.get("accept") ?? "").includes("application/json");
  const user = requestUser(req);
  if (!user) return wantsJson ? jsonError("You are signed out.", 401) : seeOther("/login?next=/compose");
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    return wantsJson ? jsonError("The form could not be read.") : seeOther(withQuery("/compose", { error: "The form could not be read." }));
  }
  const uploads: Upload[] = [];
  for (const v of form.getAll("files")) {
    if (typeof v === "string" || (v.size === 0 && !v.name)) continue;
    uploads.push({ filename: cleanFilename(v.name), content_type: v.type || "application/octet-stream", content: Buffer.from(await v.arrayBuffer()) });
  }
  const mode = field(form, "mode");
  const input: ComposeInput = {
    action: field(form, "action") === "draft" ? "draft" : "send",
    from: field(form, "from"),
    to: field(form, "to"),
    cc: field(form, "cc"),
    subject: field(form, "subject"),
    body: field(form, "body"),
    draftId: intOrNull(field(form, "draft")),
    replyTo: intOrNull(field(form, "reply_to")),
    mode: mode === "reply" || mode === "all" || mode === "forward" ? mode : "new",
    forwardAttachments: ids(form.getAll("forward_attachment")),
    uploads,
  };
  try {
    const r = await compose(user, input);
    const redirect = r.folder === "drafts" ? withQuery("/drafts", { notice: "Draft saved." }) : withQuery(`/t/${r.threadId}`, { notice: "Message sent." });
    return wantsJson ? json({ ok: true, id: r.id, folder: r.folder, redirect }) : seeOther(redirect);
  } catch (e) {
    if (!(e instanceof MailError)) throw e;
    if (wantsJson) return jsonError(e.message, 400, e.field);
    return seeOther(withQuery("/compose", { error: e.message, draft: input.draftId, reply: input.replyTo, mode: input.mode === "new" ? "" : input.mode }));
  }
}
