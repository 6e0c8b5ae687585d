import { withQuery } from "@persona/platform/http";
import { pullFromBank, pushToBank, TransferRefused } from "@persona/platform/transfers";
import { parseMoney } from "@persona/ui/format";
import { account, BrokerError, reserveTransfer, settleTransfer, undoTransfer } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import { field, formPost } from "@/brokerage/lib/http";

export const dynamic = "force-dynamic";

const COUNTERPARTY = "Tidewell Securities";
const MAX_CENTS = 25_000_000;
/** Longest amount text the form may post. */
const AMOUNT_CHARS = 24;

/**
 * Move money between the bank's checking account and Tidewell cash: fields `direction` (deposit | withdrawal) and
 * `amount`; one transfer per form token. Reserve first: the transfer is checked and written under a new unique
 * reference in one transaction (a withdrawal's cash leaves at once), then the bank posts its line under that
 * reference (@persona/platform/transfers); a refusal deletes the reservation again, so nothing moved anywhere.
 */
export const POST = formPost({
  act: async (_user, form) => {
    const ctx = brokerContext();
    const t = ctx.t;
    const direction = field(form, "direction");
    if (direction !== "deposit" && direction !== "withdrawal") throw new BrokerError(t("Choose deposit or withdrawal.", "Wählen Sie Einzahlung oder Auszahlung."), "direction");
    const amount = field(form, "amount");
    const cents = amount.length > AMOUNT_CHARS ? null : parseMoney(amount, ctx.locale);
    if (cents === null || cents <= 0) throw new BrokerError(t("Enter an amount like 500.00.", "Geben Sie einen Betrag wie 500,00 ein."), "amount");
    if (cents > MAX_CENTS) throw new BrokerError(t("Transfers are limited to 250,000 a day.", "Überweisungen sind auf 250.000 am Tag begrenzt."), "amount");
    const reference = reserveTransfer(direction, cents, ctx.now, t);
    const request = { app: "brokerage", counterparty: COUNTERPARTY, amount_cents: cents, reference, memo: `Tidewell ****${account().last4} ${reference}` };
    let receipt;
    try {
      receipt = direction === "deposit" ? await pullFromBank(request) : await pushToBank(request);
    } catch (e) {
      undoTransfer(direction, reference);
      if (e instanceof TransferRefused) throw new BrokerError(e.status === 402 ? t("Your bank account doesn't have enough money for this transfer.", "Ihr Girokonto ist für diese Überweisung nicht gedeckt.") : e.message, "amount");
      throw e;
    }
    settleTransfer(direction, reference, cents, receipt.transaction_id, ctx.now, t);
    return withQuery("/transfers", { done: direction, ref: reference });
  },
  failed: (e) => withQuery("/transfers", { error: e.message }),
});
