import type { NextRequest } from "next/server";
import { parseMoney } from "@persona/ui/format";
import { BankError, payBill } from "@/lib/bank";
import { bankContext } from "@/lib/context";
import { field, intField, requestUser, seeOther, withQuery } from "@/lib/http";

export const dynamic = "force-dynamic";

export async function POST(req: NextRequest) {
  const user = requestUser(req);
  if (!user) return seeOther("/login?next=/pay-bills");
  const form = await req.formData();
  const values = { payee: field(form, "payee"), from: field(form, "from"), amount: field(form, "amount"), memo: field(form, "memo") };
  try {
    const id = payBill(user.id, intField(form, "payee"), intField(form, "from"), parseMoney(values.amount, bankContext().locale), values.memo);
    return seeOther(withQuery("/pay-bills", { done: id }));
  } catch (e) {
    if (e instanceof BankError) return seeOther(withQuery("/pay-bills", { ...values, error: e.message, field: e.field }));
    throw e;
  }
}
