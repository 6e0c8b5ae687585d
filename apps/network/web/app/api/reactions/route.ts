import { backTo, field, formPost, idValue } from "@/network/lib/http";
import { react } from "@/network/lib/network";

export const dynamic = "force-dynamic";

/** React to a post: `post`, `reaction` (like / celebrate / support / love / insightful; the same again takes it back). */
export const POST = formPost("/", (_u, form) => {
  react(idValue(field(form, "post")), field(form, "reaction"));
  return backTo(form, "/");
});
