import { field, formPost, idValue } from "@/network/lib/http";
import { sendMessage } from "@/network/lib/network";

export const dynamic = "force-dynamic";

/** Send a message: `thread`, `body` (1-4,000 characters, verbatim). Back to the thread. */
export const POST = formPost("/messaging", async (_u, form) => {
  const id = idValue(field(form, "thread"));
  await sendMessage(id, field(form, "body"));
  return `/messaging/${id}`;
});
