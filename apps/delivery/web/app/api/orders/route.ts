import { placeOrder } from "@/delivery/lib/dash";
import { field, formPost, idValue, withQuery } from "@/delivery/lib/http";

export const dynamic = "force-dynamic";

/**
 * Place the cart as an order: `address` (address id), `when` ("now" | "later"), `at` (local `YYYY-MM-DDTHH:MM`,
 * when later), `tip` (a percent or "custom"), `tip_amount` (money, when custom), `promo` (a code or empty),
 * `card` (card id), `dropoff` (instructions). Takes the cart as a pending order, charges the card (pending in the
 * bank at once), then to the order's tracking page; bad input or a declined card returns to checkout with `error`
 * and charges nothing. Idempotent on the form's `_idem` (a double submit places one order).
 */
export const POST = formPost({
  act: async (user, form) => {
    const id = await placeOrder(user, {
      addressId: idValue(field(form, "address")),
      when: field(form, "when"),
      at: field(form, "at"),
      tip: field(form, "tip"),
      amount: field(form, "tip_amount"),
      promo: field(form, "promo"),
      cardId: idValue(field(form, "card")),
      dropoff: field(form, "dropoff"),
    });
    return `/orders/${id}?placed=1`;
  },
  failed: (e, form) =>
    withQuery("/checkout", {
      error: e.message,
      address: idValue(field(form, "address")),
      when: field(form, "when").slice(0, 10),
      at: field(form, "at").slice(0, 20),
      tip: field(form, "tip").slice(0, 10),
      tip_amount: field(form, "tip_amount").slice(0, 20),
      promo: field(form, "promo").slice(0, 20),
      card: idValue(field(form, "card")),
      dropoff: field(form, "dropoff").slice(0, 200),
    }),
});
