import type { NextRequest } from "next/server";
import { BankError, addContact } from "@/lib/bank";
import { field, requestUser, seeOther, withQuery } from "@/lib/http";

export const dynamic = "force-dynamic";

export async function POST(req: NextRequest) {
  const user = requestUser(req);
  if (!user) return seeOther("/login?next=/send-money");
  const form = await req.formData();
  const values = { name: field(form, "name"), email: field(form, "email"), phone: field(form, "phone") };
  try {
    const id = addContact(user.id, values.name, values.email, values.phone);
    return seeOther(withQuery("/send-money", { contact: id, added: 1 }));
  } catch (e) {
    if (e instanceof BankError) return seeOther(withQuery("/send-money", { new_contact: 1, ...values, contact_error: e.message }) + "#add-contact");
    throw e;
  }
}
