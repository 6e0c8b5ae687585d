import type { NextRequest } from "next/server";
import { parseMoney } from "@persona/ui/format";
import { BankError, sendMoney } from "@/lib/bank";
import { bankContext } from "@/lib/context";
import { field, intField, requestUser, seeOther, withQuery } from "@/lib/http";

export const dynamic = "force-dynamic";

export async function POST(req: NextRequest) {
  const user = requestUser(req);
  if (!user) return seeOther("/login?next=/send-money");
  const form = await req.formData();
  const values = { contact: field(form, "contact"), from: field(form, "from"), amount: field(form, "amount"), memo: field(form, "memo") };
  try {
    const id = sendMoney(user.id, intField(form, "contact"), intField(form, "from"), parseMoney(values.amount, bankContext().locale), values.memo);
    return seeOther(withQuery("/send-money", { done: id }));
  } catch (e) {
    if (e instanceof BankError) return seeOther(withQuery("/send-money", { ...values, error: e.message, field: e.field }));
    throw e;
  }
}
