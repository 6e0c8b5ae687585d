import { internalOnly } from "@persona/platform/internal";
import { BadRequest, json, jsonError, readJson } from "@persona/platform/http";
import { authorizeCard, CardDeclined } from "@/bank/lib/bank";

export const dynamic = "force-dynamic";

/**
 * The card network (guarded: only other apps in this server, see @persona/platform/payments):
 * `{kind: "charge"|"refund", app, merchant, amount_cents, card_last4, reference, category?, memo?}`
 * authorises a payment on the persona's card ending `card_last4` and shows it at once as a
 * pending line. Answers `{authorization, status, kind, account, amount_cents, repeated}`;
 * 400 bad request, 402 declined (funds or credit), 404 unknown card, 409 same reference with
 * another amount (or card), 403 without the internal key. Checked and written in one BEGIN IMMEDIATE transaction.
 */
export async function POST(req: Request) {
  const denied = internalOnly(req);
  if (denied) return denied;
  try {
    return json(authorizeCard(await readJson(req, 16 * 1024)));
  } catch (e) {
    if (e instanceof BadRequest || e instanceof CardDeclined) return jsonError(e.message, e.status);
    throw e;
  }
}
