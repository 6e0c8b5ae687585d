import { callApp } from "@persona/platform/internal";
import { serviceDomain } from "@persona/platform/services";
import { db } from "./db";
import type { ShopContext } from "./context";
import { money, windowText } from "./format";
import { order } from "./grocery";

export const HOST = "basketful.test";

/**
 * The order confirmation mail of an order placed in the app (in the voice of the world's Basketful receipt),
 * sent to the persona's Mailbox through the app that provides `mail-delivery`; best effort (the order stands).
 */
export async function mailConfirmation(ctx: ShopContext, orderId: string): Promise<void> {
  const host = serviceDomain("mail-delivery");
  const found = order(orderId);
  if (!host || !found) return;
  const user = db().prepare("SELECT full_name, email FROM users ORDER BY id LIMIT 1").get() as { full_name: string; email: string } | undefined;
  if (!user) return;
  const o = found.order;
  const first = ctx.userName.trim().split(/\s+/)[0] || "there";
  const lines = found.lines.map((l) => `${l.qty} x ${l.brand ? `${l.brand} ` : ""}${l.name}, ${l.size}  ${money(ctx, l.qty * l.price_cents)}`).join("\n");
  const how = o.fulfilment === "pickup" ? `Pickup at ${o.store_name}, ${o.address}` : `Delivery to ${o.address}`;
  const body = `Hi ${first}, thanks for your order from ${o.store_name}.\n\nOrder ${o.order_id}\n${how}\nWindow: ${windowText(ctx, o.window_start, o.window_end)}\n\n${lines}\n\nSubtotal: ${money(ctx, o.subtotal_cents)}\nDelivery fee: ${money(ctx, o.delivery_fee_cents)}\nService fee: ${money(ctx, o.service_fee_cents)}\nTip: ${money(ctx, o.tip_cents)}\nTotal: ${money(ctx, o.total_cents)}, charged to ${o.card_label}\n\nTrack or change your order: http://${HOST}/orders/${o.order_id}\n\nBasketful`;
  try {
    await callApp(host, "/api/internal/deliver", { from: { name: "Basketful", email: `orders@${HOST}` }, to: [user.email], subject: `Your Basketful order ${o.order_id} is confirmed`, body, folder: "inbox", attachments: [] }, 5000);
  } catch {
    /* the mail app is not on this machine, or refused: the order stands */
  }
}
