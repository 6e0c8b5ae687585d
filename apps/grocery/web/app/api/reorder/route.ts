import { addParam, field, formPost } from "@/grocery/lib/http";
import { reorder } from "@/grocery/lib/grocery";

export const dynamic = "force-dynamic";

/** Put a past order's items back into its store's cart: order (BF...). */
export const POST = formPost({
  act: (_u, form) => {
    const s = reorder(field(form, "order"));
    return addParam(`/cart?store=${s.key}`, "reordered", field(form, "order").trim());
  },
  failed: (form) => (/^BF\d{9}$/.test(field(form, "order").trim()) ? `/orders/${field(form, "order").trim()}` : "/orders"),
});
