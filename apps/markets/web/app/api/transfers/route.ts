import { field, formPost, withQuery } from "@/markets/lib/http";
import { transfer } from "@/markets/lib/markets";

export const dynamic = "force-dynamic";

/** Deposit from / withdraw to the bank (direction = deposit | withdraw, amount as typed): back to the portfolio. */
export const POST = formPost({
  act: async (user, form) => withQuery("/portfolio", { moved: await transfer(user.id, field(form, "direction"), field(form, "amount")) }),
  failed: (e, form) => withQuery("/portfolio", { error: e.message, direction: field(form, "direction").slice(0, 10), amount: field(form, "amount").slice(0, 20) }),
});
