import { BankError, setCardLock } from "@/bank/lib/bank";
import { formPost, idValue } from "@/bank/lib/http";

export const dynamic = "force-dynamic";

/** Lock or unlock a card: `account` (the account the card spends from), `action` lock / unlock. Back to /cards
 * with what was done (`locked` / `unlocked` = the account id). */
export const POST = formPost({
  page: "/cards",
  fields: ["account", "action"],
  caps: { account: 12, action: 10 },
  act: (user, v) => {
    if (v.action !== "lock" && v.action !== "unlock") throw new BankError("Lock or unlock a card.", "action");
    const a = setCardLock(user.id, idValue(v.account), v.action === "lock");
    return { [v.action === "lock" ? "locked" : "unlocked"]: a.id };
  },
});
