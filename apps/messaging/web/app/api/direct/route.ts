import { openDirect } from "@/messaging/lib/chat";
import { field, formPost, idValue, withQuery } from "@/messaging/lib/http";

export const dynamic = "force-dynamic";

/** Open (or start) the one-to-one conversation with contact `contact`. */
export const POST = formPost({
  act: (_user, form) => `/c/${openDirect(idValue(field(form, "contact")))}`,
  failed: (e) => withQuery("/", { error: e.message }),
});
