import { back, field, formPost, withQuery } from "@/shop/lib/http";
import { addToCart, updateCart } from "@/shop/lib/shop";

export const dynamic = "force-dynamic";

/** Cart form: action=add (sku, qty) adds to the cart and goes to it; action=update (sku, qty; 0 removes). */
export const POST = formPost({
  act: (user, form) => {
    const action = field(form, "action") || "add";
    if (action === "update") {
      updateCart(user.id, field(form, "sku"), field(form, "qty"));
      return "/cart";
    }
    if (action !== "add") return withQuery("/cart", { error: "Unknown cart action." });
    addToCart(user.id, field(form, "sku"), field(form, "qty"));
    return withQuery("/cart", { added: field(form, "sku") });
  },
  failed: (e, form) => withQuery(field(form, "action") === "update" ? "/cart" : back(form, "/cart"), { error: e.message }),
});
