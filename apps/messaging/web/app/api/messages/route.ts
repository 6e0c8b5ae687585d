import { sendMessage } from "@/messaging/lib/chat";
import { field, formPost, idValue, withQuery } from "@/messaging/lib/http";

export const dynamic = "force-dynamic";

/** Send a text: fields `conversation`, `body` (verbatim, 1-4,000 characters). Back to the conversation. */
export const POST = formPost({
  act: async (_user, form) => {
    const id = idValue(field(form, "conversation"));
    await sendMessage(id, field(form, "body"));
    return `/c/${id}`;
  },
  failed: (e, form) => {
    const id = idValue(field(form, "conversation"));
    return Number.isFinite(id) && e.field !== "conversation" ? withQuery(`/c/${id}`, { error: e.message }) : withQuery("/", { error: e.message });
  },
});
