import { toggleReaction } from "@/messaging/lib/chat";
import { field, formPost, idValue, withQuery } from "@/messaging/lib/http";

export const dynamic = "force-dynamic";

/** Toggle a tapback: fields `message`, `emoji` (one of ❤️ 👍 😂 😮 😢 ❗). Back to the message. */
export const POST = formPost({
  act: (_user, form) => {
    const id = idValue(field(form, "message"));
    const { conversationId } = toggleReaction(id, field(form, "emoji"));
    return `/c/${conversationId}?m=${id}#m${id}`;
  },
  failed: (e) => withQuery("/", { error: e.message }),
});
