import { addPayee } from "@/bank/lib/bank";
import { formPost, withQuery } from "@/bank/lib/http";

export const dynamic = "force-dynamic";

/** Save a payee: back to /pay-bills with it chosen, or to the open "Add a payee" form with the error. */
export const POST = formPost({
  page: "/pay-bills",
  fields: ["name", "account_number", "category"],
  act: (user, v) => ({ payee: addPayee(user.id, v.name, v.account_number, v.category), added: 1 }),
  failed: (e, v) => withQuery("/pay-bills", { new_payee: 1, ...v, payee_error: e.message }) + "#add-payee",
});
