import { sendMoney } from "@/bank/lib/bank";
import { centsValue, formPost, idValue } from "@/bank/lib/http";

export const dynamic = "force-dynamic";

/** Send money to a saved contact (one payment per form token): back to /send-money with the new line's id (its receipt), or the error. */
export const POST = formPost({
  page: "/send-money",
  fields: ["contact", "from", "amount", "memo"],
  caps: { memo: 140 },
  act: (user, v) => ({ done: sendMoney(user.id, idValue(v.contact), idValue(v.from), centsValue(v.amount), v.memo) }),
});
