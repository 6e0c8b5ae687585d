import { back, field, formPost, withQuery } from "@/shop/lib/http";
import { cancelSubscription, subscribe } from "@/shop/lib/shop";

export const dynamic = "force-dynamic";

/** Subscribe & Save: action=subscribe (sku, weeks, qty) or action=cancel (id). */
export const POST = formPost({
  act: (user, form) => {
    if (field(form, "action") === "cancel") {
      cancelSubscription(user.id, field(form, "id"));
      return withQuery("/subscriptions", { cancelled: 1 });
    }
    const s = subscribe(user.id, field(form, "sku"), field(form, "weeks"), field(form, "qty"));
    return withQuery("/subscriptions", { subscribed: s.id });
  },
  failed: (e, form) => withQuery(field(form, "action") === "cancel" ? "/subscriptions" : back(form, "/subscriptions"), { error: e.message }),
});
