import { callApp, InternalCallError } from "./internal";
import { serviceDomain } from "./services";

/**
 * Transfers between the persona's checking account and an account at another firm (a broker's cash,
 * a prediction market's balance), as an ACH transfer or a bank transfer moves them: the app asks the
 * bank, which posts one ledger line on checking at once ("ACH TRANSFER TO <FIRM>" / "ACH DEPOSIT FROM
 * <FIRM>" in en-US, the same words builder/world/finance.py LABELS ext_to / ext_from gives the seeded
 * history). The bank is whichever app declares `provides: [bank-transfers]` in its app.yaml; the call
 * goes over loopback with the process's internal key (see ./internal), so an agent cannot forge one.
 *
 * Order of work in a route: validate the request, `pullFromBank` / `pushToBank`, then write the app's
 * own rows in one transaction keyed by the same `reference`. A refusal throws before anything moves.
 * The bank is idempotent on (app, reference, direction): a retried call moves no money twice.
 */

const BANK = serviceDomain("bank-transfers");
/** The bank's internal route that posts a transfer. */
export const TRANSFERS_PATH = "/api/internal/transfers";

export interface BankTransfer {
  /** The calling app's name (its folder under apps/), e.g. "brokerage". */
  app: string;
  /** The firm on the other side as the bank line names it, e.g. "Tallyvest Securities" (1-60 chars). */
  counterparty: string;
  /** Positive integer cents in the persona's currency. */
  amount_cents: number;
  /** The app's own id of this transfer; unique per app and direction (1-80 chars). */
  reference: string;
  /** Free text the bank shows under the line. */
  memo?: string;
}

export interface TransferReceipt {
  /** The bank's ledger line id. */
  transaction_id: number;
  /** "out": money left checking; "in": money arrived in checking. */
  direction: "out" | "in";
  /** Last four digits of the checking account number. */
  account_last4: string;
  amount_cents: number;
  /** The checking balance after the line, cents. */
  balance_after_cents: number;
  /** True when this (app, reference, direction) was posted before and nothing new moved. */
  repeated: boolean;
}

/** The bank refused: bad amount or field (400), insufficient funds (402), no checking account (404),
 * the same reference with another amount (409), no bank installed or reachable (503). Nothing moved. */
export class TransferRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function post(direction: "out" | "in", t: BankTransfer): Promise<TransferReceipt> {
  if (!BANK) throw new TransferRefused("no bank is installed on this machine (no app provides bank-transfers)", 503);
  if (!Number.isInteger(t.amount_cents) || t.amount_cents <= 0) throw new TransferRefused("amount must be a positive number of cents", 400);
  try {
    return await callApp<TransferReceipt>(BANK, TRANSFERS_PATH, { direction, ...t }, 10_000);
  } catch (e) {
    if (e instanceof InternalCallError) {
      const text = e.message.replace(/^.*answered \d+: /, "");
      throw new TransferRefused(e.status === 0 ? "the bank is unreachable; nothing was transferred" : text, e.status || 503);
    }
    throw e;
  }
}

/** Move `t.amount_cents` out of checking into the app's account (a deposit into the broker). Throws TransferRefused. */
export function pullFromBank(t: BankTransfer): Promise<TransferReceipt> {
  return post("out", t);
}

/** Move `t.amount_cents` from the app's account into checking (a withdrawal from the broker). Throws TransferRefused. */
export function pushToBank(t: BankTransfer): Promise<TransferReceipt> {
  return post("in", t);
}
