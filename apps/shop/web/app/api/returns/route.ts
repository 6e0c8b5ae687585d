import { field, formPost, withQuery } from "@/shop/lib/http";
import { returnItem } from "@/shop/lib/shop";

export const dynamic = "force-dynamic";

/** Return an order line (item, reason, comment): refunds the card at once, then the order page. */
export const POST = formPost({
  act: async (user, form) => {
    const r = await returnItem(user, field(form, "item"), field(form, "reason"), field(form, "comment"));
    return withQuery(`/orders/${r.order}`, { returned: r.rma });
  },
  failed: (e, form) => {
    const order = field(form, "order");
    return withQuery(/^SW-\d{3}-\d{7}$/.test(order) ? `/orders/${order}` : "/orders", { error: e.message, item: field(form, "item") });
  },
});
