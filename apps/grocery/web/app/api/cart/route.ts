import { addParam, backTo, field, formPost } from "@/grocery/lib/http";
import { addToCart, updateCart } from "@/grocery/lib/grocery";

export const dynamic = "force-dynamic";

/** Cart changes: `action` add (store, product, qty) or update (store, product, qty 0 = remove, substitution, substitute). */
export const POST = formPost({
  act: (_u, form) => {
    if (field(form, "action") === "add") {
      const s = addToCart(field(form, "store"), field(form, "product"), field(form, "qty"));
      return addParam(backTo(form, `/store/${s.key}`), "added", field(form, "product").trim());
    }
    const s = updateCart(field(form, "store"), field(form, "product"), field(form, "qty"), field(form, "substitution"), field(form, "substitute"));
    return `/cart?store=${s.key}`;
  },
  failed: (form) => backTo(form, field(form, "store") ? `/cart?store=${encodeURIComponent(field(form, "store"))}` : "/"),
});
