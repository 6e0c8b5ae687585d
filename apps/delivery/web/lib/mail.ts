import { callApp } from "@persona/platform/internal";
import { serviceDomain } from "@persona/platform/services";
import { db } from "./db";
import type { DashContext } from "./context";
import { clock, day, money } from "./format";
import type { Order, OrderLine } from "./dash";

/**
 * The confirmation DashBite mails for an order placed in the app, in the voice of the world's confirmation
 * (builder/world/templates/mail/food_order.j2: "Thanks for your order! <restaurant> is preparing it now.").
 * Sent to the persona's Mailbox through the app that provides `mail-delivery`; best effort (the order stands).
 */

export const DASH_HOST = "dashbite.test";
const BRAND = "DashBite";

async function deliver(subject: string, body: string): Promise<void> {
  const host = serviceDomain("mail-delivery");
  if (!host) return;
  const user = db().prepare("SELECT full_name, email FROM users ORDER BY id LIMIT 1").get() as { full_name: string; email: string } | undefined;
  if (!user) return;
  try {
    await callApp(host, "/api/internal/deliver", { from: { name: BRAND, email: `orders@${DASH_HOST}` }, to: [user.email], subject, body, folder: "inbox", attachments: [] }, 5000);
  } catch {
    /* the mail app is not on this machine, or refused: the order stands */
  }
}

const pad = (s: string, n: number) => (s.length >= n ? `${s} ` : s + " ".repeat(n - s.length));

/** "Your DashBite order from <restaurant> (<order id>)": lines, fees, tip, total, address, the delivery time. */
export async function mailConfirmation(ctx: DashContext, o: Order, lines: OrderLine[]): Promise<void> {
  const first = ctx.userName.trim().split(/\s+/)[0] || "there";
  const items = lines
    .map((l) => {
      const name = `${l.qty > 1 ? `${l.qty} x ` : ""}${l.name}${l.options.length ? ` (${l.options.join(", ")})` : ""}`;
      const noteLine = l.special_instructions ? `\n  Note: ${l.special_instructions}` : "";
      return `${pad(name, 44)}${money(ctx, l.qty * l.unit_price_cents)}${noteLine}`;
    })
    .join("\n");
  const when = o.scheduled_for ? `Scheduled for ${day(ctx, o.scheduled_for)}, ${clock(ctx, o.scheduled_for)}` : `Estimated arrival ${clock(ctx, o.eta_at)}`;
  const fees = [
    `Subtotal: ${money(ctx, o.subtotal_cents)}`,
    o.discount_cents ? `Promo ${o.promo_code}: -${money(ctx, o.discount_cents)}` : "",
    `Delivery fee: ${money(ctx, o.delivery_fee_cents)}${o.promo_code && o.delivery_fee_cents === 0 ? ` (${o.promo_code})` : ""}`,
    `Service fee: ${money(ctx, o.service_fee_cents)}`,
    o.small_order_fee_cents ? `Small order fee: ${money(ctx, o.small_order_fee_cents)}` : "",
    `Tip: ${money(ctx, o.tip_cents)}`,
    `Total: ${money(ctx, o.total_cents)}`,
  ].filter(Boolean);
  await deliver(
    `Your ${BRAND} order from ${o.restaurant_name} (${o.order_id})`,
    `Hi ${first},\n\nThanks for your order! ${o.restaurant_name} ${o.scheduled_for ? "will start on it in time for your delivery" : "is preparing it now"}.\n\nOrder ${o.order_id} - ${day(ctx, o.placed_at)} ${clock(ctx, o.placed_at)}\n\n${items}\n\n${fees.join("\n")}\nCharged to ${o.card_label}\n\nDelivering to: ${o.address}\n${when}\n\nTrack your order: http://${DASH_HOST}/orders/${o.id}\n\n${BRAND}`,
  );
}
