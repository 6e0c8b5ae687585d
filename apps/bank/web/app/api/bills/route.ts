import { BankError, payBill, schedulePayment } from "@/bank/lib/bank";
import { bankContext } from "@/bank/lib/context";
import { centsValue, formPost, idValue } from "@/bank/lib/http";

export const dynamic = "force-dynamic";

/** The day of next month with today's day of the month (the month's last day when it has fewer). */
function sameDayNextMonth(today: string): string {
  const [y, m, d] = today.split("-").map(Number);
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d, last))).toISOString().slice(0, 10);
}

/** Pay a saved payee (one payment per form token). `date` empty or today and `frequency` once: paid now, back to
 * /pay-bills with the new line's id (its receipt); a later date: scheduled (`scheduled` = its id); every month from
 * today: paid now and scheduled from the same day next month. Or back with the error. */
export const POST = formPost({
  page: "/pay-bills",
  fields: ["payee", "from", "amount", "memo", "date", "frequency"],
  caps: { memo: 140, date: 10, frequency: 10 },
  act: (user, v): Record<string, number> => {
    const { today } = bankContext();
    const frequency = v.frequency || "once";
    // Before any money moves: a bad repeat must not leave a payment made and an error shown.
    if (frequency !== "once" && frequency !== "monthly") throw new BankError("Choose how often: once or every month.", "frequency");
    const now = !v.date || v.date === today;
    if (now && frequency === "once") return { done: payBill(user.id, idValue(v.payee), idValue(v.from), centsValue(v.amount), v.memo) };
    if (!now) return { scheduled: schedulePayment(user.id, idValue(v.payee), idValue(v.from), centsValue(v.amount), v.date, frequency, v.memo) };
    const done = payBill(user.id, idValue(v.payee), idValue(v.from), centsValue(v.amount), v.memo);
    return { done, scheduled: schedulePayment(user.id, idValue(v.payee), idValue(v.from), centsValue(v.amount), sameDayNextMonth(today), frequency, v.memo) };
  },
});
