import { deleteMessage } from "@/messaging/lib/chat";
import { field, formPost, idValue, withQuery } from "@/messaging/lib/http";

export const dynamic = "force-dynamic";

/** Delete one of the persona's own messages for everyone: field `message`. The row stays as "You deleted this
 * message". Back to the conversation; a refusal back to it (`conversation`, when given) with the message. */
export const POST = formPost({
  act: (_user, form) => {
    const { conversationId } = deleteMessage(idValue(field(form, "message")));
    return `/c/${conversationId}`;
  },
  failed: (e, form) => {
    const conv = idValue(field(form, "conversation"));
    return Number.isFinite(conv) ? withQuery(`/c/${conv}`, { error: e.message }) : withQuery("/", { error: e.message });
  },
});
