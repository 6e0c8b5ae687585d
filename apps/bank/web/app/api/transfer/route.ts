import { transfer } from "@/bank/lib/bank";
import { centsValue, formPost, idValue } from "@/bank/lib/http";

export const dynamic = "force-dynamic";

/** Move money between own accounts (one transfer per form token): back to /transfer with the transfer id (its receipt), or the error. */
export const POST = formPost({
  page: "/transfer",
  fields: ["from", "to", "amount", "memo"],
  caps: { memo: 140 },
  act: (user, v) => ({ done: transfer(user.id, idValue(v.from), idValue(v.to), centsValue(v.amount), v.memo) }),
});
