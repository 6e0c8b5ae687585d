import { editMessage } from "@/messaging/lib/chat";
import { field, formPost, idValue, withQuery } from "@/messaging/lib/http";

export const dynamic = "force-dynamic";

/** Edit one of the persona's own texts: fields `message`, `body` (verbatim, 1-4,000 characters), within 15 minutes of
 * sending. Back to the message; a refusal back to the conversation (`conversation`, when given) with the message. */
export const POST = formPost({
  act: (_user, form) => {
    const id = idValue(field(form, "message"));
    const { conversationId } = editMessage(id, field(form, "body"));
    return `/c/${conversationId}?m=${id}#m${id}`;
  },
  failed: (e, form) => {
    const conv = idValue(field(form, "conversation"));
    const id = idValue(field(form, "message"));
    // Back to editing (the composer shows the bar again while the message may still be edited).
    const again = Number.isFinite(id) && e.field !== "message" ? { edit: String(id) } : {};
    return Number.isFinite(conv) ? withQuery(`/c/${conv}`, { error: e.message, ...again }) : withQuery("/", { error: e.message });
  },
});
