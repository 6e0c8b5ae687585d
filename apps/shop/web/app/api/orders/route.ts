import { field, formPost, withQuery } from "@/shop/lib/http";
import { placeOrder } from "@/shop/lib/shop";

export const dynamic = "force-dynamic";

/** Place the cart as an order (address, card): charges the card, then the order page. */
export const POST = formPost({
  act: async (user, form) => withQuery(`/orders/${await placeOrder(user, field(form, "address"), field(form, "card"))}`, { placed: 1 }),
  failed: (e, form) => withQuery("/checkout", { error: e.message, address: field(form, "address"), card: field(form, "card") }),
});
