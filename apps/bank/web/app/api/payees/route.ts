import { ACCOUNT_NUMBER_CHARS, addPayee, NAME_CHARS } from "@/bank/lib/bank";
import { formPost, withQuery } from "@/bank/lib/http";

export const dynamic = "force-dynamic";

/** Save a payee (one per form token): back to /pay-bills with it chosen, or to the open "Add a payee" form with the error (`form=payee`). */
export const POST = formPost({
  page: "/pay-bills",
  fields: ["name", "account_number", "category"],
  caps: { name: NAME_CHARS, account_number: ACCOUNT_NUMBER_CHARS, category: 20 },
  act: (user, v) => ({ payee: addPayee(user.id, v.name, v.account_number, v.category), added: 1 }),
  failed: (e, v) => withQuery("/pay-bills", { new_payee: 1, ...v, form: "payee", error: e.message }) + "#add-payee",
});
