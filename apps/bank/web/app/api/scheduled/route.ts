import { BankError, cancelScheduled, updateScheduled } from "@/bank/lib/bank";
import { centsValue, formPost, idValue, withQuery } from "@/bank/lib/http";

export const dynamic = "force-dynamic";

/** Change (`action` update: `amount`, `date`) or cancel (`action` cancel) the scheduled payment `id`: back to
 * /pay-bills with `changed` or `cancelled` = its id, or to its page with the error. */
export const POST = formPost({
  page: "/pay-bills",
  fields: ["id", "action", "amount", "date"],
  caps: { id: 12, action: 10, date: 10 },
  act: (user, v): Record<string, number | string> => {
    if (v.action === "cancel") return { cancelled: cancelScheduled(user.id, idValue(v.id)).id };
    if (v.action !== "update") throw new BankError("Save the changes or cancel the payment.", "action");
    updateScheduled(user.id, idValue(v.id), centsValue(v.amount), v.date);
    return { changed: v.id };
  },
  failed: (e, v) => {
    const id = idValue(v.id);
    return withQuery(id === null ? "/pay-bills" : `/pay-bills/scheduled/${id}`, { amount: v.amount, date: v.date, error: e.message, field: e.field ?? "" });
  },
});
