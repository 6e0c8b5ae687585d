import { field, formPost } from "@/grocery/lib/http";
import { checkout } from "@/grocery/lib/grocery";

export const dynamic = "force-dynamic";

/** Place a store's cart: store, fulfilment (delivery | pickup), window (id), tip (cents, or "custom" with tip_amount in the currency), card (id), instructions. */
export const POST = formPost({
  act: async (_u, form) => {
    const id = await checkout({ store: field(form, "store"), fulfilment: field(form, "fulfilment"), window: field(form, "window"),
      tip: field(form, "tip"), tip_amount: field(form, "tip_amount"), card: field(form, "card"), instructions: field(form, "instructions") });
    return `/orders/${id}?placed=1`;
  },
  failed: (form) => `/cart?store=${encodeURIComponent(field(form, "store"))}&fulfilment=${encodeURIComponent(field(form, "fulfilment"))}`,
});
