import { callApp, InternalCallError } from "./internal";
import { serviceDomain } from "./services";

/**
 * Card payments between apps, the way a card network carries them: a shop (the airline, a
 * ride, a food order) asks the issuing bank to authorise a charge on the card the persona keeps
 * on file there, and the bank shows it at once as a pending card transaction on that card's
 * account; a refund is a pending credit. The bank is whichever app declares
 * `provides: [card-network]` in its app.yaml (no app names it here); the call goes over
 * loopback with the process's internal key (see ./internal), so an agent in the desktop cannot
 * forge one.
 *
 * Order of work in a route: validate the request, `chargeCard`, then write the booking in one
 * transaction keyed by the same `reference`. A declined card throws before anything is written.
 * The bank is idempotent on (app, reference, kind): a retried call returns the first
 * authorisation and moves no money twice.
 */

const NETWORK = serviceDomain("card-network");
/** The bank's internal route that authorises a charge or a refund. */
export const CARD_NETWORK_PATH = "/api/internal/card-network";

export interface CardPayment {
  /** The paying app's name (its folder under apps/), e.g. "airline". */
  app: string;
  /** Statement descriptor as a card statement prints it: "MERIDIAN AIR 0471234567890" (≤ 60 chars). */
  merchant: string;
  /** Positive integer cents in the persona's currency. */
  amount_cents: number;
  /** Last four digits of the card on file (the bank's card number ends with them). */
  card_last4: string;
  /** The app's own id of what is paid for (a PNR, an order number); unique per app and kind. */
  reference: string;
  /** Bank category: travel, transport, dining, groceries, shopping, ... (default "shopping"). */
  category?: string;
  /** Free text the bank shows under the line (e.g. "2 passengers, PDX-LIS"). */
  memo?: string;
}

export interface Authorization {
  /** The bank's authorisation code, e.g. "A7F3K2". */
  authorization: string;
  status: "pending";
  /** "charge" or "refund". */
  kind: "charge" | "refund";
  /** Account kind the card draws on: "credit_card" or "checking". */
  account: string;
  amount_cents: number;
  /** True when this (app, reference, kind) was authorised before and nothing new moved. */
  repeated: boolean;
}

/** The bank refused the payment: unknown card, over the credit limit, insufficient funds, bad amount. */
export class PaymentDeclined extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function authorize(kind: "charge" | "refund", p: CardPayment): Promise<Authorization> {
  if (!NETWORK) throw new PaymentDeclined("no card network is installed on this machine (no app provides card-network)", 503);
  if (!Number.isInteger(p.amount_cents) || p.amount_cents <= 0) throw new PaymentDeclined("amount must be a positive number of cents", 400);
  if (!/^\d{4}$/.test(p.card_last4)) throw new PaymentDeclined("card_last4 must be four digits", 400);
  try {
    return await callApp<Authorization>(NETWORK, CARD_NETWORK_PATH, { kind, ...p }, 10_000);
  } catch (e) {
    if (e instanceof InternalCallError) {
      const text = e.message.replace(/^.*answered \d+: /, "");
      throw new PaymentDeclined(e.status === 0 ? "the card network is unreachable; nothing was charged" : text, e.status || 503);
    }
    throw e;
  }
}

/** Charge `p.amount_cents` to the card ending `p.card_last4`. Throws PaymentDeclined (nothing charged). */
export function chargeCard(p: CardPayment): Promise<Authorization> {
  return authorize("charge", p);
}

/** Refund `p.amount_cents` to the card ending `p.card_last4` (a pending credit). Throws PaymentDeclined. */
export function refundCard(p: CardPayment): Promise<Authorization> {
  return authorize("refund", p);
}
