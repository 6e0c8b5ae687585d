import { field, formPost } from "@/network/lib/http";
import { updateProfile } from "@/network/lib/network";

export const dynamic = "force-dynamic";

/** Save the intro: `headline` (1-220), `location` (1-100), `about` (0-2,600), `pronouns` (0-30), stored verbatim. Back to the editor. */
export const POST = formPost("/in/me/edit", (_u, form) => {
  updateProfile(field(form, "headline"), field(form, "about"), field(form, "location"), field(form, "pronouns"));
  return "/in/me?saved=1";
});
