import type { NextRequest } from "next/server";
import { parseMoney } from "@persona/ui/format";
import { BankError, transfer } from "@/lib/bank";
import { bankContext } from "@/lib/context";
import { field, intField, requestUser, seeOther, withQuery } from "@/lib/http";

export const dynamic = "force-dynamic";

export async function POST(req: NextRequest) {
  const user = requestUser(req);
  if (!user) return seeOther("/login?next=/transfer");
  const form = await req.formData();
  const values = { from: field(form, "from"), to: field(form, "to"), amount: field(form, "amount"), memo: field(form, "memo") };
  try {
    const id = transfer(user.id, intField(form, "from"), intField(form, "to"), parseMoney(values.amount, bankContext().locale), values.memo);
    return seeOther(withQuery("/transfer", { done: id }));
  } catch (e) {
    if (e instanceof BankError) return seeOther(withQuery("/transfer", { ...values, error: e.message, field: e.field }));
    throw e;
  }
}
