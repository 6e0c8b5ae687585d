import { withQuery } from "@persona/platform/http";
import { cancelOrder } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import { field, formPost } from "@/brokerage/lib/http";

export const dynamic = "force-dynamic";

/** Cancel an open order: field `order` (its number). */
export const POST = formPost({
  act: (_user, form) => {
    const ctx = brokerContext();
    const number = field(form, "order").slice(0, 20);
    cancelOrder(number, ctx.now, ctx.t);
    return withQuery("/orders", { done: "cancelled", order: number });
  },
  failed: (e) => withQuery("/orders", { error: e.message }),
});
