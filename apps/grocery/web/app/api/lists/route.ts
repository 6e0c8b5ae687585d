import { addParam, backTo, field, formPost } from "@/grocery/lib/http";
import { addToList, createList, listToCart, removeFromList, ShopError } from "@/grocery/lib/grocery";

export const dynamic = "force-dynamic";

/**
 * Shopping lists: `action` create (name), add (list, product, qty), remove (list, product),
 * to_cart (list, store: every item into that store's cart).
 */
export const POST = formPost({
  act: (_u, form) => {
    const action = field(form, "action");
    if (action === "create") return `/lists?list=${createList(field(form, "name"))}`;
    if (action === "add") {
      const l = addToList(field(form, "list"), field(form, "product"), field(form, "qty"));
      return addParam(backTo(form, `/lists?list=${l.id}`), "listed", String(l.id));
    }
    if (action === "remove") return `/lists?list=${removeFromList(field(form, "list"), field(form, "product")).id}`;
    if (action === "to_cart") return addParam(`/cart?store=${listToCart(field(form, "list"), field(form, "store")).key}`, "from_list", field(form, "list"));
    throw new ShopError("Unknown list action.");
  },
  failed: (form) => backTo(form, "/lists"),
});
