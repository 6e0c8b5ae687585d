import { createGroup } from "@/messaging/lib/chat";
import { field, formPost, idValue, withQuery } from "@/messaging/lib/http";

export const dynamic = "force-dynamic";

/** Create a group: `title` (1-80 characters) and two or more `member` contact ids. To the new group. */
export const POST = formPost({
  act: (_user, form) => {
    const members = form.getAll("member").map((v) => idValue(typeof v === "string" ? v : ""));
    return `/c/${createGroup(field(form, "title"), members)}`;
  },
  failed: (e, form) => withQuery("/new-group", { error: e.message, title: field(form, "title").slice(0, 80) }),
});
