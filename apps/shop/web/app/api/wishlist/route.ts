import { back, field, formPost, withQuery } from "@/shop/lib/http";
import { setWishlist } from "@/shop/lib/shop";

export const dynamic = "force-dynamic";

/** Wish list: product, on=1 adds, on=0 removes; back to the page it came from. */
export const POST = formPost({
  act: (user, form) => {
    const p = setWishlist(user.id, field(form, "product"), field(form, "on") !== "0");
    return back(form, `/p/${p.slug}`);
  },
  failed: (e, form) => withQuery(back(form, "/wishlist"), { error: e.message }),
});
