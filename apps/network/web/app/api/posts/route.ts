import { field, formPost } from "@/network/lib/http";
import { createPost } from "@/network/lib/network";

export const dynamic = "force-dynamic";

/** Publish a post: `body` (1-3,000 characters, verbatim). Back to the feed. */
export const POST = formPost("/", (_u, form) => {
  createPost(field(form, "body"));
  return "/?posted=1";
});
