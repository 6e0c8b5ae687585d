import { acceptsJson } from "@persona/platform/forms";
import { cleanFilename, compose, LIMITS, type ComposeInput, type Upload } from "@/mail/lib/compose";
import { readFormPost } from "@persona/platform/http";
import { field, ids, json, jsonError, optionalId, post, seeOther, withQuery } from "@/mail/lib/http";
import { MailError } from "@/mail/lib/mail";

export const dynamic = "force-dynamic";

/** Largest compose post: the attachments' limit plus room for the text fields and the multipart framing. */
const MAX_COMPOSE_BYTES = LIMITS.totalBytes + 1024 * 1024;

/**
 * The compose form (multipart): send or save as draft. The page posts with fetch and
 * `Accept: application/json` and gets `{ok, redirect}` or `{error, field}` (400); a plain form post
 * gets a 303 to where the message went, or back to /compose with the message. A body that is not a
 * form answers 400 `{error}`. Idempotent: the form's `_idem` token sends a message once.
 */
export const POST = post({
  signedOut: "/login?next=/compose",
  signInFirst: "You are signed out.",
  json: acceptsJson,
  read: (req) => readFormPost(req, MAX_COMPOSE_BYTES),
  maxBytes: MAX_COMPOSE_BYTES,
  act: async (user, form, req) => {
    const wantsJson = acceptsJson(req);
    const mode = field(form, "mode");
    let input: ComposeInput | null = null;
    try {
      const uploads: Upload[] = [];
      const files = form.getAll("files");
      if (files.length > LIMITS.files * 2) throw new MailError(`Attach at most ${LIMITS.files} files.`, "files");
      for (const v of files) {
        if (typeof v === "string" || (v.size === 0 && !v.name)) continue;
        uploads.push({ filename: cleanFilename(v.name), content_type: (v.type || "application/octet-stream").slice(0, 200), content: Buffer.from(await v.arrayBuffer()) });
      }
      input = {
        action: field(form, "action") === "draft" ? "draft" : "send",
        from: field(form, "from"),
        to: field(form, "to"),
        cc: field(form, "cc"),
        subject: field(form, "subject"),
        body: field(form, "body"),
        draftId: optionalId(field(form, "draft"), "draft"),
        replyTo: optionalId(field(form, "reply_to"), "reply_to"),
        mode: mode === "reply" || mode === "all" || mode === "forward" ? mode : "new",
        forwardAttachments: ids(form.getAll("forward_attachment"), "forward_attachment"),
        uploads,
      };
      const r = await compose(user, input);
      const redirect = r.folder === "drafts" ? withQuery("/drafts", { notice: "Draft saved." }) : withQuery(`/t/${r.threadId}`, { notice: "Message sent." });
      return wantsJson ? json({ ok: true, id: r.id, folder: r.folder, redirect }) : seeOther(redirect);
    } catch (e) {
      if (!(e instanceof MailError)) throw e;
      if (wantsJson) return jsonError(e.message, 400, e.field);
      return seeOther(withQuery("/compose", { error: e.message, draft: input?.draftId, reply: input?.replyTo, mode: input && input.mode !== "new" ? input.mode : "" }));
    }
  },
});
