import { field, formPost, withQuery } from "@/shop/lib/http";
import { reorder } from "@/shop/lib/shop";

export const dynamic = "force-dynamic";

/** Buy it again: the order's lines go back into the cart. */
export const POST = formPost({
  act: (user, form) => withQuery("/cart", { reordered: reorder(user.id, field(form, "order")) }),
  failed: (e) => withQuery("/orders", { error: e.message }),
});
