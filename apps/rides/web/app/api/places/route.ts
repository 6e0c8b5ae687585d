import { field, formPost, withQuery } from "@/rides/lib/http";
import { addSavedPlace } from "@/rides/lib/rides";

export const dynamic = "force-dynamic";

/** Save a place: `label` (1-40 characters, unique) and `address` (a place ZipRide knows). */
export const POST = formPost({
  act: (_user, form) => {
    addSavedPlace(field(form, "label"), field(form, "address"));
    return "/places?saved=1";
  },
  failed: (e, form) => withQuery("/places", { error: e.message, label: field(form, "label").slice(0, 40), address: field(form, "address").slice(0, 200) }),
});
