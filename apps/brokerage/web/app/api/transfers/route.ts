import { withQuery } from "@persona/platform/http";
import { pullFromBank, pushToBank, TransferRefused } from "@persona/platform/transfers";
import { parseMoney } from "@persona/ui/format";
import { account, BrokerError, cashCents, nextTransferReference, recordTransfer, reservedCents } from "@/brokerage/lib/broker";
import { brokerContext } from "@/brokerage/lib/context";
import { field, formPost } from "@/brokerage/lib/http";

export const dynamic = "force-dynamic";

const COUNTERPARTY = "Tidewell Securities";
const MAX_CENTS = 25_000_000;

/**
 * Move money between the bank's checking account and Tidewell cash: fields `direction` (deposit | withdrawal) and
 * `amount`. The bank posts its line first (@persona/platform/transfers); then the transfer and its cash line are
 * written in one transaction under the same reference. A refusal (bad amount, not enough money) changes nothing.
 */
export const POST = formPost({
  act: async (_user, form) => {
    const ctx = brokerContext();
    const t = ctx.t;
    const direction = field(form, "direction");
    if (direction !== "deposit" && direction !== "withdrawal") throw new BrokerError(t("Choose deposit or withdrawal.", "Wählen Sie Einzahlung oder Auszahlung."), "direction");
    const cents = parseMoney(field(form, "amount"), ctx.locale);
    if (cents === null || cents <= 0) throw new BrokerError(t("Enter an amount like 500.00.", "Geben Sie einen Betrag wie 500,00 ein."), "amount");
    if (cents > MAX_CENTS) throw new BrokerError(t("Transfers are limited to 250,000 a day.", "Überweisungen sind auf 250.000 am Tag begrenzt."), "amount");
    if (direction === "withdrawal" && cents > cashCents() - reservedCents()) throw new BrokerError(t("You can withdraw at most your buying power.", "Sie können höchstens Ihre Kaufkraft auszahlen."), "amount");
    const reference = nextTransferReference(ctx.now);
    const acct = account();
    const request = { app: "brokerage", counterparty: COUNTERPARTY, amount_cents: cents, reference, memo: `Tidewell ****${acct.last4} ${reference}` };
    let receipt;
    try {
      receipt = direction === "deposit" ? await pullFromBank(request) : await pushToBank(request);
    } catch (e) {
      if (e instanceof TransferRefused) throw new BrokerError(e.status === 402 ? t("Your bank account doesn't have enough money for this transfer.", "Ihr Girokonto ist für diese Überweisung nicht gedeckt.") : e.message, "amount");
      throw e;
    }
    recordTransfer(direction, cents, reference, receipt.transaction_id, ctx.now, t);
    return withQuery("/transfers", { done: direction, ref: reference });
  },
  failed: (e) => withQuery("/transfers", { error: e.message }),
});
