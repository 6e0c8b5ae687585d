import { internalOnly } from "@persona/platform/internal";
import { json, jsonError } from "@persona/platform/http";
import { authorizeCard, CardDeclined, type CardRequest } from "@/bank/lib/bank";

export const dynamic = "force-dynamic";

/**
 * The card network (guarded: only other apps in this server, see @persona/platform/payments):
 * `{kind: "charge"|"refund", app, merchant, amount_cents, card_last4, reference, category?, memo?}`
 * authorises a payment on the persona's card ending `card_last4` and shows it at once as a
 * pending line. Answers `{authorization, status, kind, account, amount_cents, repeated}`;
 * 400 bad request, 402 declined (funds or credit), 404 unknown card, 409 same reference with
 * another amount, 403 without the internal key.
 */
export async function POST(req: Request) {
  const denied = internalOnly(req);
  if (denied) return denied;
  let body: CardRequest;
  try {
    body = (await req.json()) as CardRequest;
  } catch {
    return jsonError("The body must be JSON {kind, app, merchant, amount_cents, card_last4, reference}.");
  }
  if (!body || typeof body !== "object") return jsonError("The body must be a JSON object.");
  try {
    return json(authorizeCard(body));
  } catch (e) {
    if (e instanceof CardDeclined) return jsonError(e.message, e.status);
    throw e;
  }
}
