import { payBill } from "@/bank/lib/bank";
import { centsValue, formPost, idValue } from "@/bank/lib/http";

export const dynamic = "force-dynamic";

/** Pay a saved payee (one payment per form token): back to /pay-bills with the new line's id (its receipt), or the error. */
export const POST = formPost({
  page: "/pay-bills",
  fields: ["payee", "from", "amount", "memo"],
  caps: { memo: 140 },
  act: (user, v) => ({ done: payBill(user.id, idValue(v.payee), idValue(v.from), centsValue(v.amount), v.memo) }),
});
