import { backTo, field, formPost, idValue } from "@/network/lib/http";
import { addComment } from "@/network/lib/network";

export const dynamic = "force-dynamic";

/** Comment on a post: `post`, `body` (1-1,250 characters, verbatim). */
export const POST = formPost("/", (_u, form) => {
  addComment(idValue(field(form, "post")), field(form, "body"));
  return backTo(form, "/");
});
