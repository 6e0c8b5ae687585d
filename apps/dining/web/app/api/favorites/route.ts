import { diningContext } from "@/dining/lib/context";
import { field, formPost, withQuery } from "@/dining/lib/http";
import { DiningError, setFavourite } from "@/dining/lib/tabletime";

export const dynamic = "force-dynamic";

/** Save (on=1) or unsave (on=0) a restaurant: slug, on, back (favorites: return to the saved list). */
export const POST = formPost({
  act: (user, form) => {
    const on = field(form, "on");
    if (on !== "1" && on !== "0") throw new DiningError("Choose save or remove.");
    const r = setFavourite(diningContext(), user, field(form, "slug"), on === "1");
    return field(form, "back") === "favorites" ? "/favorites" : `/r/${r.slug}?saved=${on}`;
  },
  failed: (e) => withQuery("/favorites", { error: e.message }),
});
