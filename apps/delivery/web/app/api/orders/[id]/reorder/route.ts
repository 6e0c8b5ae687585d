import { reorderNow, reorderToCart } from "@/delivery/lib/dash";
import { field, formPost, pathId, withQuery } from "@/delivery/lib/http";

export const dynamic = "force-dynamic";

/**
 * Reorder a past order: `mode` "cart" (its dishes into the cart, then checkout) or "now" (placed at once:
 * delivered now to the address it went to, the same card, the customer's default tip).
 */
export const POST = formPost({
  act: async (user, form, req) => {
    const id = pathId(req, 2);
    if (field(form, "mode") === "now") {
      const placed = await reorderNow(user, id);
      return `/orders/${placed}?placed=1`;
    }
    const r = reorderToCart(id);
    return withQuery("/checkout", { reordered: r.order.order_id, skipped: r.skipped.join(", ") });
  },
  failed: (e, form, req) => {
    const id = pathId(req, 2);
    return withQuery(field(form, "back") === "home" || id === null ? "/" : `/orders/${id}`, { error: e.message });
  },
});
