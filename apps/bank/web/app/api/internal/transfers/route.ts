import { internalOnly } from "@persona/platform/internal";
import { json, jsonError } from "@persona/platform/http";
import { CardDeclined, externalTransfer, type TransferRequest } from "@/bank/lib/bank";

export const dynamic = "force-dynamic";

/**
 * Transfers between the persona's checking account and an account at another firm (guarded: only
 * other apps in this server, see @persona/platform/transfers):
 * `{direction: "out"|"in", app, counterparty, amount_cents, reference, memo?}` posts one ledger line on
 * checking at once. Answers `{transaction_id, direction, account_last4, amount_cents, balance_after_cents,
 * repeated}`; 400 bad request, 402 insufficient funds, 404 no checking account, 409 same reference with
 * another amount, 403 without the internal key.
 */
export async function POST(req: Request) {
  const denied = internalOnly(req);
  if (denied) return denied;
  let body: TransferRequest;
  try {
    body = (await req.json()) as TransferRequest;
  } catch {
    return jsonError("The body must be JSON {direction, app, counterparty, amount_cents, reference}.");
  }
  if (!body || typeof body !== "object") return jsonError("The body must be a JSON object.");
  try {
    return json(externalTransfer(body));
  } catch (e) {
    if (e instanceof CardDeclined) return jsonError(e.message, e.status);
    throw e;
  }
}
