import type { NextRequest } from "next/server";
import { BankError, addPayee } from "@/lib/bank";
import { field, requestUser, seeOther, withQuery } from "@/lib/http";

export const dynamic = "force-dynamic";

export async function POST(req: NextRequest) {
  const user = requestUser(req);
  if (!user) return seeOther("/login?next=/pay-bills");
  const form = await req.formData();
  const values = { name: field(form, "name"), account_number: field(form, "account_number"), category: field(form, "category") };
  try {
    const id = addPayee(user.id, values.name, values.account_number, values.category);
    return seeOther(withQuery("/pay-bills", { payee: id, added: 1 }));
  } catch (e) {
    if (e instanceof BankError) return seeOther(withQuery("/pay-bills", { new_payee: 1, ...values, payee_error: e.message }) + "#add-payee");
    throw e;
  }
}
