import { sendMessage } from "@/messaging/lib/chat";
import { field, formPost, idValue, withQuery } from "@/messaging/lib/http";

export const dynamic = "force-dynamic";

/** Send a text: fields `conversation`, `body` (verbatim, 1-4,000 characters), optional `quote` (the id of a message of
 * that conversation the text replies to). Back to the conversation. */
export const POST = formPost({
  act: async (_user, form) => {
    const id = idValue(field(form, "conversation"));
    const quote = field(form, "quote");
    await sendMessage(id, field(form, "body"), quote === "" ? null : idValue(quote));
    return `/c/${id}`;
  },
  failed: (e, form) => {
    const id = idValue(field(form, "conversation"));
    const quote = idValue(field(form, "quote"));
    // A refused reply goes back to replying (the quote bar again), unless the quote itself was refused.
    const again = Number.isFinite(quote) && e.field !== "quote" ? { reply: String(quote) } : {};
    return Number.isFinite(id) && e.field !== "conversation" ? withQuery(`/c/${id}`, { error: e.message, ...again }) : withQuery("/", { error: e.message });
  },
});
