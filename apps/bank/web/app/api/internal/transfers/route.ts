import { internalOnly } from "@persona/platform/internal";
import { BadRequest, json, jsonError, readJson } from "@persona/platform/http";
import { CardDeclined, externalTransfer } from "@/bank/lib/bank";

export const dynamic = "force-dynamic";

/**
 * Transfers between the persona's checking account and an account at another firm (guarded: only
 * other apps in this server, see @persona/platform/transfers):
 * `{direction: "out"|"in", app, counterparty, amount_cents, reference, memo?}` posts one ledger line on
 * checking at once. Answers `{transaction_id, direction, account_last4, amount_cents, balance_after_cents,
 * repeated}`; 400 bad request (also a malformed, empty or non-object body), 402 insufficient funds, 404 no checking account, 409 same reference with
 * another amount, 403 without the internal key.
 */
export async function POST(req: Request) {
  const denied = internalOnly(req);
  if (denied) return denied;
  try {
    return json(externalTransfer(await readJson(req, 16 * 1024)));
  } catch (e) {
    if (e instanceof BadRequest || e instanceof CardDeclined) return jsonError(e.message, e.status);
    throw e;
  }
}
